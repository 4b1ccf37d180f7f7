"""A smoke run of bench/bench_instructions.py (the benchmark itself is not a test: no count is
asserted beyond its being a plausible one)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_instructions.py"


@pytest.mark.skipif(shutil.which("callgrind_control") is None, reason="valgrind is not installed")
def test_the_instructions_benchmark_counts_a_window_of_play_under_callgrind(tmp_path: Path) -> None:
    kept = tmp_path / "dumps"
    command = [sys.executable, str(BENCH), "--tables", "2", "--seating", "8", "--warmup", "4", "--window", "12",
               "--keep", str(kept)]
    result = subprocess.run(command, capture_output=True, text=True, check=True, timeout=600)
    header, row = result.stdout.splitlines()[1:3]
    assert header.split() == ["round", "copy", "actions", "Ir"]
    round_, copy, actions, instructions = row.split()
    assert (round_, copy) == ("1", "this")
    assert int(actions) > 0  # the bots played in the window
    # A Python server's action is hundreds of thousands to tens of millions of instructions.
    assert 1e5 < int(instructions.replace(",", "")) < 1e8
    assert list((kept / "this-1").glob("callgrind.out.*"))  # --keep: the dumps stay for callgrind_annotate


def test_the_instructions_benchmark_refuses_to_keep_dumps_where_a_directory_exists(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, str(BENCH), "--keep", str(tmp_path)], capture_output=True, text=True)
    assert result.returncode == 2
    assert f"--keep {tmp_path}: already exists" in result.stderr
