"""A seat at a table: who holds it, how they are connected, and their ready timer."""

from __future__ import annotations

from dataclasses import dataclass

from ..games.interface import TableBot
from ..store import Account
from .clock import Countdown
from .connection import Connection

__all__ = ["Seat"]


@dataclass(eq=False)
class Seat:
    """A seated player (or bot). ``ready_clock`` runs while a person must get ready
    (R11.4), armed for ``ready_token`` (one more for every wait)."""

    account: Account
    ready_clock: Countdown[int]
    bot: TableBot | None = None
    connection: Connection | None = None
    ready: bool = False
    left: bool = False  # escaped in "host" mode: the seat is played to the end, then freed
    balance: int | None = None  # in the table's edition, as last read from the store
    ready_token: int = 0
    replay_grace: str | None = None  # the game whose replay gave the ready timer more time
