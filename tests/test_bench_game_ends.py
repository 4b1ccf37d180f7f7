"""A smoke run of bench/bench_game_ends.py (the benchmark itself is not a test: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_game_ends.py"


def test_the_game_ends_benchmark_prints_every_part_beside_a_baseline() -> None:
    command = [sys.executable, str(BENCH), "--games", "2", "--rounds", "1", "--baseline", sys.executable]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    parts = ["escape costs", "seat views", "record at the deal", "record at the end", "settlement", "total"]
    rows = {line[:22].strip(): line[22:].split() for line in lines[2:]}
    assert list(rows) == parts
    assert all(len(row) == 3 and float(row[0]) > 0 and float(row[1]) > 0 for row in rows.values())
