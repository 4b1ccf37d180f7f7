"""The server's bots: the level a room's bots play at (its ``bot_level``), and where their
moves are chosen.

Easy and normal bots choose in the event loop: a move costs them well under a millisecond.
An expert searches for tens of milliseconds per move (:mod:`shuangkou.games.shuangkou.expert`), which would
hold up every table of the server; its moves are chosen in a pool of worker processes
(:class:`ExpertPool`) from the bot's own view (:class:`~shuangkou.games.shuangkou.bots.Seen`: what its
seat may see, nothing more), while the table goes on handling its inbox.
"""

from __future__ import annotations

import asyncio
import hashlib
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from ..games.shuangkou.bots import Acting, Seen, make_bot
from ..games.shuangkou.combos import Combo
from ..games.shuangkou.config import BotLevel, RoomConfig
from ..games.shuangkou.expert import Budget, ExpertBot

__all__ = ["LEVEL_BOTS", "ExpertPool", "SeatBot", "default_expert_workers", "move_seed"]

LEVEL_BOTS: dict[BotLevel, str] = {"easy": "hosting", "normal": "greedy", "expert": "expert"}
"""The bot (:data:`shuangkou.games.shuangkou.bots.BOTS`) that plays at each level."""


@dataclass(frozen=True, slots=True)
class SeatBot:
    """A bot seated at a table: its ``level``, the ``rollouts`` an expert spends per move,
    and the bot itself for the levels that choose in the event loop (None: an expert)."""

    level: BotLevel
    rollouts: int
    quick: Acting | None

    @classmethod
    def of(cls, config: RoomConfig) -> SeatBot:
        """A bot at the level of the room ``config``."""
        level = config.bot_level
        quick = None if level == "expert" else make_bot(LEVEL_BOTS[level])
        return cls(level, config.expert_rollouts, quick)


def move_seed(game_id: str, seq: int) -> int:
    """The seed of an expert's search for the state after ``seq`` actions of game
    ``game_id``: the same state of the same game searches the same way (a game's record
    replays its bots' moves)."""
    digest = hashlib.blake2b(f"{game_id}/{seq}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")


def default_expert_workers() -> int:
    """Worker processes for expert moves by default: one core is left to the event loop."""
    return max(1, (os.cpu_count() or 2) - 1)


def _expert_move(config: RoomConfig, seen: Seen, seed: int, rollouts: int) -> Combo | None:
    """In a worker process: the expert's move for ``seen``."""
    return ExpertBot(config, seed, Budget(rollouts)).choose(seen)


class ExpertPool:
    """At most ``workers`` processes choosing expert moves; moves asked for while every
    worker is busy wait their turn. The processes start with the first move asked for
    (a server whose rooms have no expert bots never starts them) and end with :meth:`close`."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ValueError(f"the expert pool needs at least 1 worker, not {workers}")
        self.workers = workers
        self._executor: ProcessPoolExecutor | None = None
        self._closed = False

    async def choose(self, config: RoomConfig, seen: Seen, seed: int, rollouts: int) -> Combo | None:
        """The expert's move (None: pass) for ``seen``, in the room ``config``, searched
        with ``seed`` and ``rollouts``."""
        if self._closed:
            raise RuntimeError("the expert pool is closed")
        if self._executor is None:  # spawned, not forked: the server's threads and sockets stay out
            self._executor = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"))
        executor = self._executor
        try:
            return await asyncio.get_running_loop().run_in_executor(
                executor, _expert_move, config, seen, seed, rollouts
            )
        except BrokenProcessPool:  # a worker died: the next move starts a new pool
            if self._executor is executor:
                self._executor = None
            raise

    async def close(self) -> None:
        """Stop the workers (moves not yet started are dropped); waits for them to exit."""
        self._closed = True
        executor, self._executor = self._executor, None
        if executor is not None:
            await asyncio.to_thread(executor.shutdown, wait=True, cancel_futures=True)
