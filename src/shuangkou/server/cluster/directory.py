"""The directory that routes players (:class:`Directory`): which node runs each table
(``tables``) and which table seats each account (``seats``), written by the node that runs
them and read by any; :class:`Redirect` sends a request to the node where it belongs."""

from __future__ import annotations

import asyncio
import logging

import redis

from .placement import Placement
from .settings import ClusterSettings

__all__ = ["Directory", "Redirect"]

log = logging.getLogger("shuangkou.cluster")


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


class Directory(Placement):
    """This node's tables and seats written to the directory (queued, in order, in pipelines),
    and where another node's table runs."""

    def __init__(self, settings: ClusterSettings, instance: str) -> None:
        super().__init__(settings, instance)
        self._pending: list[tuple[str, str, str | None]] = []  # directory writes: (hash, field, value or None)
        self._flusher: asyncio.Task[None] | None = None

    def table_opened(self, table_id: str) -> None:
        """This node runs ``table_id`` now."""
        self._count_change(1)
        self._write("tables", table_id, self.node_id)

    def table_closed(self, table_id: str) -> None:
        """The table closed here (its last player left)."""
        self._count_change(-1)
        self._write("tables", table_id, None)

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
