"""Several ``shuangkou serve`` processes (nodes) on one PostgreSQL database and one Redis
(docs/deployment.md): start-up checks, the node registry, routing, takeover after a crash,
and fencing of a paused node.

Every test starts real server processes on a throwaway PostgreSQL database (from
``SHUANGKOU_TEST_PG_URL``) and a Redis (``SHUANGKOU_TEST_REDIS_URL``, default
``redis://127.0.0.1:6379/0``) under a cluster name of its own, whose keys are deleted
afterwards. Without either the tests skip, saying which is missing.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import redis
from pg import PG_URL_VARIABLE, pg_admin_url, throwaway_database
from server_players import close_all, finish_by_hosting, play_turns, seat_pair
from server_processes import ROOM, check_ledger, replay_matches, run, server_process, write_rooms
from sqlalchemy import create_engine, text

from shuangkou.loadtest.run import CpuSnapshot, LoadSettings, run_load
from shuangkou.server.client import Client
from shuangkou.server.process import ServerProcess

REDIS_URL_VARIABLE = "SHUANGKOU_TEST_REDIS_URL"


@pytest.fixture
def redis_url() -> Iterator[str]:
    url = os.environ.get(REDIS_URL_VARIABLE, "redis://127.0.0.1:6379/0")
    client = redis.Redis.from_url(url, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as problem:
        pytest.skip(f"no Redis at {url} ({problem}); set {REDIS_URL_VARIABLE} to run the cluster tests")
    finally:
        client.close()
    yield url


@pytest.fixture
def database_url() -> Iterator[str]:
    admin_url = pg_admin_url()
    if admin_url is None:
        pytest.skip(f"a cluster needs PostgreSQL: set {PG_URL_VARIABLE} to run the cluster tests")
    with throwaway_database(admin_url) as database:
        yield database.render_as_string(hide_password=False)


@pytest.fixture
def cluster_name(redis_url: str) -> Iterator[str]:
    """A cluster name of this test's own; its Redis keys are deleted afterwards."""
    name = f"test-{uuid.uuid4().hex[:10]}"
    yield name
    client = redis.Redis.from_url(redis_url)
    keys = list(client.scan_iter(match=f"{name}:*"))
    if keys:
        client.delete(*keys)
    client.close()


@pytest.fixture
def make_node(
    tmp_path: Path, database_url: str, redis_url: str, cluster_name: str
) -> Iterator[Callable[..., ServerProcess]]:
    """Nodes of one cluster (not yet started): ``make_node("a")``, each with its own data directory."""
    rooms = write_rooms(tmp_path / "rooms")
    nodes: list[ServerProcess] = []

    def make(node_id: str, bot_delay: float = 0.01, drain: float = 30.0) -> ServerProcess:
        process = server_process(
            tmp_path / f"node-{node_id}-{len(nodes)}", database_url, rooms, bot_delay,
            ("--drain-seconds", str(drain), "--redis-url", redis_url, "--node-id", node_id, "--cluster", cluster_name),
        )
        nodes.append(process)
        return process

    yield make
    for process in nodes:
        if process.process is not None and process.process.poll() is None:
            process.resume()
        process.kill()


@pytest.fixture
def directory(redis_url: str, cluster_name: str) -> Iterator[Callable[[str], dict[str, str]]]:
    """The cluster's directory in Redis: ``directory("tables")`` (table → node), ``"seats"``
    (account → table), ``"nodes"`` (node → status)."""
    client = redis.Redis.from_url(redis_url, decode_responses=True)

    def listed(name: str) -> dict[str, str]:
        return {str(key): str(value) for key, value in client.hgetall(f"{cluster_name}:{name}").items()}

    yield listed
    client.close()


def serve_fails(*args: str, timeout: float = 30) -> str:
    """Run ``shuangkou serve`` expecting it to refuse to start: its standard error."""
    command = [sys.executable, "-m", "shuangkou", "serve", "--host", "127.0.0.1", "--port", "0", *args]
    done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Shuangkou is running" not in done.stdout
    return done.stderr


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def logged(server: ServerProcess, message: str) -> list[dict[str, Any]]:
    return [record for record in server.log_records() if record.get("message") == message]


async def abandon(*clients: Client) -> None:
    """Drop connections to a node that is stopped or dead, without a closing handshake."""
    for client in clients:
        if client.socket is not None:
            client.socket.transport.abort()


async def rejoin(url: str, old: Client) -> Client:
    """The player connects again (to ``url``, any node) with the same token."""
    client = Client(url, old.token, old.account)
    await client.connect()
    return client


# -- start-up ---------------------------------------------------------------------------


def test_start_up_refuses_what_cannot_work(tmp_path: Path, redis_url: str, database_url: str) -> None:
    sqlite = f"sqlite:///{tmp_path / 'one.db'}"
    error = serve_fails("--data-dir", str(tmp_path / "a"), "--database-url", sqlite,
                        "--redis-url", redis_url, "--node-id", "a")
    assert "a cluster (--redis-url) needs PostgreSQL" in error
    error = serve_fails("--data-dir", str(tmp_path / "b"), "--node-id", "a")
    assert "--node-id make this server a node of a cluster: give --redis-url too" in error
    error = serve_fails("--data-dir", str(tmp_path / "c"), "--database-url", database_url, "--redis-url", redis_url)
    assert "give it a --node-id" in error
    error = serve_fails("--data-dir", str(tmp_path / "d"), "--database-url", database_url,
                        "--redis-url", "redis://127.0.0.1:1/0", "--node-id", "a")
    assert "cannot reach Redis at redis://127.0.0.1:1/0" in error


def test_a_live_node_id_is_refused_and_a_single_server_cannot_join(
    make_node: Callable[..., ServerProcess], database_url: str, redis_url: str, cluster_name: str, tmp_path: Path
) -> None:
    first = make_node("a").start(60)
    started = time.monotonic()
    error = serve_fails("--data-dir", str(tmp_path / "again"), "--database-url", database_url,
                        "--redis-url", redis_url, "--node-id", "a", "--cluster", cluster_name)
    assert time.monotonic() - started >= 5  # it waited for the key to expire, as after a crash
    assert f"node id 'a' is live in cluster '{cluster_name}' (a node at {first.url}" in error
    error = serve_fails("--data-dir", str(tmp_path / "single"), "--database-url", database_url)
    assert "another server holds the lease" in error
    assert first.get("/healthz")["node"] == "a"


# -- two nodes --------------------------------------------------------------------------


def test_nodes_share_accounts_and_lobby_and_route_players_to_their_table(
    make_node: Callable[..., ServerProcess],
) -> None:
    a, b = make_node("a").start(60), make_node("b").start(60)

    async def scenario() -> None:
        pair = await seat_pair(a)  # the guests were made on a; b accepts their tokens
        wait_for(lambda: _players(b) == 2, 5, "b's lobby to show the players seated on a")
        elsewhere = await rejoin(b.url, pair[0])  # a second connection, to b: sent to a
        assert elsewhere.base_url == a.url
        view = await elsewhere.until(lambda table: table["phase"] == "playing")
        assert view["id"] == pair[0].table["id"] if pair[0].table else False
        carol = await Client.guest(b.url, "Carol")
        welcome = await carol.connect()  # seated nowhere: welcomed by b
        assert carol.base_url == b.url and welcome["type"] == "welcome"
        await carol.join("points", opponent="invite")
        invite = await carol.until(lambda table: True)
        wait_for(lambda: _players(a) == 3, 5, "a to see carol seated on b")
        dave = await Client.guest(a.url, "Dave")
        await dave.connect()
        await dave.join(table=invite["id"])  # an invite link to a table of b, opened on a
        await dave.until(lambda table: table["id"] == invite["id"])
        assert dave.base_url == b.url
        await close_all(carol, dave, elsewhere, *pair)

    run(scenario())
    # Any node shows the whole cluster, and says which node it is.
    wait_for(lambda: b.get("/api/admin/cluster")["tables"] == 2, 5, "b to count every table")
    view = b.get("/api/admin/cluster")
    assert view["node"] == "b" and [node["node"] for node in view["nodes"]] == ["a", "b"]
    assert [(node["url"], node["tables"]) for node in view["nodes"]] == [(a.url, 1), (b.url, 1)]
    with urllib.request.urlopen(b.url + "/metrics", timeout=10) as response:
        metrics = response.read().decode()
    assert 'shuangkou_node{node="b"} 1.0' in metrics
    assert "shuangkou_cluster_nodes 2.0" in metrics
    assert 'shuangkou_cluster_tables{node="a"} 1.0' in metrics


def test_the_load_test_drives_two_nodes(database_url: str, redis_url: str) -> None:
    """``shuangkou loadtest --nodes 2``: a small run on a cluster of its own, with no error."""
    settings = LoadSettings(
        tables=4, duration=2, warmup=1, think=0.2, nodes=2, cluster=True, database_url=database_url,
        redis_url=redis_url,
    )
    report = run_load(settings)
    assert report.nodes == 2 and len(report.server.split(", ")) == 2
    assert report.connected == report.connections == 8
    assert report.errors == {} and report.actions > 0
    assert len(report.node_tables) == 2 and sum(report.node_tables.values()) == 4, report.node_tables
    split = report.cpu_split
    assert list(split) == ["node 1", "node 2", "postgresql", "redis", "load generator", "kernel threads", "rest"]
    assert split["node 1"]["percent"] > 0 and split["node 2"]["percent"] > 0
    assert all(share["percent"] >= 0 for share in split.values()), split
    # PostgreSQL's few commits in two seconds may take less than one clock tick, so its share
    # can read 0.0; what the split relies on is that the server's processes go by that name.
    assert any(process.name == "postgres" for process in CpuSnapshot.read().processes.values())
    assert report.server_cpu_percent == round(split["node 1"]["percent"] + split["node 2"]["percent"], 1)
    # The run played in a schema of its own, dropped afterwards: the database is as it was.
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            names = connection.exec_driver_sql("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg_%%'")
            assert sorted(name for (name,) in names) == ["information_schema", "public"]
            tables = connection.exec_driver_sql("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            assert tables.scalar() == 0
    finally:
        engine.dispose()


def _waiting_seen(server: ServerProcess, node: str) -> dict[str, int]:
    """How many tables ``node`` lists where players wait, per room, as ``server`` last read it
    (a table is listed once its players have waited a heartbeat)."""
    nodes = server.get("/api/admin/cluster")["nodes"]
    return next((dict(status["waiting"]) for status in nodes if status["node"] == node), {})


def _players(server: ServerProcess, room: str = "points", what: str = "players") -> int:
    rooms = server.get("/api/rooms")["rooms"]
    return sum(found[what] for found in rooms if found["name"] == room)


def test_quick_match_groups_players_of_three_nodes_at_one_table(
    make_node: Callable[..., ServerProcess], database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Four players of a four-seat room, connected to three nodes, sit at one table (on the
    node where the first waits) and play a whole game."""
    a, b, c = make_node("a").start(60), make_node("b").start(60), make_node("c").start(60)
    nodes = (a, b, c, b)

    async def scenario() -> tuple[dict[str, Any], list[Client]]:
        players: list[Client] = []
        for number, (node, name) in enumerate(zip(nodes, ("Ann", "Bob", "Cid", "Dee"), strict=True)):
            if number:  # every node lists the table where the others wait (its heartbeat)
                wait_for(lambda n=number: _players(nodes[n], "classic", "free_seats") == 4 - n
                         and _waiting_seen(nodes[n], "a") == {"classic": 1}, 5, "the waiting table to be listed")
            player = await Client.guest(node.url, name)
            await player.connect()
            await player.join("classic")
            await player.until(lambda table: True)
            assert player.base_url == a.url  # sent to the node where the first player waits
            players.append(player)
        assert len({player.table["id"] for player in players if player.table}) == 1
        for player in players:
            await player.ready()
        for player in players:
            await player.until(lambda table: table["phase"] == "playing")
        final = await finish_by_hosting(tuple(players))
        await close_all(*players)
        return final, players

    final, players = run(scenario())
    accounts = [player.account["id"] for player in players]
    paid = check_ledger(database_url, final["game_id"], accounts)
    assert sorted(paid) == sorted(accounts)
    replay_matches(database_url, final["game_id"], capsys)


def test_a_game_on_a_killed_node_finishes_on_another_paid_once(
    make_node: Callable[..., ServerProcess], database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = make_node("a").start(60), make_node("b").start(60)

    async def scenario() -> tuple[str, dict[str, Any], list[int]]:
        pair = await seat_pair(a)
        await play_turns(pair, 6)
        before = pair[0].table
        assert before is not None
        a.kill()
        await abandon(*pair)
        # The players come back to b (as a load balancer would send them): it waits for the
        # takeover, then seats them at their table, where the game goes on.
        ann = await rejoin(b.url, pair[0])
        view = await ann.until(lambda table: table["game_id"] == before["game_id"], timeout=30)
        assert view["id"] == before["id"] and view["game"]["hand"] == before["game"]["hand"]
        assert view["game"]["seq"] == before["game"]["seq"]
        bob = await rejoin(b.url, pair[1])
        await bob.until(lambda table: table["game_id"] == before["game_id"])
        await play_turns((ann, bob), 2)
        final = await finish_by_hosting((ann, bob))
        await close_all(ann, bob)
        return before["game_id"], final, [ann.account["id"], bob.account["id"]]

    game_id, final, accounts = run(scenario())
    assert final["game_id"] == game_id and final["settlement"] is not None
    paid = check_ledger(database_url, game_id, accounts)
    assert [paid[account] for account in accounts] == final["settlement"]["deltas"]
    replay_matches(database_url, game_id, capsys)
    taken = logged(b, "table taken over")
    assert [record["game"] for record in taken] == [game_id]


def test_a_player_connecting_while_a_taken_over_table_is_restored_waits_for_their_seat(
    make_node: Callable[..., ServerProcess], database_url: str, directory: Callable[[str], dict[str, str]]
) -> None:
    """Between a taken-over table listed on its new node and its last seat filled (each
    seat's account and balance are read for it), a player of a seat not yet filled who
    connects there is told ``moving`` and connects again, instead of a welcome to the lobby
    that leaves them out of their own game. The balances are locked until the table is
    listed and the player connects, so that the restore and the player's arrival run
    together once they are released (the player's account is read with its balances too)."""
    a, b = make_node("a").start(60), make_node("b").start(60)
    engine = create_engine(database_url)

    async def scenario() -> str:
        pair = await seat_pair(a)
        await play_turns(pair, 2)
        before = pair[0].table
        assert before is not None
        last_seat = before["seats"][1]["account"]
        late = next(client for client in pair if client.account["id"] == last_seat)
        with engine.connect() as locker:
            locker.execute(text("LOCK TABLE balances IN ACCESS EXCLUSIVE MODE"))
            a.kill()
            await abandon(*pair)

            def listed() -> bool:
                return directory("tables").get(before["id"]) == "b"

            await asyncio.to_thread(wait_for, listed, 30, "b to list the table it takes over")
            connecting = asyncio.create_task(rejoin(b.url, late))
            await asyncio.sleep(1.0)
            locker.rollback()  # the restore and the player's arrival go on together
        player = await connecting
        view = await player.until(lambda table: table["game_id"] == before["game_id"], timeout=15)
        assert view["id"] == before["id"] and view["game"]["seq"] == before["game"]["seq"]
        await close_all(player)
        return str(before["game_id"])

    try:
        game_id = run(scenario())
    finally:
        engine.dispose()
    assert [record["game"] for record in logged(b, "table taken over")] == [game_id]


def test_a_paused_node_is_fenced_off_when_it_writes_again(
    make_node: Callable[..., ServerProcess], database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = make_node("a", bot_delay=0.25).start(60), make_node("b").start(60)

    async def scenario() -> tuple[str, dict[str, Any], list[int]]:
        pair = await seat_pair(a)
        for client in pair:
            await client.hosting(True)  # a writes an action every 0.25 s
        await pair[0].until(lambda table: table["game"]["seq"] >= 3)
        game_id = pair[0].table["game_id"] if pair[0].table else ""
        a.pause()
        await abandon(*pair)
        wait_for(lambda: b.get("/healthz")["tables"] == 1, 15, "b to take the paused node's table over")
        a.resume()  # a's overdue timers write at once, under its old claim: refused
        wait_for(lambda: bool(logged(a, "table lost")), 10, "a to find its table claimed")
        ann = await rejoin(a.url, pair[0])  # a sends the player on to b
        assert ann.base_url == b.url
        bob = await rejoin(a.url, pair[1])
        final = await finish_by_hosting((ann, bob))
        await close_all(ann, bob)
        return game_id, final, [ann.account["id"], bob.account["id"]]

    game_id, final, accounts = run(scenario())
    assert final["game_id"] == game_id and final["settlement"] is not None
    check_ledger(database_url, game_id, accounts)
    replay_matches(database_url, game_id, capsys)
    assert a.get("/healthz")["tables"] == 0
    # Lost once: by a write its fence refused, or (if a's heartbeat came first) by the check
    # of its fences that follows a lapse of its liveness; either way a stored nothing more.
    lost = logged(a, "table lost")
    assert [record["table"] for record in lost] == [final["id"]]
    assert "claimed again (token 2)" in lost[0]["reason"] or lost[0]["reason"] == "claimed while this node lapsed"


# -- drain ------------------------------------------------------------------------------


def test_sigterm_lets_a_game_end_then_sends_the_players_on(make_node: Callable[..., ServerProcess]) -> None:
    a, b = make_node("a", bot_delay=0.05, drain=20).start(60), make_node("b").start(60)

    async def scenario() -> tuple[str, int]:
        pair = await seat_pair(a)
        game_id = pair[0].table["game_id"] if pair[0].table else ""
        for client in pair:
            await client.hosting(True)  # the game plays itself to its end in a few seconds
        wait_for(lambda: b.get("/healthz")["node"] == "b" and _players(b) == 2, 5, "b to see a's players")
        stopping = asyncio.get_running_loop().run_in_executor(None, a.terminate)
        await pair[0].until(lambda table: table["phase"] == "settled", timeout=20)
        status = await stopping
        # a sent its players to b; seated at a table with no game, they are back in b's lobby.
        ann = await rejoin(b.url, pair[0])
        assert ann.base_url == b.url and ann.table is None
        await close_all(ann, *pair)
        return game_id, status

    game_id, status = run(scenario())
    assert status in (0, -15)
    assert [record["game"] for record in logged(a, "game settled")] == [game_id]
    assert logged(b, "table taken over") == []
    left = logged(a, "left the cluster")  # the game ended within the drain: nothing handed over
    assert left[0]["playing"] == 1 and left[0]["handed_over"] == 0 and left[0]["redirect"] == b.url


def test_sigterm_hands_a_game_that_goes_on_over_to_another_node(
    make_node: Callable[..., ServerProcess], database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = make_node("a", drain=1).start(60), make_node("b").start(60)

    async def scenario() -> tuple[str, dict[str, Any], list[int]]:
        pair = await seat_pair(a)
        await play_turns(pair, 4)
        before = pair[0].table
        assert before is not None
        wait_for(lambda: _players(b) == 2, 5, "b to see a's players")
        # After 1 s the game still running is handed over; the exit may take long on a loaded machine.
        assert a.terminate(timeout=40) in (0, -15)
        # The players follow the redirect a sent them, and wait at b until it has the table.
        for client in pair:
            await client.until(lambda table: table["seq"] > before["seq"] and table["phase"] == "playing", timeout=30)
            assert client.base_url == b.url
        assert pair[0].table is not None and pair[0].table["game"]["hand"] == before["game"]["hand"]
        final = await finish_by_hosting(pair)
        await close_all(*pair)
        return before["game_id"], final, [client.account["id"] for client in pair]

    game_id, final, accounts = run(scenario())
    assert final["game_id"] == game_id
    paid = check_ledger(database_url, game_id, accounts)
    assert [paid[account] for account in accounts] == final["settlement"]["deltas"]
    replay_matches(database_url, game_id, capsys)
    assert [record["game"] for record in logged(b, "table taken over")] == [game_id]
    assert logged(a, "left the cluster")[0]["handed_over"] == 1


def test_a_node_restarted_with_the_same_id_restores_its_games(
    make_node: Callable[..., ServerProcess], database_url: str, directory: Callable[[str], dict[str, str]]
) -> None:
    a = make_node("a").start(60)

    async def scenario() -> tuple[str, dict[str, Any], list[int]]:
        pair = await seat_pair(a)
        await play_turns(pair, 4)
        before = pair[0].table
        assert before is not None
        cid = await Client.guest(a.url, "Cid")  # waits for quick match, at a table with no game
        await cid.connect()
        await cid.join("points")
        waiting = (await cid.until(lambda table: True))["id"]
        wait_for(lambda: len(directory("seats")) == 3, 5, "a's directory writes")
        a.kill()
        await abandon(cid, *pair)
        started = time.monotonic()
        a.start(60)  # waits until the killed process's liveness has expired
        assert time.monotonic() - started >= 3
        assert a.get("/healthz")["tables"] == 1
        # The table without a game closed with the killed process: the new one forgot it.
        assert waiting not in directory("tables") and str(cid.account["id"]) not in directory("seats")
        assert directory("tables") == {before["id"]: "a"}
        assert directory("seats") == {str(client.account["id"]): before["id"] for client in pair}
        ann, bob = await rejoin(a.url, pair[0]), await rejoin(a.url, pair[1])
        view = await ann.until(lambda table: table["game_id"] == before["game_id"])
        assert view["game"]["hand"] == before["game"]["hand"]
        final = await finish_by_hosting((ann, bob))
        await close_all(ann, bob)
        return before["game_id"], final, [ann.account["id"], bob.account["id"]]

    game_id, final, accounts = run(scenario())
    paid = check_ledger(database_url, game_id, accounts)
    assert [paid[account] for account in accounts] == final["settlement"]["deltas"]
    assert [record["game"] for record in logged(a, "table taken over")] == [game_id]
    assert [(record["node"], record["tables"], record["seats"]) for record in logged(a, "node forgotten")] == [
        ("a", 1, 1)
    ]


def test_a_new_quick_match_table_opens_on_the_node_with_fewer_tables(
    make_node: Callable[..., ServerProcess],
) -> None:
    a, b = make_node("a").start(60), make_node("b").start(60)

    async def scenario() -> None:
        busy = []
        for number in range(3):  # a runs three tables (against bots), b none
            player = await Client.guest(a.url, f"Busy {number}")
            await player.connect()
            await player.join("points", opponent="bot")
            await player.until(lambda table: True)
            busy.append(player)
        opened = time.time()
        # a sets b's count against its own when b published it: a status of b published since
        wait_for(lambda: [(node["tables"], node["published"] > opened) for node in a.get("/api/admin/cluster")["nodes"]]
                 == [(3, True), (0, True)], 5, "a to know b's load")
        ann = await Client.guest(a.url, "Ann")
        await ann.connect()
        await ann.join("points")  # no table waits anywhere: the new one opens on b
        await ann.until(lambda table: True)
        assert ann.base_url == b.url
        wait_for(lambda: _waiting_seen(a, "b") == {"points": 1}, 5, "a to see b list Ann's table")
        bob = await Client.guest(a.url, "Bob")
        await bob.connect()
        await bob.join("points")
        view = await bob.until(lambda table: all(seat is not None for seat in table["seats"]))
        assert bob.base_url == b.url and ann.table is not None and view["id"] == ann.table["id"]
        await close_all(ann, bob, *busy)

    run(scenario())


def test_players_asking_within_one_heartbeat_are_not_sent_to_one_seat(
    make_node: Callable[..., ServerProcess],
) -> None:
    """A table waiting on another node is named to one player per heartbeat (the others are
    seated here); a join that follows a redirect is seated on its node, by quick match when
    the table named has filled, and never sent on again (no player bounces between nodes)."""
    a, b = make_node("a").start(60), make_node("b").start(60)

    async def scenario() -> None:
        ann = await Client.guest(b.url, "Ann")
        await ann.connect()
        await ann.join("points")
        waiting = await ann.until(lambda table: True)
        wait_for(lambda: _waiting_seen(a, "b") == {"points": 1}, 5, "a to see b list Ann's table")
        bob, carl = await Client.guest(a.url, "Bob"), await Client.guest(a.url, "Carl")
        await asyncio.gather(bob.connect(), carl.connect())
        await asyncio.gather(bob.join("points"), carl.join("points"))
        bob_view, carl_view = await asyncio.gather(bob.until(lambda table: True), carl.until(lambda table: True))
        sent, kept = (bob, carl) if bob.base_url == b.url else (carl, bob)
        assert sent.base_url == b.url and kept.base_url == a.url
        assert {bob_view["id"], carl_view["id"]} - {waiting["id"]}, "one of them opened a table on a"
        assert sent.table is not None and sent.table["id"] == waiting["id"]
        wait_for(lambda: _players(b, "points", "free_seats") == 1, 5, "b to list the table waiting on a")
        dee = await Client.guest(b.url, "Dee")
        await dee.connect()
        await dee.send({"type": "join", "table": waiting["id"], "room": "points", "redirected": True})
        view = await dee.until(lambda table: True)  # the table is full: quick match on b, not sent to a
        assert dee.base_url == b.url and view["id"] not in (waiting["id"], kept.table["id"] if kept.table else "")
        await close_all(ann, bob, carl, dee)

    run(scenario())


def test_players_waiting_alone_on_two_nodes_are_brought_to_one_table(
    make_node: Callable[..., ServerProcess], database_url: str
) -> None:
    """Two players who each opened a quick-match table on another node (they joined within
    one heartbeat; here, joins that followed a redirect, which are seated where they arrive)
    do not wait for a third: at a heartbeat the player on b, the node whose id sorts later,
    is sent to the table waiting on a, and the two play there."""
    a, b = make_node("a").start(60), make_node("b").start(60)

    async def scenario() -> None:
        bob, ann = await Client.guest(a.url, "Bob"), await Client.guest(b.url, "Ann")
        await asyncio.gather(bob.connect(), ann.connect())
        for player in (bob, ann):
            await player.send({"type": "join", "room": "points", "opponent": "human", "redirected": True})
        bob_table, ann_table = await asyncio.gather(bob.until(lambda t: True), ann.until(lambda t: True))
        assert bob.base_url == a.url and ann.base_url == b.url and bob_table["id"] != ann_table["id"]
        full = await ann.until(lambda table: all(seat is not None for seat in table["seats"]), timeout=15)
        assert ann.base_url == a.url and full["id"] == bob_table["id"]
        await bob.until(lambda table: all(seat is not None for seat in table["seats"]))
        assert bob.base_url == a.url
        for player in (bob, ann):
            await player.ready()
        for player in (bob, ann):
            await player.until(lambda table: table["phase"] == "playing")
        await play_turns((bob, ann), 2)
        await close_all(bob, ann)

    run(scenario())
    sent = logged(b, "players sent on")
    assert [(record["to"], record["players"]) for record in sent] == [(a.url, 1)]
    assert logged(a, "players sent on") == []
    assert b.get("/healthz")["tables"] == 0


# -- spectators, operator commands, tables without a game ----------------------------------


def test_a_spectator_is_sent_to_the_node_that_runs_the_table(make_node: Callable[..., ServerProcess]) -> None:
    a, b = make_node("a").start(60), make_node("b").start(60)

    async def scenario() -> None:
        pair = await seat_pair(a)
        table_id = pair[0].table["id"] if pair[0].table else ""
        wait_for(lambda: _players(b) == 2, 5, "b to know a's table")
        watcher = await Client.guest(b.url, "Watcher")
        await watcher.connect()
        assert watcher.base_url == b.url
        await watcher.watch(table_id)  # b does not run the table: the spectator is sent to a
        view = await watcher.until(lambda table: table["id"] == table_id)
        assert watcher.base_url == a.url and view["you"] is None
        await play_turns(pair, 2)
        await watcher.until(lambda table: table["seq"] == pair[0].seq)  # it follows the game
        # A player seated on b keeps its connection to b: it may not watch a's table from it.
        carol = await Client.guest(b.url, "Carol")
        await carol.connect()
        await carol.join("points", opponent="bot")
        await carol.until(lambda table: True)
        await carol.watch(table_id)
        refused = await carol.expect("error")
        assert refused["code"] == "already_seated" and a.url in refused["message"]
        await carol.watch("no-such-table")
        assert (await carol.expect("error"))["code"] == "unknown_table"
        await close_all(watcher, carol, *pair)

    run(scenario())


def _rooms(server: ServerProcess) -> dict[str, bool]:
    """The rooms the node lists, and whether each is open."""
    return {room["name"]: room["open"] for room in server.get("/api/rooms")["rooms"]}


def test_room_close_and_reload_act_on_every_node(make_node: Callable[..., ServerProcess], tmp_path: Path) -> None:
    a, b = make_node("a").start(60), make_node("b").start(60)
    closed = a.post("/api/admin/rooms/classic/close", {})
    assert closed == {"closed": "classic", "nodes": {"a": {"closed": "classic"}, "b": {"closed": "classic"}}}
    assert _rooms(a) == _rooms(b) == {"points": True, "classic": False}

    async def refused_on_b() -> dict[str, Any]:
        dee = await Client.guest(b.url, "Dee")
        await dee.connect()
        await dee.join("classic")
        refusal = await dee.expect("error")
        await dee.close()
        return refusal

    assert run(refused_on_b())["code"] == "room_closed"
    c = make_node("c").start(60)  # a node that starts later closes the room too
    assert _rooms(c) == {"points": True, "classic": False}

    # A room closed nowhere is refused by the node asked, and nothing changes anywhere.
    with pytest.raises(urllib.error.HTTPError) as unknown:
        b.post("/api/admin/rooms/nope/close", {})
    assert unknown.value.code == 400 and "unknown_room" in unknown.value.read().decode()

    (tmp_path / "rooms" / "fast.toml").write_text(ROOM)  # every node reads the same rooms directory
    reloaded = b.post("/api/admin/rooms/reload", {})
    assert sorted(reloaded["nodes"]) == ["a", "b", "c"]
    for answer in reloaded["nodes"].values():
        assert answer == {"loaded": ["classic", "fast", "points"], "errors": {}}
    expected = {"points": True, "classic": True, "fast": True}
    assert _rooms(a) == _rooms(b) == _rooms(c) == expected
    d = make_node("d").start(60)  # the reload forgot the closure
    assert _rooms(d) == expected


def test_a_killed_nodes_tables_without_a_game_close_and_their_players_are_back_in_the_lobby(
    make_node: Callable[..., ServerProcess], directory: Callable[[str], dict[str, str]]
) -> None:
    """On a: a game (taken over by b), a player waiting for quick match and two friends
    seated at an invite table, not ready. Once a is dead and its game runs on b, b forgets
    a's other tables and the seats at them; those players are welcomed in the lobby."""
    a, b = make_node("a").start(60), make_node("b").start(60)
    async def scenario() -> None:
        pair = await seat_pair(a)
        game_table = pair[0].table["id"] if pair[0].table else ""
        ann = await Client.guest(a.url, "Ann")
        await ann.connect()
        await ann.join("points")
        waiting = (await ann.until(lambda table: True))["id"]
        carl, dee = await Client.guest(a.url, "Carl"), await Client.guest(a.url, "Dee")
        for friend in (carl, dee):
            await friend.connect()
        await carl.join("points", opponent="invite")
        invite = (await carl.until(lambda table: True))["id"]
        await dee.join(table=invite)
        await dee.until(lambda table: True)
        wait_for(lambda: len(directory("seats")) == 5, 5, "a's directory writes")
        assert directory("tables") == {game_table: "a", waiting: "a", invite: "a"}

        a.kill()
        await abandon(ann, carl, dee, *pair)
        wait_for(lambda: "a" not in directory("nodes"), 30, "b to forget a")
        assert directory("tables") == {game_table: "b"}  # the game goes on at b
        assert directory("seats") == {str(client.account["id"]): game_table for client in pair}
        for old in (ann, carl, dee):
            back = await rejoin(b.url, old)
            await back.send({"type": "ping"})
            await back.expect("pong")
            assert back.base_url == b.url and back.table is None  # welcomed in the lobby, seated nowhere
            await back.close()
        players = [await rejoin(b.url, client) for client in pair]
        await players[0].until(lambda table: table["id"] == game_table and table["phase"] == "playing", timeout=30)
        await close_all(*players)

    run(scenario())
    forgotten = logged(b, "node forgotten")
    assert [(record["node"], record["tables"], record["seats"]) for record in forgotten] == [("a", 2, 3)]


def test_a_burst_of_lookups_waits_for_a_redis_connection(redis_url: str) -> None:
    """Many players connecting at once each ask Redis where their table runs: the calls
    beyond the node's connections wait for one instead of failing ("Too many
    connections" refused players' connections in a 600-table load run)."""
    from shuangkou.server.cluster import REDIS_CONNECTIONS, Cluster, ClusterSettings

    name = f"burst-{uuid.uuid4().hex[:8]}"
    settings = ClusterSettings(redis_url, "n1", "http://127.0.0.1:1", name=name)

    async def scenario() -> list[tuple[str | None, str | None]]:
        cluster = Cluster(settings, "instance")
        try:
            await cluster.redis.hset(settings.key("seats"), "7", "table-7")
            return await asyncio.gather(*(cluster.owner_url(account) for account in range(6 * REDIS_CONNECTIONS)))
        finally:
            await cluster.redis.delete(settings.key("seats"))
            await cluster.redis.aclose()

    found = asyncio.run(scenario())
    assert found[7] == ("table-7", None), "a seat whose table no live node runs"
    assert all(where == (None, None) for account, where in enumerate(found) if account != 7)


def test_placement_sets_a_nodes_count_against_this_nodes_count_when_it_published(redis_url: str) -> None:
    """Quick-match placement between two heartbeats: node a sets b's published count against
    its own count at the moment b published, not its count of now (in a burst of joins each
    node would find itself the fuller one in turn and send the other its players); each new
    table sent to b since then narrows a's lead by two (b has it, a did not open it), so a
    sends b only enough to even out, and b's next status replaces what a had reckoned."""
    from shuangkou.server.cluster import Cluster, ClusterSettings, NodeStatus

    name = f"place-{uuid.uuid4().hex[:8]}"
    settings = ClusterSettings(redis_url, "a", "http://a.example", name=name)

    async def publish(node: str, tables: int) -> None:
        status = NodeStatus(node, f"http://{node}.example", tables, 2 * tables, 2 * tables, True, {}, {}, time.time())
        await cluster.redis.hset(settings.key("nodes"), node, status.to_json())
        await cluster.redis.set(settings.liveness_key_of(node), "live", px=60_000)
        await cluster._read_nodes()

    def open_tables(count: int) -> None:
        for _ in range(count):
            cluster.table_opened(uuid.uuid4().hex)

    async def scenario() -> dict[str, list[str | None]]:
        placed: dict[str, list[str | None]] = {}
        try:
            open_tables(20)
            assert cluster.placement(20) is None, "no other node"
            await publish("b", 20)  # when a ran 20 tables
            open_tables(130)
            placed["a grew since"] = [cluster.placement(150) for _ in range(10)]
            await publish("b", 10)  # a runs 150 now
            placed["burst"] = [cluster.placement(150) for _ in range(200)]
            await publish("b", 100)  # the 63 sent and b's own arrivals since
            placed["next status"] = [cluster.placement(150) for _ in range(100)]
            for _ in range(30):
                cluster.table_closed(uuid.uuid4().hex)
            for _ in range(10):
                cluster.table_lost()  # taken over by another node
            placed["a closed 40"] = [cluster.placement(110) for _ in range(5)]
            return placed
        finally:
            if cluster._flusher is not None:
                await cluster._flusher
            keys = (("nodes",), ("node", "b"), ("tables",))
            await cluster.redis.delete(*(settings.key(*parts) for parts in keys))
            await cluster.redis.aclose()

    cluster = Cluster(settings, "instance")
    placed = asyncio.run(scenario())
    assert placed["a grew since"] == [None] * 10, "b's count of then against a's of then: even"
    # b takes new tables while 150 - 10 - 2 * sent > max(2, 150 // 10): 63 of them, then a keeps them
    assert placed["burst"] == ["http://b.example"] * 63 + [None] * 137
    # 150 - 100 - 2 * sent > 15: 18 more
    assert placed["next status"] == ["http://b.example"] * 18 + [None] * 82
    # a ran 150 when b published, 110 now (30 closed, 10 taken over): 150 - 100 - 2 * (18 + sent) > 110 // 10 for 2 more
    assert placed["a closed 40"] == ["http://b.example"] * 2 + [None] * 3


class _RedisLine:
    """A TCP relay to Redis that can be cut and restored on the same port: what a node sees
    when its Redis stops answering for a moment."""

    def __init__(self, redis_url: str) -> None:
        from urllib.parse import urlsplit

        from shuangkou.server.process import free_port

        target = urlsplit(redis_url)
        self.target = (target.hostname or "127.0.0.1", target.port or 6379)
        self.port = free_port()
        self.loop = asyncio.new_event_loop()
        self.server: asyncio.Server | None = None
        self.writers: set[asyncio.StreamWriter] = set()
        threading.Thread(target=self.loop.run_forever, daemon=True).start()

    def url(self, database: str = "0") -> str:
        return f"redis://127.0.0.1:{self.port}/{database}"

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        upstream_reader, upstream_writer = await asyncio.open_connection(*self.target)
        self.writers |= {writer, upstream_writer}

        async def pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
            with contextlib.suppress(Exception):
                while data := await source.read(65536):
                    sink.write(data)
                    await sink.drain()
            sink.close()

        await asyncio.gather(pump(reader, upstream_writer), pump(upstream_reader, writer))

    def _call(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(10)

    def up(self) -> None:
        async def start() -> None:
            self.server = await asyncio.start_server(self._relay, "127.0.0.1", self.port, reuse_address=True)

        self._call(start())

    def cut(self) -> None:
        async def stop() -> None:
            assert self.server is not None
            self.server.close()
            for writer in self.writers:
                writer.close()
            self.writers.clear()

        self._call(stop())

    def close(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)


def test_a_player_connecting_while_redis_is_cut_off_is_told_to_connect_again(
    tmp_path: Path, database_url: str, redis_url: str, cluster_name: str
) -> None:
    """A node that cannot ask Redis where a connecting player's table runs refuses the
    connection with a clear error (``unavailable``, close code 1013) instead of dropping it;
    once Redis answers again the player is welcomed."""
    import websockets.sync.client

    line = _RedisLine(redis_url)
    line.up()
    node = server_process(
        tmp_path / "node", database_url, write_rooms(tmp_path / "rooms"), 0.01,
        ("--redis-url", line.url(), "--node-id", "a", "--cluster", cluster_name),
    )
    try:
        node.start(60)
        token = node.post("/api/guest", {"name": "Eve"})["token"]
        socket_url = node.url.replace("http", "ws", 1) + f"/ws?token={token}"
        line.cut()
        with websockets.sync.client.connect(socket_url, open_timeout=10) as socket:
            refusal = json.loads(socket.recv(timeout=15))
            with pytest.raises(websockets.ConnectionClosed) as closed:
                socket.recv(timeout=5)
        assert refusal["type"] == "error" and refusal["code"] == "unavailable", refusal
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
        line.up()
        with websockets.sync.client.connect(socket_url, open_timeout=10) as socket:
            assert json.loads(socket.recv(timeout=15))["type"] == "welcome"
    finally:
        node.kill()
        line.close()


def test_a_dead_nodes_directory_is_forgotten_by_chunks_sparing_what_was_listed_again(
    redis_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dead node's tables (but those kept) and the seats at them are deleted chunk by
    chunk (about three fields a chunk here: hashes this large are scanned by HSCAN's count,
    smaller ones whole), the other node's entries untouched; a table that a
    node taking it over lists again between the two passes keeps its seats; nothing is
    deleted while the node's liveness is held by another process (it came back)."""
    from shuangkou.server.cluster import Cluster, ClusterSettings, takeover

    monkeypatch.setattr(takeover, "FORGET_CHUNK", 3)
    settings = ClusterSettings(redis_url, "b", "http://b.example", name=f"forget-{uuid.uuid4().hex[:8]}")
    tables = {f"t{n}": "a" if n % 2 else "b" for n in range(600)}  # more than Redis keeps packed (512)
    seats = {str(account): f"t{account // 2}" for account in range(1200)}
    calls: list[int] = []

    async def scenario() -> tuple[dict[str, str], dict[str, str], dict[str, str], dict[str, dict[str, str]]]:
        cluster = Cluster(settings, "instance-b")
        redis = cluster.redis
        try:
            await redis.hset(settings.key("tables"), mapping=tables)
            await redis.hset(settings.key("seats"), mapping=seats)
            await redis.hset(settings.key("nodes"), mapping={"a": "{}", "b": "{}"})
            # Back under another process: nothing is forgotten.
            await redis.set(settings.liveness_key_of("a"), "instance-a2")
            await cluster._forget("a", "instance-a1")
            held = {
                name: await redis.hgetall(settings.key(name)) for name in ("tables", "seats", "nodes")
            }
            await redis.delete(settings.liveness_key_of("a"))
            forget_tables = cluster._forget_tables

            async def taken_over_meanwhile(**arguments: Any) -> Any:
                calls.append(len(arguments["args"]) - 2)
                deleted = await forget_tables(**arguments)
                if "t3" in deleted:  # its new node's queued writes land before the seats' pass
                    await redis.hset(settings.key("tables"), "t3", "c")
                return deleted

            cluster._forget_tables = taken_over_meanwhile  # type: ignore[method-assign]
            await cluster._forget("a", keep=["t5"])
            left = [await redis.hgetall(settings.key(name)) for name in ("tables", "seats", "nodes")]
            return left[0], left[1], left[2], held
        finally:
            await redis.delete(*(settings.key(name) for name in ("tables", "seats", "nodes")))
            await redis.aclose()

    left_tables, left_seats, left_nodes, held = asyncio.run(scenario())
    assert held == {"tables": tables, "seats": seats, "nodes": {"a": "{}", "b": "{}"}}
    kept = {"t3": "c", "t5": "a"}
    assert left_tables == {table: node for table, node in tables.items() if node == "b"} | kept
    assert left_seats == {account: table for account, table in seats.items() if tables[table] == "b" or table in kept}
    assert left_nodes == {"b": "{}"}
    assert len(calls) > 20 and max(calls) <= 10 and sum(calls) == 299, "by chunks, each of a's tables once"


def test_the_forget_benchmark_runs(redis_url: str) -> None:
    """A smoke run of bench/bench_forget.py (it checks what was forgotten; no timing is asserted)."""
    bench = Path(__file__).resolve().parent.parent / "bench" / "bench_forget.py"
    result = subprocess.run(
        [sys.executable, str(bench), "--redis-url", redis_url, "--tables", "600,1200"],
        capture_output=True, text=True, check=True,
    )
    sizes = [line.split()[0] for line in result.stdout.splitlines()]
    assert sizes == ["600", "1200"] and all("Redis busy" in line for line in result.stdout.splitlines())
