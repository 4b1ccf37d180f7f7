"""A table's game record, and the one way back from a stored game to a running one.

A stored game (``StoredGame``) holds the record written when the game was dealt (or, once
finished, the whole record), the room configuration, and the actions appended one by one.
:func:`restore_game` reads all three and replays the game with the rules core; the tables
(after a restart), the lobby (which voids a game that does not restore) and
``shuangkou replay`` all use it. :func:`balances_before` reads the balances a settlement
was computed from back from the game's ledger rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, get_args

import orjson

from ..games.shuangkou.config import BotLevel, RoomConfig, config_from_dict
from ..games.shuangkou.game import Game, GameError, GameRecord
from ..store import LedgerEntry, StoredGame

__all__ = ["SeatRecord", "TableRecord", "balances_before", "restore_game", "stored_actions", "stored_bot_level"]


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who sat in a seat: the account, its name then, and whether a bot played it."""

    account: int
    name: str
    bot: bool


@dataclass(frozen=True, slots=True)
class TableRecord:
    """The record of a table's game: the table, its seats, whether it is an invite table,
    and the core's game record (configuration, hands, leader, flip card, seed, actions, events)."""

    table: str
    seats: tuple[SeatRecord | None, ...]  # one per seat of the room
    private: bool
    game: GameRecord

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as stored with the game: the game record's keys beside the table's."""
        return self._form(self.game.to_dict())

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text, as the store keeps it (:meth:`GameRecord.to_orjson`)."""
        return orjson.dumps(self._form(self.game.to_orjson())).decode()

    def _form(self, game: dict[str, object]) -> dict[str, Any]:
        seats = [None if seat is None else [seat.account, seat.name, seat.bot] for seat in self.seats]
        return {"table": self.table, "seats": seats, "private": self.private, **game}

    @classmethod
    def from_dict(cls, data: dict[str, Any], config: RoomConfig | None = None) -> TableRecord:
        """Read :meth:`to_dict` (the game under ``config`` when given, else the record's own);
        raises :class:`GameError` (``bad_record``) naming the problem."""
        game = GameRecord.from_dict(data, config)
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != game.config.seats:
            raise GameError("bad_record", f"the record does not name all {game.config.seats} seats")
        return cls(str(data.get("table", "")), tuple(_seat(seat) for seat in seats), data.get("private") is True, game)


def _seat(data: object) -> SeatRecord | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != 3:
        raise GameError("bad_record", f"a seat of the record is {data!r}, not [account, name, bot]")
    account, name, bot = data
    if not isinstance(account, int) or not isinstance(name, str) or not isinstance(bot, bool):
        raise GameError("bad_record", f"a seat of the record is {data!r}, not [account, name, bot]")
    return SeatRecord(account, name, bot)


def stored_actions(stored: StoredGame) -> list[dict[str, Any]]:
    """The game's stored actions in order; raises :class:`GameError` unless numbered 1 to n."""
    numbers = [action.seq for action in stored.actions]
    if numbers != list(range(1, len(numbers) + 1)):
        raise GameError("bad_record", f"the stored actions are numbered {numbers}, not 1 to {len(numbers)}")
    actions: list[dict[str, Any]] = [json.loads(action.action_json) for action in stored.actions]
    return actions


def restore_game(stored: StoredGame) -> tuple[TableRecord, Game]:
    """The stored game's record, and the game replayed from it and the stored actions under
    the stored configuration. The record's events are compared when it holds every stored
    action (a finished game's record); a running game's record was written at the deal.
    Raises :class:`GameError` or :class:`~shuangkou.games.shuangkou.config.ConfigError` (``ValueError``s)
    when the game does not replay."""
    if not stored.record_json:
        raise GameError("bad_record", f"game {stored.game_id} has no record")
    data = json.loads(stored.record_json)
    if not isinstance(data, dict):
        raise GameError("bad_record", f"the record of game {stored.game_id} is not an object")
    config = config_from_dict(json.loads(stored.config_json), source=f"game {stored.game_id}")
    record = TableRecord.from_dict(data, config)
    actions = stored_actions(stored)
    events = record.game.events if list(record.game.actions) == actions else None
    return record, Game.restore(record.game.with_actions(actions, events))


_BOT_LEVELS: dict[str, BotLevel] = {level: level for level in get_args(BotLevel)}


def stored_bot_level(config_json: str) -> BotLevel:
    """The level the bots of a stored game played at (its configuration's ``bot_level``),
    read from the stored configuration's JSON alone, without validating the whole of it; a
    game stored before rooms had levels played at the default level."""
    play = json.loads(config_json).get("play")
    level = play.get("bot_level") if isinstance(play, dict) else None
    default: BotLevel = RoomConfig.model_fields["bot_level"].default
    return _BOT_LEVELS.get(level, default) if isinstance(level, str) else default


def balances_before(ledger: Iterable[LedgerEntry]) -> dict[int, int]:
    """Each account's balance before the game, read back from the game's ledger rows."""
    return {entry.account_id: entry.balance_after - entry.delta for entry in ledger}
