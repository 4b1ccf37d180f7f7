"""A smoke run of the load test (the benchmark itself is ``shuangkou loadtest``, not a test)."""

from __future__ import annotations

import json
import sys

import pytest

from shuangkou.cli import main
from shuangkou.server.loadtest import LoadSettings, comparison_text, run_load, sweep


def test_a_tiny_load_run_plays_without_errors() -> None:
    report = run_load(LoadSettings(tables=5, duration=3, warmup=1, think=0.3))
    assert report.connected == report.connections == 10
    assert report.errors == {}
    assert report.actions > 10
    assert report.latency_ms["count"] == report.actions
    assert 0 < report.latency_ms["p50"] <= report.latency_ms["p99"] <= report.latency_ms["max"]
    assert report.hint_ms.get("count", 0) == 0  # the bots play from the moves the server pushes after the state
    assert report.server_cpu_percent is not None and report.server_cpu_percent > 0
    assert all(mb is not None and mb > 10 for mb in report.server_memory_mb)
    data = report.to_dict()
    assert data["held"] == report.held
    assert "p99" in report.to_text()


def test_four_seat_tables_get_four_connections_each() -> None:
    report = run_load(LoadSettings(tables=3, duration=3, warmup=1, think=0.3, room="classic"))
    assert report.connected == report.connections == 12
    assert report.errors == {}
    assert report.actions > 10


def test_expert_tables_play_in_a_second_window_beside_the_same_tables() -> None:
    """``--expert-tables``: the run measures the tables alone, then beside tables of one load
    bot against the server's expert bots; both windows and the experts' turns are reported."""
    report = run_load(LoadSettings(tables=3, duration=3, warmup=1, think=0.3, expert_tables=2))
    before = report.without_experts
    assert before is not None and before.expert_tables == 0 and before.without_experts is None
    assert report.expert_tables == 2
    assert report.errors == before.errors == {}
    assert report.actions > 10 and before.actions > 10
    assert report.expert_latency_ms["count"] > 0 and report.expert_turn_ms["count"] > 0
    assert report.expert_turn_ms["p50"] > 0
    text = report.to_text()
    assert "without expert tables:" in text and "with / without expert tables" in text
    assert report.to_dict()["without_experts"]["latency_ms"] == before.latency_ms


def test_bad_expert_table_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--tables", "1", "--expert-tables", "-1"]) == 2
    assert main(["loadtest", "--sweep", "1,2", "--expert-tables", "1"]) == 2
    assert "not with --sweep" in capsys.readouterr().out


@pytest.mark.parametrize("url", ["http://10.1.2.3:8000", "http://192.168.0.1", "http://8.8.8.8"])
def test_only_loopback_addresses_are_targets(url: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--url", url, "--tables", "1", "--duration", "1"]) == 2
    assert "not a loopback address" in json.loads(capsys.readouterr().out)["error"]


def test_bad_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--tables", "0"]) == 2
    assert main(["loadtest", "--sweep", "0,5"]) == 2


def test_a_sweep_against_a_baseline_runs_both_servers_side_by_side() -> None:
    outcome = sweep(LoadSettings(duration=2, warmup=0.5, think=0.3), [3], baseline=sys.executable)
    (before,), (after,) = outcome["baseline_runs"], outcome["runs"]
    assert before["tables"] == after["tables"] == 3
    assert before["actions"] > 0 and after["actions"] > 0
    assert before["server"] != after["server"]  # two servers, one after the other
    rows = comparison_text(outcome).splitlines()
    assert len(rows) == 3 and rows[2].startswith("| 3 | ")


def test_a_baseline_needs_a_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--baseline", "python3", "--tables", "1"]) == 2
