"""Authorization matrix: every event handler of the app, called over the real websocket by everyone.

The handlers are read from the app itself (every State's `event_handlers`), so a new handler fails
`test_every_handler_has_a_policy` until tests/security/policies.py says who may call it. The real
backend (`reflex run --env prod --backend-only`) serves a throwaway SQLite database seeded with two
disjoint worlds (company A with freelancer F, company B with freelancer G), canary strings in
their private fields. Each handler is called by a visitor, the freelancer F, company A and company
B: with every id of an object the caller may not use (foreign), a missing id, one id the caller
may use (own), or the policy's sample arguments; and again with extra keys (role, owner ids,
status, plan) at the top level and inside its forms. Each call runs in a fresh tab; its window ends
with two round trips of a barrier event, so every chained event has run. Per call:

- rows the caller may not change (every row of OWNER_TABLES they do not own): none changed;
- columns no handler may change (owners, role, plan; authz_support.IMMUTABLE): none changed;
- a caller the policy does not admit changes and inserts nothing at all;
- every frame the server sent is scanned for the canaries of the world the caller is not in: none;
- what the user sees for a foreign id (toasts, redirects, scripts, state changes; ids replaced by
  '<id>') equals what they see for a missing id;
- extra keys leave no trace: no row gets the injected role/status/plan strings or the bystander id.
"""

import asyncio
import os
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from sqlalchemy import create_engine
from sqlalchemy.pool import NullPool

from bench.harness import app_env, free_port, migrate, serve_app, stop
from bench.wsclient import TIMEOUT
from core.db import make_engine
from tests.security.authz_support import (
    MISSING_ID,
    OWNER_COLUMNS,
    SHELL,
    Changes,
    RecordingTab,
    World,
    answer_of,
    app_handlers,
    compare,
    normalise,
    seed,
    snapshot,
)
from tests.security.policies import ADMIN, COMPANY, FREELANCER, POLICIES, PUBLIC, SIGNED_IN, Id, Policy

ROLES = {"visitor": "", "freelancer": "freelancer", "company A": "company", "company B": "other company"}
ADMITTED = {
    PUBLIC: set(ROLES),
    SIGNED_IN: {"freelancer", "company A", "company B"},
    FREELANCER: {"freelancer"},
    COMPANY: {"company A", "company B"},
    ADMIN: set(),  # Turno staff: no caller of the matrix is admitted
}
MARKERS = ("hacked-role", "hacked-status", "hacked-plan")
BATCH = int(os.environ.get("AUTHZ_BATCH", "6"))  # calls of one caller run at once
OWN_LAST = ("withdraw_application", "close_job", "delete_job")  # own calls that end the object go last


@dataclass(frozen=True)
class Call:
    """One call of the matrix: a handler, a caller, which id (or sample) and the payload."""

    key: str
    event: str
    role: str
    variant: str
    object_id: int | None
    payload: dict
    page: str
    before: tuple[tuple[str, dict], ...] = ()
    ends_session: bool = False


@dataclass
class Result:
    """What one call did and showed."""

    call: Call
    answer: list[str]
    changes: Changes
    leaked: list[str] = field(default_factory=list)


def kind_of(policy: Policy) -> str:
    """The kind of object id the handler takes (in its args, its page or the steps before it), '' for none."""
    kinds = {value.kind for value in _walk(policy.args) if isinstance(value, Id)}
    for _name, args in policy.before:
        kinds |= {value.kind for value in _walk(args) if isinstance(value, Id)}
    pages = policy.page.values() if isinstance(policy.page, dict) else [policy.page]
    kinds |= {part.split("}")[0] for page in pages for part in page.split("{")[1:]}
    assert len(kinds) <= 1, f"one kind of id per handler: {kinds}"
    return next(iter(kinds), "")


def _walk(value):
    yield value
    if isinstance(value, dict):
        for item in value.values():
            yield from _walk(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from _walk(item)


def fill(value, object_id: int | None):
    """`value` with every Id marker replaced by `object_id`."""
    if isinstance(value, Id):
        return object_id
    if isinstance(value, dict):
        return {key: fill(item, object_id) for key, item in value.items()}
    if isinstance(value, list):
        return [fill(item, object_id) for item in value]
    return value


def page_for(policy: Policy, role: str, object_id: int | None) -> str:
    """The URL the tab is on for this role, with the id under test in it."""
    page = policy.page if isinstance(policy.page, str) else policy.page.get(role, policy.page["*"])
    return page.split("{")[0] + str(object_id) + page.split("}", 1)[1] if "{" in page else page


def extra_keys(world: World) -> dict:
    """The keys a mass-assignment attempt adds: a role, owner ids (of a bystander), a status, a plan."""
    bystander = world.users["bystander"]
    return {
        "role": "hacked-role",
        "user_id": bystander,
        "owner_id": bystander,
        "company_id": bystander,
        "status": "hacked-status",
        "plan": "hacked-plan",
    }


def form_extra_keys(world: World) -> dict:
    """The keys added inside forms: the top-level ones and the model's own column names."""
    bystander = world.users["bystander"]
    return {
        **extra_keys(world),
        "id": bystander,
        "cliente_id": bystander,
        "freelancer_id": bystander,
        "vaga_id": bystander,
        "tipo_usuario": "hacked-role",
        "tier": "hacked-plan",
    }


def _with_form_extras(payload: dict, world: World) -> dict:
    return {k: {**v, **form_extra_keys(world)} if isinstance(v, dict) else v for k, v in payload.items()}


def plan_calls(world: World, handlers: dict) -> list[Call]:
    """Every call, in the order they run: foreign/missing/sample, then extra keys, then own ids.

    Within a phase, calls are ordered by caller so that they batch (see `batches`).
    """
    probes, extras, own = [], [], []
    for key in sorted(POLICIES):
        policy = POLICIES[key]
        state, name = handlers[key]
        event = f"{state.get_full_name()}.{name}"
        before = tuple((_step_event(state, step), args) for step, args in policy.before)
        target = Target(key, event, policy, before)
        kind = kind_of(policy)
        for role, person in ROLES.items():
            user_id = world.users.get(person)

            def call(variant: str, object_id: int | None, payload=None, role=role, target=target) -> Call:
                return make_call(target, role, variant, object_id, payload)

            if kind:
                probes += [call("foreign", obj.id) for obj in world.foreign(kind, user_id)]
                probes.append(call("missing", MISSING_ID))
                mine = world.own(kind, user_id)[:1]
                own += [call("own", obj.id) for obj in mine]
                usable = mine[0].id if mine else MISSING_ID
            else:
                probes.append(call("sample", None))
                usable = None
            payload = fill(policy.args, usable)
            extras.append(call("extra keys", usable, {**payload, **extra_keys(world)}))
            if any(isinstance(value, dict) for value in payload.values()):
                extras.append(call("extra keys in forms", usable, _with_form_extras(payload, world)))
    by_caller = lambda c: (_phase(c), c.role, c.role in ADMITTED[POLICIES[c.key].who])  # noqa: E731
    return sorted(probes, key=by_caller) + sorted(extras, key=by_caller) + sorted(own, key=by_caller)


@dataclass(frozen=True)
class Target:
    """A handler as the matrix calls it: policy key, full event name, policy, steps before it."""

    key: str
    event: str
    policy: Policy
    before: tuple[tuple[str, dict], ...]


def make_call(target: Target, role: str, variant: str, object_id: int | None, payload: dict | None = None) -> Call:
    """The call of `target` by `role` with `object_id` filled in (or an explicit payload)."""
    policy = target.policy
    args = fill(policy.args, object_id) if payload is None else payload
    steps = tuple((step, fill(step_args, object_id)) for step, step_args in target.before)
    page = page_for(policy, role, object_id)
    return Call(target.key, target.event, role, variant, object_id, args, page, steps, policy.ends_session)


def expected_call_count(world: World) -> int:
    """The number of calls the policy table implies (counted independently of `plan_calls`)."""
    total = 0
    for policy in POLICIES.values():
        kind = kind_of(policy)
        forms = any(isinstance(value, dict) for value in policy.args.values())
        for person in ROLES.values():
            user_id = world.users.get(person)
            if kind:
                total += len(world.foreign(kind, user_id)) + 1 + min(1, len(world.own(kind, user_id)))
            else:
                total += 1
            total += 1 + forms
    return total


def _step_event(state, step: str) -> str:
    if "." not in step:
        return f"{state.get_full_name()}.{step}"
    module, cls, name = step.rsplit(".", 2)
    handler_state, _ = app_handlers()[f"{module}.{cls}.{name}"]
    return f"{handler_state.get_full_name()}.{name}"


async def _barrier(tab: RecordingTab) -> None:
    """Two round trips of a handler that always answers: everything sent before (and chained) has run."""
    for _ in range(2):
        done = tab.wait_for(lambda delta: "menu_open_rx_state_" in (delta.get(SHELL) or {}))
        await tab.emit(f"{SHELL}.toggle_menu")
        await asyncio.wait_for(done, TIMEOUT)


async def run_call(url: str, world: World, call: Call) -> tuple[list[str], list[str]]:
    """Open a tab as the caller on the call's page, send the steps and the call; (answer, canaries leaked)."""
    person = ROLES[call.role]
    user_id = world.users.get(person)
    cookie = world.session_cookie(user_id) if user_id and call.ends_session else world.cookies.get(person, "")
    tab = RecordingTab(url, call.page, cookie)
    hydrated = tab.wait_for(lambda _delta: True)
    await tab.connect()
    try:
        await asyncio.wait_for(hydrated, TIMEOUT)
        start = len(tab.updates)
        for step, args in call.before:
            await tab.emit(step, args)
        await tab.emit(call.event, call.payload)
        await _barrier(tab)
    finally:
        await tab.close()
    answer = [line for update in tab.updates[start:] for line in answer_of(update)]
    frames = "\n".join(tab.raw)
    return answer, [canary for canary in world.forbidden_canaries(user_id) if canary in frames]


def batches(calls: list[Call], size: int) -> list[list[Call]]:
    """Calls grouped to run at once: same phase, same caller, same admission, at most `size` each.

    A batch's rows are compared once, before and after; since all its calls have the same caller
    (admitted or not), whatever changed that the caller may not change is that caller's doing.
    """
    grouped: list[list[Call]] = []
    for call in calls:
        last = grouped[-1][-1] if grouped else None
        same = last is not None and _group_key(last) == _group_key(call) and len(grouped[-1]) < size
        if same:
            grouped[-1].append(call)
        else:
            grouped.append([call])
    return grouped


def _group_key(call: Call) -> tuple:
    return (_phase(call), call.role, call.role in ADMITTED[POLICIES[call.key].who])


def _phase(call: Call) -> int:
    if call.variant.startswith("extra keys"):
        return 1
    if call.variant == "own":
        return 2 + (call.key.rsplit(".", 1)[1] in OWN_LAST)
    return 0


async def run_batch(url: str, world: World, engine, batch: list[Call]) -> list[Result]:
    """Run a batch's calls at once in their own tabs, between two snapshots of every row."""
    caller = world.users.get(ROLES[batch[0].role])
    before = snapshot(engine)
    outcomes = await asyncio.gather(*(run_call(url, world, call) for call in batch))
    changes = compare(before, snapshot(engine), caller)
    return [Result(call, answer, changes, leaked) for call, (answer, leaked) in zip(batch, outcomes, strict=True)]


def problems_of(result: Result, world: World, batch_size: int) -> list[str]:
    """Everything wrong with one call's outcome (see the module docstring)."""
    call, changes = result.call, result.changes
    label = f"{call.key} as {call.role} ({call.variant} {call.object_id})"
    found = [f"{label}: read {canary}" for canary in result.leaked]
    if batch_size > 1:
        label += " or a call run with it (AUTHZ_BATCH=1 tells them apart)"
    found += [f"{label}: changed foreign row {row}" for row in changes.foreign_changed]
    found += [f"{label}: changed {column}" for column in changes.immutable_changed]
    if call.role not in ADMITTED[POLICIES[call.key].who]:
        found += [f"{label}: not admitted, changed {row}" for row in changes.any_changed]
        found += [f"{label}: not admitted, inserted into {table}" for table, _ in changes.inserted]
    if call.variant.startswith("extra keys"):
        for table, row in changes.inserted:
            values = dict(zip(row.columns, row.values, strict=True))
            found += [f"{label}: {table}.{k} = {v!r}" for k, v in values.items() if v in MARKERS]
            bystander = world.users["bystander"]
            found += [f"{label}: {table}.{k} = bystander" for k in OWNER_COLUMNS if values.get(k) == bystander]
    return found


def _var_of(line: str) -> str:
    """The var name of an answer line 'state.path.var_rx_state_ = value'."""
    return line.split(" = ", 1)[0].rsplit(".", 1)[-1]


def answer_mismatches(results: list[Result]) -> list[str]:
    """Foreign ids whose answer differs from the missing id's, per handler and caller."""
    missing = {(r.call.key, r.call.role): r for r in results if r.call.variant == "missing"}
    found = []
    for result in results:
        if result.call.variant != "foreign":
            continue
        reference = missing[(result.call.key, result.call.role)]
        foreign = normalise(result.answer, [result.call.object_id])
        expected = normalise(reference.answer, [MISSING_ID])
        allowed = {f"{name}_rx_state_" for name in POLICIES[result.call.key].may_differ}
        if allowed:
            found += [
                f"{result.call.key} as {result.call.role}: foreign #{result.call.object_id} shows itself in {line}"
                for line in foreign
                if _var_of(line) in allowed and "<id>" in line
            ]
            foreign = [line for line in foreign if _var_of(line) not in allowed]
            expected = [line for line in expected if _var_of(line) not in allowed]
        if foreign != expected:
            found.append(
                f"{result.call.key} as {result.call.role}: foreign #{result.call.object_id} answered {foreign}, "
                f"missing answered {expected}"
            )
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The real backend on a seeded throwaway SQLite database: (url, world, snapshot engine)."""
    workdir = Path(tmp_path_factory.mktemp("authz"))
    database_url = f"sqlite:///{workdir / 'authz.db'}"
    env = app_env(database_url, GRANIAN_WORKERS="1")
    migrate(env)
    engine = make_engine(database_url)
    world = seed(engine)
    reader = create_engine(database_url, poolclass=NullPool)
    port = free_port()
    proc = serve_app(env, port, log=workdir / "server.log")
    try:
        yield f"http://127.0.0.1:{port}", world, reader
    finally:
        stop(proc)
        engine.dispose()
        reader.dispose()


def test_every_handler_has_a_policy():
    """A handler without a policy (or a policy for a handler that is gone) fails, naming it."""
    handlers = app_handlers()
    without = sorted(set(handlers) - set(POLICIES))
    stale = sorted(set(POLICIES) - set(handlers))
    print(
        f"\nauthorization matrix: {len(handlers)} handlers in {len({s for s, _ in handlers.values()})} states, "
        f"{len(POLICIES)} policies"
    )
    assert not without, f"handlers without a policy in tests/security/policies.py: {without}"
    assert not stale, f"policies for handlers that no longer exist: {stale}"


def test_authorization_matrix(server):
    """Every handler x visitor/freelancer/company A/company B x own/foreign/missing ids and extra keys."""
    url, world, reader = server
    handlers = app_handlers()
    calls = plan_calls(world, handlers)
    assert len(calls) == expected_call_count(world)
    started = time.perf_counter()

    grouped = batches(calls, BATCH)

    async def run_all() -> list[Result]:
        results: list[Result] = []
        for batch in grouped:
            results += await run_batch(url, world, reader, batch)
            if len(results) // 250 != (len(results) - len(batch)) // 250:
                print(f"  {len(results)}/{len(calls)} calls, {time.perf_counter() - started:.0f} s", flush=True)
        return results

    results = asyncio.run(run_all())
    found = list(dict.fromkeys(p for result in results for p in problems_of(result, world, BATCH)))
    found += answer_mismatches(results)
    variants = Counter(result.call.variant for result in results)
    print(
        f"\nauthorization matrix: {len(handlers)} handlers, {len(POLICIES)} policies, {len(results)} calls "
        f"({', '.join(f'{count} {variant}' for variant, count in sorted(variants.items()))}) as "
        f"{len(ROLES)} callers in {len(grouped)} batches of up to {BATCH}; "
        f"{sum(r.changes.foreign_checked for r in results)} foreign rows checked, "
        f"{sum(len(world.forbidden_canaries(world.users.get(ROLES[r.call.role]))) for r in results)} canary "
        f"checks; {len(found)} problems; {time.perf_counter() - started:.0f} s"
    )
    assert not found, "\n".join(found[:80])
