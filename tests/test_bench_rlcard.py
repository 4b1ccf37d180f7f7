"""Smoke runs of bench/bench_rlcard.py (the benchmark itself is not a test: no timing is asserted)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_rlcard.py"
TINY = ["--first", "2", "--games", "2", "--rounds", "1"]


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_rlcard", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_shuangkou_side_plays_random_legal_games_to_the_end() -> None:
    """R2.2-R2.5: random legal turns end every game; the figure is turns per CPU second."""
    turns, seconds = load_bench().shuangkou_turns(range(3), random.Random(1))
    assert turns >= 3 and seconds > 0


def test_without_rlcard_the_comparison_says_how_to_install_it() -> None:
    hide_rlcard = (
        f"import runpy, sys; sys.modules['rlcard'] = None; runpy.run_path({str(BENCH)!r}, run_name='__main__')"
    )
    result = subprocess.run([sys.executable, "-c", hide_rlcard, *TINY], capture_output=True, text=True)
    assert result.returncode == 2
    assert "pip install -e '.[bench]'" in result.stderr


def test_with_rlcard_both_engines_and_their_ratio_are_printed() -> None:
    if importlib.util.find_spec("rlcard") is None:
        pytest.skip("RLCard is not installed (pip install -e '.[bench]')")
    result = subprocess.run([sys.executable, str(BENCH), *TINY], capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    rows = {line[:28].strip(): line[28:].split() for line in result.stdout.splitlines()}
    assert float(rows["shuangkou (Rush, 2 seats)"][0].replace(",", "")) > 0
    assert float(rows["RLCard Dou Dizhu (3 seats)"][0].replace(",", "")) > 0
    assert rows["shuangkou / RLCard"][0].endswith("×")
