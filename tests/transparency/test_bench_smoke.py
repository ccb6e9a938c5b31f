"""bench/transparency.py runs (--smoke, SQLite), so it never rots. Speed is printed, never asserted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def test_the_log_benchmark_smoke_run_prints_its_numbers() -> None:
    env = {k: v for k, v in os.environ.items() if k != "TURNSTILE_DATABASE_URL"}
    done = subprocess.run([sys.executable, "bench/transparency.py", "--smoke"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    for said in ("proofs: filled 5,000 leaves", "inclusion (service): p50", "consistency (service): p50",
                 "sequence (sqlite):", "leaves/s", "load (sqlite, a match of", "the checks add"):
        assert said in done.stdout, done.stdout
