"""The running node's part in the cluster (:class:`Cluster`): the parts joined, their loops
started with the node and stopped with it."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import redis

from .commands import Commands
from .directory import Directory
from .heartbeat import NodeStatus
from .settings import ClusterSettings
from .takeover import Takeover

__all__ = ["Cluster"]

log = logging.getLogger("shuangkou.cluster")


class Cluster(Directory, Takeover, Commands):
    """The running node's part in the cluster: liveness, the directory, takeovers.

    ``status`` gives the node's load for each heartbeat; ``adopt(game_id, table_id)`` claims
    and restores an unfinished game of a dead node; ``lapsed()`` is called when the node's
    own liveness had expired (it was paused) and it must check which tables it still owns."""

    def __init__(self, settings: ClusterSettings, instance: str) -> None:
        super().__init__(settings, instance)
        self._tasks: list[asyncio.Task[None]] = []

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

    async def stop(self) -> None:
        """Stop the loops and write what the directory still holds."""
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._flusher is not None:
            await asyncio.gather(self._flusher, return_exceptions=True)
        await self.redis.aclose()
