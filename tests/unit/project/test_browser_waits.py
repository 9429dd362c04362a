"""Browser tests wait on conditions Playwright can check: a promise is not one.

Playwright's `wait_for_function` calls its predicate and stops at the first truthy answer without
awaiting it, so a predicate that returns a promise (`.then(...)`, `async`) ends the wait at once and
the test reads the page before it is ready. Such a test passes on a fast machine and fails now and
then on a busy one (stop 44's CI). Those waits poll from Python with `tests.support.polling.wait_until`.
"""

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PROMISE = re.compile(r"\.then\(|\basync\b|\bawait\b|\bPromise\b")


def _module_strings(tree: ast.Module) -> dict[str, str]:
    """The module's top-level names bound to a plain string."""
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            found.update({target.id: node.value.value for target in node.targets if isinstance(target, ast.Name)})
    return found


def _text(node: ast.expr, strings: dict[str, str]) -> str:
    """The JavaScript an argument spells, as far as the module shows it (names resolved, the rest left out)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return strings.get(node.id, "")
    if isinstance(node, ast.JoinedStr):
        return "".join(_text(part, strings) for part in node.values)
    if isinstance(node, ast.FormattedValue):
        return _text(node.value, strings)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _text(node.left, strings) + _text(node.right, strings)
    return ""


def _promise_waits(path: Path) -> list[int]:
    """The lines of `path` where `wait_for_function` is given a predicate that answers a promise."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    strings = _module_strings(tree)
    return [
        call.lineno
        for call in ast.walk(tree)
        if isinstance(call, ast.Call)
        and isinstance(call.func, ast.Attribute)
        and call.func.attr == "wait_for_function"
        and call.args
        and PROMISE.search(_text(call.args[0], strings))
    ]


def test_no_browser_test_waits_on_a_promise():
    offenders = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "tests").rglob("*.py"))
        for line in _promise_waits(path)
    ]

    assert offenders == []


def test_the_check_sees_a_promise_named_by_a_module_constant(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        'SHOWN = "() => navigator.serviceWorker.ready.then((r) => r.getNotifications())"\n'
        'page.wait_for_function(f"() => ({SHOWN})().then((shown) => shown.length === 1)")\n'
        'page.wait_for_function("() => window.ready === true")\n',
        encoding="utf-8",
    )

    assert _promise_waits(sample) == [2]
