"""The server shell over real WebSockets, HTTP and processes: a flood never costs a seat,
the frame limits, frames that are not JSON, the operator API's 404s, and one server per
data directory, per database and per port."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pg import PG_URL_VARIABLE, fresh_schema_url, pg_admin_url, throwaway_database
from server_fixtures import (
    OPERATOR_TOKEN,
    Player,
    RunningServer,
    act,
    my_turn,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    server_fixture,  # noqa: F401
    start_game,
    start_server_fixture,  # noqa: F401
    weakest,
)
from server_players import close_all, seat_pair

from shuangkou.server.datalock import LOCK_FILE, ClaimError, DataDirLock
from shuangkou.server.process import ServerProcess
from shuangkou.server.protocol import MAX_FRAME_BYTES, MAX_TRANSPORT_FRAME_BYTES
from shuangkou.store.lease import LeaseHeldError, ServerLease

StartServer = Callable[..., RunningServer]
BANNER = "Shuangkou is running at"


async def quiet(player: Player, lull: float = 1.0) -> list[dict[str, Any]]:
    """Receive until nothing comes for ``lull`` seconds; returns what came."""
    received = []
    while True:
        try:
            received.append(await player.receive(lull))
        except TimeoutError:
            return received


async def refused(player: Player, frame: str | bytes, code: str) -> None:
    """Send a raw frame, expect the error ``code``, then a ping still answers."""
    assert player.socket is not None
    await player.socket.send(frame)
    error = await player.next_error()
    assert error["code"] == code, error
    await player.settle_quietly()


# ---------------------------------------------------------------------------
# Floods and frames


def test_a_flood_of_pings_never_costs_a_seat(start_server: StartServer) -> None:
    """1,000 pings back to back from a seated player, at the default rate limit: some are
    refused with rate_limited, the connection stays open, the seat is neither disconnected
    nor hosted, and the game goes on."""
    server = start_server(rate=20.0, burst=40.0)

    async def scenario() -> None:
        ana, bo = await start_game(server)
        assert ana.socket is not None and ana.seat is not None
        if my_turn(ana.table or {}) and (ana.moves is None or ana.moves["seq"] != ana.seq):
            await ana.expect("hint")  # the moves pushed after the state of Ana's turn
        for _ in range(1000):
            await ana.socket.send('{"type":"ping"}')
        received = await quiet(ana)
        await asyncio.sleep(1.0)  # the bucket refills
        await ana.send({"type": "hint"})  # answered after every reply to the flood
        while (message := await ana.receive())["type"] != "hint":
            received.append(message)
        assert not [m for m in received if m["type"] == "closed"], received[-3:]
        assert {m["type"] for m in received} == {"pong", "error"}
        assert {m["code"] for m in received if m["type"] == "error"} == {"rate_limited"}
        await bo.settle_quietly()  # every view sent to Bo before the pong has arrived
        assert bo.table is not None
        assert bo.table["seats"][ana.seat]["connected"]
        assert not bo.table["game"]["hosting"][ana.seat]
        mover, other = (ana, bo) if my_turn(ana.table or {}) else (bo, ana)
        await act(mover, weakest)
        await other.until(lambda t: t["seq"] == mover.seq)

    run(scenario())


def test_frames_up_to_the_transport_limit_are_answered_too_large(server: RunningServer) -> None:
    """A frame over MAX_FRAME_BYTES is refused with too_large, up to the transport limit
    (the connection stays open); one byte more closes the connection with 1009."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await refused(ana, '{"type":"ping","pad":"' + "x" * MAX_FRAME_BYTES + '"}', "too_large")
        await refused(ana, "x" * (64 * 1024 + 1), "too_large")  # the old transport limit
        await refused(ana, b"x" * MAX_TRANSPORT_FRAME_BYTES, "too_large")
        assert ana.socket is not None
        await ana.socket.send("x" * (MAX_TRANSPORT_FRAME_BYTES + 1))
        await ana.socket.wait_closed()
        assert ana.socket.close_code == 1009

    run(scenario())


def test_nan_and_infinity_are_not_json(server: RunningServer) -> None:
    """NaN, Infinity and -Infinity are bad_json wherever they appear; 1e400 is JSON (bad_message)."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        for frame in (
            '{"type":"play","seq":NaN,"cards":"3"}',
            '{"type":"ping","pad":Infinity}',
            '{"type":NaN}',
            '{"type":"pass","seq":-Infinity}',
            "NaN",
            b'{"type":"ping","pad":[NaN]}',
        ):
            await refused(ana, frame, "bad_json")
        await refused(ana, '{"type":"pass","seq":1e400}', "bad_message")

    run(scenario())


def test_unknown_game_and_account_are_404(server: RunningServer) -> None:
    """The operator API answers 404 for a game or an account that does not exist."""
    assert server.http("GET", "/api/admin/games/nope", token=OPERATOR_TOKEN) == (
        404, {"type": "error", "code": "unknown_game", "message": "no game 'nope'"}
    )
    status, body = server.http(
        "POST", "/api/admin/grant", {"account": 10**9, "edition": "points", "delta": 1, "reason": "x"},
        token=OPERATOR_TOKEN,
    )
    assert (status, body["code"]) == (404, "unknown_account")


# ---------------------------------------------------------------------------
# One server per data directory, database and port


def test_data_dir_lock_is_exclusive(tmp_path: Path) -> None:
    """A second lock on a data directory is refused, naming the lock file and its holder;
    released, it can be taken again."""
    with DataDirLock(tmp_path):
        with pytest.raises(ClaimError) as taken, DataDirLock(tmp_path):
            pass
        assert str(tmp_path / LOCK_FILE) in str(taken.value)
        assert f"process {os.getpid()}" in str(taken.value)
    with DataDirLock(tmp_path):
        assert (tmp_path / LOCK_FILE).read_text().strip() == str(os.getpid())


def test_a_second_server_on_one_data_dir_refuses_to_start(tmp_path: Path) -> None:
    """Two servers on one data directory: the second exits non-zero naming the lock, before
    restoring anything; the first plays on."""
    data = tmp_path / "data"

    async def scenario(first: ServerProcess) -> None:
        pair = await seat_pair(first)  # a game in progress
        second = ServerProcess(data)
        with pytest.raises(RuntimeError, match="exited with 2") as refused_start:
            await asyncio.to_thread(second.start)
        assert str(data / LOCK_FILE) in str(refused_start.value)
        assert f"process {first.pid}" in str(refused_start.value)
        started = [r for r in first.log_records() if r.get("message") == "server started"]
        assert len(started) == 1, "the second server restored games"
        assert len(first.get("/api/admin/games?status=running")["games"]) == 1
        moves = await pair[0].hint() if pair[0].my_turn else await pair[1].hint()
        assert moves, "the first server still plays"
        await close_all(*pair)

    with ServerProcess(data) as first:
        asyncio.run(scenario(first))


def test_a_taken_port_fails_before_the_banner(tmp_path: Path) -> None:
    """A port already in use: a clear message, exit status 2, no banner, nothing claimed."""
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "shuangkou", "serve", "--port", str(port), "--data-dir", str(tmp_path / "data")],
            capture_output=True, text=True, timeout=60, check=False,
        )
    assert result.returncode == 2, result
    assert BANNER not in result.stdout
    assert f"cannot listen on 127.0.0.1:{port}: the port is already in use" in result.stderr
    assert json.loads(result.stdout.splitlines()[-1])["error"].startswith("cannot listen")
    assert not (tmp_path / "data" / LOCK_FILE).exists()


def test_the_banner_comes_once_the_server_answers(tmp_path: Path) -> None:
    """The banner is printed once the server serves (after the claim and the restore)."""
    with ServerProcess(tmp_path / "data") as server:
        assert server.get("/healthz")["status"] == "ok"
        assert f"{BANNER} http://127.0.0.1:{server.port}/" in server.log_path.read_text()


def test_a_port_taken_before_the_server_binds_it_is_left_for_another(tmp_path: Path) -> None:
    """Tests run side by side: the free port a server process chose can be taken before its
    server binds it, by another server that answers ``/healthz`` too. The start is not fooled
    by that answer: the server is started again on another port, and it is its own that answers."""
    import http.server
    import threading

    class Impostor(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = b'{"status": "ok", "impostor": true}'
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ServerProcess(tmp_path / "data")
    taken = server.port
    impostor = http.server.ThreadingHTTPServer(("127.0.0.1", taken), Impostor)
    threading.Thread(target=impostor.serve_forever, daemon=True).start()
    try:
        with server:
            assert server.port != taken
            health = server.get("/healthz")
            assert health["status"] == "ok" and "impostor" not in health
            log = server.log_path.read_text()
            assert f"cannot listen on 127.0.0.1:{taken}" in log
            assert f"{BANNER} http://127.0.0.1:{server.port}/" in log
    finally:
        impostor.shutdown()
        impostor.server_close()


def test_a_server_process_given_a_taken_port_says_so(tmp_path: Path) -> None:
    """A port given by the caller (a restart on the same address) is not replaced: the start
    fails with the server's reason."""
    with socket.socket() as holder:
        holder.bind(("127.0.0.1", 0))
        holder.listen()
        port = holder.getsockname()[1]
        with pytest.raises(RuntimeError, match=f"cannot listen on 127.0.0.1:{port}"):
            ServerProcess(tmp_path / "data", port=port).start()


def test_the_sqlite_lease_is_one_per_database_file(tmp_path: Path) -> None:
    """A SQLite file's lease is a lock beside it: a second is refused naming it; released, it
    can be taken again; an in-memory database has none."""
    url = f"sqlite:///{tmp_path / 'games.db'}"
    with ServerLease(url):
        with pytest.raises(LeaseHeldError, match=f"the lock {tmp_path / 'games.db-lease'} .process {os.getpid()}"):
            ServerLease(url).acquire()
        with ServerLease(f"sqlite:///{tmp_path / 'other.db'}"):
            pass
    with ServerLease(url), ServerLease("sqlite://"), ServerLease("sqlite://"):
        pass


def test_two_data_dirs_on_one_sqlite_database_refuse_the_second_server(tmp_path: Path) -> None:
    """Servers with their own data directories on one SQLite file: the second exits non-zero
    naming the database's lease."""
    url = f"sqlite:///{tmp_path / 'shared' / 'games.db'}"
    with ServerProcess(tmp_path / "first", url) as first:
        second = ServerProcess(tmp_path / "second", url)
        with pytest.raises(RuntimeError, match="exited with 2") as refused_start:
            second.start()
        assert f"another server holds the lease on {url}" in str(refused_start.value)
        assert f"process {first.pid}" in str(refused_start.value)
        assert first.get("/healthz")["status"] == "ok"


@pytest.fixture
def pg_database() -> Any:
    """A throwaway PostgreSQL database (skips without SHUANGKOU_TEST_PG_URL)."""
    admin_url = pg_admin_url()
    if admin_url is None:
        pytest.skip(f"set {PG_URL_VARIABLE} to run the PostgreSQL lease tests")
    with throwaway_database(admin_url) as database:
        yield database


def test_the_postgresql_lease_is_one_per_schema(pg_database: Any) -> None:
    """One lease per schema: a second is refused at once, another schema has its own, and
    a released lease can be taken again."""
    url = fresh_schema_url(pg_database)
    with ServerLease(url):
        with pytest.raises(LeaseHeldError, match="another server holds the lease"):
            ServerLease(url).acquire(wait=0)
        with ServerLease(fresh_schema_url(pg_database)):
            pass
    with ServerLease(url):
        pass


def test_a_second_server_on_one_postgresql_database_refuses_to_start(tmp_path: Path, pg_database: Any) -> None:
    """Two servers with their own data directories on one PostgreSQL database: the second
    exits non-zero naming the lease."""
    url = pg_database.render_as_string(hide_password=False)
    with ServerProcess(tmp_path / "first", url) as first:
        second = ServerProcess(tmp_path / "second", url)
        with pytest.raises(RuntimeError, match="exited with 2") as refused_start:
            second.start()
        assert "another server holds the lease" in str(refused_start.value)
        assert "advisory lock" in str(refused_start.value)
        assert first.get("/healthz")["status"] == "ok"
    with ServerProcess(tmp_path / "second", url):  # the first has stopped: the lease is free
        pass
