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
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import orjson

from ..errors import Refusal
from ..games import DEFAULT_GAME, family, room_from_json
from ..games.interface import GameFamily, Hand, HandRecord, Room
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
    and the game's own record (its room, its deal, actions and events:
    :class:`~shuangkou.games.interface.HandRecord`)."""

    table: str
    seats: tuple[SeatRecord | None, ...]  # one per seat of the room
    private: bool
    game: HandRecord
    carried: Mapping[str, Any] | None = None  # a paid hand: what it hands to the next at the table (the match)

    def to_dict(self) -> dict[str, Any]:
        """JSON form, as stored with the game: the game record's keys beside the table's."""
        return self._form(self.game.to_dict())

    def to_json(self) -> str:
        """:meth:`to_dict` as JSON text, as the store keeps it (:meth:`GameRecord.to_orjson`)."""
        return orjson.dumps(self._form(self.game.to_orjson())).decode()

    def _form(self, game: dict[str, object]) -> dict[str, Any]:
        seats = [None if seat is None else [seat.account, seat.name, seat.bot] for seat in self.seats]
        form = {"table": self.table, "seats": seats, "private": self.private, **game}
        if self.carried is not None:
            form["carried"] = dict(self.carried)
        return form

    @classmethod
    def from_dict(cls, data: dict[str, Any], config: Room | None = None) -> TableRecord:
        """Read :meth:`to_dict` (the game under ``config`` when given, else the record's own,
        whose ``game`` names its family); raises a :class:`Refusal` (``bad_record``) naming
        the problem."""
        game = _family_of(data, config).read_record(data, config)
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != game.config.seats:
            raise Refusal("bad_record", f"the record does not name all {game.config.seats} seats")
        carried = data.get("carried")
        if carried is not None and not isinstance(carried, dict):
            raise Refusal("bad_record", f"'carried' must be an object or null, not {carried!r}")
        seated = tuple(_seat(seat) for seat in seats)
        return cls(str(data.get("table", "")), seated, data.get("private") is True, game, carried)


def _family_of(data: Mapping[str, Any], config: Room | None) -> GameFamily:
    """The family of a record: its room's, or the one its stored room names."""
    if config is not None:
        return family(config.game)
    stored = data.get("config")
    name = stored.get("game", DEFAULT_GAME) if isinstance(stored, dict) else DEFAULT_GAME
    try:
        return family(name if isinstance(name, str) else DEFAULT_GAME)
    except KeyError as problem:
        raise Refusal("bad_record", str(problem.args[0])) from None


def _seat(data: object) -> SeatRecord | None:
    if data is None:
        return None
    if not isinstance(data, list) or len(data) != 3:
        raise Refusal("bad_record", f"a seat of the record is {data!r}, not [account, name, bot]")
    account, name, bot = data
    if not isinstance(account, int) or not isinstance(name, str) or not isinstance(bot, bool):
        raise Refusal("bad_record", f"a seat of the record is {data!r}, not [account, name, bot]")
    return SeatRecord(account, name, bot)


def stored_actions(stored: StoredGame) -> list[dict[str, Any]]:
    """The game's stored actions in order; raises a :class:`Refusal` unless numbered 1 to n."""
    numbers = [action.seq for action in stored.actions]
    if numbers != list(range(1, len(numbers) + 1)):
        raise Refusal("bad_record", f"the stored actions are numbered {numbers}, not 1 to {len(numbers)}")
    actions: list[dict[str, Any]] = [json.loads(action.action_json) for action in stored.actions]
    return actions


def restore_game(stored: StoredGame) -> tuple[TableRecord, Hand]:
    """The stored game's record, and the game replayed from it and the stored actions under
    the stored configuration (its family named by the configuration's ``game``). The
    record's events are compared when it holds every stored action (a finished game's
    record); a running game's record was written at the deal. Raises a
    :class:`~shuangkou.errors.Refusal` or a :class:`~shuangkou.roomfiles.ConfigError`
    (``ValueError``s) when the game does not replay."""
    if not stored.record_json:
        raise Refusal("bad_record", f"game {stored.game_id} has no record")
    data = json.loads(stored.record_json)
    if not isinstance(data, dict):
        raise Refusal("bad_record", f"the record of game {stored.game_id} is not an object")
    game, config = room_from_json(stored.config_json, f"game {stored.game_id}")
    record = TableRecord.from_dict(data, config)
    actions = stored_actions(stored)
    events = record.game.events if list(record.game.actions) == actions else None
    return record, game.restore(record.game.with_actions(actions, events))


BOT_LEVELS = ("easy", "normal", "expert")
"""The levels a room's bots may play at, every game alike (``bot_level``)."""


def stored_bot_level(config_json: str) -> str:
    """The level the bots of a stored game played at (its configuration's ``bot_level``,
    under ``play`` or at the top), read from the stored configuration's JSON alone, without
    validating the whole of it; a game stored before rooms had levels (or with one this
    code does not know) played at the default level, ``normal``."""
    data = json.loads(config_json)
    if not isinstance(data, dict):
        return "normal"
    play = data.get("play")
    level = play.get("bot_level") if isinstance(play, dict) else data.get("bot_level")
    return level if level in BOT_LEVELS else "normal"


def balances_before(ledger: Iterable[LedgerEntry]) -> dict[int, int]:
    """Each account's balance before the game, read back from the game's ledger rows."""
    return {entry.account_id: entry.balance_after - entry.delta for entry in ledger}
