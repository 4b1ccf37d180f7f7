"""Where the server's searching bots think: a pool of worker processes.

A table's bots come from their game (:meth:`~shuangkou.games.interface.GameFamily.table_bot`,
at the room's ``bot_level``). A quick bot acts in the table's task; a searching bot (a
Shuangkou expert searches for tens of milliseconds per move, which would hold up every
table of the server) hands its search — a picklable function and its arguments, from what
its seat may see, nothing more — to :class:`ExpertPool`, while the table goes on handling
its inbox.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["ExpertPool", "default_expert_workers", "move_seed"]


def move_seed(game_id: str, seq: int) -> int:
    """The seed of a bot's search for the state after ``seq`` actions of game ``game_id``:
    the same state of the same game searches the same way (a game's record replays its
    bots' moves)."""
    digest = hashlib.blake2b(f"{game_id}/{seq}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def default_expert_workers() -> int:
    """Worker processes for searching bots by default: one core is left to the event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


class ExpertPool:
    """At most ``workers`` processes running bots' searches; searches asked for while every
    worker is busy wait their turn. The processes start with the first search asked for (a
    server whose rooms have no searching bots never starts them) and end with :meth:`close`."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"the expert pool needs at least 1 worker, not {workers}")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    async def search(self, function: Callable[..., Any], arguments: tuple[Any, ...]) -> Any:
        """``function(*arguments)`` in a worker process: a bot's action."""
        if self._closed:
            raise RuntimeError("the expert pool is closed")
        if self._executor is None:  # spawned, not forked: the server's threads and sockets stay out
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        executor = self._executor
        try:
            return await asyncio.get_running_loop().run_in_executor(executor, function, *arguments)
        except BrokenProcessPool:  # a worker died: the next search starts a new pool
            if self._executor is executor:
                self._executor = None
            raise

    async def close(self) -> None:
        """Stop the workers (searches not yet started are dropped); waits for them to exit."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
