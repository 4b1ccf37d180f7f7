"""The mover's legal moves, listed at a low priority: the mover's state waits for them.

Listing a lead's moves takes up to milliseconds, and a group commit wakes many tables at
once. Listed as each table changes, they would hold the event loop for the whole batch,
and every message arriving meanwhile would wait. :class:`MovesPusher` lists them in the
next turns of the event loop instead, for about a millisecond per turn (at least one
table), so the network is read and written in between, and every ``state`` but the
movers' goes out before the moves of any turn are listed.
"""

from __future__ import annotations

import asyncio
import time
from typing import Protocol

__all__ = ["MovesPusher"]


class HasMoves(Protocol):
    """A table that can send its mover the moves of its current state."""

    def send_moves(self) -> None:
        """Send them now (nothing when nobody is to choose a move)."""


class MovesPusher:
    """Tables waiting to send their mover its moves, served in the order they asked for up to
    ``budget`` seconds per turn of the event loop (at least one table per turn); a table that
    asks again while waiting keeps its place (it sends the moves of its state when served)."""

    def __init__(self, budget: float = 0.001) -> None:
        self.budget = budget
        self._waiting: dict[HasMoves, None] = {}
        self._task: asyncio.Task[None] | None = None

    def push(self, table: HasMoves) -> None:
        """Queue ``table``; the worker runs while any wait."""
        self._waiting[table] = None
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._serve(), name="moves-pusher")

    async def _serve(self) -> None:
        try:
            while self._waiting:
                await asyncio.sleep(0)  # the next turn of the loop: what is ready now goes first
                ends = time.perf_counter() + self.budget
                while True:
                    table = next(iter(self._waiting))
                    del self._waiting[table]
                    table.send_moves()
                    if not self._waiting or time.perf_counter() >= ends:
                        break
        finally:
            self._task = None
