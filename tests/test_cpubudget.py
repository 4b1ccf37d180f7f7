"""The load test's CPU budgets (shuangkou.loadtest.cpubudget): a real control group of this
machine holding a real process, and ``loadtest --node-cpu``. Skipped where no control
group can be made (not root, or no cpu controller)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from shuangkou.cli import main
from shuangkou.loadtest.cpubudget import PERIOD_US, CpuBudget, CpuBudgetError
from shuangkou.loadtest.run import LoadSettings, run_load


def _budget(cores: float) -> CpuBudget:
    try:
        return CpuBudget(cores, f"shuangkou-test-{os.getpid()}-{time.monotonic_ns()}")
    except CpuBudgetError as problem:
        pytest.skip(str(problem))


def test_a_process_in_a_budget_is_held_to_it() -> None:
    """A busy process in a budget of a fifth of a core is held back (throttled periods);
    the group is gone once the process has ended."""
    budget = _budget(0.2)
    quota_file = budget.path / ("cpu.cfs_quota_us" if (budget.path / "cpu.cfs_quota_us").exists() else "cpu.max")
    assert quota_file.read_text().split()[0] == str(PERIOD_US // 5)
    busy = subprocess.Popen([sys.executable, "-c", "while True: pass"])
    try:
        budget.add(busy.pid)
        assert budget.pids() == [busy.pid]
        deadline = time.monotonic() + 30
        while budget.throttled() == 0:
            assert time.monotonic() < deadline, "a busy process was never held back"
            time.sleep(0.05)
    finally:
        busy.kill()
        busy.wait()
    budget.close()
    assert not budget.path.exists()


def test_a_budget_must_be_above_nothing() -> None:
    with pytest.raises(CpuBudgetError, match="above 0"):
        CpuBudget(0, "never-made")


def test_a_load_run_holds_its_server_to_the_budget(capsys: pytest.CaptureFixture[str]) -> None:
    """``--node-cpu``: the server plays in its budget, the report says so, and the group is
    removed after the run."""
    _budget(0.5).close()  # skips where none can be made
    report = run_load(LoadSettings(tables=3, duration=2, warmup=0.5, think=0.3, node_cpu=0.5))
    assert report.errors == {} and report.actions > 0
    assert report.node_cpu == 0.5 and "each held to 0.5 of a core" in report.to_text()
    assert main(["loadtest", "--tables", "1", "--node-cpu", "0"]) == 2
    assert "--node-cpu must be above 0" in json.loads(capsys.readouterr().out)["error"]
    assert main(["loadtest", "--url", "http://127.0.0.1:1", "--node-cpu", "0.5"]) == 2
    assert "not to the one at --url" in json.loads(capsys.readouterr().out)["error"]
