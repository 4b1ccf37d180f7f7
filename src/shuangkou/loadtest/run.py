"""A load test of the game server: many bot players over real WebSockets on this machine.

Each table is one bot client per seat (two, or four in a four-seat room such as
``--room classic``) matched by quick match (humans against humans). A bot acts
like a player: when it is its turn it waits a think time, takes the legal moves its state
carries (as the browser does; from a server that does not push them it asks for a
``hint``), plays one of the weakest moves (or passes) against the current state number,
and gets ready again after each game. The bots are kept lean, since they share the cores
of the servers they measure: each connection is a :class:`~.leansocket.LeanSocket` whose
messages are handled as they are read, and a state is read through a msgspec struct of
the few fields a bot acts on. With the default think time of about one second each table
makes about one action per second.

The test measures, over a window after a warm-up:

- action latency: from sending ``play``/``pass`` to receiving the ``state`` that shows it
  (p50, p95, p99, max), and the ``hint`` round trip where hints are asked;
- actions per second, games finished, errors by code (error messages, unexpected closes,
  timeouts);
- where the machine's CPU went (from ``/proc``): the server (each node), PostgreSQL,
  Redis, the load generator itself, the kernel's threads and the rest, per action too.

It starts its own server (``shuangkou serve`` as a child process on a fresh data directory,
on PostgreSQL in a new schema of the database) unless given ``--url``, which must be a
loopback address. ``--sweep`` runs several table counts, each on a fresh server, and
reports the largest that held the latency target. ``--node-cpu CORES`` holds each server
it starts to a CPU budget of its own (:mod:`.cpubudget`), as if each ran on a machine of
that size beside the database and the bots.
``--expert-tables N`` measures what expert bots (rooms with ``bot_level = "expert"``) cost
the other tables: after the window above, N more tables sit down, each one load bot against
the server's expert bots (in room ``--expert-room``, which the run adds to the server it
starts), and a second window measures the same tables again beside them: the human-side
latencies of both windows are printed side by side.
``--nodes N`` starts N servers as the nodes of a cluster (on ``--database-url``, PostgreSQL,
and ``--redis-url``) and connects table k's bots to node k mod N; ``--compare-nodes`` with
``--sweep`` runs each count on one node, then on N, and prints them side by side.

    shuangkou loadtest --tables 1000 --duration 60
    shuangkou loadtest --sweep 250,500,1000,1500 --duration 30
    shuangkou loadtest --tables 200 --expert-tables 20 --duration 30
    python bench/load.py --tables 5 --duration 3          # the same, as a script
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import ipaddress
import json
import math
import multiprocessing
import os
import random
import resource
import socket
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Coroutine, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field, replace
from functools import partial
from importlib import resources
from pathlib import Path
from typing import Any, Final, NamedTuple, TypedDict
from urllib.parse import urlsplit

import msgspec
import orjson

from ..games.shuangkou.config import SHIPPED_NAMES
from ..server.client import join_after
from ..server.process import ServerProcess
from ..server.settings import ADDRESS_RATE_VARIABLE, CONNECTIONS_PER_ADDRESS_VARIABLE
from .attack import AttackReport, attack_for
from .cpubudget import CpuBudget, CpuBudgetError
from .leansocket import LeanSocket

__all__ = [
    "CpuShare", "CpuSnapshot", "LoadReport", "LoadSettings", "ProcessCpu", "cpu_split", "main", "run_load", "sweep",
]


@dataclass
class LoadSettings:
    """What one load run does."""

    tables: int = 100
    duration: float = 30.0
    warmup: float = 45.0  # past the first games' ends: the window sees games turn over
    think: float = 1.0  # mean seconds a bot thinks before its action (uniform in [0.5, 1.5] x think)
    room: str = "points"
    url: str | None = None  # a running server (loopback only); None: start one
    server_pid: int | None = None  # for the CPU figure of a server given by --url
    database_url: str | None = None  # for the server this run starts (default: SQLite in a temp dir)
    server_args: list[str] = field(default_factory=list)
    server_python: str | None = None  # the interpreter of the server this run starts (default: this one)
    connect_concurrency: int = 64
    seed: int = 0
    target_p99_ms: float = 100.0
    nodes: int = 1  # servers started as the nodes of one cluster
    cluster: bool = False  # start the servers as the nodes of a cluster (PostgreSQL and Redis), even one
    redis_url: str = "redis://127.0.0.1:6379/0"  # the cluster's Redis, with nodes > 1
    expert_tables: int = 0  # tables of one load bot against expert bots, seated for a second window
    expert_room: str = "expert"  # their room (bot_level = "expert"); added to the server the run starts
    node_cpu: float | None = None  # cores each server the run starts may use (its own control group); None: all
    attack_idle: int = 0  # a hostile client (another address) holds this many idle connections (.attack)
    attack_flood: int = 0  # ... and floods on this many WebSockets of its own
    attack_cpu: float | None = None  # the attacker's CPU budget in cores (None: none)


class CpuShare(TypedDict):
    """What one group of processes used of the machine's CPU in a window."""

    percent: float  # of one core
    ms_per_action: float | None  # None without actions


@dataclass
class LoadReport:
    """The figures of one load run (latencies in milliseconds)."""

    tables: int
    connections: int
    connected: int
    seconds: float
    actions: int
    actions_per_second: float
    per_table_actions_per_second: float
    latency_ms: dict[str, float]
    hint_ms: dict[str, float]
    games_finished: int
    errors: dict[str, int]
    server_cpu_percent: float | None
    server_cpu_ms_per_action: float | None
    server_memory_mb: tuple[float | None, float | None]  # resident memory at the start and the end of the window
    server_histograms: dict[str, dict[str, float]]  # upper bucket bounds of p50/p99 in the window
    machine_cpu_percent: float | None  # every process of the machine, all cores: others' work shows here
    load_average: float
    setup_seconds: float
    server: str
    target_p99_ms: float
    nodes: int = 1
    node_cpu: float | None = None  # the CPU budget of each server, in cores (None: none)
    redirects: int = 0  # quick-match joins sent on to another node
    node_tables: dict[str, int] = field(default_factory=dict)  # node: tables it ran at the window's end
    cpu_split: dict[str, CpuShare] = field(default_factory=dict)  # see :func:`cpu_split`
    expert_tables: int = 0  # tables against expert bots playing in this window besides ``tables``
    expert_latency_ms: dict[str, float] = field(default_factory=dict)  # the load bots' actions at those tables
    expert_turn_ms: dict[str, float] = field(default_factory=dict)  # an expert's turn: bot_delay plus its search
    without_experts: LoadReport | None = None  # the window before the expert tables sat down (same run)
    attack: dict[str, Any] | None = None  # what a hostile client managed meanwhile (.attack.AttackReport)

    @property
    def played(self) -> bool:
        """Whether every table was seated and played, with no error."""
        return self.connected == self.connections and not self.errors and self.actions > 0

    @property
    def held(self) -> bool:
        """Whether every table played, with p99 under the target and no error."""
        return self.played and self.latency_ms.get("p99", math.inf) < self.target_p99_ms

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return asdict(self) | {"played": self.played, "held": self.held}

    def to_text(self) -> str:
        """A short human summary (after the window without expert tables, when there was one)."""
        before = self.without_experts
        if before is None:
            return self._summary()
        lat, base, turn = self.latency_ms, before.latency_ms, self.expert_turn_ms
        search = self.server_histograms.get("expert_search_ms", {})
        return "\n".join([
            "without expert tables:", before._summary(), "",
            f"with {self.expert_tables} expert tables beside them:", self._summary(),
            f"at the expert tables: the load bots' action latency ms p50 {self.expert_latency_ms.get('p50', 0):.1f}"
            f"  p99 {self.expert_latency_ms.get('p99', 0):.1f}; an expert's turn (bot_delay and search) ms "
            f"p50 {turn.get('p50', 0):.1f}  p99 {turn.get('p99', 0):.1f}  ({turn.get('count', 0)} turns); "
            f"the server's searches (bucket bounds, ms): p50 <= {search.get('p50')}, p99 <= {search.get('p99')}",
            f"the {self.tables} other tables' action latency, with / without expert tables: "
            f"p50 {_ratio(lat.get('p50'), base.get('p50'))}, p99 {_ratio(lat.get('p99'), base.get('p99'))}",
        ])

    def _summary(self) -> str:
        lat, hint = self.latency_ms, self.hint_ms
        handling = self.server_histograms.get("message_handling_ms", {})
        lag = self.server_histograms.get("event_loop_lag_ms", {})
        full_gc = self.server_histograms.get("full_gc_ms", {})
        database = self.server_histograms.get("database_ms", {})
        batch = self.server_histograms.get("action_batch", {})
        cpu = "n/a" if self.server_cpu_percent is None else f"{self.server_cpu_percent:.0f}%"
        errors = ", ".join(f"{code} {n}" for code, n in sorted(self.errors.items())) or "none"
        return "\n".join([
            f"{self.tables} tables, {self.connected}/{self.connections} connections, "
            f"{self.seconds:.0f} s measured (setup {self.setup_seconds:.1f} s), server {self.server}"
            + (f" ({self.nodes} nodes, {self.redirects} joins redirected)" if self.nodes > 1 else "")
            + (f", each held to {self.node_cpu:g} of a core" if self.node_cpu is not None else ""),
            *([
                "tables per node at the window's end: "
                + ", ".join(f"{node} {tables}" for node, tables in self.node_tables.items())
            ] if self.node_tables else []),
            f"actions: {self.actions} ({self.actions_per_second:.0f}/s, "
            f"{self.per_table_actions_per_second:.2f}/s per table), games finished: {self.games_finished}",
            f"action latency ms: p50 {lat.get('p50', 0):.1f}  p95 {lat.get('p95', 0):.1f}  "
            f"p99 {lat.get('p99', 0):.1f}  max {lat.get('max', 0):.1f}",
            f"hint round trip ms: p50 {hint.get('p50', 0):.1f}  p99 {hint.get('p99', 0):.1f}",
            f"server side{' (the first node)' if self.nodes > 1 else ''} (bucket bounds, ms): "
            f"message handling p50 <= {handling.get('p50')}, p99 <= "
            f"{handling.get('p99')}; event-loop lag p50 <= {lag.get('p50')}, p99 <= {lag.get('p99')}; "
            f"full collections {full_gc.get('count', 0):.0f}, longest <= {full_gc.get('max')}; "
            f"{database.get('count', 0):.0f} database calls, p99 <= {database.get('p99')}; "
            f"{batch.get('count', 0):.0f} group commits, p50 <= {batch.get('p50')} actions",
            f"errors: {errors}",
            f"server memory (resident): {self.server_memory_mb[0]} MB at the start of the window, "
            f"{self.server_memory_mb[1]} MB at its end",
            f"CPU: server {cpu} of one core ({self.server_cpu_ms_per_action} ms per action); the machine's "
            f"{os.cpu_count()} cores were {self.machine_cpu_percent}% busy (load average {self.load_average})",
            "CPU by process, % of one core (ms per action): " + ", ".join(
                f"{group} {_share(share)}" for group, share in self.cpu_split.items()
            ),
            *([AttackReport(**self.attack).to_text()] if self.attack is not None else []),
            f"p99 under {self.target_p99_ms:.0f} ms with no error: {'yes' if self.held else 'NO'}",
        ])


def _share(share: CpuShare) -> str:
    """``12 % (0.48 ms)``: a share of the CPU split."""
    return f"{share['percent']:.0f} % ({share['ms_per_action']} ms)"


def _ratio(after: float | None, before: float | None) -> str:
    """``after / before ms (ratio)``, as the comparisons print them."""
    ratio = f"{after / before:.2f}" if after and before else "n/a"
    return f"{after} / {before} ms ({ratio})"


def percentiles(samples: Sequence[float]) -> dict[str, float]:
    """p50, p95, p99, max and mean of ``samples`` (seconds) in milliseconds.

    >>> percentiles([0.001 * i for i in range(1, 101)])["p99"]
    99.0
    """
    if not samples:
        return {}
    ordered = sorted(samples)

    def rank(q: float) -> float:
        return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))] * 1000

    return {
        "p50": round(rank(0.50), 2),
        "p95": round(rank(0.95), 2),
        "p99": round(rank(0.99), 2),
        "max": round(ordered[-1] * 1000, 2),
        "mean": round(sum(ordered) / len(ordered) * 1000, 2),
        "count": len(ordered),
    }


# ---------------------------------------------------------------------------
# One run


class _Run:
    """Shared state of the bots of one run."""

    def __init__(self, settings: LoadSettings, base_url: str, node_urls: Sequence[str] = ()) -> None:
        self.settings = settings
        self.base_url = base_url.rstrip("/")
        self.node_urls = [url.rstrip("/") for url in node_urls] or [self.base_url]  # table k's bots: node k mod N
        self.seats = 2
        self.redirects = 0
        parts = urlsplit(self.base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.measuring = False
        self.window_start = math.inf  # perf_counter() when measuring began
        self.stopping = False
        self.latencies: list[float] = []
        self.hint_latencies: list[float] = []
        self.expert_latencies: list[float] = []  # the load bots' actions at tables against expert bots
        self.expert_turns: list[float] = []  # an expert bot's turn: from the state it acts in to its action's
        self.actions = 0
        self.games = 0
        self.errors: Counter[str] = Counter()

    def new_window(self) -> None:
        """Forget the figures of the last window."""
        self.latencies, self.hint_latencies, self.expert_latencies, self.expert_turns = [], [], [], []
        self.actions = self.games = 0
        self.errors = Counter()

    def error(self, code: str) -> None:
        """Count an error; one before the window (seating, warm-up) as ``warmup:CODE``: a
        player left without a table then plays no part in the window, so it counts too."""
        if self.measuring:
            self.errors[code] += 1
        elif not self.stopping:
            self.errors[f"warmup:{code}"] += 1

    async def request(self, method: str, path: str, body: bytes = b"") -> bytes:
        """A minimal HTTP/1.1 request on its own connection (no client library needed)."""
        reader, writer = await asyncio.open_connection(self.host, self.port)
        try:
            writer.write(
                f"{method} {path} HTTP/1.1\r\nHost: {self.host}:{self.port}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n".encode() + body
            )
            await writer.drain()
            response = await reader.read()
        finally:
            writer.close()
            with contextlib.suppress(OSError):
                await writer.wait_closed()
        head, _, payload = response.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200"):
            status = head.splitlines()[0].decode(errors="replace") if head else "no answer"
            raise RuntimeError(f"{method} {path}: {status}")
        return payload

    async def post_json(self, path: str, data: dict[str, Any]) -> dict[str, Any]:
        """POST a JSON document, return the JSON answer."""
        result: dict[str, Any] = json.loads(await self.request("POST", path, json.dumps(data).encode()))
        return result

    async def metrics(self) -> str:
        """The server's /metrics text; empty when it does not answer."""
        try:
            return (await self.request("GET", "/metrics")).decode()
        except (OSError, RuntimeError):
            return ""

    async def histograms(self) -> dict[str, dict[float, float]]:
        """The server's histogram buckets from /metrics (metric name: {upper bound: count})."""
        text = await self.metrics()
        found: dict[str, dict[float, float]] = {}
        for line in text.splitlines():
            if "_bucket{" in line and not line.startswith("#"):
                name, _, rest = line.partition("_bucket{")
                labels, _, bound = rest.rpartition('le="')
                bound = bound.split('"', 1)[0]
                key = f"{name}{{{labels.rstrip(',')}}}" if labels else name  # e.g. ..._seconds{generation="2"}
                found.setdefault(key, {})[math.inf if bound == "+Inf" else float(bound)] = float(line.split()[-1])
        return found


class _SeatView(msgspec.Struct):
    """What a bot reads of a seat in a ``state``."""

    ready: bool = False


class _GameView(msgspec.Struct):
    """What a bot reads of the game in a ``state``."""

    to_act: int | None = None
    seq: int = 0


class _TableView(msgspec.Struct):
    """What a bot reads of a ``state``'s table: the rest of the message is skipped unread."""

    seq: int
    phase: str
    you: int | None = None
    game_id: str | None = None
    game: _GameView | None = None
    seats: list[_SeatView | None] = msgspec.field(default_factory=list)


class _Message(msgspec.Struct):
    """A server message as a bot reads it: ``state``, ``hint``, ``error`` and ``closed``
    by these fields, a state's table by :class:`_TableView`, the moves left unparsed until
    the bot plays; a ``redirect`` (whose ``table`` is a table's id) is read whole."""

    type: str
    table: _TableView | str | None = None  # a state's table, or a redirect's table id
    seq: int = 0  # a hint's state
    moves: msgspec.Raw = msgspec.Raw()  # a state's (of our turn) or a hint's; empty: none
    code: str = ""  # an error's
    reason: str = ""  # a close's


class _Move(msgspec.Struct):
    """A legal move, as the bot plays it back (a follow's hints hold the pass, ``{"type": "pass"}``)."""

    cards: Any = None
    type: str = "play"
    as_: str | None = msgspec.field(default=None, name="as")
    kind: str | None = None  # an older server's whole combination names its kind


_read_message = msgspec.json.Decoder(_Message).decode
_read_moves = msgspec.json.Decoder(list[_Move]).decode


class _Bot:
    """One player: reacts to every state, acts after a think time; an ``expert`` bot plays
    against the server's expert bots, alone at its table. Its messages are handled as they
    are read (:class:`LeanSocket`): no task per bot, none per step but a hint's round trip."""

    def __init__(self, run: _Run, index: int, expert: bool = False) -> None:
        self.run = run
        self.index = index
        self.expert = expert
        self.expert_turn: tuple[int, float] | None = None  # (game's actions, time) when an expert bot's turn began
        self.rng = random.Random(run.settings.seed * 1_000_003 + index)
        self.node_url = run.node_urls[(index // run.seats) % len(run.node_urls)]  # a table's seats: one node
        self.token = ""
        self.socket: LeanSocket | None = None
        self.welcome: asyncio.Future[dict[str, Any]] | None = None  # the first message of a new socket
        self.table: _TableView | None = None
        self.scheduled: int | None = None  # the state number an action is planned for
        self.sent: tuple[int, float, bool] | None = None  # (state number, time, in the window) of a play/pass
        self.hint_reply: asyncio.Future[tuple[int, msgspec.Raw]] | None = None
        self.pushed: tuple[int, msgspec.Raw] | None = None  # the last moves received (state number, moves)
        self.busy = False  # a think-and-act step is running: never two at once
        self.asked_in_window = False  # the last move was chosen inside the measured window
        self.readied: str | None = None  # the game id (or "-") this bot has sent ready after
        self.thinking: asyncio.TimerHandle | None = None  # the think time before a planned step
        self.tasks: set[asyncio.Task[None]] = set()

    async def connect(self) -> None:
        data = await self.run.post_json("/api/guest", {"name": f"Load {self.index}"})
        self.token = data["token"]
        await self.open(self.node_url)

    async def open(self, base_url: str) -> None:
        """Connect to ``base_url``'s WebSocket and wait for the welcome."""
        url = base_url.replace("http", "ws", 1) + f"/ws?token={self.token}"
        self.welcome = asyncio.get_running_loop().create_future()
        socket = await LeanSocket.connect(url, self.received, timeout=60)
        self.socket = socket
        socket.ended.add_done_callback(partial(self.ended, socket))
        welcome = await asyncio.wait_for(self.welcome, 60)
        if welcome.get("type") != "welcome":
            raise RuntimeError(f"no welcome: {welcome}")

    def join(self) -> None:
        settings = self.run.settings
        if self.expert:
            self.send({"type": "join", "room": settings.expert_room, "opponent": "bot"})
        else:
            self.send({"type": "join", "room": settings.room, "opponent": "human"})

    def send(self, message: dict[str, Any]) -> None:
        if self.socket is not None and not self.run.stopping:
            self.socket.send(orjson.dumps(message))  # UTF-8 already: sent as is

    def ended(self, socket: LeanSocket, clean: asyncio.Future[bool]) -> None:
        """A socket closed: before its welcome, :meth:`open` fails; after it, an error unless
        it closed cleanly or the run stops. A socket left for a redirect is no concern."""
        if socket is not self.socket:
            return
        if self.welcome is not None and not self.welcome.done():
            self.welcome.set_exception(ConnectionError("closed before the welcome"))
        elif not clean.result() and not self.run.stopping:
            self.run.error("connection_lost")

    def received(self, data: bytes) -> None:
        """One message from the server, handled as it is read."""
        if self.welcome is not None and not self.welcome.done():
            self.welcome.set_result(orjson.loads(data))
            return
        run = self.run
        try:
            message = _read_message(data)
        except msgspec.DecodeError:  # not a message of the protocol as this bot knows it
            run.error("unreadable_message")
            return
        kind, table = message.type, message.table
        if kind == "state" and isinstance(table, _TableView):
            if message.moves:  # a state of our turn carries our moves
                self.pushed = (table.seq, message.moves)
            self.on_state(table)
        elif kind == "hint" and message.moves:
            self.pushed = (message.seq, message.moves)
            if self.hint_reply is not None and not self.hint_reply.done():
                self.hint_reply.set_result(self.pushed)
        elif kind == "error":
            run.error(message.code)
            self.sent = None
            self.scheduled = None
            if self.table is not None:
                self.on_state(self.table)
        elif kind == "closed" and not run.stopping:
            run.error(f"closed:{message.reason}")
        elif kind == "redirect" and not run.stopping:
            redirect: dict[str, Any] = orjson.loads(data)
            if "table" in redirect or "room" in redirect:
                self.spawn(self.follow(redirect))

    async def follow(self, redirect: dict[str, Any]) -> None:
        """Follow a quick match's ``redirect`` to the node where players wait (a cluster),
        and join the table there."""
        self.run.redirects += 1
        old, self.socket = self.socket, None
        if old is not None:
            old.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(old.ended), 5)
        try:
            await self.open(str(redirect["url"]))
        except Exception:
            self.run.error("redirect_failed")
            return
        if (join := join_after(redirect)) is not None:
            self.send(join)

    def on_state(self, table: _TableView) -> None:
        run = self.run
        previous = self.table
        self.table = table
        seq = table.seq
        if self.sent is not None and seq > self.sent[0]:
            if run.measuring and self.sent[2]:  # sent (and its move chosen) inside the window
                latency = time.perf_counter() - self.sent[1]
                if self.expert:
                    run.expert_latencies.append(latency)
                else:
                    run.latencies.append(latency)
                    run.actions += 1
            self.sent = None
        if self.expert:
            self.time_expert(table)
        newly_settled = table.phase == "settled" and (previous is None or previous.phase != "settled")
        if newly_settled and run.measuring and table.you == 0 and not self.expert:
            run.games += 1
        if self.busy or self.scheduled == seq or self.sent is not None:
            return
        me = table.seats[table.you] if table.you is not None else None
        if table.phase == "playing" and table.game is not None and table.game.to_act == table.you:
            self.plan(seq, self.act)
        elif (
            table.phase in ("settled", "ready") and me is not None and not me.ready
            and self.readied != (table.game_id or "-")
        ):
            self.plan(seq, self.ready)

    def time_expert(self, table: _TableView) -> None:
        """Time the turns of the expert bots at this table: from the first state in which one
        is to act to the first state with another action of the game."""
        game = table.game
        actions = game.seq if game is not None else -1
        now = time.perf_counter()
        if self.expert_turn is not None and actions != self.expert_turn[0]:
            if self.run.measuring:
                self.run.expert_turns.append(now - self.expert_turn[1])
            self.expert_turn = None
        if self.expert_turn is None and table.phase == "playing" and game is not None and game.to_act != table.you:
            self.expert_turn = (actions, now)

    def plan(self, seq: int, step: Callable[[int], None]) -> None:
        """Take ``step`` for state ``seq`` after a think time (uniform in [0.5, 1.5] x think)."""
        self.scheduled = seq
        self.busy = True
        delay = self.run.settings.think * self.rng.uniform(0.5, 1.5)
        self.thinking = asyncio.get_running_loop().call_later(delay, self.start, seq, step)

    def start(self, seq: int, step: Callable[[int], None]) -> None:
        """The think time is over: take the step."""
        self.thinking = None
        step(seq)

    def done(self) -> None:
        """The step is taken: look at the state again, which may have moved on meanwhile."""
        self.busy = False
        if self.table is not None and not self.run.stopping:
            self.on_state(self.table)

    def spawn(self, work: Coroutine[Any, Any, None]) -> None:
        """Run ``work`` as a task the bot cancels when it closes."""
        task = asyncio.get_running_loop().create_task(work)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def ready(self, seq: int) -> None:
        if self.table is not None and self.table.seq == seq:
            self.readied = self.table.game_id or "-"
            self.send({"type": "ready"})
        self.done()

    def act(self, seq: int) -> None:
        if self.table is None or self.table.seq != seq or self.run.stopping:
            self.done()
        elif self.pushed is not None and self.pushed[0] == seq:  # with the state or after it, as a browser has them
            self.asked_in_window = self.run.measuring
            self.play(seq, self.pushed[1])
            self.done()
        else:  # a server that does not push them: ask for a hint (one round trip)
            self.spawn(self.act_after_hint(seq))

    async def act_after_hint(self, seq: int) -> None:
        try:
            moves = await self.ask_hint(seq)
            if moves is not None:
                self.play(seq, moves)
        finally:
            self.done()

    def play(self, seq: int, moves_json: msgspec.Raw) -> None:
        """Play one of the first three hints (the weakest moves, or the pass among them), or pass."""
        moves = _read_moves(moves_json)
        move = moves[self.rng.randrange(min(3, len(moves)))] if moves else None
        if move is not None and move.type == "play":
            message = {"type": "play", "seq": seq, "cards": move.cards, "as": move.as_ or move.kind}
        else:
            message = {"type": "pass", "seq": seq}
        self.sent = (seq, time.perf_counter(), self.asked_in_window)
        self.send(message)

    async def ask_hint(self, seq: int) -> msgspec.Raw | None:
        """The moves a ``hint`` answers for state ``seq``; None when the state moved on meanwhile."""
        run = self.run
        self.hint_reply = asyncio.get_running_loop().create_future()
        asked = time.perf_counter()
        self.send({"type": "hint"})
        try:
            hinted, moves = await asyncio.wait_for(self.hint_reply, 10)
        except TimeoutError:
            run.error("hint_timeout")
            self.scheduled = None
            return None
        self.asked_in_window = run.measuring and asked >= run.window_start
        if self.asked_in_window:
            run.hint_latencies.append(time.perf_counter() - asked)
        if self.table is None or self.table.seq != seq or hinted != seq:
            return None  # the state moved on (a timer); the next state plans again
        return moves

    async def close(self) -> None:
        if self.thinking is not None:
            self.thinking.cancel()
        for task in list(self.tasks):
            task.cancel()
        socket = self.socket
        if socket is not None:
            socket.close()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(socket.ended), 5)


def _resident_mb(pid: int) -> float | None:
    """Resident memory of a process in MB, from /proc (None where unreadable)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return round(int(line.split()[1]) / 1024, 1)
    except (OSError, ValueError):
        pass
    return None


class ProcessCpu(NamedTuple):
    """A process as ``/proc/PID/stat`` shows it."""

    name: str
    parent: int
    started: int  # clock ticks after boot: tells a process from an earlier one of the same pid
    seconds: float  # CPU used so far, user and system


@dataclass(frozen=True)
class CpuSnapshot:
    """The CPU seconds used so far by each process (by pid) and by the whole machine (all
    cores, interrupts included), from ``/proc``."""

    processes: dict[int, ProcessCpu]
    machine: float

    @classmethod
    def read(cls) -> CpuSnapshot:
        """The machine's figures now (processes that end while being read are left out)."""
        ticks = os.sysconf("SC_CLK_TCK")
        processes = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                text = (entry / "stat").read_text()
            except OSError:
                continue
            name = text[text.index("(") + 1:text.rindex(")")]
            fields = text[text.rindex(")") + 2:].split()
            processes[int(entry.name)] = ProcessCpu(
                name, int(fields[1]), int(fields[19]), (int(fields[11]) + int(fields[12])) / ticks
            )
        machine = [float(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        busy = sum(machine) - machine[3] - machine[4]  # all but idle and iowait
        return cls(processes, busy / ticks)


KERNEL_THREADS: Final = 2
"""The pid of ``kthreadd``, the parent of the kernel's threads (workers, interrupt threads)."""


def cpu_split(
    start: CpuSnapshot, end: CpuSnapshot, seconds: float, actions: int, nodes: Sequence[int], generator: int
) -> dict[str, CpuShare]:
    """Where the machine's CPU went between two snapshots ``seconds`` apart: each server
    (``nodes``, with its child processes; named ``server`` when alone, else ``node 1``…),
    PostgreSQL's processes, Redis, the load generator (``generator``), the kernel's threads,
    and the rest (the machine's busy time not counted above: other programs, interrupts,
    processes that ended in between), each as ``percent`` of one core and ``ms_per_action``.
    A process born in between counts whole; the rest is never below zero (whole clock ticks).

    >>> a = CpuSnapshot({7: ProcessCpu("python", 1, 50, 1.0)}, 10.0)
    >>> b = CpuSnapshot({7: ProcessCpu("python", 1, 50, 1.5), 9: ProcessCpu("postgres", 1, 90, 0.25)}, 11.0)
    >>> split = cpu_split(a, b, 2.0, 100, nodes=[7], generator=8)
    >>> split["server"], split["postgresql"]["percent"], split["rest"]["ms_per_action"]
    ({'percent': 25.0, 'ms_per_action': 5.0}, 12.5, 2.5)
    """
    owners = {pid: f"node {number}" if len(nodes) > 1 else "server" for number, pid in enumerate(nodes, 1)}
    used = dict.fromkeys([*owners.values(), "postgresql", "redis", "load generator", "kernel threads"], 0.0)
    owners[generator] = "load generator"
    for pid, process in end.processes.items():
        before = start.processes.get(pid)
        spent = process.seconds - (before.seconds if before is not None and before.started == process.started else 0)
        group = _owner(pid, end.processes, owners)
        if group is None:
            if process.name == "postgres":
                group = "postgresql"
            elif process.name.startswith("redis-server"):
                group = "redis"
            elif KERNEL_THREADS in (pid, process.parent):
                group = "kernel threads"
        if group is not None:
            used[group] += spent
    used["rest"] = max(0.0, end.machine - start.machine - sum(used.values()))
    return {
        group: {
            "percent": round(100 * spent / seconds, 1),
            "ms_per_action": round(1000 * spent / actions, 3) if actions else None,
        }
        for group, spent in used.items()
    }


def _owner(pid: int, processes: dict[int, ProcessCpu], owners: dict[int, str]) -> str | None:
    """The group of ``owners`` that ``pid`` or one of its ancestors belongs to."""
    seen = 0
    while pid not in owners and pid in processes and seen < 64:
        pid, seen = processes[pid].parent, seen + 1
    return owners.get(pid)


def _bucket_quantiles(
    before: dict[str, dict[float, float]], after: dict[str, dict[float, float]], name: str, scale: float = 1000
) -> dict[str, float]:
    """p50, p99 and max of a server histogram over the window, as the upper bounds of their
    buckets (times ``scale``: seconds as ms by default), and the number of observations."""
    start, end = before.get(name, {}), after.get(name, {})
    counts = sorted((bound, end[bound] - start.get(bound, 0.0)) for bound in end)
    total = counts[-1][1] if counts else 0.0
    result: dict[str, float] = {"count": total}
    for label, q in (("p50", 0.5), ("p99", 0.99), ("max", 1.0)):
        bound = next((b for b, n in counts if total and n >= q * total), None)
        if bound is not None:
            result[label] = bound * scale if bound != math.inf else math.inf
    return result


def _check_loopback(url: str) -> None:
    host = urlsplit(url).hostname or ""
    try:
        addresses = {str(info[4][0]) for info in socket.getaddrinfo(host, None)}
    except OSError as error:
        raise ValueError(f"cannot resolve {host!r}: {error}") from None
    for address in addresses:
        if not ipaddress.ip_address(address.split("%")[0]).is_loopback:
            raise ValueError(f"{url} is not a loopback address: a load test only targets this machine")


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard == resource.RLIM_INFINITY or soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


async def _drive(
    settings: LoadSettings, base_url: str, server_pids: Sequence[int], node_urls: Sequence[str] = ()
) -> LoadReport:
    run = _Run(settings, base_url, node_urls)
    rooms = json.loads(await run.request("GET", "/api/rooms"))["rooms"]
    seats = next((room.get("seats", 2) for room in rooms if room["name"] == settings.room), None)
    if seats is None:
        raise ValueError(f"the server has no room {settings.room!r}")
    expert = next((room for room in rooms if room["name"] == settings.expert_room), None)
    if settings.expert_tables and (expert is None or expert.get("bot_level") != "expert"):
        raise ValueError(f"the server has no room {settings.expert_room!r} with bot_level = \"expert\"")
    run.seats = seats
    bots = [_Bot(run, i) for i in range(seats * settings.tables)]  # one connection per seat
    started = time.perf_counter()
    setup_errors: Counter[str] = Counter()
    connected = await _seat(settings, bots, setup_errors)
    setup = time.perf_counter() - started
    # The bots and their sockets live to the end: no collection need scan them, and rare
    # collections keep the generator's own pauses out of the latencies it measures.
    thresholds = gc.get_threshold()
    gc.collect()
    gc.freeze()
    gc.set_threshold(5_000, 20, 100)
    attacking = settings.attack_idle or settings.attack_flood
    attacker = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) if attacking else None
    try:
        attack = None
        if attacker is not None:  # through the warm-up and the window, from a process of its own
            attack = asyncio.get_running_loop().run_in_executor(
                attacker, attack_for, base_url, settings.attack_idle, settings.attack_flood,
                settings.warmup + settings.duration + 1.0, settings.attack_cpu,
            )
        report = await _measure(settings, run, setup, connected, setup_errors, base_url, server_pids)
        if attack is not None:
            report = replace(report, attack=await attack)
        if settings.expert_tables:  # the same tables again, beside tables against expert bots
            experts = [_Bot(run, len(bots) + i, expert=True) for i in range(settings.expert_tables)]
            bots += experts
            run.new_window()
            await _seat(settings, experts, setup_errors)
            report = replace(
                await _measure(settings, run, setup, connected, setup_errors, base_url, server_pids),
                expert_tables=settings.expert_tables,
                expert_latency_ms=percentiles(run.expert_latencies),
                expert_turn_ms=percentiles(run.expert_turns),
                without_experts=report,
            )
        return report
    finally:
        if attacker is not None:
            attacker.shutdown(wait=True, cancel_futures=True)
        run.stopping = True
        await asyncio.gather(*(bot.close() for bot in bots))
        gc.set_threshold(*thresholds)
        gc.unfreeze()


async def _seat(settings: LoadSettings, bots: list[_Bot], setup_errors: Counter[str]) -> int:
    """Connect the bots (a few at a time) and have them join, in order so that neighbours
    are matched together; returns how many connected."""
    gate = asyncio.Semaphore(settings.connect_concurrency)

    async def connect(bot: _Bot) -> bool:
        async with gate:
            try:
                await bot.connect()
                return True
            except Exception as error:
                setup_errors[f"connect:{type(error).__name__}"] += 1
                return False

    connected = sum(await asyncio.gather(*(connect(bot) for bot in bots)))
    for bot in bots:
        if bot.socket is not None:
            bot.join()
    return connected


async def _measure(
    settings: LoadSettings, run: _Run, setup: float, connected: int,
    setup_errors: Counter[str], base_url: str, server_pids: Sequence[int],
) -> LoadReport:
    """Play the warm-up, then measure one window (the bots play on after it)."""
    await asyncio.sleep(settings.warmup)
    buckets = await run.histograms()
    run.window_start = time.perf_counter()
    run.measuring = True
    cpu_start = CpuSnapshot.read()
    memory_start = _resident_mb(server_pids[0]) if server_pids else None
    window_start = time.perf_counter()
    await asyncio.sleep(settings.duration)
    run.measuring = False
    seconds = time.perf_counter() - window_start
    cpu_end = CpuSnapshot.read()
    memory_end = _resident_mb(server_pids[0]) if server_pids else None
    split = cpu_split(cpu_start, cpu_end, seconds, run.actions, server_pids, os.getpid())
    machine_percent = round(100 * (cpu_end.machine - cpu_start.machine) / seconds / (os.cpu_count() or 1), 1)
    buckets_end = await run.histograms()
    server_side = {
        "message_handling_ms": _bucket_quantiles(buckets, buckets_end, "shuangkou_action_seconds"),
        "event_loop_lag_ms": _bucket_quantiles(buckets, buckets_end, "shuangkou_event_loop_lag_seconds"),
        "database_ms": _bucket_quantiles(buckets, buckets_end, "shuangkou_database_seconds"),
        "full_gc_ms": _bucket_quantiles(buckets, buckets_end, 'shuangkou_gc_pause_seconds{generation="2"}'),
        "expert_search_ms": _bucket_quantiles(buckets, buckets_end, "shuangkou_expert_search_seconds"),
        "action_batch": _bucket_quantiles(buckets, buckets_end, "shuangkou_action_batch_size", scale=1),
    }
    errors = dict(run.errors + setup_errors)
    server_percent = server_ms = None
    if server_pids and all(pid in cpu_end.processes for pid in server_pids):
        servers = [split[group] for group in split if group == "server" or group.startswith("node ")]
        server_percent = round(sum(share["percent"] for share in servers), 1)
        server_ms = round(sum(share["ms_per_action"] or 0.0 for share in servers), 3) if run.actions else None
    return LoadReport(
        tables=settings.tables,
        connections=run.seats * settings.tables,
        connected=connected,
        seconds=round(seconds, 2),
        actions=run.actions,
        actions_per_second=round(run.actions / seconds, 1),
        per_table_actions_per_second=round(run.actions / seconds / max(1, settings.tables), 3),
        latency_ms=percentiles(run.latencies),
        hint_ms=percentiles(run.hint_latencies),
        games_finished=run.games,
        errors=errors,
        server_cpu_percent=server_percent,
        server_cpu_ms_per_action=server_ms,
        server_memory_mb=(memory_start, memory_end),
        server_histograms=server_side,
        machine_cpu_percent=machine_percent,
        load_average=round(os.getloadavg()[0], 2),
        setup_seconds=round(setup, 2),
        server=", ".join(run.node_urls) if len(run.node_urls) > 1 else base_url,
        target_p99_ms=settings.target_p99_ms,
        nodes=len(run.node_urls),
        node_cpu=settings.node_cpu if settings.url is None else None,
        redirects=run.redirects,
        node_tables=node_tables(await run.metrics()) if len(run.node_urls) > 1 else {},
        cpu_split=split,
    )


def node_tables(metrics: str) -> dict[str, int]:
    """The tables of each node of a cluster as of its last heartbeat, from a node's /metrics.

    >>> node_tables('shuangkou_cluster_tables{node="b"} 7.0\\nshuangkou_cluster_tables{node="a"} 5.0')
    {'a': 5, 'b': 7}
    """
    found = {}
    for line in metrics.splitlines():
        if line.startswith('shuangkou_cluster_tables{node="'):
            found[line.split('"', 2)[1]] = int(float(line.split()[-1]))
    return dict(sorted(found.items()))


def _event_loop_runner() -> Any:
    """uvloop's event loop when installed (as with uvicorn[standard]), else asyncio's."""
    try:
        import uvloop

        return uvloop.run
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        return asyncio.run


def run_load(settings: LoadSettings) -> LoadReport:
    """One load run: start a server (unless ``settings.url``), drive it, stop it."""
    _raise_file_limit()
    runner = _event_loop_runner()
    if settings.url is not None:
        _check_loopback(settings.url)
        pids = [settings.server_pid] if settings.server_pid else []
        report: LoadReport = runner(_drive(settings, settings.url, pids))
        return report
    if settings.attack_idle or settings.attack_flood:
        # The players share 127.0.0.1: their address may hold them all (four seats a table at most);
        # the attacker's is held to as much.
        os.environ[CONNECTIONS_PER_ADDRESS_VARIABLE] = str(max(256, 4 * settings.tables + 64))
        os.environ[ADDRESS_RATE_VARIABLE] = str(max(200, 4 * settings.tables))
    with tempfile.TemporaryDirectory(prefix="shuangkou-load-") as directory, _fresh_schema(settings) as settings:
        servers = _servers(settings, Path(directory))
        budgets: list[CpuBudget] = []
        try:
            for number, server in enumerate(servers):
                server.start(timeout=60)
                if settings.node_cpu is not None:  # after starting: the budget holds what is measured
                    budgets.append(CpuBudget(settings.node_cpu, f"{Path(directory).name}-server{number}"))
                    budgets[-1].add(server.pid)
            urls = [server.url for server in servers]
            report = runner(_drive(settings, servers[0].url, [server.pid for server in servers], urls))
        finally:
            for server in servers:
                server.terminate(timeout=60)
            for budget in budgets:
                budget.close()
            if len(servers) > 1 or settings.cluster:
                _forget_cluster(settings.redis_url, servers[0].extra_args)
        problems = sum(server.log_errors() for server in servers)
        if problems:
            report.errors["server_log_error"] = problems
        return report


def _forget_cluster(redis_url: str, server_args: list[str]) -> None:
    """Delete the Redis keys of the run's cluster (named by its ``--cluster`` option)."""
    import redis

    prefix = server_args[server_args.index("--cluster") + 1]
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@contextlib.contextmanager
def _fresh_schema(settings: LoadSettings) -> Iterator[LoadSettings]:
    """On PostgreSQL, the settings with a new, empty schema of ``database_url`` for this run
    (:func:`fresh_schema`): every run starts from an empty database, as on SQLite, and
    leaves no games, rows or dead tuples to the next one."""
    if not (settings.database_url or "").startswith("postgresql"):
        yield settings
        return
    with fresh_schema(settings.database_url or "", "load") as url:
        yield replace(settings, database_url=url)


@contextlib.contextmanager
def fresh_schema(database_url: str, prefix: str) -> Iterator[str]:
    """The PostgreSQL ``database_url`` with a new, empty schema as its search path (named
    ``PREFIX_PID_N``), dropped with everything in it afterwards."""
    from sqlalchemy import create_engine, make_url

    url = make_url(database_url)
    schema = f"{prefix}_{os.getpid()}_{time.monotonic_ns() % 10**9}"
    options = f"{url.query.get('options', '')} -csearch_path={schema}".strip()
    engine = create_engine(url, isolation_level="AUTOCOMMIT")
    try:
        with engine.connect() as connection:
            connection.exec_driver_sql(f'CREATE SCHEMA "{schema}"')
        try:
            yield url.update_query_dict({"options": options}).render_as_string(hide_password=False)
        finally:
            with engine.connect() as connection:
                connection.exec_driver_sql(f'DROP SCHEMA "{schema}" CASCADE')
    finally:
        engine.dispose()


def _servers(settings: LoadSettings, directory: Path) -> list[ServerProcess]:
    """The server of a run, or with ``settings.nodes`` > 1 the nodes of a fresh cluster (node
    ids and a cluster name of this run only). With expert tables, the servers read the
    shipped rooms and the expert room from a rooms directory."""
    server_args = settings.server_args
    if settings.expert_tables:
        server_args = [*server_args, "--rooms", str(_rooms_with_experts(settings.expert_room, directory / "rooms"))]
    if not settings.cluster and settings.nodes == 1:
        return [ServerProcess(directory, settings.database_url, extra_args=server_args,
                              python=settings.server_python)]
    if not (settings.database_url or "").startswith("postgresql"):
        raise ValueError("--nodes needs --database-url postgresql+psycopg://... (a cluster runs on PostgreSQL)")
    run = f"{os.getpid()}-{time.monotonic_ns() % 10**9}"  # node ids of this run only: no earlier game is restored
    return [
        ServerProcess(
            directory / f"node-{number}", settings.database_url, python=settings.server_python,
            extra_args=[*server_args, "--redis-url", settings.redis_url, "--node-id", f"n{number}-{run}",
                        "--cluster", f"load-{run}", "--drain-seconds", "0"],
        )
        for number in range(settings.nodes)
    ]


def _rooms_with_experts(expert_room: str, directory: Path) -> Path:
    """A rooms directory: the shipped rooms, and ``expert_room``, a points room whose bots
    are experts."""
    directory.mkdir(parents=True, exist_ok=True)
    configs = resources.files("shuangkou") / "configs"
    for name in SHIPPED_NAMES:
        (directory / f"{name}.toml").write_text((configs / f"{name}.toml").read_text(encoding="utf-8"))
    (directory / f"{expert_room}.toml").write_text(
        'edition = "points"\nname = "Expert bots"\n[play]\nbot_level = "expert"\n'
    )
    return directory


def sweep(
    settings: LoadSettings, counts: Sequence[int], report: Any = None, baseline: str | None = None,
    compare_nodes: bool = False, repeat: int = 1,
) -> dict[str, Any]:
    """One run per table count, each on a fresh server; the largest count that held.

    With ``baseline`` (the Python interpreter of another installed copy, e.g. an older
    checkout's ``.venv/bin/python``), each count first runs on a server of that copy, then on
    this one, so both meet the same machine state; ``baseline_runs`` holds its reports.
    With ``compare_nodes``, the count first runs on a cluster of one node, then on
    ``settings.nodes``; ``largest_held_baseline`` and ``held_ratio`` compare them. With
    ``repeat``, each count runs that many times (each pair in turn) and holds when
    :func:`held_counts` says so: one spike of a single run neither makes nor breaks it."""
    runs, baseline_runs = [], []
    if compare_nodes:
        settings = LoadSettings(**{**asdict(settings), "cluster": True})
    changes: dict[str, Any] = {"nodes": 1} if compare_nodes else {"server_python": baseline}  # the baseline's run
    for count in counts:
        for _ in range(repeat):
            if baseline is not None or compare_nodes:
                before = run_load(LoadSettings(**{**asdict(settings), "tables": count, **changes}))
                baseline_runs.append(before.to_dict())
                if report is not None:
                    report(before)
            result = run_load(LoadSettings(**{**asdict(settings), "tables": count}))
            runs.append(result.to_dict())
            if report is not None:
                report(result)
    held = held_counts(runs, settings.target_p99_ms)
    outcome = {
        "runs": runs, "largest_held": max(held) if held else None, "target_p99_ms": settings.target_p99_ms,
        "repeat": repeat,
    }
    if baseline is not None or compare_nodes:
        outcome["baseline_runs"] = baseline_runs
        held_before = held_counts(baseline_runs, settings.target_p99_ms)
        outcome["largest_held_baseline"] = max(held_before) if held_before else None
        if held and held_before:
            outcome["held_ratio"] = round(max(held) / max(held_before), 2)
    return outcome


def held_counts(runs: Sequence[dict[str, Any]], target_p99_ms: float) -> list[int]:
    """The table counts that held among ``runs`` (reports in JSON form, a count's runs in
    any number): every run of the count played (:attr:`LoadReport.played`), and the median
    of their p99 latencies is under ``target_p99_ms`` (with one run: :attr:`LoadReport.held`)."""
    by_count: dict[int, list[dict[str, Any]]] = {}
    for run in runs:
        by_count.setdefault(run["tables"], []).append(run)
    return [
        count for count, of_count in by_count.items()
        if all(run["played"] for run in of_count)
        and statistics.median(run["latency_ms"].get("p99", math.inf) for run in of_count) < target_p99_ms
    ]


def comparison_text(outcome: dict[str, Any]) -> str:
    """The baseline's and this copy's figures side by side, per table count (a sweep with
    ``baseline`` or ``compare_nodes``), then where the machine's CPU went in each run."""
    pairs = list(zip(outcome["baseline_runs"], outcome["runs"], strict=True))
    sides = "baseline / this"
    if pairs and pairs[0][0]["nodes"] != pairs[0][1]["nodes"]:  # --compare-nodes: one node, then several
        sides = " / ".join(f"{run['nodes']} node{'s' if run['nodes'] > 1 else ''}" for run in pairs[0])
    lines = [
        f"| tables | server CPU per action: {sides} (ratio) | p99 ms: {sides} | actions/s: {sides} |",
        "|---|---|---|---|",
    ]
    for before, after in pairs:
        cpu_before, cpu_after = before["server_cpu_ms_per_action"], after["server_cpu_ms_per_action"]
        ratio = f"{cpu_after / cpu_before:.2f}" if cpu_before and cpu_after else "n/a"
        lines.append(
            f"| {after['tables']} | {cpu_before} / {cpu_after} ms ({ratio}) "
            f"| {before['latency_ms'].get('p99')} / {after['latency_ms'].get('p99')} "
            f"| {before['actions_per_second']} / {after['actions_per_second']} |"
        )
    return "\n".join(lines) + "\n\n" + cpu_split_text([run for pair in pairs for run in pair])


def cpu_split_text(runs: Sequence[dict[str, Any]]) -> str:
    """Where the machine's CPU went in each run (reports in JSON form), as a table: % of one
    core (ms per action)."""
    groups = list(dict.fromkeys(group for run in runs for group in run["cpu_split"]))
    groups.sort(key=lambda group: not (group == "server" or group.startswith("node ")))  # the servers first
    lines = [
        "| tables | nodes | actions/s | " + " | ".join(groups) + " |",
        "|---|---|---|" + "---|" * len(groups),
    ]
    for run in runs:
        split = run["cpu_split"]
        cells = [_share(split[group]) if group in split else "" for group in groups]
        lines.append(f"| {run['tables']} | {run['nodes']} | {run['actions_per_second']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Command line (``shuangkou loadtest`` and ``bench/load.py``)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The load test's options."""
    parser.add_argument(
        "--tables", type=int, default=100,
        help="concurrent tables, one connection per seat (two, or four in a four-seat room)",
    )
    parser.add_argument("--duration", type=float, default=30.0, help="seconds measured (default 30)")
    parser.add_argument(
        "--warmup", type=float, default=45.0,
        help="seconds played before measuring (default 45: past the first games' ends, so that the window sees "
        "games end and start as a server that has run a while does)",
    )
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean think time of a bot in seconds (default 1: about one action per second per table)")
    parser.add_argument("--room", default="points", help="room to play in (default points)")
    parser.add_argument("--url", help="a running server to test (loopback only); default: start one")
    parser.add_argument("--server-pid", type=int, help="pid of the server given by --url, for its CPU figure")
    parser.add_argument("--database-url", help="database of the server started by the test (default SQLite)")
    parser.add_argument("--sweep", metavar="N,N,...", help="run each table count on a fresh server")
    parser.add_argument("--baseline", metavar="PYTHON",
                        help="with --sweep: also run each count on a server started by this Python interpreter "
                             "(another installed copy, e.g. an older checkout's .venv/bin/python), just before "
                             "this copy's run, and print the two side by side")
    parser.add_argument("--nodes", type=int, default=1,
                        help="start this many servers as the nodes of a cluster (needs --database-url on PostgreSQL "
                             "and Redis at --redis-url); table k's bots connect to node k mod N")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0",
                        help="the cluster's Redis with --nodes (default redis://127.0.0.1:6379/0; loopback only)")
    parser.add_argument("--compare-nodes", action="store_true",
                        help="with --sweep and --nodes: run each count on one node, then on N, side by side")
    parser.add_argument("--repeat", type=int, default=1, metavar="N",
                        help="with --sweep: run each count N times (with --baseline or --compare-nodes, N pairs); "
                             "a count holds when every run played with no error and the median of their p99 is "
                             "under the target (default 1)")
    parser.add_argument("--target-p99", type=float, default=100.0, help="latency target in ms (default 100)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bots' choices (default 0)")
    parser.add_argument("--expert-tables", type=int, default=0, metavar="N",
                        help="after the measured window, seat N more tables of one load bot against the server's "
                             "expert bots and measure again: the other tables' latency with and without them")
    parser.add_argument("--expert-room", default="expert",
                        help="the room of those tables, with bot_level = \"expert\" (default expert; the run adds "
                             "it to the server it starts; with --url the server must have it)")
    parser.add_argument("--server-arg", action="append", default=[], metavar="ARG",
                        help="an option for every server the run starts, the baseline's too (repeat it for more; "
                             "write one with a value as --server-arg=--commit-delay=2), e.g. "
                             "--server-arg=--expert-workers=2")
    parser.add_argument("--node-cpu", type=float, metavar="CORES",
                        help="give every server the run starts (each node, the baseline's too) a CPU budget of "
                             "its own, e.g. 0.5 for half a core, as if each ran on a machine of that size: a Linux "
                             "control group per server (needs root); default: no budget")
    parser.add_argument("--attack-idle", type=int, default=0, metavar="N",
                        help="a soak: a hostile client from another address (127.0.0.2) keeps trying to hold N idle "
                             "connections (half a request each) through the warm-up and the window")
    parser.add_argument("--attack-flood", type=int, default=0, metavar="K",
                        help="a soak: the hostile client also floods pings on K WebSockets of its own guests")
    parser.add_argument("--attack-cpu", type=float, metavar="CORES",
                        help="a soak: hold the hostile client to this much CPU (a control group, needs root), as "
                             "if it ran on a machine of its own; default: no budget")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")


def settings_from(args: argparse.Namespace) -> LoadSettings:
    """Settings from parsed options (:class:`ValueError` for bad ones)."""
    if (
        args.tables < 1 or args.duration <= 0 or args.warmup < 0 or args.think < 0 or args.nodes < 1
        or args.expert_tables < 0
    ):
        raise ValueError(
            "--tables and --nodes must be at least 1, --duration positive, --warmup, --think and --expert-tables "
            "not negative"
        )
    if args.attack_idle < 0 or args.attack_flood < 0:
        raise ValueError("--attack-idle and --attack-flood must not be negative")
    if (args.attack_idle or args.attack_flood) and args.url:
        raise ValueError("--attack-idle and --attack-flood go with a server the run starts, not with --url")
    if args.expert_tables and args.sweep:
        raise ValueError("--expert-tables goes with one run, not with --sweep")
    if args.nodes > 1 or args.compare_nodes:
        _check_loopback(args.redis_url)
    if args.server_arg and args.url:
        raise ValueError("--server-arg goes to the servers the run starts, not to the one at --url")
    if args.node_cpu is not None:
        if args.url:
            raise ValueError("--node-cpu goes to the servers the run starts, not to the one at --url")
        if not 0 < args.node_cpu <= (os.cpu_count() or 1):
            raise ValueError(f"--node-cpu must be above 0 and at most the machine's {os.cpu_count()} cores")
        try:  # a clear refusal now rather than after the first server has started
            CpuBudget(args.node_cpu, f"shuangkou-load-check-{os.getpid()}").close()
        except (CpuBudgetError, OSError) as problem:
            raise ValueError(f"--node-cpu: {problem}") from None
    return LoadSettings(
        tables=args.tables, duration=args.duration, warmup=args.warmup, think=args.think, room=args.room,
        url=args.url, server_pid=args.server_pid, database_url=args.database_url, seed=args.seed,
        target_p99_ms=args.target_p99, nodes=args.nodes, cluster=args.nodes > 1, redis_url=args.redis_url,
        expert_tables=args.expert_tables, expert_room=args.expert_room, server_args=list(args.server_arg),
        node_cpu=args.node_cpu, attack_idle=args.attack_idle, attack_flood=args.attack_flood,
        attack_cpu=args.attack_cpu,
    )


def run_command(args: argparse.Namespace) -> int:
    """Carry out the parsed command; exit status 0 when the target held, 1 when not."""
    settings = settings_from(args)
    if args.sweep:
        counts = [int(part) for part in args.sweep.split(",") if part.strip()]
        if not counts or min(counts) < 1:
            raise ValueError("--sweep needs table counts like 250,500,1000")

        def progress(result: LoadReport) -> None:
            if not args.json:
                print(result.to_text(), end="\n\n", flush=True)

        if args.compare_nodes and (args.nodes < 2 or args.baseline):
            raise ValueError("--compare-nodes needs --nodes 2 or more, and no --baseline")
        if args.repeat < 1:
            raise ValueError("--repeat must be at least 1")
        outcome = sweep(settings, counts, progress, args.baseline, args.compare_nodes, args.repeat)
        if args.json:
            print(json.dumps(outcome))
        else:
            if args.baseline or args.compare_nodes:
                print(comparison_text(outcome), end="\n\n")
            p99 = f"the median p99 of {args.repeat} runs" if args.repeat > 1 else "p99"
            if args.compare_nodes:
                print(f"largest table count with {p99} under {settings.target_p99_ms:.0f} ms and no error: "
                      f"1 node {outcome['largest_held_baseline']}, {args.nodes} nodes {outcome['largest_held']} "
                      f"(ratio {outcome.get('held_ratio', 'n/a')})")
            else:
                print(f"largest table count with {p99} under {settings.target_p99_ms:.0f} ms and no error: "
                      f"{outcome['largest_held']}")
        return 0 if outcome["largest_held"] is not None else 1
    if args.baseline or args.compare_nodes or args.repeat != 1:
        raise ValueError("--baseline, --compare-nodes and --repeat go with --sweep")
    result = run_load(settings)
    print(json.dumps(result.to_dict()) if args.json else result.to_text())
    return 0 if result.held else 1


def main(argv: Sequence[str] | None = None) -> int:
    """``python bench/load.py``: the same options as ``shuangkou loadtest``."""
    parser = argparse.ArgumentParser(prog="load.py", description=__doc__.split("\n\n")[0] if __doc__ else None)
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run_command(args)
    except ValueError as error:
        print(f"load.py: error: {error}", file=sys.stderr)
        return 2
