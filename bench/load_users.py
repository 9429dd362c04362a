"""The simulated people of the mixed load test: visitors, freelancers and companies.

Each person is one browser tab (`bench.wsclient.Browser`) that sends exactly what the compiled
frontend sends: page loads are client-side navigations (`on_load_internal`), forms post their
fields as `form_data`, buttons call the handler with its argument. An action is a few such events,
each timed from the emit to the delta that shows its result (`Person.step`). A step fails when that
delta does not arrive within TIMEOUT (the person then waits LATE_LIMIT more, to tell slow from
lost), when an error toast or alert arrives instead (the expected refusals, a job that filled up
meanwhile or a last position taken by the company's other tab, are counted apart), or when a page
load is redirected somewhere else (a lost session).

Chat messages are registered in the shared `World` before they are sent; every tab watches the
conversation deltas it receives, so a message counts as delivered when its text reaches a tab of
the other participant: live, on opening the conversation later, or in the sweep after the run. A
message sent while the recipient's tab showed the conversation is `watched`: it must arrive live.
"""

import asyncio
import contextlib
import json
import random
import time
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar
from urllib.parse import urlencode

from socketio.exceptions import SocketIOError

from bench.wsclient import AUTH, ON_LOAD, STATE, TIMEOUT, Browser, Delta, Predicate, error_text, hydrated
from core.ids import id_from_text
from services.shifts import application_answers, applications, overlaps

JOBS = f"{STATE}.app___pages___jobs____jobs_state"
DETAIL = f"{STATE}.app___pages___job_detail___state____job_detail_state"
APPLY = f"{AUTH}.states___apply____apply_state"
FREELANCER_DASHBOARD = f"{APPLY}.app___pages___freelancer_dashboard___state____freelancer_dashboard_state"
COMPANY_JOBS = f"{AUTH}.app___pages___company_jobs___state____company_jobs_state"
ROOM = f"{AUTH}.app___pages___chats___state____chat_room_state"
SEARCH_TERMS = ("garcom", "Garçom", "chef", "cozinha", "bar", "recepcionista", "foto", "dj", "seguranca", "barista")
MESSAGE_PREFIX = "carga"
TIMED_OUT = "no delta within"
ERROR_TOAST = "error toast: "
LATE_LIMIT = 60.0
RACE_SHARE = 0.15
STAY_IN_CHAT = 0.5
VISIT_ACTIONS = (4, 12)
SOCKET_ERRORS = (SocketIOError, OSError, asyncio.TimeoutError)


def toast_forms(message: str) -> tuple[str, str]:
    """A message as a toast's JavaScript may carry it: as is, and with non-ASCII escaped (JSON)."""
    return message, json.dumps(message)[1:-1]


# The job filled up (or closed) between the list and the click: expected under load, not a failure.
JOB_FILLED = toast_forms(applications.JOB_UNAVAILABLE)
# Two tabs of one company accepting the last position at once: one of them must be told so.
LAST_POSITION = toast_forms(application_answers.POSITIONS_FILLED)
# The applicant was hired elsewhere for overlapping hours meanwhile (services/shifts/overlaps.py): the
# company is told the held shift's time, as a real company would be; expected, not a failure.
ALREADY_HIRED = toast_forms(overlaps.HELD)


def is_refusal(text: str) -> bool:
    """Whether an error toast's text is the expected refusal of an application (the job filled up)."""
    return any(form in text for form in JOB_FILLED)


def var(delta: Delta, state: str, name: str, default=None):
    """The value a delta sets for `name` of `state` (`default` when it does not set it)."""
    return (delta.get(state) or {}).get(f"{name}_rx_state_", default)


def sets(state: str, name: str, check: Callable[[object], bool] = lambda _value: True) -> Predicate:
    """A predicate true for a delta that sets `name` of `state` to a value passing `check`."""
    key = f"{name}_rx_state_"
    return lambda delta: key in (delta.get(state) or {}) and check(delta[state][key])


def _messages_in(delta: Delta) -> list[dict]:
    room = delta.get(ROOM) or {}
    return [*(room.get("history_rx_state_") or []), *(room.get("recent_rx_state_") or [])]


@dataclass
class Sent:
    """One chat message: who sent it to whom, when, and when (and how) it reached the recipient.

    Attributes:
        watched: The recipient's tab showed the conversation when it was sent, so it must arrive live.
        left_at: When that tab then left (or reloaded) the conversation, if it had not arrived by then.
        confirmed: The sender's tab showed it sent (the page clears the input only then); a send
            without that is a failed event, and may be stored late or never.
    """

    sender: int
    recipient: int
    chat_id: int
    sent_at: float
    delivered_at: float = 0.0
    via: str = ""
    watched: bool = False
    left_at: float = 0.0
    confirmed: bool = False


@dataclass
class Stats:
    """Everything measured by the people of a run."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    failures: list[tuple[str, str]] = field(default_factory=list)
    failed: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)
    timeouts: int = 0
    late: list[float] = field(default_factory=list)

    def fail(self, kind: str, reason: str) -> None:
        """Record a failed step."""
        self.failed[kind] += 1
        self.failures.append((kind, reason))


@dataclass
class World:
    """What the simulated people share: who is who, the conversations, the messages and their fate."""

    stats: Stats = field(default_factory=Stats)
    people: dict[int, "Person"] = field(default_factory=dict)
    chats: dict[int, tuple[int, int]] = field(default_factory=dict)
    chats_of: dict[int, list[int]] = field(default_factory=lambda: defaultdict(list))
    messages: dict[str, Sent] = field(default_factory=dict)
    inbox: dict[int, Counter] = field(default_factory=lambda: defaultdict(Counter))
    watching: dict[int, list[Sent]] = field(default_factory=lambda: defaultdict(list))
    applied_ok: set[tuple[int, int]] = field(default_factory=set)
    accepted_ok: set[int] = field(default_factory=set)
    company_jobs: dict[int, dict[int, int]] = field(default_factory=lambda: defaultdict(dict))
    visits: list[float] = field(default_factory=list)

    def add_chat(self, chat_id: int, company_id: int, freelancer_id: int) -> None:
        """A conversation both participants now know about (a company accepted an application)."""
        if chat_id in self.chats:
            return
        self.chats[chat_id] = (company_id, freelancer_id)
        self.chats_of[company_id].append(chat_id)
        self.chats_of[freelancer_id].append(chat_id)

    def register(self, content: str, sender: int, chat_id: int) -> None:
        """A message about to be sent by `sender` in `chat_id`, to the other participant."""
        company_id, freelancer_id = self.chats[chat_id]
        recipient = freelancer_id if sender == company_id else company_id
        reader = self.people.get(recipient)
        sent = Sent(sender, recipient, chat_id, time.perf_counter(), watched=bool(reader and reader.showing(chat_id)))
        self.messages[content] = sent
        self.inbox[recipient][chat_id] += 1
        if sent.watched:
            self.watching[recipient].append(sent)

    def left(self, user_id: int, chat_id: int) -> None:
        """`user_id`'s tab left (or reloaded) conversation `chat_id`: a live delivery can no longer come."""
        now = time.perf_counter()
        waiting = []
        for sent in self.watching[user_id]:
            if sent.delivered_at:
                continue
            if sent.chat_id == chat_id:
                sent.left_at = now
            else:
                waiting.append(sent)
        self.watching[user_id] = waiting

    def awaited(self, younger_than: float) -> int:
        """Watched messages not delivered yet, sent less than `younger_than` seconds ago."""
        now = time.perf_counter()
        return sum(
            1
            for waiting in self.watching.values()
            for sent in waiting
            if not sent.delivered_at and not sent.left_at and now - sent.sent_at < younger_than
        )

    def undelivered(self, recipient: int) -> dict[int, int]:
        """Messages not yet seen by `recipient`, counted per conversation."""
        return {chat_id: count for chat_id, count in self.inbox[recipient].items() if count}

    def seen(self, user_id: int, content: str, via: str) -> None:
        """`user_id`'s tab received `content`; record the delivery if it was addressed to them."""
        sent = self.messages.get(content)
        if sent is None or sent.recipient != user_id or sent.delivered_at:
            return
        sent.delivered_at = time.perf_counter()
        sent.via = via
        self.inbox[user_id][sent.chat_id] -= 1
        if via == "live":
            self.stats.latencies["chat_delivery"].append((sent.delivered_at - sent.sent_at) * 1000)


@dataclass
class Person(Browser):
    """One simulated person with one tab; subclasses define the landing page and the action deck."""

    user_id: int = 0
    world: World = field(default_factory=World)
    rng: random.Random = field(default_factory=random.Random)
    deck: list[str] = field(default_factory=list)
    via: str = ""
    state: dict[str, dict] = field(default_factory=lambda: defaultdict(dict))
    _error: asyncio.Future | None = None
    stray: list[str] = field(default_factory=list)
    echoes: Counter = field(default_factory=Counter)
    _expected: tuple[str, ...] = ()
    twin: "Person | None" = None

    LANDING: ClassVar[str] = "/"
    DECK: ClassVar[tuple[tuple[str, int], ...]] = ()

    def __post_init__(self) -> None:
        """Watch every delta (state kept for decisions, chat messages) and every error event."""
        super().__post_init__()
        self.on_delta.append(self._remember)
        self.on_event.append(self._catch_error)

    def _remember(self, delta: Delta) -> None:
        for state, values in delta.items():
            self.state[state].update(values)
        if self.user_id:
            for message in _messages_in(delta):
                self.world.seen(self.user_id, message.get("content", ""), self.via or "live")

    def _catch_error(self, event: dict) -> None:
        text = error_text(event)
        if text is None:
            return
        echo = self.echoes[text] > 0 and not any(refusal in text for refusal in self._expected)
        if echo:  # the second click of a refused double click, refused again (maybe during the next step)
            self.echoes[text] -= 1
            self.world.stats.refusals["second_click"] += 1
        elif self._error is not None and not self._error.done():
            self._error.set_result(text)  # the step waiting now answers for it
        else:
            self.stray.append(text)

    def showing(self, chat_id: int) -> bool:
        """Whether this tab shows conversation `chat_id` right now (loaded, not navigating)."""
        return (
            not self.via
            and self.path == self.chat_path(chat_id)
            and self.now(ROOM, "status") == "found"
            and self.state[STATE].get("is_hydrated_rx_state_") is True
        )

    def tabs(self) -> list["Person"]:
        """This tab and the person's second tab, if they opened one."""
        return [self] if self.twin is None else [self, self.twin]

    def now(self, state: str, name: str, default=None):
        """The latest value this tab received for `name` of `state`."""
        return self.state[state].get(f"{name}_rx_state_", default)

    async def step(
        self,
        kind: str,
        name: str,
        payload: dict | None,
        *done: Predicate,
        refusals: tuple[str, ...] = (),
        clicks: int = 1,
    ) -> str:
        """Send one event (`clicks` times: a double click) and wait until every `done` predicate matched a delta.

        Returns:
            'ok'; 'refused' when an error toast holding one of `refusals` came instead (an expected
            answer, counted apart); 'failed' otherwise (recorded).
        """
        arrivals = [self.wait_for(predicate) for predicate in done]
        self._error = asyncio.get_running_loop().create_future()
        self._expected = refusals
        redirects = len(self.redirects)
        start = time.perf_counter()
        try:
            for _ in range(clicks):
                await self.emit(name, payload)
            outcome = await self._outcome(arrivals, start)
        except SOCKET_ERRORS as exc:
            outcome = f"{type(exc).__name__} {exc}"
        finally:
            self._error = None
            self._expected = ()
            for arrival in arrivals:
                arrival.cancel()
        result = self._record(kind, outcome, start, redirects if name == ON_LOAD else None, refusals)
        if result == "refused" and clicks > 1:
            self.echoes[outcome.removeprefix(ERROR_TOAST)] += clicks - 1
        return result

    async def _outcome(self, arrivals: list[asyncio.Future], start: float) -> str:
        """'' when every arrival came, else why not (an error toast's text, or a timeout)."""
        pending = {*arrivals, self._error}
        deadline = start + TIMEOUT
        while any(not arrival.done() for arrival in arrivals):
            remaining = deadline - time.perf_counter()
            if remaining <= 0:
                await self._wait_late(arrivals, start)
                return f"{TIMED_OUT} {TIMEOUT:.0f} s"
            done, pending = await asyncio.wait(pending, timeout=remaining, return_when=asyncio.FIRST_COMPLETED)
            if self._error in done:
                return f"{ERROR_TOAST}{self._error.result()}"
        return ""

    async def _wait_late(self, arrivals: list[asyncio.Future], start: float) -> None:
        """After a timeout, wait LATE_LIMIT seconds more, as a person would: slow is told from lost.

        Moving on at once would also supersede a late page load with the next one (Reflex cancels
        the stale on_load chain), so a slow answer would look lost.
        """
        stats = self.world.stats
        stats.timeouts += 1
        with contextlib.suppress(asyncio.TimeoutError):
            answered = await asyncio.wait_for(asyncio.gather(*arrivals), LATE_LIMIT)
            stats.late.append((max(answered) - start) * 1000)

    def _record(self, kind: str, outcome: str, start: float, redirects: int | None, refusals: tuple[str, ...]) -> str:
        """Count the step; `redirects` (for a page load) is how many redirects the tab had before it."""
        stats = self.world.stats
        if outcome.startswith(ERROR_TOAST) and any(refusal in outcome for refusal in refusals):
            stats.refusals[kind] += 1
            return "refused"
        if not outcome and redirects is not None and len(self.redirects) > redirects:
            outcome = f"redirected to {self.redirects[-1]}"
        if outcome:
            stats.fail(kind, f"{type(self).__name__} {self.user_id} on {self.path}: {outcome}")
            return "failed"
        stats.latencies[kind].append((time.perf_counter() - start) * 1000)
        return "ok"

    async def goto(self, kind: str, path: str, *done: Predicate) -> bool:
        """Navigate client-side to `path` (the page's on_load handlers); True when it loaded."""
        shown = id_from_text(self.path.rsplit("/", 1)[-1]) if "/chats/" in self.path else None
        if shown is not None and self.user_id:
            self.world.left(self.user_id, shown)
        self.path = path
        return await self.step(kind, ON_LOAD, None, hydrated, *done) == "ok"

    async def start(self) -> bool:
        """Open the landing page (the socket connects with hydrate_and_load, as a browser does)."""
        self.path = self.LANDING
        arrivals = [self.wait_for(predicate) for predicate in (hydrated, *self.landing_done())]
        self._error = asyncio.get_running_loop().create_future()
        redirects = len(self.redirects)
        start = time.perf_counter()
        try:
            await self.connect()
            outcome = await self._outcome(arrivals, start)
        except SOCKET_ERRORS as exc:
            outcome = f"{type(exc).__name__} {exc}"
        finally:
            self._error = None
        return self._record("connect", outcome, start, redirects, ()) == "ok"

    def renew(self) -> None:
        """A new visitor in place of one who closed the tab: a new tab, no page state, a new deck."""
        super().renew()
        self.state.clear()
        self.deck = []
        self.path = self.LANDING

    def session_length(self) -> int | None:
        """How many actions before closing the tab (None: the person keeps it open all along)."""
        return None

    def landing_done(self) -> tuple[Predicate, ...]:
        """Extra deltas the landing page waits for (data loaded after the page is hydrated)."""
        return ()

    def next_action(self) -> str:
        """The next action: half the time, go on with the conversation shown; else the next card of the deck.

        The deck holds each kind as often as its weight, shuffled, dealt in turn.
        """
        if self.shown_chat() and self.rng.random() < STAY_IN_CHAT:
            return "chat"
        if not self.deck:
            self.deck = [kind for kind, weight in self.DECK for _ in range(weight)]
            self.rng.shuffle(self.deck)
        return self.deck.pop()

    async def act(self, kind: str) -> None:
        """Run the action `kind` (a method of the same name)."""
        await getattr(self, kind)()

    # Chat, shared by freelancers and companies.

    def chat_path(self, chat_id: int) -> str:
        """The conversation's page under this person's dashboard ('' for a visitor)."""
        return ""

    def shown_chat(self) -> int | None:
        """The conversation this tab shows, if it shows one."""
        chat_id = id_from_text(self.path.rsplit("/", 1)[-1]) if "/chats/" in self.path else None
        return chat_id if chat_id is not None and self.showing(chat_id) else None

    async def chat(self) -> None:
        """Send a message or two in the conversation shown, or else open one (with unread messages first)."""
        chats = self.world.chats_of.get(self.user_id) or []
        if not chats:
            return await self.fallback()
        waiting = self.world.undelivered(self.user_id)
        chat_id = self.shown_chat() or (max(waiting, key=waiting.get) if waiting else self.rng.choice(chats))
        if not await self.open_chat("chat_open", chat_id):
            return None
        for _ in range(2 if self.rng.random() < 0.3 else 1):
            if not await self.send(chat_id):
                return None
        return None

    async def open_chat(self, kind: str, chat_id: int) -> bool:
        """Show conversation `chat_id` (nothing to do when it is already shown)."""
        path = self.chat_path(chat_id)
        if self.path == path and self.now(ROOM, "status") == "found":
            return True
        self.via = "on opening"
        try:
            return await self.goto(kind, path, sets(ROOM, "status", lambda status: status == "found"))
        finally:
            self.via = ""

    async def send(self, chat_id: int) -> bool:
        """Type a message and press Enter; done when this tab shows it."""
        content = f"{MESSAGE_PREFIX} {chat_id}:{self.user_id} {uuid.uuid4().hex[:10]}"
        self.world.register(content, self.user_id, chat_id)
        shown = lambda delta: any(m.get("content") == content for m in _messages_in(delta))  # noqa: E731
        sent = await self.step("chat_send", f"{ROOM}.send_message", {"form_data": {"message": content}}, shown) == "ok"
        self.world.messages[content].confirmed = sent
        return sent

    async def fallback(self) -> None:
        """What to do instead of an action that has nothing to act on."""
        return None


@dataclass
class Visitor(Person):
    """Someone not signed in, browsing /jobs: pages, search, category, city, job pages."""

    LANDING = "/jobs"
    DECK = (
        ("jobs_list", 1),
        ("jobs_page", 2),
        ("jobs_search", 2),
        ("jobs_category", 1),
        ("jobs_city", 1),
        ("job_detail", 3),
    )

    def session_length(self) -> int | None:
        """Visitors come and go: a few actions, then the tab is closed and someone new arrives."""
        return self.rng.randint(*VISIT_ACTIONS)

    async def on_jobs(self) -> bool:
        """Be on the job list (already there, or open it)."""
        if self.path == "/jobs" or self.path.startswith("/jobs?"):
            return True
        return await self.goto("jobs_list", "/jobs")

    async def jobs_list(self) -> None:
        """Open /jobs from the menu."""
        await self.goto("jobs_list", "/jobs")

    async def jobs_page(self) -> None:
        """Follow the pager: the next page, or a random one."""
        if not await self.on_jobs():
            return
        following = self.now(JOBS, "next_href", "")
        pages = self.now(JOBS, "pages", 1) or 1
        path = following if following and self.rng.random() < 0.7 else f"/jobs?page={self.rng.randint(1, pages)}"
        await self.goto("jobs_page", path)

    async def jobs_search(self) -> None:
        """Type a term in the search box and submit (the handler redirects to the filtered list)."""
        if await self.on_jobs():
            form = {"form_data": {"search": self.rng.choice(SEARCH_TERMS)}}
            await self.step("jobs_search", f"{JOBS}.submit_search", form, hydrated)

    async def jobs_category(self) -> None:
        """Pick a category in the select (the handler redirects)."""
        from core.catalog import CATEGORIES

        if await self.on_jobs():
            slug = self.rng.choice(["", *CATEGORIES])
            await self.step("jobs_category", f"{JOBS}.choose_category", {"value": slug}, hydrated)

    async def jobs_city(self) -> None:
        """Follow a link to a city's jobs (from the home page), sometimes with a search term."""
        from core.catalog import CITIES

        query = {"city": self.rng.choice(CITIES)}
        if self.rng.random() < 0.3:
            query["search"] = self.rng.choice(SEARCH_TERMS)
        await self.goto("jobs_city", f"/jobs?{urlencode(query)}")

    async def job_detail(self) -> None:
        """'Ver detalhes' on a job of the list shown."""
        if not await self.on_jobs():
            return
        items = self.now(JOBS, "items", []) or []
        if items:
            await self.goto("job_detail", f"/jobs/{self.rng.choice(items)['id']}")


@dataclass
class Freelancer(Visitor):
    """A signed-in freelancer: searches in the dashboard, applies (two ways), chats, checks applications."""

    LANDING = "/freelancer-dashboard"
    DECK = (("fl_search", 2), ("apply", 4), ("chat", 3), ("fl_applications", 1), ("jobs_search", 1))
    applied: set[int] = field(default_factory=set)

    def session_length(self) -> int | None:
        """A freelancer keeps the tab open all along."""
        return None

    def chat_path(self, chat_id: int) -> str:
        """/freelancer-dashboard/chats/{id}."""
        return f"/freelancer-dashboard/chats/{chat_id}"

    async def fallback(self) -> None:
        """No conversation yet: look at one's applications instead."""
        await self.fl_applications()

    async def fl_applications(self) -> None:
        """'Minhas Candidaturas'."""
        await self.goto("fl_applications", "/freelancer-dashboard?tab=applications")

    async def fl_search(self) -> bool:
        """'Buscar Vagas' with a term, a category or a city (a link carrying the filters)."""
        from core.catalog import CATEGORIES, CITIES

        query = {"tab": "jobs"}
        choice = self.rng.random()
        if choice < 0.5:
            query["search"] = self.rng.choice(SEARCH_TERMS)
        elif choice < 0.75:
            query["category"] = self.rng.choice(list(CATEGORIES))
        elif choice < 0.9:
            query["city"] = self.rng.choice(CITIES)
        return await self.goto("fl_search", f"/freelancer-dashboard?{urlencode(query)}")

    async def apply(self) -> None:
        """Apply to a job: from a company's job list and the job page, or from the dashboard's dialog."""
        if self.rng.random() < 0.6:
            await self._apply_on_page()
        else:
            await self._apply_in_dialog()

    def _fresh(self, items: list[dict], known: list[int] | None = None) -> list[int]:
        skip = self.applied | set(known or [])
        return [item["id"] for item in items if item["id"] not in skip]

    async def _apply_on_page(self) -> None:
        companies = list(self.world.company_jobs)
        if not companies:
            return
        if not await self.goto("jobs_company", f"/jobs?empresa={self.rng.choice(companies)}"):
            return
        candidates = self._fresh(self.now(JOBS, "items", []) or [])
        if not candidates:
            return
        job_id = self.rng.choice(candidates)
        if not await self.goto("job_detail", f"/jobs/{job_id}"):
            return
        if not self.now(DETAIL, "found") or self.now(APPLY, "apply_job_id") != job_id:
            return  # filled up meanwhile: 'Vaga não encontrada'
        if self.now(APPLY, "apply_status"):
            self.applied.add(job_id)
            return
        await self._submit(job_id)

    async def _apply_in_dialog(self) -> None:
        if not await self.fl_search():
            return
        results = self.now(FREELANCER_DASHBOARD, "job_results", []) or []
        candidates = self._fresh(results, self.now(APPLY, "applied_job_ids", []))
        if not candidates:
            return
        job_id = self.rng.choice(candidates)
        opened = sets(APPLY, "apply_open", lambda value: value is True)
        outcome = await self.step(
            "apply_dialog", f"{APPLY}.open_apply_dialog", {"job_id": job_id}, opened, refusals=JOB_FILLED
        )
        if outcome == "ok":
            await self._submit(job_id)

    async def _submit(self, job_id: int) -> None:
        """'Enviar candidatura' (now and then clicked twice); done when the status reads pending."""
        form = {"form_data": {"valor_proposto": self.rng.choice(["", "35,00", "48"]), "mensagem": "Tenho experiência."}}
        pending = sets(APPLY, "apply_status", lambda status: status == "pending")
        clicks = 2 if self.rng.random() < 0.05 else 1  # a double click: the second is ignored
        outcome = await self.step(
            "apply", f"{APPLY}.submit_application", form, pending, refusals=JOB_FILLED, clicks=clicks
        )
        self.applied.add(job_id)
        if outcome == "ok":
            self.world.applied_ok.add((job_id, self.user_id))


@dataclass
class Company(Person):
    """A signed-in company: reviews applications to its jobs, accepts some (opening chats), chats."""

    LANDING = "/client-dashboard?tab=jobs"
    DECK = (("accept", 3), ("chat", 3), ("co_overview", 1))

    def landing_done(self) -> tuple[Predicate, ...]:
        """The jobs tab's list arrives after the page is hydrated (a chained event)."""
        return (sets(COMPANY_JOBS, "active_jobs"),)

    def chat_path(self, chat_id: int) -> str:
        """/client-dashboard/chats/{id}."""
        return f"/client-dashboard/chats/{chat_id}"

    async def co_overview(self) -> None:
        """'Visão Geral'."""
        await self.goto("co_overview", "/client-dashboard")

    async def accept(self) -> None:
        """'Minhas Vagas', 'Ver candidaturas' of a job, 'Aceitar' a pending applicant while positions are left."""
        if not await self.goto("co_jobs", self.LANDING, *self.landing_done()):
            return
        mine = self.world.company_jobs[self.user_id]
        rows = [row for row in self.now(COMPANY_JOBS, "active_jobs", []) or [] if row["id"] in mine]
        open_rows = [row for row in rows if row["status"] == "open" and row["applications"] > 0]
        if not open_rows:
            return
        job_id = self.rng.choice(open_rows)["id"]
        listed = sets(COMPANY_JOBS, "applications_loading", lambda loading: loading is False)
        if await self.step("co_applicants", f"{COMPANY_JOBS}.open_applications", {"job_id": job_id}, listed) != "ok":
            return
        applicants = self.now(COMPANY_JOBS, "applicants", []) or []
        pending = [card for card in applicants if card["status"] == "pending"]
        accepted = sum(card["status"] == "accepted" for card in applicants)
        if pending and accepted < mine[job_id]:
            if self.rng.random() < RACE_SHARE:
                await self._race(job_id, pending)
            else:
                await self._accept(self.rng.choice(pending), refusals=ALREADY_HIRED)
        if self.rng.random() < 0.5:
            closed = sets(COMPANY_JOBS, "applications_open", lambda value: value is False)
            await self.step("co_close_dialog", f"{COMPANY_JOBS}.set_applications_open", {"value": False}, closed)

    async def _accept(self, card: dict, kind: str = "accept", refusals: tuple[str, ...] = ()) -> str:
        """'Aceitar' (now and then clicked twice: the second answer is the same chat); done when it reads accepted."""
        application_id = card["id"]

        def accepted(delta: Delta) -> bool:
            cards = var(delta, COMPANY_JOBS, "applicants") or []
            return any(c["id"] == application_id and c["status"] == "accepted" and c["chat_id"] for c in cards)

        payload = {"application_id": application_id}
        clicks = 2 if self.rng.random() < 0.05 else 1
        outcome = await self.step(
            kind, f"{COMPANY_JOBS}.accept_application", payload, accepted, refusals=refusals, clicks=clicks
        )
        if outcome == "ok":
            cards = self.now(COMPANY_JOBS, "applicants", []) or []
            chat_id = next(c["chat_id"] for c in cards if c["id"] == application_id)
            self.world.accepted_ok.add(application_id)
            self.world.add_chat(chat_id, self.user_id, card["freelancer_id"])
        return outcome

    async def _race(self, job_id: int, pending: list[dict]) -> None:
        """Two tabs of the company click 'Aceitar' at the same instant (two people of one company).

        On two different applicants when there are two (with one position left, one tab must be
        told every position is filled), else both on the same one (both get the same chat).
        """
        twin = await self._twin()
        if twin is None:
            return
        listed = sets(COMPANY_JOBS, "applications_loading", lambda loading: loading is False)
        if await twin.step("co_applicants", f"{COMPANY_JOBS}.open_applications", {"job_id": job_id}, listed) != "ok":
            return
        first, second = self.rng.sample(pending, 2) if len(pending) > 1 else (pending[0], pending[0])
        await asyncio.gather(
            self._accept(first, "accept_race", LAST_POSITION + ALREADY_HIRED),
            twin._accept(second, "accept_race", LAST_POSITION + ALREADY_HIRED),
        )

    async def _twin(self) -> "Company | None":
        """The company's second tab on 'Minhas Vagas' (opened the first time it is needed)."""
        if self.twin is None:
            self.twin = Company(
                self.url, "/", self.cookie, user_id=self.user_id, world=self.world, rng=random.Random(self.user_id)
            )
            if not await self.twin.start():
                return None
        return self.twin if self.twin.client.connected else None
