"""Page load of the public pages (/, /jobs, /jobs/{id}) in headless Chromium, measured by Lighthouse.

The real app is built for production (`reflex export --frontend-only --no-zip`) and served the
way production serves it on one port (scripts/serve.py: the backend workers with the compiled
frontend mounted), on a throwaway SQLite database with the demo data (`alembic upgrade head` +
`python -m scripts.seed`). Lighthouse 12 (scripts/ensure_lighthouse.sh installs it into
.tools/lighthouse) loads each route with the mobile preset (its default: a mid-range phone on slow
4G, simulated throttling) and the desktop preset, BENCH_LH_RUNS times each (default 5, as
Lighthouse's docs advise; the median of each figure is printed): performance score, FCP, LCP,
TBT and CLS.

Baseline, measured in the same run with the same tool and presets: a blank Reflex page (the
`reflex init` blank template's page, Radix themes, no badge) built and served the same way. Ratios:
app score / blank score and app LCP / blank LCP.

For each route it also counts the JavaScript the page loads (every script request Lighthouse
recorded: raw bytes, and gzip level 9 bytes, which is what Reflex's build-time sidecars hold) and
checks that the production server answers every text resource of the page compressed when asked
the way Chromium asks (`Accept-Encoding: gzip, deflate, br, zstd`).

Lighthouse's SEO and accessibility scores are taken from the same runs (their failing audits are
printed under each row).

Goals (printed, not asserted): mobile score >= 90, desktop >= 95, SEO and accessibility 100, JS <=
250 KB gzip per route, compressed responses.

BENCH_SERVER=run measures the app (and the baseline) served the way `make run` serves it instead:
`reflex run --env prod --single-port` on one port, which builds the frontend itself on every start
(the same server as scripts/serve.py; the build is the only step of its own).

Quick mode (BENCH_QUICK=1): route / with the mobile preset once, no baseline, and the existing
frontend build in .web is reused when there is one (BENCH_REUSE_BUILD=1 does that in full mode).
"""

import gzip
import json
import os
import re
import socket
import statistics
import subprocess
import tempfile
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from sqlalchemy import create_engine, text
from sqlalchemy.pool import NullPool

from bench.harness import BIN, ROOT, app_env, free_port, migrate, quick, stop, wait_http

TOOLS = ROOT / ".tools"
LIGHTHOUSE = TOOLS / "lighthouse" / "node_modules" / "lighthouse" / "cli" / "index.js"
# Chromium's flags: no sandbox (root in a container) and no background traffic towards the closed
# network (otherwise Chromium floods it with refused connections). Lighthouse adds --headless=new;
# --disable-gpu made no difference to its figures here (A/B, 4 runs each), so it is only passed to
# the Playwright check, as in the e2e tests.
BROWSER_FLAGS = (
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-quic",
    "--no-first-run",
)
CHROMIUM_FLAGS = " ".join(("--headless=new", *BROWSER_FLAGS))
ACCEPT_ENCODING = "gzip, deflate, br, zstd"
PRESETS = ("mobile", "desktop")
ROUTES = ("/", "/jobs", "/jobs/{id}")
GOAL_MOBILE = 90
GOAL_DESKTOP = 95
GOAL_JS_KB = 250
TEXT_TYPES = {"Document", "Script", "Stylesheet"}
MIN_COMPRESSIBLE = 1400  # bytes; Lighthouse's text-compression audit ignores smaller savings

BLANK_CONFIG = """import reflex as rx

config = rx.Config(
    app_name="blank",
    telemetry_enabled=False,
    show_built_with_reflex=False,
    state_manager_mode="memory",
    plugins=[rx.plugins.RadixThemesPlugin()],
    disable_plugins=[rx.plugins.SitemapPlugin],
)
"""
# The page of `reflex init --template blank` (its link points nowhere external here).
BLANK_APP = """import reflex as rx


class State(rx.State):
    pass


def index() -> rx.Component:
    return rx.container(
        rx.color_mode.button(position="top-right"),
        rx.vstack(
            rx.heading("Welcome to Reflex!", size="9"),
            rx.text("Get started by editing ", rx.code("blank/blank.py"), size="5"),
            rx.link(rx.button("Check out our docs!"), href="/"),
            spacing="5",
            justify="center",
            min_height="85vh",
        ),
    )


app = rx.App()
app.add_page(index)
"""


@dataclass
class Measurement:
    """Median Lighthouse figures of one route under one preset."""

    site: str
    route: str
    preset: str
    runs: int
    score: float
    fcp_ms: float
    lcp_ms: float
    tbt_ms: float
    cls: float
    benchmark_index: float
    seo: float = 0.0
    accessibility: float = 0.0


@dataclass
class RouteBytes:
    """What one route downloads: its scripts, and whether its text resources come compressed."""

    site: str
    route: str
    scripts: int = 0
    js_raw: int = 0
    js_gzip: int = 0
    js_transferred: int = 0
    text_resources: int = 0
    compressed: int = 0
    encodings: set[str] = field(default_factory=set)
    uncompressed: list[str] = field(default_factory=list)

    @property
    def all_compressed(self) -> bool:
        """True when every compressible text resource came with a content-encoding."""
        return self.text_resources > 0 and self.compressed == self.text_resources


def chromium_path() -> str:
    """Debian's Chromium (or CHROMIUM_PATH), the browser every browser test here uses."""
    for candidate in (os.environ.get("CHROMIUM_PATH"), "/usr/bin/chromium", "/usr/bin/chromium-browser"):
        if candidate and Path(candidate).exists():
            return candidate
    raise RuntimeError("No Chromium found: run scripts/ensure_browser.sh or set CHROMIUM_PATH")


def ensure_lighthouse() -> Path:
    """Install Lighthouse into .tools/lighthouse when it is missing; return its CLI script."""
    if not LIGHTHOUSE.exists():
        subprocess.run([str(ROOT / "scripts" / "ensure_lighthouse.sh")], check=True)
    return LIGHTHOUSE


def tool_env(base: dict[str, str]) -> dict[str, str]:
    """`base` with the project's bun and the virtualenv first on PATH (what the Makefile exports)."""
    return {**base, "PATH": f"{TOOLS / 'node_modules' / '.bin'}:{BIN}:{base.get('PATH', '')}"}


def seed(env: dict[str, str]) -> None:
    """Load the demo data (one company, one freelancer, their jobs) into the database of `env`."""
    subprocess.run([str(BIN / "python"), "-m", "scripts.seed"], cwd=ROOT, env=env, check=True, capture_output=True)


def public_job(database_url: str) -> tuple[int, str]:
    """The id and title of an open, non-archived job (one /jobs/{id} shows)."""
    engine = create_engine(database_url, poolclass=NullPool)
    with engine.connect() as conn:
        row = conn.execute(
            text("SELECT id, titulo FROM jobs WHERE status = 'open' AND is_archived = false ORDER BY id LIMIT 1")
        ).first()
    engine.dispose()
    if row is None:
        raise RuntimeError("the demo data has no open job")
    return int(row[0]), str(row[1])


def built_port(site: Path) -> int | None:
    """The port the frontend build in `site` expects its backend on (None when there is no build).

    Reflex bakes the backend's URL into the build (`ws://localhost:PORT/_event`; the browser swaps
    only the host name), so a build is served on the port it was made for, or the pages load
    without their websocket.
    """
    for chunk in (site / ".web" / "build" / "client" / "assets").glob("reflex-env-*.js"):
        found = re.search(r"ws://localhost:(\d+)/_event", chunk.read_text())
        if found:
            return int(found.group(1))
    return None


def port_is_free(port: int) -> bool:
    """True when nothing listens on `port` (on any interface)."""
    with socket.socket() as sock:
        try:
            sock.bind(("", port))
        except OSError:
            return False
    return True


def build(site: Path, env: dict[str, str], reuse: bool) -> int:
    """Build the frontend of the Reflex project in `site` for one port; return that port.

    With `reuse`, an existing build is kept when its port is free (quick mode: the e2e tests'
    `reflex run --env prod` builds into .web too).
    """
    port = built_port(site) if reuse else None
    if port is not None and port_is_free(port):
        print(f"  reusing the frontend build in {site / '.web'} (port {port})", flush=True)
        return port
    port = free_port()
    result = subprocess.run(
        [str(BIN / "reflex"), "export", "--frontend-only", "--no-zip"],
        cwd=site,
        env={**env, "REFLEX_API_URL": f"http://localhost:{port}"},
        capture_output=True,
        text=True,
    )
    if result.returncode != 0:
        raise RuntimeError(f"frontend build failed in {site}:\n{result.stdout[-3000:]}{result.stderr[-3000:]}")
    return port


def serve(site: Path, env: dict[str, str], port: int) -> subprocess.Popen:
    """Serve the built project in `site` on one port, as production does (scripts/serve.py)."""
    command = [str(BIN / "python"), str(ROOT / "scripts" / "serve.py"), "--host", "127.0.0.1", "--port", str(port)]
    proc = subprocess.Popen(
        command,
        cwd=site,
        env={**env, "PORT": str(port)},  # its localhost origins may open the websocket (Settings.cors_origins)
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_http(f"http://127.0.0.1:{port}/ping", proc)
    return proc


def serve_as_make_run(site: Path, env: dict[str, str]) -> tuple[subprocess.Popen, int]:
    """Build and serve the project in `site` as `make run` does; the server and its port."""
    port = free_port()
    command = [str(BIN / "reflex"), "run", "--env", "prod", "--single-port"]
    proc = subprocess.Popen(
        [*command, "--frontend-port", str(port), "--backend-port", str(port)],
        cwd=site,
        env={**env, "PORT": str(port)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    wait_http(f"http://127.0.0.1:{port}/ping", proc, timeout=900)  # it compiles and builds first
    return proc, port


def start(site: Path, env: dict[str, str], reuse: bool) -> tuple[subprocess.Popen, int]:
    """Serve the project in `site` the way BENCH_SERVER names: 'serve' (default) or 'run' (`make run`)."""
    if _chosen("BENCH_SERVER", ("serve", "run")) == ("run",):
        return serve_as_make_run(site, env)
    port = build(site, env, reuse)
    return serve(site, env, port), port


def check_pages(base_url: str, pages: list[tuple[str, str]]) -> None:
    """Open each page in Chromium and fail unless its websocket answers (and `text` shows, if given).

    Guards the figures: a page whose websocket cannot connect still scores, without its data. Runs
    in a thread of its own: Playwright's sync API refuses to start where another instance is
    running (the e2e tests' browser, when tests/bench runs in the same pytest session).
    """
    with ThreadPoolExecutor(1) as pool:
        pool.submit(_check_pages, base_url, pages).result()


def _check_pages(base_url: str, pages: list[tuple[str, str]]) -> None:
    from playwright.sync_api import expect, sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=[*BROWSER_FLAGS, "--disable-gpu"])
        try:
            for path, expected in pages:
                page = browser.new_page()
                with page.expect_websocket(timeout=30_000) as opened:
                    page.goto(base_url + path)
                opened.value.wait_for_event("framereceived", timeout=30_000)
                if expected:
                    expect(page.get_by_text(expected).first).to_be_visible(timeout=30_000)
                page.close()
        finally:
            browser.close()


def lighthouse(url: str, preset: str, output: Path) -> dict:
    """One Lighthouse run (performance, accessibility and SEO) of `url`; the parsed JSON report."""
    command = [
        "node",
        str(LIGHTHOUSE),
        url,
        "--only-categories=performance,accessibility,seo",
        "--skip-audits=full-page-screenshot",
        "--output=json",
        f"--output-path={output}",
        f"--chrome-flags={CHROMIUM_FLAGS}",
        "--quiet",
    ]
    if preset == "desktop":
        command.append("--preset=desktop")
    env = {**os.environ, "CHROME_PATH": chromium_path()}
    result = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    if result.returncode != 0 or not output.exists():
        raise RuntimeError(f"lighthouse failed on {url} ({preset}):\n{result.stderr[-3000:]}")
    report = json.loads(output.read_text())
    if report.get("runtimeError"):
        raise RuntimeError(f"lighthouse could not load {url}: {report['runtimeError']}")
    return report


def figures(report: dict) -> dict[str, float]:
    """Score (0-100), the four metrics and the machine's speed (Lighthouse's benchmarkIndex) of one report."""
    audits = report["audits"]
    categories = report["categories"]
    score = categories["performance"]["score"]
    return {
        "score": round((score or 0) * 100),
        "seo": round((categories["seo"]["score"] or 0) * 100),
        "accessibility": round((categories["accessibility"]["score"] or 0) * 100),
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "benchmark_index": report["environment"]["benchmarkIndex"],
    }


def _fetch(url: str, encoding: str) -> tuple[bytes, str]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": encoding})  # noqa: S310 (a local server)
    with urllib.request.urlopen(request, timeout=30) as response:  # noqa: S310
        return response.read(), response.headers.get("Content-Encoding", "")


def route_bytes(site: str, route: str, report: dict) -> RouteBytes:
    """Count the scripts of one Lighthouse run and check each text resource's compression."""
    counted = RouteBytes(site, route)
    items = report["audits"]["network-requests"]["details"]["items"]
    seen = set()
    for item in items:
        url, kind = item["url"], item.get("resourceType")
        if kind not in TEXT_TYPES or not url.startswith("http") or url in seen:
            continue
        seen.add(url)
        raw, _ = _fetch(url, "identity")
        _, encoding = _fetch(url, ACCEPT_ENCODING)
        if kind == "Script":
            counted.scripts += 1
            counted.js_raw += len(raw)
            counted.js_gzip += len(gzip.compress(raw, compresslevel=9))
            counted.js_transferred += int(item.get("transferSize") or 0)
        if len(raw) >= MIN_COMPRESSIBLE:
            counted.text_resources += 1
            if encoding:
                counted.compressed += 1
                counted.encodings.add(encoding)
            else:
                counted.uncompressed.append(url)
    return counted


def measure_site(
    site: str, base_url: str, routes: dict[str, str], presets: tuple[str, ...], runs: int, workdir: Path
) -> tuple[list[Measurement], list[RouteBytes], dict]:
    """Lighthouse every route of one served site under every preset; medians and byte counts."""
    measurements, counted, last = [], [], {}
    for label, path in routes.items():
        for preset in presets:
            samples = []
            for run in range(runs):
                output = workdir / f"{site}-{label.strip('/').replace('/', '_') or 'home'}-{preset}-{run}.json"
                last = lighthouse(base_url + path, preset, output)
                samples.append(figures(last))
                if preset == presets[0] and run == 0:
                    counted.append(route_bytes(site, label, last))
            medians = {key: statistics.median(sample[key] for sample in samples) for key in samples[0]}
            for failed in failing_audits(last, ("seo", "accessibility")):
                print(f"    {site} {label} {preset} fails: {failed}", flush=True)
            measurements.append(Measurement(site, label, preset, runs, **medians))
            scores = ", ".join(str(sample["score"]) for sample in samples)
            blocking = ", ".join(str(round(sample["tbt_ms"])) for sample in samples)
            print(
                f"  {site} {label} {preset}: score {medians['score']:.0f}, LCP {medians['lcp_ms']:.0f} ms"
                f" (each run: scores {scores}; TBT {blocking} ms)",
                flush=True,
            )
    return measurements, counted, last


def failing_audits(report: dict, categories: tuple[str, ...]) -> list[str]:
    """The audits of `categories` that did not pass in one report ('category: id (title)')."""
    failed = []
    for name in categories:
        for ref in report["categories"][name]["auditRefs"]:
            audit = report["audits"][ref["id"]]
            if ref.get("weight", 0) > 0 and audit.get("score") is not None and audit["score"] < 1:
                failed.append(f"{name}: {ref['id']} ({audit['title']})")
    return failed


def blank_site(workdir: Path) -> Path:
    """Write the blank Reflex project the baseline measures; return its directory."""
    site = workdir / "blank"
    (site / "blank").mkdir(parents=True)
    (site / "rxconfig.py").write_text(BLANK_CONFIG)
    (site / "blank" / "__init__.py").write_text("")
    (site / "blank" / "blank.py").write_text(BLANK_APP)
    return site


def _chosen(variable: str, allowed: tuple[str, ...]) -> tuple[str, ...]:
    """The comma-separated subset of `allowed` named in the environment variable (all when unset)."""
    names = [name.strip() for name in os.environ.get(variable, "").split(",") if name.strip()]
    unknown = [name for name in names if name not in allowed]
    if unknown:
        raise SystemExit(f"{variable}: unknown {unknown}; choose from {', '.join(allowed)}")
    return tuple(names) or allowed


def _met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def report_table(app: list[Measurement], blank: list[Measurement], counted: list[RouteBytes], tool: str) -> None:
    """Print the scores (with ratios to the blank page), the bytes per route and the goals."""
    baseline = {m.preset: m for m in blank}
    runs = app[0].runs if app else 0
    print(f"\nPage load: {tool}, median of {runs} run(s) per row (FCP/LCP/TBT in ms)")
    print(
        "| site | route | preset | score | FCP | LCP | TBT | CLS | score / blank | LCP / blank | CPU index"
        " | SEO | accessibility |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for m in [*blank, *app]:
        base = baseline.get(m.preset)
        ratios = (
            f"{m.score / base.score:.2f}x | {m.lcp_ms / base.lcp_ms:.2f}x"
            if base and m.site != "blank" and base.score and base.lcp_ms
            else "- | -"
        )
        print(
            f"| {m.site} | {m.route} | {m.preset} | {m.score:.0f} | {m.fcp_ms:.0f} | {m.lcp_ms:.0f} | "
            f"{m.tbt_ms:.0f} | {m.cls:.3f} | {ratios} | {m.benchmark_index:.0f} | {m.seo:.0f} | {m.accessibility:.0f} |"
        )
    print(
        "(CPU index: Lighthouse's benchmarkIndex of the machine during the runs; it drops when other work"
        " shares the cores, and TBT and the mobile score drop with it)"
    )
    print("\nJavaScript and compression per route (KB = 1000 bytes; gzip = level 9, as the build's sidecars)")
    print("| site | route | scripts | JS raw KB | JS gzip KB | JS transferred KB | text responses compressed |")
    print("|---|---|---|---|---|---|---|")
    for c in counted:
        encodings = ",".join(sorted(c.encodings)) or "none"
        print(
            f"| {c.site} | {c.route} | {c.scripts} | {c.js_raw / 1000:.1f} | {c.js_gzip / 1000:.1f} | "
            f"{c.js_transferred / 1000:.1f} | {c.compressed}/{c.text_resources} ({encodings}) |"
        )
        for url in c.uncompressed:
            print(f"    uncompressed: {url}")
    mine = [m for m in app if m.site == "app"]
    mobile = [m.score for m in mine if m.preset == "mobile"]
    desktop = [m.score for m in mine if m.preset == "desktop"]
    routes = [c for c in counted if c.site == "app"]
    print("\nGoals (app):")
    if mobile:
        print(f"  mobile score >= {GOAL_MOBILE}: worst {min(mobile):.0f} -> {_met(min(mobile) >= GOAL_MOBILE)}")
    if desktop:
        print(f"  desktop score >= {GOAL_DESKTOP}: worst {min(desktop):.0f} -> {_met(min(desktop) >= GOAL_DESKTOP)}")
    if mine:
        seo, a11y = min(m.seo for m in mine), min(m.accessibility for m in mine)
        print(f"  SEO = 100: worst {seo:.0f} -> {_met(seo >= 100)}")
        print(f"  accessibility = 100: worst {a11y:.0f} -> {_met(a11y >= 100)}")
    if routes:
        worst = max(c.js_gzip for c in routes) / 1000
        print(f"  JS <= {GOAL_JS_KB} KB gzip per route: worst {worst:.1f} KB -> {_met(worst <= GOAL_JS_KB)}")
        print(f"  compressed responses: {_met(all(c.all_compressed for c in routes))}")


def main() -> dict:
    """Build, serve and measure the app and the blank baseline; print the tables.

    Returns:
        {"measurements": [Measurement, ...], "bytes": [RouteBytes, ...]} for the app and the
        baseline (the quick mode's test reads it).
    """
    is_quick = quick()
    runs = 1 if is_quick else int(os.environ.get("BENCH_LH_RUNS", "5"))
    presets = ("mobile",) if is_quick else _chosen("BENCH_PRESETS", PRESETS)
    reuse = is_quick or os.environ.get("BENCH_REUSE_BUILD", "") not in ("", "0")
    ensure_lighthouse()
    measurements, counted, version = [], [], ""
    with tempfile.TemporaryDirectory(prefix="turno_pageload_") as tmp:
        workdir = Path(tmp)
        database_url = f"sqlite:///{workdir / 'pageload.db'}"
        env = tool_env(app_env(database_url, GRANIAN_WORKERS="1"))
        migrate(env)
        seed(env)
        job_id, job_title = public_job(database_url)
        chosen = ("/",) if is_quick else _chosen("BENCH_PAGES", ROUTES)
        routes = {route: route.format(id=job_id) for route in chosen}
        print(f"Page load: building and serving the app (routes {', '.join(routes.values())})", flush=True)
        server, port = start(ROOT, env, reuse)
        try:
            base_url = f"http://127.0.0.1:{port}"
            check_pages(base_url, [(path, job_title if "{id}" in route else "") for route, path in routes.items()])
            found, sizes, last = measure_site("app", base_url, routes, presets, runs, workdir)
        finally:
            stop(server)
        measurements += found
        counted += sizes
        version = f"Lighthouse {last['lighthouseVersion']}, {last['environment']['hostUserAgent'].split(') ')[-1]}"
        if not is_quick and os.environ.get("BENCH_BASELINE", "1") != "0":
            print("Page load: building and serving the blank Reflex baseline", flush=True)
            site = blank_site(workdir)
            blank_env = tool_env({**os.environ, "REFLEX_TELEMETRY_ENABLED": "false"})
            blank_env.pop("PYTHONPATH", None)
            server, port = start(site, blank_env, reuse=False)
            try:
                base_url = f"http://127.0.0.1:{port}"
                check_pages(base_url, [("/", "Welcome to Reflex!")])
                found, sizes, _ = measure_site("blank", base_url, {"/": "/"}, presets, runs, workdir)
            finally:
                stop(server)
            measurements = found + measurements
            counted = sizes + counted
    report_table(
        [m for m in measurements if m.site == "app"], [m for m in measurements if m.site == "blank"], counted, version
    )
    return {"measurements": measurements, "bytes": counted}


if __name__ == "__main__":
    main()
