"""A smoke run of bench/bench_store.py (the benchmark itself is not a test: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_store.py"


def test_the_store_benchmark_runs_every_batch_size() -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH), "--games", "5", "--actions", "32"], capture_output=True, text=True, check=True
    )
    rows = [line.split() for line in result.stdout.splitlines() if line[:1].isdigit()]
    assert [row[0] for row in rows] == ["1", "2", "4", "8", "16"]
    assert rows[0][-1] == "1.0×"
