"""A real game server for tests: uvicorn in a background thread on a free localhost port.

Each server gets its own data directory, its own database (a SQLite file, or a fresh
schema of a throwaway PostgreSQL database when ``SHUANGKOU_TEST_PG_URL`` is set, as in
``test_store.py``), its own rooms directory with short timers, and a tiny ``bot_delay``.
Tests talk to it only through real WebSockets (:class:`Player`, a recording
:class:`shuangkou.server.client.Client`) and real HTTP.

A test module gets the fixtures ``server``, ``start_server`` and ``pg_server_database`` by
importing their functions (``server_fixture``, ``start_server_fixture``,
``pg_server_database_fixture``).
Any error the server logs (a table error, an exception in the application) fails the test.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Coroutine, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import pytest
import uvicorn
from pg import fresh_schema_url, pg_admin_url, throwaway_database
from sqlalchemy import URL

from shuangkou.server.app import ServerSettings, create_app, uvicorn_config
from shuangkou.server.client import Client
from shuangkou.server.protocol import MAX_TRANSPORT_FRAME_BYTES

__all__ = [
    "OPERATOR_TOKEN",
    "ROOMS",
    "WS_MAX_SIZE",
    "Chooser",
    "Move",
    "Player",
    "RunningServer",
    "act",
    "check_settlement",
    "loser_to",
    "my_turn",
    "passive",
    "pg_server_database_fixture",
    "play_out",
    "run",
    "seat_two",
    "server_fixture",
    "shedding",
    "size",
    "start_game",
    "start_server_fixture",
    "take_turns",
    "weakest",
]

T = TypeVar("T")
OPERATOR_TOKEN = "operator-secret"
WS_MAX_SIZE = MAX_TRANSPORT_FRAME_BYTES  # as `shuangkou serve` runs uvicorn

# Room files: every timer a test does not wait for is long, every timer it waits for short.
ROOMS: dict[str, str] = {
    "points": 'edition = "points"\n[timers]\nturn_seconds = 30\nready_seconds = 30\n',
    "fast": 'edition = "points"\nname = "Fast"\n[timers]\nturn_seconds = 0.25\nready_seconds = 30\n',
    "hosted": 'edition = "points"\nname = "Hosted escape"\n[timers]\nturn_seconds = 30\nready_seconds = 30\n'
    '[escape]\nescape_mode = "host"\n',
    "wealth": 'edition = "wealth"\n[timers]\nturn_seconds = 30\nready_seconds = 30\n',
    "brief": 'edition = "points"\nname = "Brief"\n[timers]\nturn_seconds = 30\nready_seconds = 1.0\n',
    "winner": 'edition = "points"\nname = "Winner leads"\n[timers]\nturn_seconds = 30\nready_seconds = 30\n'
    '[play]\nfirst_player = "winner"\n',
}


def run(coroutine: Coroutine[Any, Any, T], timeout: float = 60.0) -> T:
    """Run a test scenario in a fresh event loop, failing it after ``timeout`` seconds; the
    connections it opened are closed at the end."""

    async def scenario() -> T:
        try:
            return await asyncio.wait_for(coroutine, timeout)
        finally:
            while _connected:
                await _connected.pop().close()

    return asyncio.run(scenario())


_connected: list[Player] = []  # closed at the end of :func:`run`


class Player(Client):
    """A client that keeps every message it receives (``log``), for checks on what was sent."""

    def __init__(self, base_url: str, token: str, account: dict[str, Any]) -> None:
        super().__init__(base_url, token, account)
        self.log: list[dict[str, Any]] = []

    async def connect(self) -> dict[str, Any]:
        _connected.append(self)
        return await super().connect()

    async def receive(self, timeout: float = 10.0) -> dict[str, Any]:
        message = await super().receive(timeout)
        self.log.append(message)
        return message

    @property
    def id(self) -> int:
        """The account id."""
        return int(self.account["id"])

    @property
    def seat(self) -> int | None:
        """This client's seat in the latest view."""
        return None if self.table is None else self.table["you"]

    async def next_error(self, timeout: float = 10.0) -> dict[str, Any]:
        """Receive until an error message and return it; no state change may come first."""
        seq = self.seq
        message = await self.expect("error", timeout)
        assert self.seq == seq, f"the state changed before the error: {seq} -> {self.seq}"
        return message

    async def settle_quietly(self) -> None:
        """Ping and wait for the pong: everything sent before it has been handled."""
        await self.send({"type": "ping"})
        await self.expect("pong")


class _ErrorLog(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


@dataclass
class RunningServer:
    """A server running in a thread of this process."""

    settings: ServerSettings
    uvicorn_options: dict[str, Any] = field(default_factory=dict)  # e.g. ws_ping_interval
    base_url: str = ""
    _server: uvicorn.Server | None = None
    _thread: threading.Thread | None = None
    _errors: _ErrorLog = field(default_factory=_ErrorLog)

    def start(self) -> RunningServer:
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        self.base_url = f"http://127.0.0.1:{port}"
        options = {"timeout_graceful_shutdown": 2, **self.uvicorn_options}
        config = uvicorn_config(create_app(self.settings), **options)
        self._server = uvicorn.Server(config)
        for name in ("shuangkou", "uvicorn.error"):
            logging.getLogger(name).addHandler(self._errors)
        self._thread = threading.Thread(target=self._server.run, kwargs={"sockets": [sock]}, daemon=True)
        self._thread.start()
        deadline = time.monotonic() + 30
        while not self._server.started:
            if not self._thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        if self._server is not None and self._thread is not None:
            self._server.should_exit = True
            self._thread.join(30)
            assert not self._thread.is_alive(), "the test server did not stop"
        for name in ("shuangkou", "uvicorn.error"):
            logging.getLogger(name).removeHandler(self._errors)

    @property
    def errors(self) -> list[str]:
        """Errors the server logged, formatted."""
        return [f"{r.name}: {r.getMessage()} {r.exc_text or ''}" for r in self._errors.records]

    def forget_errors(self) -> None:
        """For a test that provokes a logged error on purpose."""
        self._errors.records.clear()

    # -- HTTP ---------------------------------------------------------------------------

    def http(
        self, method: str, path: str, data: Any = None, token: str | None = None, raw: bytes | None = None
    ) -> tuple[int, Any]:
        """One HTTP request; returns the status and the JSON (or text) body."""
        body = raw if raw is not None else None if data is None else json.dumps(data).encode()
        headers = {"Content-Type": "application/json"}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(self.base_url + path, data=body, headers=headers, method=method)
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                status, text = response.status, response.read().decode()
        except urllib.error.HTTPError as problem:
            status, text = problem.code, problem.read().decode()
        try:
            return status, json.loads(text)
        except ValueError:
            return status, text

    def admin(self, method: str, path: str, data: Any = None) -> Any:
        """An operator request that must succeed; returns its JSON."""
        status, body = self.http(method, "/api/admin/" + path, data, token=OPERATOR_TOKEN)
        assert status == 200, (status, body)
        return body

    async def aadmin(self, method: str, path: str, data: Any = None) -> Any:
        """:meth:`admin` from a coroutine."""
        return await asyncio.to_thread(self.admin, method, path, data)

    async def ahttp(self, method: str, path: str, data: Any = None, token: str | None = None) -> tuple[int, Any]:
        """:meth:`http` from a coroutine."""
        return await asyncio.to_thread(self.http, method, path, data, token)

    # -- players ------------------------------------------------------------------------

    async def player(self, name: str, connect: bool = True) -> Player:
        """A new guest account, connected unless ``connect`` is false."""
        status, data = await self.ahttp("POST", "/api/guest", {"name": name})
        assert status == 200, data
        client = Player(self.base_url, data["token"], data["account"])
        if connect:
            welcome = await client.connect()
            assert welcome["type"] == "welcome"
        return client

    async def again(self, player: Player) -> Player:
        """A second connection with the same session token."""
        client = Player(self.base_url, player.token, player.account)
        await client.connect()
        return client


# ---------------------------------------------------------------------------
# Databases


@pytest.fixture(scope="session", name="pg_server_database")
def pg_server_database_fixture() -> Iterator[URL | None]:
    """A throwaway PostgreSQL database for this test process when ``SHUANGKOU_TEST_PG_URL``
    is set, dropped at the end; None otherwise (SQLite)."""
    admin_url = pg_admin_url()
    if admin_url is None:
        yield None
        return
    with throwaway_database(admin_url, "shuangkou_server_test") as database:
        yield database


def _database_url(tmp_path: Path, pg_database: URL | None) -> str:
    if pg_database is None:
        return f"sqlite:///{tmp_path / 'data' / 'shuangkou.db'}"
    return fresh_schema_url(pg_database)


# ---------------------------------------------------------------------------
# Fixtures


@pytest.fixture(name="start_server")
def start_server_fixture(tmp_path: Path, pg_server_database: URL | None) -> Iterator[Callable[..., RunningServer]]:
    """Start servers: ``start_server(seed=1, rooms={...}, rate=...)`` (uvicorn's own settings in
    ``uvicorn_options``); each is stopped at the end of the test, and any error it logged
    fails the test."""
    started: list[RunningServer] = []

    def start(
        rooms: dict[str, str] | None = None, uvicorn_options: dict[str, Any] | None = None, **overrides: Any
    ) -> RunningServer:
        number = len(started)
        rooms_dir = tmp_path / f"rooms{number}"
        rooms_dir.mkdir()
        for name, text in (rooms or ROOMS).items():
            (rooms_dir / f"{name}.toml").write_text(text)
        values: dict[str, Any] = {
            "database_url": _database_url(tmp_path / f"server{number}", pg_server_database),
            "rooms_dir": rooms_dir,
            "data_dir": tmp_path / f"server{number}" / "data",
            "operator_token": OPERATOR_TOKEN,
            "secret": f"test-secret-{number}",
            "bot_delay": 0.01,
            "rate": 1000.0,
            "burst": 1000.0,
            "guests_per_minute": 0.0,  # every guest of a test comes from one address: no limits per address
            "connections_per_address": 0,
            "address_rate": 0.0,
            "guest_wealth": None,  # guests play the wealth rooms with the rooms' starting balance
            "replays_per_second": 0.0,
        }
        values.update(overrides)
        running = RunningServer(ServerSettings(**values), uvicorn_options or {}).start()
        started.append(running)
        return running

    try:
        yield start
    finally:
        for running in started:
            running.stop()
    errors = [error for running in started for error in running.errors]
    assert not errors, "the server logged errors:\n" + "\n".join(errors)


@pytest.fixture(name="server")
def server_fixture(start_server: Callable[..., RunningServer]) -> RunningServer:
    """A server with the test rooms, a secure shuffle and no rate limit to speak of."""
    return start_server()


# ---------------------------------------------------------------------------
# Playing through the server: strategies pick from the hint's legal moves

Move = dict[str, Any]
Chooser = Callable[[dict[str, Any], list[Move]], Move | None]  # (game view, legal plays) -> move, None = pass


def size(move: Move) -> int:
    """Cards in a move."""
    return len(str(move["cards"]).split())


def weakest(game: dict[str, Any], moves: list[Move]) -> Move | None:
    """The weakest legal move, always (the hint's first)."""
    return moves[0]


def passive(game: dict[str, Any], moves: list[Move]) -> Move | None:
    """Pass whenever allowed; lead the weakest move."""
    return None if game["table"] is not None else moves[0]


def shedding(game: dict[str, Any], moves: list[Move]) -> Move | None:
    """Lead the move with the most cards; follow with the weakest."""
    if game["table"] is not None:
        return moves[0]
    return max(moves, key=size)


def loser_to(low: int, high: int) -> tuple[Chooser, Chooser]:
    """Strategies (loser, winner) meant to leave the loser ``low``..``high`` cards: while the
    loser holds more than ``high`` it sheds (never below ``low``) and the winner passes when it
    may; then the loser passes when it may and the winner sheds."""

    def cards(game: dict[str, Any], seat: int) -> int:
        return int(game["cards_left"][seat])

    def loser(game: dict[str, Any], moves: list[Move]) -> Move | None:
        mine = cards(game, game["seat"])
        if mine <= high:
            return passive(game, moves)
        fitting = [move for move in moves if size(move) <= mine - low]
        if game["table"] is not None:  # take the lead from the winner, who leads only when it must
            return fitting[0] if fitting else None
        return max(fitting, key=size) if fitting else moves[0]

    def winner(game: dict[str, Any], moves: list[Move]) -> Move | None:
        if cards(game, 1 - game["seat"]) > high:
            return passive(game, moves)
        return shedding(game, moves)

    return loser, winner


def my_turn(table: dict[str, Any]) -> bool:
    """The view says it is this seat's turn."""
    return table["phase"] == "playing" and table["game"]["to_act"] == table["you"]


async def act(player: Player, choose: Chooser, timeout: float = 20.0) -> dict[str, Any]:
    """Make the move ``choose`` picks on the player's turn (which it must be); returns the view after it."""
    assert player.table is not None and my_turn(player.table)
    await player.settle_quietly()  # every view sent before has been received
    moves = await player.hint()  # for the state shown: pushed after it, or asked for
    table = player.table
    if not my_turn(table):  # the state moved on meanwhile (e.g. hosting)
        return table
    seq = table["seq"]
    move = choose(table["game"], [move for move in moves if "cards" in move])  # the plays: a pass is None
    if move is None:
        await player.pass_turn()
    else:
        await player.play(move["cards"], move["as"])
    return await player.until(lambda t: t["seq"] > seq, timeout)


async def take_turns(
    player: Player, choose: Chooser, game_id: str | None = None, timeout: float = 20.0,
    stop: asyncio.Event | None = None,
) -> dict[str, Any]:
    """Play the player's turns in game ``game_id`` (default: the one in progress) with ``choose``
    until it is over, or until a turn comes after ``stop`` is set; returns the last view."""
    if game_id is None:
        assert player.table is not None and player.table["phase"] == "playing", "no game in progress"
        game_id = player.table["game_id"]
    while True:
        table = await player.until(
            lambda t: t["game_id"] == game_id and (t["phase"] != "playing" or my_turn(t)), timeout
        )
        if table["phase"] != "playing" or (stop is not None and stop.is_set()):
            return table
        await act(player, choose, timeout)


async def seat_two(server: RunningServer, room: str = "points", names: tuple[str, str] = ("Ana", "Bo"),
                   opponent: str = "human") -> tuple[Player, Player]:
    """Two new players at one table by quick match, the first in seat 0; not ready yet."""
    first = await server.player(names[0])
    await first.join(room, opponent)
    table = await first.until(lambda t: t["you"] == 0)
    second = await server.player(names[1])
    if opponent == "invite":
        await second.join(table=table["id"])
    else:
        await second.join(room)
    await second.until(lambda t: t["you"] == 1)
    assert second.table is not None and second.table["id"] == table["id"]
    return first, second


async def start_game(server: RunningServer, room: str = "points", **kwargs: Any) -> tuple[Player, Player]:
    """Two players seated and ready, the game dealt."""
    first, second = await seat_two(server, room, **kwargs)
    await first.ready()
    await second.ready()
    for player in (first, second):
        await player.until(lambda t: t["phase"] == "playing")
    return first, second


async def play_out(players: tuple[Player, Player], choosers: tuple[Chooser, Chooser]) -> list[dict[str, Any]]:
    """Both players play their turns in the game in progress to its end; returns their final views."""
    playing = [p.table for p in players if p.table is not None and p.table["phase"] == "playing"]
    assert playing, "no game in progress"
    game_id = playing[0]["game_id"]
    views = await asyncio.gather(*(take_turns(p, c, game_id) for p, c in zip(players, choosers, strict=True)))
    return list(views)


async def check_settlement(server: RunningServer, players: tuple[Player, ...], table: dict[str, Any]) -> None:
    """The settlement shown equals the ledger entries of the game and the balances shown."""
    settlement, game_id = table["settlement"], table["game_id"]
    assert settlement is not None and game_id
    entries = (await server.aadmin("GET", f"ledger?game={game_id}"))["entries"]
    seated = {entry["account"]: entry for entry in entries if entry["seat"] is not None}
    house = [entry for entry in entries if entry["seat"] is None]
    assert sum(entry["delta"] for entry in house) == settlement["house"]
    assert sum(entry["delta"] for entry in entries) == 0
    for seat in range(len(table["seats"])):
        account = table["seats"][seat]["account"] if table["seats"][seat] else None
        entry = seated[account] if account is not None else next(e for e in seated.values() if e["seat"] == seat)
        assert entry["seat"] == seat
        assert entry["delta"] == settlement["deltas"][seat]
        assert entry["balance_after"] == settlement["balances_after"][seat]
        assert entry["balance_after"] - entry["delta"] == settlement["balances_before"][seat]
        if table["seats"][seat] is not None:
            assert table["seats"][seat]["balance"] == settlement["balances_after"][seat]
    edition = table["edition"]
    for player in players:
        status, me = await server.ahttp("GET", "/api/me", token=player.token)
        assert status == 200
        assert me["balances"][edition] == seated[player.id]["balance_after"]
