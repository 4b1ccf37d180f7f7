"""Smoke runs of bench/bench_env.py (the benchmark itself is not a test: no timing is asserted)."""

from __future__ import annotations

import importlib.util
import random
import subprocess
import sys
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parent.parent / "bench" / "bench_env.py"


def load_bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_env", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_random_agents_play_hands_of_a_room_to_the_end() -> None:
    """T8.5: random masked actions end every Tractor hand; the figure is steps per CPU second."""
    steps, seconds = load_bench().room_steps("tractor", range(2), random.Random(1))
    assert steps >= 2 * 25 and seconds > 0


def test_without_rlcard_the_comparison_says_how_to_install_it() -> None:
    hide_rlcard = (
        f"import runpy, sys; sys.modules['rlcard'] = None; runpy.run_path({str(BENCH)!r}, run_name='__main__')"
    )
    result = subprocess.run([sys.executable, "-c", hide_rlcard, "--games", "1"], capture_output=True, text=True)
    assert result.returncode == 2
    assert "pip install -e '.[env,bench]'" in result.stderr
