"""Several ``shuangkou serve`` processes (nodes) on one PostgreSQL database and one Redis.

Each node runs the tables it claimed; docs/deployment.md tells the whole design. Here:

- :class:`ClusterSettings`: the node's id, its public URL, Redis, the cluster's name;
- :class:`NodeLease`: the node's liveness key in Redis, taken at start-up (a node id that
  is live already is refused, after waiting for a crashed holder's key to expire);
- :class:`Cluster`: while the node runs, renews its liveness every second with its load,
  keeps the directory (which node runs each table, which table seats each account) that
  routes players, takes over the unfinished tables of nodes whose liveness expired (and
  forgets their other tables), and carries the operator's room commands to every node.

Redis keys, all under ``NAME:`` (``--cluster``): ``node:ID`` (liveness, a TTL), ``nodes``
(hash: each node's URL and load), ``tables`` (hash: table → node), ``seats`` (hash:
account → table), ``claim:TABLE`` (one claimant at a time, a TTL), ``rooms_closed`` (set:
rooms the operator closed); the channel ``admin`` carries the operator's room commands to
every node, each answered in a list ``admin:REQUEST``. Redis is only for liveness,
routing and the operator's commands: which node may write a table is decided by PostgreSQL
(:mod:`shuangkou.store.fences`), so a lost or stale Redis key can delay a game, never
corrupt one.
"""

from __future__ import annotations

import asyncio
import bisect
import dataclasses
import json
import logging
import math
import secrets
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final

import redis
import redis.asyncio as aioredis

from .metrics import METRICS

__all__ = ["Cluster", "ClusterError", "ClusterSettings", "NodeLease", "NodeStatus", "Redirect"]

log = logging.getLogger("shuangkou.cluster")

LIVENESS_TTL: Final = 5.0
"""Seconds a node's liveness key lives without renewal: how long a crashed node's tables wait."""

HEARTBEAT: Final = 1.0
"""Seconds between two renewals of a node's liveness (and of its load in ``nodes``)."""

REDIS_CONNECTIONS: Final = 50
"""Connections a node keeps to Redis at most; more calls at once wait for one."""

REDIS_WAIT: Final = 10.0
"""Seconds a Redis call waits for a free connection before it fails."""

FORGET_CHUNK: Final = 500
"""Directory fields read (and deleted, at most) per step when a dead node is forgotten."""

CLAIM_TTL: Final = 10.0
"""Seconds a claim on a dead node's table stays with its claimant (it is deleted once restored)."""

# Renew the liveness key only while it still holds this process's value; take it again if it
# has expired (a pause); refuse when another process holds it. 1: renewed, 2: taken again, 0: held.
_RENEW: Final = """
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if current then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 2
"""
# Forgetting a dead node's directory entries goes by chunks of fields read with HSCAN, so
# Redis is never busy with a whole directory at once. Each chunk's script first checks that
# the node's liveness key (KEYS[1]) is not held by another process than ARGV[1] (a node that
# came back keeps its entries; -1 then), and deletes a field only if it still holds what was
# read.
_UNLESS_HELD_ELSEWHERE: Final = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] then return -1 end
"""
# Tables: the fields ARGV[3...] of KEYS[2] whose value is the node ARGV[2]; returns those deleted.
_FORGET_TABLES: Final = _UNLESS_HELD_ELSEWHERE + """
local gone = {}
for i = 3, #ARGV do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[2] then
    redis.call('HDEL', KEYS[2], ARGV[i])
    gone[#gone + 1] = ARGV[i]
  end
end
return gone
"""
# Seats: the pairs (account, table) ARGV[2...] of KEYS[2] still naming that table, unless the
# table is listed again in KEYS[3] (a node that took it over lists it, then its seats);
# returns how many were deleted.
_FORGET_SEATS: Final = _UNLESS_HELD_ELSEWHERE + """
local gone = 0
for i = 2, #ARGV, 2 do
  if redis.call('HGET', KEYS[2], ARGV[i]) == ARGV[i + 1] and redis.call('HEXISTS', KEYS[3], ARGV[i + 1]) == 0 then
    redis.call('HDEL', KEYS[2], ARGV[i])
    gone = gone + 1
  end
end
return gone
"""
# The node's status: the field ARGV[2] of KEYS[2]; returns 1 when deleted, 0 when not there.
_FORGET_STATUS: Final = _UNLESS_HELD_ELSEWHERE + """
return redis.call('HDEL', KEYS[2], ARGV[2])
"""
_DELETE_IF: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


ADMIN_REPLY_SECONDS: Final = 5.0
"""How long an operator request acting on every node waits for the other nodes' answers."""

WAITING_LISTED: Final = 16
"""Waiting tables a node lists per room in its status (quick match seats players at them)."""


class ClusterError(Exception):
    """The node cannot join its cluster: Redis is unreachable, or its id is live elsewhere."""


PLACEMENT_MARGIN: Final = 2
"""A new quick-match table opens on another node when this one runs more tables than that
node by more than this (and than a tenth of its own): nodes a heartbeat apart never send a
player back and forth."""


class Redirect(Exception):
    """The request belongs on another node, at ``url``: join ``table`` there (players wait
    at it; ``room`` names its room for a quick match there when it has filled meanwhile),
    or, with ``room`` alone, join that room by quick match there (it runs fewer tables), or,
    with ``watch``, watch that table there (it runs there)."""

    def __init__(
        self, url: str, table: str | None = None, room: str | None = None, watch: str | None = None
    ) -> None:
        super().__init__(f"{url}: table {table}, room {room}, watch {watch}")
        self.url = url
        self.table = table
        self.room = room
        self.watch = watch

    def message(self) -> dict[str, str]:
        """The ``redirect`` message."""
        message = {"type": "redirect", "url": self.url}
        for name, value in (("table", self.table), ("room", self.room), ("watch", self.watch)):
            if value is not None:
                message[name] = value
        return message


@dataclass(frozen=True)
class ClusterSettings:
    """What makes a server a node of a cluster (``serve --redis-url … --node-id …``)."""

    redis_url: str
    node_id: str
    public_url: str  # where players reach this node (redirects name it)
    name: str = "shuangkou"  # the Redis key prefix: clusters sharing one Redis differ by name
    ttl: float = LIVENESS_TTL
    heartbeat: float = HEARTBEAT

    def key(self, *parts: str) -> str:
        """A Redis key of this cluster."""
        return ":".join((self.name, *parts))

    @property
    def liveness_key(self) -> str:
        """This node's liveness key."""
        return self.liveness_key_of(self.node_id)

    def liveness_key_of(self, node: str) -> str:
        """The liveness key of ``node``."""
        return self.key("node", node)


@dataclass(frozen=True)
class NodeStatus:
    """What a node publishes every heartbeat: where it is and how loaded."""

    node: str
    url: str
    tables: int
    players: int
    connections: int
    accepting: bool
    rooms: dict[str, tuple[int, int]]  # room → (players seated, free seats where players wait)
    waiting: dict[str, list[tuple[str, int]]]  # room → tables where players wait for quick match, free seats
    at: float = 0.0  # when the node published it (seconds since the epoch; 0: not said)

    def to_json(self) -> str:
        """The value stored in ``nodes``."""
        return json.dumps({
            "node": self.node, "url": self.url, "tables": self.tables, "players": self.players,
            "connections": self.connections, "accepting": self.accepting, "at": self.at,
            "rooms": {name: list(counts) for name, counts in self.rooms.items()},
            "waiting": {name: [list(table) for table in tables] for name, tables in self.waiting.items()},
        })

    @classmethod
    def from_json(cls, text: str | bytes) -> NodeStatus:
        """Read :meth:`to_json`."""
        data = json.loads(text)
        rooms = {str(name): (int(counts[0]), int(counts[1])) for name, counts in data.get("rooms", {}).items()}
        waiting = {
            str(name): [(str(table), int(free)) for table, free in tables]
            for name, tables in data.get("waiting", {}).items()
        }
        return cls(
            str(data["node"]), str(data["url"]), int(data["tables"]), int(data["players"]),
            int(data["connections"]), bool(data["accepting"]), rooms, waiting, float(data.get("at", 0.0)),
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON form for the operator API (``waiting``: per room, the tables listed for other
        nodes' quick match; ``published``: when, in seconds since the epoch)."""
        return {
            "node": self.node, "url": self.url, "tables": self.tables, "players": self.players,
            "connections": self.connections, "accepting": self.accepting, "published": self.at,
            "waiting": {room: len(tables) for room, tables in sorted(self.waiting.items()) if tables},
        }


class NodeLease:
    """The node's liveness key, taken before the node restores anything (``with NodeLease(settings):``).

    A key held by another process is waited for up to its TTL (a node killed a moment ago
    holds it until it expires), then refused with :class:`ClusterError`."""

    def __init__(self, settings: ClusterSettings) -> None:
        self.settings = settings
        self.instance = f"{settings.public_url} {secrets.token_hex(8)}"  # this process's value
        self._redis = redis.Redis.from_url(
            settings.redis_url, socket_timeout=5, socket_connect_timeout=5, decode_responses=True
        )

    def acquire(self) -> NodeLease:
        """Take the liveness key (waiting for a dead holder's key to expire)."""
        settings = self.settings
        key, ttl_ms = settings.liveness_key, int(settings.ttl * 1000)
        deadline = time.monotonic() + settings.ttl + 1.0
        try:
            while not self._redis.set(key, self.instance, nx=True, px=ttl_ms):
                if time.monotonic() >= deadline:
                    holder = self._redis.get(key)
                    where = str(holder).split(" ")[0] if holder else "?"
                    raise ClusterError(
                        f"node id {settings.node_id!r} is live in cluster {settings.name!r} (a node at {where} "
                        f"renews {key} in Redis); stop that node first, or give this one another --node-id"
                    )
                time.sleep(0.2)
        except redis.RedisError as problem:
            raise ClusterError(f"cannot reach Redis at {_safe(settings.redis_url)}: {problem}") from None
        return self

    def release(self) -> None:
        """Give the key back, if it is still this process's (a graceful stop: others take over at once)."""
        try:
            self._redis.eval(_DELETE_IF, 1, self.settings.liveness_key, self.instance)
        except redis.RedisError as problem:
            log.warning("liveness not released", extra={"error": str(problem)})
        finally:
            self._redis.close()

    def __enter__(self) -> NodeLease:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


class Cluster:
    """The running node's part in the cluster: liveness, the directory, takeovers.

    ``status`` gives the node's load for each heartbeat; ``adopt(game_id, table_id)`` claims
    and restores an unfinished game of a dead node; ``lapsed()`` is called when the node's
    own liveness had expired (it was paused) and it must check which tables it still owns."""

    def __init__(self, settings: ClusterSettings, instance: str) -> None:
        self.settings = settings
        self.instance = instance
        # A blocking pool: when every connection is in use (a burst of players connecting at
        # once), a call waits for one instead of failing with "Too many connections".
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.redis_url, max_connections=REDIS_CONNECTIONS, timeout=REDIS_WAIT,
            socket_timeout=5, socket_connect_timeout=5, decode_responses=True,
        )
        self.redis = aioredis.Redis.from_pool(pool)  # closed with the client
        self.nodes: dict[str, NodeStatus] = {}  # the live nodes as of the last heartbeat, this one included
        self.dead: list[str] = []  # nodes listed in ``nodes`` whose liveness expired
        self._sent: set[str] = set()  # waiting tables of other nodes a player was sent to since the last heartbeat
        self._placed: defaultdict[str, list[float]] = defaultdict(list)  # when new tables were sent to each other node
        # Tables opened less tables closed here after each recent opening or closing; the first
        # entry (at -inf) holds the count from before those kept:
        self._net: list[tuple[float, int]] = [(-math.inf, 0)]
        self._pending: list[tuple[str, str, str | None]] = []  # directory writes: (hash, field, value or None)
        self._flusher: asyncio.Task[None] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._renew = self.redis.register_script(_RENEW)
        self._forget_tables = self.redis.register_script(_FORGET_TABLES)
        self._forget_seats = self.redis.register_script(_FORGET_SEATS)
        self._forget_status = self.redis.register_script(_FORGET_STATUS)
        self._delete_if = self.redis.register_script(_DELETE_IF)

    @property
    def node_id(self) -> str:
        """This node's id."""
        return self.settings.node_id

    def view(self) -> dict[str, Any]:
        """The cluster as the operator API shows it: every live node and the totals."""
        nodes = [status.to_dict() for _, status in sorted(self.nodes.items())]
        return {
            "node": self.node_id,
            "nodes": nodes,
            "tables": sum(node["tables"] for node in nodes),
            "players": sum(node["players"] for node in nodes),
            "connections": sum(node["connections"] for node in nodes),
            "dead": sorted(self.dead),
        }

    async def start(
        self,
        status: Callable[[], NodeStatus],
        running_games: Callable[[list[str] | None], Awaitable[list[tuple[str, str | None, str | None]]]],
        adopt: Callable[[str, str | None], Awaitable[bool]],
        lapsed: Callable[[], Awaitable[None]],
        operate: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]],
        beat: Callable[[], None],
    ) -> int:
        """Close the rooms the operator closed cluster-wide, forget the directory entries of
        this node id's previous process, restore the running games of this node id (a
        restart) and of no node (left by a single server), listen to the operator's commands
        (``operate`` applies one here), then start the heartbeat (``beat`` runs after each
        read of the live nodes) and the takeover loop; returns how many games were restored."""
        for room in sorted(await self.redis.smembers(self.settings.key("rooms_closed"))):
            await operate({"op": "close", "room": room})
        games = [(game, table) for game, table, node in await running_games(None) if node in (None, self.node_id)]
        await self._forget(self.node_id, self.instance, [table for _, table in games if table is not None])
        restored = await self._claim(games, adopt)
        commands = self.redis.pubsub(ignore_subscribe_messages=True)
        await commands.subscribe(self.settings.key("admin"))
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._beat(status, lapsed, beat), name="cluster-heartbeat"),
            loop.create_task(self._take_over(running_games, adopt), name="cluster-takeover"),
            loop.create_task(self._obey(commands, operate), name="cluster-commands"),
        ]
        return restored

    async def leave(self) -> None:
        """Stop the loops and give up this node's liveness: the other nodes take over at
        once whatever still runs here (its tables' writes are refused from their claim on)."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        try:
            await self._delete_if(keys=[self.settings.liveness_key], args=[self.instance])
        except redis.RedisError as problem:
            log.warning("liveness not given up", extra={"error": str(problem)})

    def placement(self, tables_here: int) -> str | None:
        """Where a new quick-match table should open: the URL of the node that seats players
        and runs clearly fewer tables than this one (``tables_here`` now); None: here.

        A node's count is set against this node's count at the moment that node published
        it, not against this node's count of now: in a burst of joins, counts a fraction of
        a heartbeat apart differ by the tables opened in between, and each node would find
        itself the fuller one in turn. Each table sent to a node since it published narrows
        the lead by two (the node has it, and this node did not open it), on the assumption
        that players arrive at both nodes alike (a load balancer's share): a node that gets
        players only from others fills more slowly, never past this one."""
        now = time.time()
        leads = [
            (
                self._count_at(status.at, tables_here) - status.tables - 2 * self._sent_since(node, status.at),
                node, status.url,
            )
            for node, status in self.nodes.items()
            if node != self.node_id and status.accepting
        ]
        if not leads:
            return None
        lead, node, url = max(leads)
        if lead > max(PLACEMENT_MARGIN, tables_here // 10):
            self._placed[node].append(now)
            return url
        return None

    def _count_at(self, moment: float, tables_now: int) -> int:
        """This node's tables at ``moment``: ``tables_now`` less those opened since, plus those closed."""
        then = self._net[bisect.bisect_right(self._net, (moment, math.inf)) - 1][1]
        return tables_now - (self._net[-1][1] - then)

    def _sent_since(self, node: str, moment: float) -> int:
        """New tables this node sent to ``node`` after ``moment``."""
        sent = self._placed[node]
        return len(sent) - bisect.bisect_right(sent, moment)

    def least_loaded(self) -> str | None:
        """The URL of the live node, other than this one, that seats players and runs the
        fewest tables (as of the last heartbeat); None when there is none."""
        others = [
            (status.tables, status.url) for node, status in self.nodes.items()
            if node != self.node_id and status.accepting
        ]
        return min(others)[1] if others else None

    async def stop(self) -> None:
        """Stop the loops and write what the directory still holds."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.redis.aclose()

    # -- the directory ------------------------------------------------------------------

    def table_opened(self, table_id: str) -> None:
        """This node runs ``table_id`` now."""
        self._count_change(1)
        self._write("tables", table_id, self.node_id)

    def table_closed(self, table_id: str) -> None:
        """The table closed here (its last player left)."""
        self._count_change(-1)
        self._write("tables", table_id, None)

    def table_lost(self) -> None:
        """Another node took a table of this one over: it no longer counts here (its directory
        entry is that node's to write)."""
        self._count_change(-1)

    def _count_change(self, change: int) -> None:
        """Note a table opened (1) or closed (-1) here, when (:meth:`placement` reckons with it)."""
        self._net.append((time.time(), self._net[-1][1] + change))

    def seated(self, account: int, table_id: str) -> None:
        """``account`` sits at ``table_id`` (of this node)."""
        self._write("seats", str(account), table_id)

    def unseated(self, account: int) -> None:
        """``account`` left its table of this node."""
        self._write("seats", str(account), None)

    def _write(self, name: str, field: str, value: str | None) -> None:
        """Queue a directory write; one task writes them in order, in pipelines."""
        self._pending.append((name, field, value))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.get_running_loop().create_task(self._flush(), name="cluster-directory")

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            pipe = self.redis.pipeline(transaction=False)
            for name, field, value in batch:
                if value is None:
                    pipe.hdel(self.settings.key(name), field)
                else:
                    pipe.hset(self.settings.key(name), field, value)
            try:
                await pipe.execute()
            except redis.RedisError as problem:
                log.warning("directory not written", extra={"error": str(problem), "writes": len(batch)})

    async def table_url(self, table_id: str) -> str | None:
        """The URL of the live node, other than this one, that runs ``table_id`` (None: none)."""
        node = await self.redis.hget(self.settings.key("tables"), table_id)
        status = self.nodes.get(str(node)) if node is not None else None
        return status.url if status is not None and status.node != self.node_id else None

    async def owner_url(self, account: int) -> tuple[str | None, str | None]:
        """Where ``account``'s table runs: (its table, the URL of the live node running it);
        the URL is None while no live node runs it (being taken over), both None when the
        account sits nowhere."""
        found = await self.redis.hget(self.settings.key("seats"), str(account))
        if found is None:
            return None, None
        table = str(found)
        node = await self.redis.hget(self.settings.key("tables"), table)
        if node is None:
            return table, None
        status = self.nodes.get(str(node))
        if status is None or not await self.redis.exists(self.settings.liveness_key_of(status.node)):
            return table, None
        return table, status.url

    def waiting_elsewhere(self, room: str, players: int = 1, lower_ids: bool = False) -> tuple[int, str, str] | None:
        """The table of ``room`` closest to full where players wait on another live node
        that seats players, with a seat for each of ``players``: (free seats, its URL, the
        table), as of the last heartbeat; with ``lower_ids``, only on a node whose id sorts
        before this one's. A table is named once per heartbeat, so the players who ask
        within one heartbeat are not all sent to the same seat (those who find it taken
        play by quick match there)."""
        found = [
            (free, status.url, table)
            for node, status in self.nodes.items()
            if node != self.node_id and status.accepting and (node < self.node_id or not lower_ids)
            for table, free in status.waiting.get(room, [])
            if table not in self._sent and free >= players
        ]
        chosen = min(found, default=None)
        if chosen is not None:
            self._sent.add(chosen[2])
        return chosen

    # -- liveness -----------------------------------------------------------------------

    async def _beat(
        self, status: Callable[[], NodeStatus], lapsed: Callable[[], Awaitable[None]], beat: Callable[[], None]
    ) -> None:
        settings = self.settings
        ttl_ms = int(settings.ttl * 1000)
        while True:
            try:
                renewed = await self._renew(keys=[settings.liveness_key], args=[self.instance, ttl_ms])
                if renewed == 0:  # its id was taken over by a new process: the tables it claimed are not ours
                    log.error("another process holds this node id", extra={"node": self.node_id})
                else:
                    published = dataclasses.replace(status(), at=time.time())
                    await self.redis.hset(settings.key("nodes"), self.node_id, published.to_json())
                    await self._read_nodes()
                    try:
                        beat()
                    except Exception:  # a bug there must not stop the heartbeat
                        log.exception("heartbeat step failed", extra={"node": self.node_id})
                if renewed != 1:  # the key had expired: this node was paused or cut off
                    log.warning("liveness lapsed", extra={"node": self.node_id})
                    await lapsed()
            except redis.RedisError as problem:
                log.warning("heartbeat failed", extra={"error": str(problem)})
            await asyncio.sleep(settings.heartbeat)

    async def _read_nodes(self) -> None:
        """The statuses of the live nodes (those whose liveness key exists)."""
        settings = self.settings
        published = await self.redis.hgetall(settings.key("nodes"))
        statuses = {str(node): str(status) for node, status in published.items()}
        ids = list(statuses)
        alive = await self.redis.mget([settings.liveness_key_of(node) for node in ids]) if ids else []
        self.nodes = {node: NodeStatus.from_json(statuses[node]) for node, live in zip(ids, alive, strict=True) if live}
        self._sent.clear()
        self._forget_placements()
        METRICS.cluster_nodes.set(len(self.nodes))
        for gauge in (METRICS.cluster_tables, METRICS.cluster_players, METRICS.cluster_connections):
            gauge.clear()
        for node, status in self.nodes.items():
            METRICS.cluster_tables.labels(node).set(status.tables)
            METRICS.cluster_players.labels(node).set(status.players)
            METRICS.cluster_connections.labels(node).set(status.connections)
        self.dead = [node for node, live in zip(ids, alive, strict=True) if not live]

    def _forget_placements(self) -> None:
        """Keep only the placements, openings and closings the live nodes' statuses may still
        be set against: those since the oldest of them was published."""
        published = [status.at for node, status in self.nodes.items() if node != self.node_id]
        # a live node publishes every heartbeat: a status older than its liveness is not set against
        oldest = max(min(published, default=math.inf), time.time() - self.settings.ttl)
        for node in list(self._placed):
            sent = self._placed[node]
            del sent[: bisect.bisect_right(sent, oldest)]
            if not sent:
                del self._placed[node]
        before = bisect.bisect_right(self._net, (oldest, math.inf)) - 1  # the count when the oldest was published
        self._net[: before + 1] = [(-math.inf, self._net[before][1])]

    # -- takeover -----------------------------------------------------------------------

    async def _take_over(
        self,
        running_games: Callable[[list[str] | None], Awaitable[list[tuple[str, str | None, str | None]]]],
        adopt: Callable[[str, str | None], Awaitable[bool]],
    ) -> None:
        """Every heartbeat: adopt the running games of the nodes whose liveness expired."""
        while True:
            await asyncio.sleep(self.settings.heartbeat)
            dead = self.dead
            if not dead:
                continue
            try:
                games = await running_games(dead)
                await self._claim(((g, t) for g, t, _ in games), adopt)
                if not games:  # every unfinished table of theirs runs elsewhere now: forget the rest
                    for node in dead:
                        await self._forget(node)
            except redis.RedisError as problem:
                log.warning("takeover failed", extra={"error": str(problem)})

    async def _claim(
        self, games: Iterable[tuple[str, str | None]], adopt: Callable[[str, str | None], Awaitable[bool]]
    ) -> int:
        """Adopt each game whose claim key this node gets (one claimant per table); returns
        how many were restored."""
        restored = 0
        for game_id, table_id in games:
            key = self.settings.key("claim", table_id or game_id)
            if not await self.redis.set(key, self.node_id, nx=True, px=int(CLAIM_TTL * 1000)):
                continue
            try:
                restored += await adopt(game_id, table_id)
            except Exception:
                log.exception("takeover of a game failed", extra={"game": game_id, "table": table_id})
            finally:
                await self._delete_if(keys=[key], args=[self.node_id])
        return restored


    async def _forget(self, node: str, instance: str = "", keep: Iterable[str] = ()) -> None:
        """Forget a node's tables (but ``keep``) and the seats at them in the directory, and
        its status, unless its liveness is held by another process than ``instance`` (it is
        live).

        Called for a dead node once none of its running games is left to take over: its
        other tables (players waiting, or between games) closed with it, and their players,
        when they connect again, are welcomed in the lobby. Called at start for this node's
        own id, keeping the tables whose games it restores: the other tables of its previous
        process closed with it. The hashes are read and cleared by chunks of
        :data:`FORGET_CHUNK` fields (see the scripts above)."""
        settings = self.settings
        liveness, tables_key, seats_key = settings.liveness_key_of(node), settings.key("tables"), settings.key("seats")
        kept = set(keep)
        gone: set[str] = set()
        async for chunk in self._chunks(tables_key):
            doomed = [table for table, owner in chunk if owner == node and table not in kept]
            if doomed:
                deleted = await self._forget_tables(keys=[liveness, tables_key], args=[instance, node, *doomed])
                if deleted == -1:
                    return
                gone.update(deleted)
        seats = 0
        async for chunk in self._chunks(seats_key):
            doomed = [field for account, table in chunk if table in gone for field in (account, table)]
            if doomed:
                deleted = await self._forget_seats(keys=[liveness, seats_key, tables_key], args=[instance, *doomed])
                if deleted == -1:
                    return
                seats += deleted
        if await self._forget_status(keys=[liveness, settings.key("nodes")], args=[instance, node]) == -1:
            return
        if node != self.node_id or gone or seats:
            log.info("node forgotten", extra={"node": node, "tables": len(gone), "seats": seats})

    async def _chunks(self, key: str) -> AsyncIterator[list[tuple[str, str]]]:
        """The fields and values of the hash ``key``, by chunks of about :data:`FORGET_CHUNK`
        (HSCAN: a field may come twice, one written meanwhile may not come)."""
        cursor = 0
        while True:
            cursor, entries = await self.redis.hscan(key, cursor, count=FORGET_CHUNK)
            assert isinstance(entries, dict), "HSCAN answers a mapping"
            yield [(str(field), str(value)) for field, value in entries.items()]
            if cursor == 0:
                return

    # -- operator commands ----------------------------------------------------------------

    async def command_all(self, command: dict[str, Any]) -> dict[str, Any]:
        """Send an operator command on the rooms to the other nodes: ``{"op": "reload"}`` or
        ``{"op": "close", "room": NAME}``; returns their answers by node id (those that
        answered within :data:`ADMIN_REPLY_SECONDS`). Closures are remembered (a reload
        forgets them), so that a node starting later closes the same rooms."""
        closed = self.settings.key("rooms_closed")
        replies = self.settings.key("admin", secrets.token_hex(8))
        message = json.dumps({**command, "from": self.node_id, "reply": replies})
        answers: dict[str, Any] = {}
        try:
            if command["op"] == "close":
                await self.redis.sadd(closed, command["room"])
            else:
                await self.redis.delete(closed)
            others = int(await self.redis.publish(self.settings.key("admin"), message)) - 1  # this node listens too
            deadline = time.monotonic() + ADMIN_REPLY_SECONDS
            while len(answers) < others and time.monotonic() < deadline:
                popped = await self.redis.blpop([replies], timeout=1)
                if popped is not None:
                    reply = json.loads(popped[1])
                    answers[reply["node"]] = reply["answer"]
            await self.redis.delete(replies)
        except redis.RedisError as problem:  # the nodes that answered so far are listed
            log.warning("operator command not sent to every node", extra={"error": str(problem), **command})
        return answers

    async def _obey(
        self, commands: aioredis.client.PubSub, operate: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
    ) -> None:
        """Apply the operator commands other nodes publish, and answer each."""
        try:
            while True:
                try:
                    message = await commands.get_message(True, timeout=self.settings.heartbeat)
                    if message is None:
                        continue
                    command = json.loads(message["data"])
                    if command["from"] == self.node_id:
                        continue  # applied by the node itself
                    answer = json.dumps({"node": self.node_id, "answer": await operate(command)})
                    await self.redis.rpush(command["reply"], answer)
                    await self.redis.expire(command["reply"], int(ADMIN_REPLY_SECONDS * 2))
                except redis.RedisError as problem:
                    log.warning("operator commands not read", extra={"error": str(problem)})
                    await asyncio.sleep(self.settings.heartbeat)
                except (ValueError, KeyError, TypeError) as problem:  # not a command of a node
                    log.warning("operator command ignored", extra={"error": repr(problem)})
        finally:
            await commands.aclose()


def _safe(url: str) -> str:
    """A Redis URL without its password."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    return f"{scheme}://***@{rest.split('@', 1)[1]}"
