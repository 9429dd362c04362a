"""Live chat across backend workers: PostgreSQL, Redis and two Granian workers, as in production.

A copy of the project is served with `REFLEX_REDIS_URL` and `GRANIAN_WORKERS=2` against a fresh
PostgreSQL database (TEST_DATABASE_URL's server) and the Redis of TEST_REDIS_URL; `.ci/run` sets
both. The copy has its own `.web` because a built frontend holds its server's address. Which
worker holds a browser's socket is read from Redis (Reflex's token manager records it), and a
browser is reconnected until the two people sit on different workers, so every delivery checked
here crossed from one worker to the other.
"""

import os
import pickle
import re
import shutil
import signal
import subprocess
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import redis
from playwright.sync_api import Page, expect
from reflex.utils.token_manager import SocketRecord
from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import NullPool

from core.db import make_engine
from core.presence import chat_place, deployment_key
from tests.e2e.conftest import ROOT, _free_port, _wait_healthy
from tests.support.chat_support import both_in_chat, bubbles, send, user_id
from tests.support.polling import wait_until
from tests.support.timing import ARRIVAL_MS

TEST_DATABASE_URL = os.environ.get("TEST_DATABASE_URL", "")
TEST_REDIS_URL = os.environ.get("TEST_REDIS_URL", "")
WORKERS = 2

pytestmark = pytest.mark.skipif(
    not (TEST_DATABASE_URL.startswith("postgresql") and TEST_REDIS_URL),
    reason="needs TEST_DATABASE_URL (PostgreSQL) and TEST_REDIS_URL",
)


@dataclass
class Cluster:
    """The app served by several workers, its database and how to restart it."""

    url: str
    engine: Engine
    env: dict[str, str]
    root: Path
    log: Path
    proc: subprocess.Popen | None = None

    def start(self, command: list[str]) -> None:
        """Start the server with `command` in the copy and wait until it answers."""
        with self.log.open("a") as out:
            self.proc = subprocess.Popen(
                command, cwd=self.root, env=self.env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
            )
        _wait_healthy(self.url, self.proc, self.log)

    def kill(self) -> None:
        """SIGKILL every process of the server (no graceful shutdown)."""
        if self.proc is not None and self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=20)


def _copy_project(dest: Path) -> None:
    """The project's files (tracked and new, not ignored), its installed front end, links to the tools."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    ).stdout.split(b"\0")
    for name in filter(None, (item.decode() for item in listed)):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)
    web = ROOT / ".web"
    if web.is_dir():
        shutil.copytree(web, dest / ".web", ignore=shutil.ignore_patterns("node_modules", "build"), symlinks=True)
        if (web / "node_modules").is_dir():  # hard links: installing again would cost a minute
            subprocess.run(["cp", "-al", str(web / "node_modules"), str(dest / ".web" / "node_modules")], check=True)
    for tool in (".venv", ".tools"):
        (dest / tool).symlink_to(ROOT / tool)


def _database() -> tuple[str, str]:
    server = make_url(TEST_DATABASE_URL)
    name = f"turno_cluster_{uuid.uuid4().hex[:10]}"
    admin = create_engine(server.set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool)
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    admin.dispose()
    return name, server.set(database=name).render_as_string(hide_password=False)


def _drop_database(name: str) -> None:
    admin = create_engine(
        make_url(TEST_DATABASE_URL).set(database="postgres"), isolation_level="AUTOCOMMIT", poolclass=NullPool
    )
    with admin.connect() as conn:
        conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    admin.dispose()


@pytest.fixture(scope="module")
def cluster(base_url, tmp_path_factory) -> Iterator[Cluster]:
    """Build and serve the copy with two workers; `base_url` first, so `.web` is installed to copy."""
    root = tmp_path_factory.mktemp("cluster") / "turno"
    root.mkdir()
    _copy_project(root)
    name, database_url = _database()
    port = str(_free_port())
    bin_dir = ROOT / ".venv" / "bin"
    env = {
        **os.environ,
        "DATABASE_URL": database_url,
        "REFLEX_REDIS_URL": TEST_REDIS_URL,
        "GRANIAN_WORKERS": str(WORKERS),
        "APP_ENV": "test",
        "SITE_URL": f"http://localhost:{port}",
        "BCRYPT_ROUNDS": "4",
        "LOGIN_MAX_FAILURES_PER_ADDRESS": "100000",
        "REGISTRATIONS_PER_ADDRESS_HOUR": "100000",
        "REFLEX_TELEMETRY_ENABLED": "false",
        "PYTHONPATH": str(root),
        "PATH": f"{root / '.tools/node_modules/.bin'}:{bin_dir}:{os.environ['PATH']}",
    }
    subprocess.run([str(bin_dir / "alembic"), "upgrade", "head"], cwd=root, env=env, check=True)
    engine = make_engine(database_url)
    cluster = Cluster(f"http://localhost:{port}", engine, env, root, root.parent / "cluster.log")
    try:
        command = [str(bin_dir / "reflex"), "run", "--env", "prod", "--single-port"]
        cluster.start([*command, "--frontend-port", port, "--backend-port", port])
        yield cluster
    finally:
        cluster.kill()
        engine.dispose()
        _drop_database(name)


def _worker_of(page: Page, store: redis.Redis) -> str:
    """The instance id of the worker holding this tab's websocket, as Reflex records it in Redis."""
    token = page.evaluate("window.sessionStorage.getItem('token')")
    raw = wait_until(
        lambda: store.get(f"token_manager_socket_record_{token}"), 15, 0.1, "the tab's socket is not recorded in Redis"
    )
    record = pickle.loads(raw)  # noqa: S301 (written by Reflex in our own Redis)
    assert isinstance(record, SocketRecord)
    return record.instance_id


def _wait_for_new_worker(page: Page, store: redis.Redis, old: set[str]) -> None:
    """Wait until the tab's socket is held by a worker not in `old` (it reconnected after a restart)."""
    wait_until(lambda: _worker_of(page, store) not in old, 30, 0.2, "the tab did not reconnect after the restart")


def _wait_for_reload(page: Page, store: redis.Redis, cluster: Cluster, user: int, chat_id: int) -> None:
    """Wait until the tab's page has loaded again on its new connection: it is registered as showing the chat.

    A server that was killed leaves its sockets' records in Redis, so the reconnecting tab is given a
    new token and a fresh state, and its page reloads the conversation (the room is replaced by
    'Carregando conversa...' for a moment). Text typed into the old composer before that would be
    typed into a composer about to be replaced; the chat page registers the tab in core.presence as
    the last step of its load.
    """
    key = f"turno:presence:{deployment_key(cluster.env['DATABASE_URL'])}:{user}"

    def loaded() -> bool:
        token = page.evaluate("window.sessionStorage.getItem('token')")
        return store.hget(key, token) == chat_place(chat_id).encode()

    wait_until(loaded, 30, 0.1, "the tab's page did not load again after the restart")


def _on_different_workers(first: Page, second: Page, store: redis.Redis) -> tuple[str, str]:
    """Reconnect `second` until its socket is held by another worker than `first`'s."""
    for _ in range(20):
        a, b = _worker_of(first, store), _worker_of(second, store)
        if a != b:
            return a, b
        second.reload()
        second.locator("#chat-input").wait_for()
    raise AssertionError("both browsers stayed on one worker after 20 reconnections")


def test_messages_and_badges_cross_workers(browser, cluster):
    store = redis.Redis.from_url(TEST_REDIS_URL)
    with both_in_chat(browser, cluster.url, cluster.engine) as (_pair, company, freelancer):
        company_worker, freelancer_worker = _on_different_workers(company, freelancer, store)
        assert company_worker != freelancer_worker

        for number in range(1, 6):
            send(freelancer, f"Do freelancer {number}")
            expect(bubbles(company, f"Do freelancer {number}")).to_be_visible(timeout=ARRIVAL_MS)
            send(company, f"Da empresa {number}")
            expect(bubbles(freelancer, f"Da empresa {number}")).to_be_visible(timeout=ARRIVAL_MS)
        expect(bubbles(company)).to_have_count(11)
        expect(bubbles(freelancer)).to_have_count(11)

        freelancer.goto("/freelancer-dashboard")
        messages_tab = freelancer.get_by_role("link", name="Mensagens").first
        bell = freelancer.locator("#bell-desktop")
        expect(bell).to_have_attribute("aria-label", "Notificações: 1 não lida")  # the dashboard has loaded
        expect(messages_tab).to_have_attribute("aria-label", "Mensagens")
        send(company, "Você viu o endereço?")
        expect(messages_tab).to_have_attribute("aria-label", "Mensagens: 1 não lida")
        expect(bell).to_have_attribute("aria-label", "Notificações: 2 não lidas")


def test_after_a_server_restart_nothing_is_lost_or_shown_twice(browser, cluster):
    store = redis.Redis.from_url(TEST_REDIS_URL)
    with both_in_chat(browser, cluster.url, cluster.engine) as (pair, company, freelancer):
        send(company, "Antes do reinício")
        expect(bubbles(freelancer, "Antes do reinício")).to_be_visible()

        before = {_worker_of(company, store), _worker_of(freelancer, store)}
        cluster.kill()
        cluster.start([str(ROOT / ".venv/bin/python"), "-m", "scripts.serve", "--port", cluster.url.rsplit(":", 1)[1]])
        for page, email in ((company, pair.company), (freelancer, pair.freelancer)):
            _wait_for_new_worker(page, store, before)  # reconnected to a worker of the new server
            _wait_for_reload(page, store, cluster, user_id(email, cluster.engine), pair.chat_id)

        send(company, "Depois do reinício")
        expect(bubbles(company, "Depois do reinício")).to_have_count(1)
        expect(bubbles(freelancer, "Depois do reinício")).to_have_count(1, timeout=30_000)
        send(freelancer, "Recebido")
        expect(bubbles(company, "Recebido")).to_have_count(1)
        for page in (company, freelancer):
            expect(bubbles(page, "Antes do reinício")).to_have_count(1)
            expect(bubbles(page)).to_have_count(4)


def test_a_tab_whose_session_ended_on_another_worker_receives_nothing(browser, cluster):
    store = redis.Redis.from_url(TEST_REDIS_URL)
    with both_in_chat(browser, cluster.url, cluster.engine) as (_pair, company, freelancer):
        _on_different_workers(company, freelancer, store)
        second_tab = company.context.new_page()
        second_tab.goto("/client-dashboard")
        second_tab.get_by_role("button", name="Sair").first.click()
        expect(second_tab.get_by_text("Logout realizado")).to_be_visible()

        send(freelancer, "Depois do seu logout")

        expect(company).to_have_url(re.compile(r"/login/?$"), timeout=ARRIVAL_MS)
        expect(company.get_by_text("Sua sessão foi encerrada. Entre novamente.")).to_be_visible()
        expect(bubbles(company, "Depois do seu logout")).to_have_count(0)
