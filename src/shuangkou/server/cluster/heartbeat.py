"""Liveness while a node runs: every heartbeat it renews its liveness key, publishes its
:class:`NodeStatus` in ``nodes`` and reads the statuses of the live nodes (:class:`Heartbeat`,
the base of :class:`~shuangkou.server.cluster.Cluster`, holding its Redis client)."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Final

import redis
import redis.asyncio as aioredis

from ..metrics import METRICS
from .lease import DELETE_IF
from .settings import ClusterSettings

__all__ = ["REDIS_CONNECTIONS", "REDIS_WAIT", "Heartbeat", "NodeStatus"]

log = logging.getLogger("shuangkou.cluster")

REDIS_CONNECTIONS: Final = 50
"""Connections a node keeps to Redis at most; more calls at once wait for one."""

REDIS_WAIT: Final = 10.0
"""Seconds a Redis call waits for a free connection before it fails."""

# Renew the liveness key only while it still holds this process's value; take it again if it
# has expired (a pause); refuse when another process holds it. 1: renewed, 2: taken again, 0: held.
_RENEW: Final = """
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then redis.call('PEXPIRE', KEYS[1], ARGV[2]) return 1 end
if current then return 0 end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 2
"""


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


class Heartbeat:
    """The node's Redis client, its liveness renewed every heartbeat, and the live nodes as
    last read (``nodes``, this one included; ``dead``: nodes listed in ``nodes`` whose
    liveness expired)."""

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
        self._renew = self.redis.register_script(_RENEW)
        self._delete_if = self.redis.register_script(DELETE_IF)

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
        METRICS.cluster_nodes.set(len(self.nodes))
        for gauge in (METRICS.cluster_tables, METRICS.cluster_players, METRICS.cluster_connections):
            gauge.clear()
        for node, status in self.nodes.items():
            METRICS.cluster_tables.labels(node).set(status.tables)
            METRICS.cluster_players.labels(node).set(status.players)
            METRICS.cluster_connections.labels(node).set(status.connections)
        self.dead = [node for node, live in zip(ids, alive, strict=True) if not live]
