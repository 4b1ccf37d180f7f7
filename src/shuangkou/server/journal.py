"""Group commit of game actions: every table's actions that wait at the same time are
written in one transaction.

A table awaits :meth:`ActionJournal.append` before it acknowledges an action, as before;
but instead of one commit per action, the journal collects the actions of every table
that arrive while a write is under way (with PostgreSQL, in a database thread) or within a
few turns of the event loop (with SQLite, whose writes hold the loop, the only way to
gather more than one turn's actions) and commits them together. Under load this turns a
thousand commits a second into a few dozen, with no action acknowledged before it is stored.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from functools import partial
from typing import Any

from ..store import Fence, Store
from .metrics import METRICS

__all__ = ["ActionJournal"]

_GATHERING_TURNS = 3
"""Turns of the event loop a batch stays open: an action whose frame was read in this turn
reaches the journal within them (its reader hands it to its table, which stores it)."""

_Entry = tuple[str, int, str, Fence | None, "asyncio.Future[None]"]


class ActionJournal:
    """Writes game actions to the store in batches, one transaction per batch."""

    def __init__(
        self, store: Store, run_db: Callable[[Callable[[], Any]], Awaitable[Any]], delay: float = 0.0
    ) -> None:
        self.store = store
        self.run_db = run_db
        self.delay = delay  # seconds a batch stays open for more actions (a commit delay)
        self.pending: list[_Entry] = []
        self.writer: asyncio.Task[None] | None = None

    async def append(self, game_id: str, seq: int, action_json: str, fence: Fence | None = None) -> None:
        """Store one action (under the table's ``fence``, in a cluster); return once it is
        committed, or raise the store's error for it."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self.pending.append((game_id, seq, action_json, fence, done))
        if self.writer is None or self.writer.done():
            # A task starts on the next turn of the loop, and writes a few turns later: the
            # actions of every table that acts meanwhile join the same batch.
            self.writer = loop.create_task(self._write(), name="action-journal")
        await done

    async def _write(self) -> None:
        while self.pending:
            if self.delay:
                await asyncio.sleep(self.delay)
            for _ in range(_GATHERING_TURNS):
                await asyncio.sleep(0)
            batch, self.pending = self.pending, []
            actions = [(game_id, seq, action_json) for game_id, seq, action_json, _, _ in batch]
            fences = [fence for *_, fence, _ in batch]
            fenced = fences if any(fence is not None for fence in fences) else None
            try:
                outcomes: Sequence[Exception | None] = await self.run_db(
                    partial(self.store.append_actions, actions, fenced)
                )
            except Exception as error:  # the database failed: no action of the batch is stored
                outcomes = [error] * len(batch)
            METRICS.action_batch.observe(len(batch))
            for (*_, done), outcome in zip(batch, outcomes, strict=True):
                if done.done():  # its table stopped waiting (shutdown)
                    continue
                if outcome is None:
                    done.set_result(None)
                else:
                    done.set_exception(outcome)
