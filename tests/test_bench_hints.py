"""A smoke run of bench/bench_hints.py (the benchmark itself is not a test: no timing is asserted)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_hints.py"


def test_the_hints_benchmark_compares_two_interpreters_listing_the_same_moves() -> None:
    command = [sys.executable, str(BENCH), "--games", "3", "--warmup", "1", "--rounds", "1"]
    command += ["--baseline", sys.executable]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    lines = result.stdout.splitlines()
    rows = {line[:12].strip(): line[12:].split() for line in lines[2:6]}
    assert list(rows) == ["first lead", "lead", "follow", "every turn"]
    assert rows["first lead"][0] == "3"  # one first lead a game
    assert lines[-1].endswith("at every turn: yes")
