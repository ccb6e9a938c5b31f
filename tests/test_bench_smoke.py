"""The load benchmark runs (bench/throughput.py --smoke), so it never rots. Speed is printed, never asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Every kind of system the full run measures, except the alternative HTTP stacks (granian, uvicorn's h11) and the
# projections-off server, which only repeat the http-pg client against another server command.
SYSTEMS = "raw,eventsourcing,inprocess-pg,http-pg,http-sqlite-3,paced,flat,log"


@pytest.mark.postgres
def test_the_benchmark_smoke_run_prints_its_table(pg_url: str) -> None:
    """Each system runs for half a second with 2 clients and lands in the table, with its ratios."""
    env = {**os.environ, "TURNSTILE_DATABASE_URL": os.environ["TURNSTILE_DATABASE_URL"]}
    done = subprocess.run([sys.executable, "bench/throughput.py", "--smoke", "--only", SYSTEMS], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    table = done.stdout[done.stdout.index("| system (same run) |"):]
    for row in ("| raw |", "| eventsourcing |", "| inprocess-pg |", "| http-pg |", "| http-sqlite-3 |",
                "| http-pg-half-rate |"):
        assert row in table
    assert "global log read" in table and "rebuild of all" in table
    assert "pg move, cold cache" in table and "sqlite move, behind cache" in table


@pytest.mark.postgres
def test_the_live_latency_smoke_run_prints_its_numbers(pg_url: str) -> None:
    """bench/live_latency.py --smoke: streams receive live events and idle streams are opened and measured."""
    env = {**os.environ, "TURNSTILE_DATABASE_URL": os.environ["TURNSTILE_DATABASE_URL"]}
    done = subprocess.run([sys.executable, "bench/live_latency.py", "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "deliveries, delay p50" in done.stdout and "idle streams:" in done.stdout
    assert "streams failed" not in done.stderr, done.stderr[-3000:]


def test_the_bot_speed_bench_prints_every_level_of_every_game() -> None:
    """bench/bot_speed.py on one position a game: a row per game and bot level above `random` (times printed, not
    asserted)."""
    done = subprocess.run([sys.executable, "bench/bot_speed.py", "--positions", "1"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    rows = [line.split()[:2] for line in done.stdout.splitlines()[1:] if not line.startswith("  !")]
    assert rows == [[game, level] for game in ("expect-delays", "mass-transit", "metro-x", "terminus", "touched-on")
                    for level in ("greedy", "ismcts-1", "ismcts-2", "ismcts-3")]


def test_the_bot_ladder_plays_one_pairing_from_a_later_seed() -> None:
    """bench/bot_ladder.py with `--pairing`, `--first` and `--each` (adding matches of new seeds to a pairing): one
    Terminus match of ismcts-1 against random, seed 3, its own line and the pairing's row."""
    done = subprocess.run([sys.executable, "bench/bot_ladder.py", "--games", "terminus", "--pairing",
                           "random:ismcts-1", "--first", "3", "--matches", "1", "--each"], cwd=ROOT,
                          capture_output=True, text=True, timeout=300)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    lines = done.stdout.splitlines()
    assert lines[0].startswith("  seed 3: ismcts-1 in seat 0 "), lines  # odd seeds: the higher level first
    assert lines[1].split()[:4] == ["terminus", "ismcts-1", "vs", "random"], lines
    assert len(lines) == 3 and lines[2].startswith("terminus") and "CPU" in lines[2], lines


@pytest.mark.postgres
def test_the_peers_smoke_run_prints_server_and_database_cpu_per_move(pg_url: str) -> None:
    """bench/peers_cpu.py --smoke on the eventsourcing app (bench/es_app.py, its aggregate cache on): it serves
    moves and its row carries CPU per move. boardgame.io needs node_modules and the bare stack another server start
    (CI time), so neither runs here; bench/README.md has the full run."""
    env = {**os.environ, "TURNSTILE_DATABASE_URL": os.environ["TURNSTILE_DATABASE_URL"]}
    done = subprocess.run([sys.executable, "bench/peers_cpu.py", "--smoke", "--only", "es-cache", "--workers", "1"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    rows = [line.split("|")[2:-1] for line in done.stdout.splitlines() if line.startswith("| es-cache |")]
    assert len(rows) == 2, done.stdout[-3000:]  # its CPU, then what its database was asked to do
    transactions, rows_written, by_table = float(rows[1][0]), float(rows[1][1]), rows[1][2]
    assert transactions >= 1 and rows_written >= 1 and "cards_events" in by_table, rows[1]
    moves_per_s, requests_per_move, server_ms = (float(rows[0][0].replace(",", "")), float(rows[0][1]),
                                                 float(rows[0][2].split()[0]))
    assert moves_per_s > 0 and server_ms > 0, rows
    assert 1 <= requests_per_move < 1.2  # a POST a move, and a POST a match of 30 moves


def test_the_insights_scale_bench_runs_on_a_small_population() -> None:
    """bench/insights_scale.py loads its synthetic facts into SQLite and times every question (a few hundred
    matches, one run): the table's row is printed."""
    done = subprocess.run([sys.executable, "bench/insights_scale.py", "--stores", "sqlite", "--sizes", "300",
                           "--runs", "1"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "| sqlite | 300 | 1 |" in done.stdout and "/ 150 |" in done.stdout


@pytest.mark.parametrize("kind", ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def test_the_export_scale_bench_exports_every_record_it_loads(kind: str, tmp_path: Path) -> None:
    """bench/export_scale.py on 40 matches (bench/export_fill.py's clones of service-played templates): every window
    and the whole export give every record, none down the careful path, three records a window pass `turnstile verify
    --key` (the bench asserts all that), and its tables and, on PostgreSQL, the page read's plans are printed."""
    plans = tmp_path / "plans.txt"
    done = subprocess.run([sys.executable, "bench/export_scale.py", "--store", kind, "--sizes", "40", "--window", "10",
                           "--runs", "1", "--templates", "10", "--full-at", "40", "--explain", "--plans", str(plans)],
                          cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for row in ("| 40 | start | in process |", "| 40 | end | over HTTP |", "| 40 | middle |",
                "| 40 | a player in none |", "full export of 40:"):
        assert row in done.stdout, done.stdout[-3000:]
    assert (kind == "postgres") == plans.exists()
    if kind == "postgres":
        assert "log_leaves" in plans.read_text() and "Execution Time" in plans.read_text()


def test_the_export_filters_bench_fills_and_times_every_case(tmp_path: Path) -> None:
    """bench/export_filters.py fills a SQLite store with 40 matches and times each filter case on it: the cases that
    find none give none, the first pages give all 40."""
    import json

    url = f"sqlite:///{tmp_path / 'filters.db'}"
    for step in (["fill", url, "--to", "40"], ["time", url, "--size", "40"]):
        done = subprocess.run([sys.executable, "bench/export_filters.py", *step], cwd=ROOT, capture_output=True,
                              text=True, timeout=300)
        assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    found = {name: count for name, (_, count) in json.loads(done.stdout.splitlines()[-1])["ms"].items()}
    assert found["a player in none"] == found["a game with none"] == found["since after the last"] == 0
    assert found["no filter, first page"] == found["the game of all, first page"] == 40
