"""A sampler beside a benchmark: what the machine and PostgreSQL were doing, five times a second.

`python -m bench.burst_trace --database URL --out FILE` appends one JSON line per sample until it is
killed: the CPU each process used since the sample before (from /proc, grouped later by its
command line), the kernel's CPU and I/O pressure totals, PostgreSQL's sessions that are not idle
(what they wait on, and who blocks a lock wait), and the checkpointer's and WAL's counters.
On SQLite the samples hold the machine's part only. bench/reminder_burst.py starts it when
BENCH_TRACE names a path prefix (samples in <prefix>-<engine>.jsonl, the events and bursts beside
it in <prefix>-<engine>.jsonl.events.json); `python -m bench.burst_trace --read FILE` then prints
each burst's slow events beside what the samples saw (docs/performance-log.md, "What the bursts
share").
"""

import argparse
import itertools
import json
import os
import sys
import time
from pathlib import Path

from bench.harness import pct

EVERY = 0.2
ACTIVITY = """
select pid, backend_type, coalesce(state, ''), coalesce(wait_event_type, ''), coalesce(wait_event, ''),
       left(regexp_replace(query, '\\s+', ' ', 'g'), 90),
       extract(epoch from now() - xact_start), extract(epoch from now() - query_start),
       case when wait_event_type = 'Lock' then pg_blocking_pids(pid) end
from pg_stat_activity
where pid <> pg_backend_pid() and (state is null or state <> 'idle')
"""
COUNTERS = """
select checkpoints_timed, checkpoints_req, buffers_checkpoint, buffers_backend, checkpoint_write_time,
       checkpoint_sync_time, (select wal_bytes from pg_stat_wal), (select wal_sync from pg_stat_wal)
from pg_stat_bgwriter
"""


def _ticks() -> dict[int, tuple[str, int]]:
    """Each process's command line (first 100 characters) and the CPU ticks it has used."""
    found: dict[int, tuple[str, int]] = {}
    for entry in os.scandir("/proc"):
        if not entry.name.isdigit():
            continue
        try:
            stat = Path(entry.path, "stat").read_text()
            cmdline = Path(entry.path, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        found[int(entry.name)] = (
            cmdline.strip()[:100] or stat[stat.index("(") : stat.rindex(")") + 1],
            int(fields[11]) + int(fields[12]),
        )
    return found


def _pressure(kind: str) -> dict[str, int]:
    """The kernel's stall totals (µs) for `kind` ('cpu' or 'io'): some and full."""
    totals: dict[str, int] = {}
    try:
        for line in Path(f"/proc/pressure/{kind}").read_text().splitlines():
            name, *pairs = line.split()
            totals[name] = int(dict(pair.split("=") for pair in pairs)["total"])
    except OSError:
        pass
    return totals


def _postgres(database_url: str):
    """A connection for the PostgreSQL samples (None on SQLite: the samples then hold the machine's only)."""
    if not database_url.startswith("postgresql"):
        return None
    import psycopg

    return psycopg.connect(database_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True)


def sample(database_url: str, out: Path) -> None:
    """Append a sample to `out` every EVERY seconds until killed."""
    conn = _postgres(database_url)
    before = _ticks()
    with out.open("a") as file:
        while True:
            started = time.time()
            now = _ticks()
            cpu = {
                pid: [label, ticks - before[pid][1]]
                for pid, (label, ticks) in now.items()
                if pid in before and ticks > before[pid][1]
            }
            before = now
            line = {
                "t": started,
                "cpu": cpu,
                "psi_cpu": _pressure("cpu"),
                "psi_io": _pressure("io"),
                "pg": [list(row) for row in conn.execute(ACTIVITY).fetchall()] if conn else [],
                "counters": list(conn.execute(COUNTERS).fetchone()) if conn else [0] * 8,
            }
            file.write(json.dumps(line, default=float) + "\n")
            file.flush()
            time.sleep(max(0.0, EVERY - (time.time() - started)))


def _group(label: str) -> str:
    """A process's group for the report: which part of the benchmark it is."""
    if label.startswith("postgres:"):
        words = label.split()
        return "pg " + (" ".join(words[1:3]) if "turno_" not in label else "backend")
    for needle, name in (
        ("scripts.tick", "timer"),
        ("fake_push", "fake push"),
        ("burst_trace", "sampler"),
        ("redis", "redis"),
        ("reminder_burst", "bench client"),
        ("multiprocessing", "bench watcher"),
        ("granian", "server"),
        ("reflex", "server"),
    ):
        if needle in label:
            return name
    return "other"


def _load(trace: Path) -> tuple[list[dict], dict]:
    samples = [json.loads(line) for line in trace.read_text().splitlines() if line.strip()]
    events = json.loads(Path(f"{trace}.events.json").read_text())
    return samples, events


def _p95(values: list[float]) -> float:
    """The benchmark's own p95 (bench.harness.pct, nearest rank); NaN for no values."""
    return pct(values, 95) if values else float("nan")


def _phase(t: float, bursts: list[dict]) -> str:
    """'claiming' (the burst armed, not every reminder claimed yet), 'pushing' (the rest of it) or 'quiet'."""
    for burst in bursts:
        if burst["armed_at"] <= t <= burst["done_at"]:
            return "claiming" if t <= (burst["all_claimed_at"] or burst["done_at"]) else "pushing"
    return "quiet"


def _cores(before: dict, after: dict, hz: int) -> dict[str, float]:
    """The cores each group of processes used between two samples."""
    seconds = after["t"] - before["t"]
    groups: dict[str, float] = {}
    for label, ticks in after["cpu"].values():
        groups[_group(label)] = groups.get(_group(label), 0.0) + ticks / hz / seconds
    return groups


def _pooled(samples: list[dict], events: dict, hz: int) -> None:
    """Print each phase's events p95 and the cores each group used in it, over the whole run."""
    print("\n## the run, by phase")
    events_by: dict[str, list[float]] = {}
    for sent, ms, _ in events["stamps"]:
        events_by.setdefault(_phase(sent, events["bursts"]), []).append(ms)
    seconds: dict[str, float] = {}
    cores: dict[str, dict[str, float]] = {}
    for before, after in itertools.pairwise(samples):
        phase, span = _phase(after["t"], events["bursts"]), after["t"] - before["t"]
        seconds[phase] = seconds.get(phase, 0.0) + span
        for group, share in _cores(before, after, hz).items():
            cores.setdefault(phase, {})[group] = cores.get(phase, {}).get(group, 0.0) + share * span
    for phase in ("quiet", "claiming", "pushing"):
        spent = (
            {group: used / seconds[phase] for group, used in cores.get(phase, {}).items()} if phase in seconds else {}
        )
        top = ", ".join(f"{group} {share:.2f}" for group, share in sorted(spent.items(), key=lambda g: -g[1])[:6])
        print(
            f"{phase}: {len(events_by.get(phase, []))} events, p95 {_p95(events_by.get(phase, [])):.1f} ms; "
            f"{sum(spent.values()):.2f} cores ({top})"
        )


def read(trace: Path) -> None:
    """Print, per burst, its p95, its slow events and what the samples saw then; then the run by phase."""
    samples, events = _load(trace)
    hz = os.sysconf("SC_CLK_TCK")
    for index, burst in enumerate(events["bursts"]):
        quiet_from = events["bursts"][index - 1]["done_at"] if index else 0.0
        _burst(index, burst, quiet_from, events["stamps"], samples, hz)
    _pooled(samples, events, hz)


def _burst(index: int, burst: dict, quiet_from: float, stamps: list, samples: list[dict], hz: int) -> None:
    """One burst: its p95 against the quiet window before it, its slow events, and every sample around it."""
    start, end = burst["armed_at"], burst["done_at"]
    quiet = [ms for sent, ms, _ in stamps if quiet_from <= sent < start]
    during = [(sent, ms, kind) for sent, ms, kind in stamps if start <= sent <= end]
    q95, d95 = _p95(quiet), _p95([ms for _, ms, _ in during])
    print(
        f"\n## burst {index + 1}: {end - start:.1f} s, claimed at {burst['all_claimed_at'] - start:.1f} s, "
        f"last push {burst['last_push_at'] - start:.1f} s; p95 quiet {q95:.0f} ms, during {d95:.0f} ms, "
        f"{d95 / q95:.2f}x"
    )
    slow = [(sent - start, ms, kind) for sent, ms, kind in during if ms > max(2 * q95, 100)]
    print(f"slow events (> {max(2 * q95, 100):.0f} ms): {len(slow)} of {len(during)}")
    for offset, ms, kind in slow[:40]:
        print(f"  +{offset:5.2f} s {kind:<10} {ms:7.0f} ms")
    window = [s for s in samples if start - 1 <= s["t"] <= end + 1]
    for before, after in itertools.pairwise(window):
        print(f"  {after['t'] - start:+6.2f} s {_sample_line(before, after, hz)}")


def _sample_line(before: dict, after: dict, hz: int) -> str:
    """What happened between two samples: stalls, WAL, the busiest groups, PostgreSQL's waits."""
    seconds = after["t"] - before["t"]
    stall = {
        kind: (after[kind].get("some", 0) - before[kind].get("some", 0)) / 1e6 / seconds
        for kind in ("psi_cpu", "psi_io")
    }
    counters = [b - a for a, b in zip(before["counters"], after["counters"], strict=True)]
    groups = _cores(before, after, hz)
    busy = ", ".join(f"{name} {share:.2f}" for name, share in sorted(groups.items(), key=lambda g: -g[1])[:6])
    waits = "; ".join(_describe(row) for row in after["pg"] if _worth_showing(row))
    return (
        f"cpu-stall {stall['psi_cpu']:.2f} io-stall {stall['psi_io']:.2f} "
        f"wal {counters[6] / 1024:.0f} kB syncs {counters[7]} | {busy} | {waits}"
    )


def _worth_showing(row: list) -> bool:
    """A PostgreSQL session worth a line: waiting on something, or in a transaction for a while."""
    backend, state, wait_type = row[1], row[2], row[3]
    if (
        wait_type == "Activity"
        or row[4] == "CheckpointWriteDelay"
        or (backend == "client backend" and wait_type == "Client" and (row[6] or 0) < 0.2)
    ):
        return False
    return bool(wait_type) or (row[6] or 0) > 0.2 or (backend == "client backend" and state == "active")


def _describe(row: list) -> str:
    backend = "client" if row[1] == "client backend" else row[1]
    blocked = f" blocked by {row[8]}" if row[8] else ""
    return f"{backend} {row[2]} {row[3]}:{row[4]} xact {row[6] or 0:.2f}s {row[5][:50]}{blocked}"


def main() -> None:
    """`--database URL --out FILE` samples until killed; `--read FILE` prints the report."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--database")
    parser.add_argument("--out")
    parser.add_argument("--read")
    args = parser.parse_args()
    if args.read:
        read(Path(args.read))
    elif args.database and args.out:
        sample(args.database, Path(args.out))
    else:
        parser.print_usage(sys.stderr)
        sys.exit(2)


if __name__ == "__main__":
    main()
