"""Rooms, and the refusals of the lobby and of seating at a table."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Refusal
from ..games.interface import GameFamily
from ..games.interface import Room as RoomConfig
from .views import RoomSummary

__all__ = ["LobbyError", "Room", "TableFull"]


class LobbyError(Refusal):
    """A join or operator request the lobby refuses."""


class TableFull(LobbyError):
    """No seat for the account at this table (full, closed, or already seated there): ``table_full``."""

    def __init__(self, message: str) -> None:
        super().__init__("table_full", message)


@dataclass
class Room:
    """A room: a name, its game and its current configuration (new games take the
    configuration in force when they start)."""

    name: str
    family: GameFamily
    config: RoomConfig
    source: str
    open: bool = True

    def summary(self, players: int, free_seats: int) -> RoomSummary:
        """What the lobby shows of the room: ``players`` seated, ``free_seats`` at tables where
        players wait for quick match."""
        config = self.config
        return {
            "name": self.name,
            "title": config.name,
            "family": config.game,
            "edition": config.edition,
            "seats": config.seats,
            "variant": config.variant,
            "bot_level": config.bot_level,
            "stakes": list(config.stakes),
            "entry": config.entry_balance,
            "turn_seconds": config.turn_seconds,
            "players": players,
            "free_seats": free_seats,
            "open": self.open,
        }
