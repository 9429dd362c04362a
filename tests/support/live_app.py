"""A stand-in for the Reflex app that live delivery (states/live.py) writes to, for unit tests.

Its `modify_state` hands out the tabs' own state trees, so what a test checks is exactly what each
tab would show; `pushed` lists the tabs that were sent an event of their own (a pop-up, a redirect).
The `fake_app` fixture (tests/unit/conftest.py) installs it.
"""

import asyncio
import contextlib


class FakeTokens:
    """The token manager's one question: is this tab's socket connected?"""

    def __init__(self) -> None:
        self.connected: set[str] = set()

    async def is_token_connected(self, token: str) -> bool:
        return token in self.connected


class FakeApp:
    """What states.live uses of rx.App: modify_state over the tabs' trees, and the token manager."""

    def __init__(self) -> None:
        self.roots: dict[str, object] = {}
        self.pushed: list[str] = []

        async def emit_update(_namespace, update, token: str) -> None:
            self.pushed.append(token)

        self.event_namespace = type("Namespace", (), {"_token_manager": FakeTokens(), "emit_update": emit_update})()
        self.locks: dict[str, asyncio.Lock] = {}
        app = self

        class StateManager:
            async def get_state(self, token):
                """A lock-free read of a tab's tree, as Reflex's state managers give."""
                return app.roots[token.ident]

        self.state_manager = StateManager()

    def open_tab(self, root, token: str) -> None:
        self.roots[token] = root
        self.event_namespace._token_manager.connected.add(token)

    @contextlib.asynccontextmanager
    async def modify_state(self, token):
        """The tab's tree under the tab's lock, as Reflex holds it while a handler of that tab runs."""
        lock = self.locks.setdefault(token.ident, asyncio.Lock())
        async with lock:
            yield self.roots[token.ident]
