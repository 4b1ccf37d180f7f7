"""Takeover (:class:`Takeover`): the running games of nodes whose liveness expired, claimed
one claimant per table and restored here, and the directory entries of those nodes
forgotten once none of their games is left to take over."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from typing import Final

import redis

from .heartbeat import Heartbeat
from .settings import ClusterSettings

__all__ = ["CLAIM_TTL", "FORGET_CHUNK", "Takeover"]

log = logging.getLogger("shuangkou.cluster")

FORGET_CHUNK: Final = 500
"""Directory fields read (and deleted, at most) per step when a dead node is forgotten."""

CLAIM_TTL: Final = 10.0
"""Seconds a claim on a dead node's table stays with its claimant (it is deleted once restored)."""

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


class Takeover(Heartbeat):
    """Every heartbeat, the games of dead nodes adopted here (:meth:`_take_over`), and the
    directory entries of a dead node, or of this node id's previous process, forgotten
    (:meth:`_forget`)."""

    def __init__(self, settings: ClusterSettings, instance: str) -> None:
        super().__init__(settings, instance)
        self._forget_tables = self.redis.register_script(_FORGET_TABLES)
        self._forget_seats = self.redis.register_script(_FORGET_SEATS)
        self._forget_status = self.redis.register_script(_FORGET_STATUS)

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
