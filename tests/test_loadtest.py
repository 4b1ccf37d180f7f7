"""A smoke run of the load test (the benchmark itself is ``shuangkou loadtest``, not a test)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from shuangkou.cli import main
from shuangkou.loadtest.run import (
    CpuSnapshot,
    LoadSettings,
    ProcessCpu,
    comparison_text,
    cpu_split,
    held_counts,
    run_load,
    sweep,
)


def test_a_tiny_load_run_plays_without_errors() -> None:
    # Quick bots (think 0.1 s), so that even the load generator's share of the window is
    # several clock ticks (the CPU figures count whole ticks of 10 ms).
    report = run_load(LoadSettings(tables=5, duration=3, warmup=1, think=0.1))
    assert report.connected == report.connections == 10
    assert report.errors == {}
    assert report.actions > 50
    assert report.latency_ms["count"] == report.actions
    assert 0 < report.latency_ms["p50"] <= report.latency_ms["p99"] <= report.latency_ms["max"]
    assert report.hint_ms.get("count", 0) == 0  # the bots play from the moves the server pushes after the state
    assert report.server_cpu_percent is not None and report.server_cpu_percent > 0
    assert all(mb is not None and mb > 10 for mb in report.server_memory_mb)
    split = report.cpu_split
    assert list(split) == ["server", "postgresql", "redis", "load generator", "kernel threads", "rest"]
    assert split["server"]["percent"] == report.server_cpu_percent
    assert split["load generator"]["percent"] > 0
    assert report.machine_cpu_percent is not None
    total = sum(share["percent"] for share in split.values())  # the whole machine, in whole clock ticks
    assert abs(total - report.machine_cpu_percent * (os.cpu_count() or 1)) < 3
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


def test_server_args_reach_the_server_the_run_starts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--server-arg``: an option for the servers the run starts. Here a rooms directory
    whose only room the load bots can play in proves that the server read it."""
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "solo.toml").write_text('edition = "points"\nname = "Solo"\n')
    status = main([
        "loadtest", "--tables", "2", "--duration", "2", "--warmup", "0.5", "--think", "0.2", "--room", "solo",
        f"--server-arg=--rooms={rooms}", "--server-arg=--commit-delay=2", "--json",
    ])
    report = json.loads(capsys.readouterr().out)
    assert report["errors"] == {} and report["actions"] > 0, report
    assert status == 0


def test_a_server_refusing_a_server_arg_ends_the_run_with_its_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--tables", "1", "--duration", "1", "--server-arg=--commit-delay=-3"]) == 2
    error = json.loads(capsys.readouterr().out)["error"]
    assert error.startswith("a server of the run did not start") and "--commit-delay: expected 0 or more" in error
    assert main(["loadtest", "--url", "http://127.0.0.1:1", "--server-arg=--commit-delay=2"]) == 2
    assert "not to the one at --url" in json.loads(capsys.readouterr().out)["error"]
    assert main(["loadtest", "--tables", "1", "--duration", "1", "--room", "solo"]) == 2  # a room it lacks
    assert json.loads(capsys.readouterr().out)["error"] == "the server has no room 'solo'"


def test_a_sweep_against_a_baseline_runs_both_servers_side_by_side() -> None:
    outcome = sweep(LoadSettings(duration=2, warmup=0.5, think=0.3), [3], baseline=sys.executable)
    (before,), (after,) = outcome["baseline_runs"], outcome["runs"]
    assert before["tables"] == after["tables"] == 3
    assert before["actions"] > 0 and after["actions"] > 0
    assert before["server"] != after["server"]  # two servers, one after the other
    figures, split = comparison_text(outcome).split("\n\n")
    rows = figures.splitlines()
    assert len(rows) == 3 and rows[2].startswith("| 3 | ")
    assert rows[0].startswith("| tables | server CPU per action: baseline / this (ratio) |")
    assert [row.split(" | ")[:2] for row in split.splitlines()[2:]] == [["| 3", "1"], ["| 3", "1"]]


def test_a_baseline_needs_a_sweep(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["loadtest", "--baseline", "python3", "--tables", "1"]) == 2
    assert main(["loadtest", "--repeat", "2", "--tables", "1"]) == 2
    assert "go with --sweep" in json.loads(capsys.readouterr().out.splitlines()[-1])["error"]
    assert main(["loadtest", "--sweep", "1", "--repeat", "0"]) == 2
    assert "--repeat must be at least 1" in json.loads(capsys.readouterr().out.splitlines()[-1])["error"]


def _run(tables: int, p99: float, played: bool = True) -> dict[str, object]:
    return {"tables": tables, "played": played, "latency_ms": {"p99": p99}}


def test_a_count_run_several_times_holds_by_the_median_p99_and_no_run_with_an_error() -> None:
    runs = [
        _run(100, 40), _run(100, 150), _run(100, 60),  # one spike: the median holds
        _run(200, 90), _run(200, 120), _run(200, 130),  # one good run: the median does not
        _run(300, 20), _run(300, 30, played=False), _run(300, 25),  # a run with an error
        _run(400, 99.9),  # one run: its own p99, as a single run's held says
        _run(500, 100.0),
    ]
    assert sorted(held_counts(runs, 100.0)) == [100, 400]


def test_a_repeated_sweep_runs_each_pair_in_turn(capsys: pytest.CaptureFixture[str]) -> None:
    status = main([
        "loadtest", "--sweep", "2", "--repeat", "2", "--baseline", sys.executable, "--duration", "1.5",
        "--warmup", "0.3", "--think", "0.3", "--json",
    ])
    outcome = json.loads(capsys.readouterr().out)
    assert outcome["repeat"] == 2
    assert [run["tables"] for run in outcome["runs"]] == [run["tables"] for run in outcome["baseline_runs"]] == [2, 2]
    assert all(run["played"] for run in outcome["runs"] + outcome["baseline_runs"])
    assert outcome["largest_held"] == (2 if held_counts(outcome["runs"], 100.0) else None)
    assert status == (0 if outcome["largest_held"] is not None else 1)


def _process(name: str, parent: int, seconds: float, started: int = 100) -> ProcessCpu:
    return ProcessCpu(name, parent, started, seconds)


def test_the_cpu_split_counts_each_process_once_in_its_group() -> None:
    """Nodes with their child processes, PostgreSQL, Redis, the generator, the kernel's
    threads (whatever their changing names) and the rest, which takes the busy time no
    process listed at the end accounts for."""
    start = CpuSnapshot({
        10: _process("python", 1, 5.0), 11: _process("python", 1, 7.0), 12: _process("python", 10, 1.0),
        20: _process("postgres", 1, 3.0), 21: _process("postgres", 20, 2.0), 22: _process("postgres", 20, 1.0),
        30: _process("redis-server", 1, 4.0), 40: _process("kworker/0:1-events", 2, 0.5),
        50: _process("shuangkou", 1, 2.0), 60: _process("python", 1, 9.0),
    }, 100.0)
    end = CpuSnapshot({
        10: _process("python", 1, 6.0), 11: _process("python", 1, 7.5), 12: _process("python", 10, 1.25),
        20: _process("postgres", 1, 3.0), 21: _process("postgres", 20, 2.5),  # 22 ended: its time is the rest's
        23: _process("postgres", 20, 0.25),  # born in the window: counts whole
        30: _process("redis-server", 1, 4.125), 40: _process("kworker/0:1-virtio_vsock", 2, 0.75),
        50: _process("shuangkou", 1, 2.5),
        60: _process("python", 1, 0.5, started=900),  # another process with an earlier one's pid
    }, 106.0)
    split = cpu_split(start, end, seconds=2.0, actions=500, nodes=[10, 11], generator=50)
    percent = {group: share["percent"] for group, share in split.items()}
    assert percent == {
        "node 1": 62.5, "node 2": 25.0, "postgresql": 37.5, "redis": 6.2, "load generator": 25.0,
        "kernel threads": 12.5, "rest": 131.2,
    }
    assert split["node 1"]["ms_per_action"] == 2.5 and split["rest"]["ms_per_action"] == 5.25
    assert sum(percent.values()) == 299.9  # the machine's 6 s of 2 s, less rounding


def test_the_cpu_split_never_has_a_negative_rest_nor_a_cost_without_actions() -> None:
    start = CpuSnapshot({10: _process("python", 1, 1.0)}, 50.0)
    end = CpuSnapshot({10: _process("python", 1, 2.02)}, 51.0)  # whole ticks: a process may seem ahead
    split = cpu_split(start, end, seconds=1.0, actions=0, nodes=[10], generator=99)
    assert split["server"] == {"percent": 102.0, "ms_per_action": None}
    assert split["rest"] == {"percent": 0.0, "ms_per_action": None}


def test_a_comparison_prints_where_the_cpu_went_in_each_run() -> None:
    def run(nodes: int, split: dict[str, float]) -> dict[str, object]:
        return {
            "tables": 300, "nodes": nodes, "actions_per_second": 250.0, "server_cpu_ms_per_action": 3.0,
            "latency_ms": {"p99": 90.0},
            "cpu_split": {group: {"percent": value, "ms_per_action": value / 25} for group, value in split.items()},
        }

    one = run(1, {"server": 50.0, "postgresql": 20.0, "rest": 5.0})
    two = run(2, {"node 1": 40.0, "node 2": 45.0, "postgresql": 25.0, "rest": 10.0})
    text = comparison_text({"baseline_runs": [one], "runs": [two]})
    assert text.startswith("| tables | server CPU per action: 1 node / 2 nodes (ratio) | p99 ms: 1 node / 2 nodes |")
    assert "| tables | nodes | actions/s | server | node 1 | node 2 | postgresql | rest |" in text
    assert "| 300 | 1 | 250.0 | 50 % (2.0 ms) |  |  | 20 % (0.8 ms) | 5 % (0.2 ms) |" in text
    assert "| 300 | 2 | 250.0 |  | 40 % (1.6 ms) | 45 % (1.8 ms) | 25 % (1.0 ms) | 10 % (0.4 ms) |" in text


def test_a_server_log_counts_structured_errors_and_uvicorns_own(tmp_path: Path) -> None:
    """A load run counts the server's logged errors: its JSON records at ERROR and above,
    and uvicorn's plain "ERROR:" lines (an exception in a WebSocket handler is logged only so)."""
    from shuangkou.server.process import ServerProcess

    server = ServerProcess(tmp_path)
    server.log_path.write_text(
        "Shuangkou is running at http://127.0.0.1:1/\n"
        '{"level": "INFO", "message": "seated"}\n'
        '{"level": "ERROR", "message": "settlement failed"}\n'
        '{"level": "CRITICAL", "message": "database lost"}\n'
        '{"level": "WARNING", "message": "heartbeat failed"}\n'
        "ERROR:    Exception in ASGI application\n"
        "Traceback (most recent call last):\n"
        "redis.exceptions.MaxConnectionsError: Too many connections\n"
        "{not json\n"
    )
    assert server.log_errors() == 3


def test_errors_before_the_window_count_apart_and_none_while_stopping() -> None:
    """An error while players are seated or warm up (a redirect that failed leaves a player
    without a table for the whole window) is reported as ``warmup:CODE``; one while the
    run stops is not an error of the server."""
    from shuangkou.loadtest.run import _Run

    run = _Run(LoadSettings(), "http://127.0.0.1:1")
    run.error("redirect_failed")
    run.measuring = True
    run.error("connection_lost")
    run.measuring, run.stopping = False, True
    run.error("connection_lost")
    assert run.errors == {"warmup:redirect_failed": 1, "connection_lost": 1}


def test_a_cluster_run_says_how_many_tables_each_node_ran() -> None:
    from shuangkou.loadtest.run import LoadReport

    report = LoadReport(
        tables=300, connections=600, connected=600, seconds=20.0, actions=5000, actions_per_second=250.0,
        per_table_actions_per_second=0.83, latency_ms={"p99": 40.0}, hint_ms={}, games_finished=100, errors={},
        server_cpu_percent=40.0, server_cpu_ms_per_action=1.6, server_memory_mb=(100.0, 110.0),
        server_histograms={}, machine_cpu_percent=50.0, load_average=1.0,
        setup_seconds=2.0, server="http://127.0.0.1:1, http://127.0.0.1:2", target_p99_ms=100.0, nodes=2,
        redirects=290, node_tables={"node-1": 140, "node-2": 160},
    )
    assert "tables per node at the window's end: node-1 140, node-2 160" in report.to_text()
    assert report.to_dict()["node_tables"] == {"node-1": 140, "node-2": 160}


def test_a_bot_follows_a_redirect_to_the_node_it_names_and_joins_there() -> None:
    """A quick match's ``redirect`` (its ``table`` a table id, not a state's table) makes the
    bot close its socket, connect to the named node, and join the table there."""
    import asyncio

    import orjson
    from websockets.asyncio.server import ServerConnection, serve

    from shuangkou.loadtest.run import _Bot, _Run

    async def main() -> None:
        joins: list[dict[str, object]] = []
        arrived = asyncio.Event()

        async def node(connection: ServerConnection) -> None:
            await connection.send('{"type":"welcome"}')
            async for message in connection:
                joins.append(json.loads(message))
                arrived.set()

        async with serve(node, "127.0.0.1", 0) as first, serve(node, "127.0.0.1", 0) as second:
            ports = [next(iter(server.sockets)).getsockname()[1] for server in (first, second)]
            run = _Run(LoadSettings(), f"http://127.0.0.1:{ports[0]}")
            bot = _Bot(run, 0)
            await bot.open(f"http://127.0.0.1:{ports[0]}")
            old = bot.socket
            redirect = {"type": "redirect", "url": f"http://127.0.0.1:{ports[1]}", "table": "t1", "room": "points"}
            bot.received(orjson.dumps(redirect))
            await asyncio.wait_for(arrived.wait(), 10)
            assert joins == [{"type": "join", "table": "t1", "room": "points", "redirected": True}]
            assert old is not None and old.ended.done() and old.ended.result() is True
            assert bot.socket is not None and bot.socket is not old and bot.socket.open
            assert run.redirects == 1
            bot.received(b'{"type":"state","table":{"seq":"not a number"}}')
            assert run.errors == {"warmup:unreadable_message": 1}
            await bot.close()

    asyncio.run(main())


def test_a_socket_that_ends_before_its_welcome_fails_the_open_and_one_lost_after_it_is_an_error() -> None:
    import asyncio

    from websockets.asyncio.server import ServerConnection, serve

    from shuangkou.loadtest.run import _Bot, _Run

    async def main() -> None:
        async def refuse(connection: ServerConnection) -> None:
            await connection.close(1000)

        async def welcome_then_drop(connection: ServerConnection) -> None:
            await connection.send('{"type":"welcome"}')
            await asyncio.sleep(0.1)
            connection.transport.abort()

        async with serve(refuse, "127.0.0.1", 0) as closing, serve(welcome_then_drop, "127.0.0.1", 0) as dropping:
            closing_port, dropping_port = (next(iter(s.sockets)).getsockname()[1] for s in (closing, dropping))
            run = _Run(LoadSettings(), f"http://127.0.0.1:{closing_port}")
            run.measuring = True
            bot = _Bot(run, 0)
            with pytest.raises(ConnectionError, match="before the welcome"):
                await bot.open(f"http://127.0.0.1:{closing_port}")
            assert run.errors == {}  # the open failed: the caller counts that (connect:…, redirect_failed)
            await bot.open(f"http://127.0.0.1:{dropping_port}")
            assert bot.socket is not None
            await asyncio.wait_for(asyncio.shield(bot.socket.ended), 5)
            await asyncio.sleep(0)
            assert run.errors == {"connection_lost": 1}

    asyncio.run(main())
