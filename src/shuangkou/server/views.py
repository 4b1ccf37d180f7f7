"""What the server shows: the table as a seat or a spectator sees it, and the lobby's rooms.

Every view is a typed dictionary, so the protocol's JSON Schema (``shuangkou
protocol-schema``) describes each field. :func:`table_view` is built for every connection
on every change of a table: it reads what the table holds and computes nothing but what
leaving would cost the seat it is built for (:meth:`~shuangkou.games.interface.Hand.leaving_cost`,
which a game may keep while what it depends on stays). The mover's legal
moves, from :class:`TurnMoves`, computed and encoded once per turn, are added to its state
when they are listed (:meth:`Table.send_moves`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal

from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from ..games.interface import GameFamily, Hand

if TYPE_CHECKING:
    from .table_base import TableBase

__all__ = [
    "AccountView",
    "RoomSummary",
    "SeatView",
    "TableView",
    "TableViews",
    "TurnMoves",
    "table_view",
]

Phase = Literal["waiting", "ready", "playing", "settling", "settled"]


class SeatView(TypedDict):
    """A seated player as everyone sees them; ``bot_level``: the level a bot plays at
    (None: a person)."""

    name: str
    account: int
    bot: bool
    bot_level: str | None
    connected: bool
    ready: bool
    balance: int | None
    ready_deadline: int | None


class TableView(TypedDict):
    """The whole table as seat ``you`` (None: a spectator) may see it; ``family``: its
    game, whose own view is ``game`` (each game's in ``docs/protocol.md``)."""

    id: str
    room: str
    family: str
    edition: str
    seq: int
    phase: Phase
    you: int | None
    seats: list[SeatView | None]
    game: Mapping[str, Any] | None
    game_id: str | None
    turn_seconds: float
    turn_deadline: int | None
    escape_cost: Mapping[str, Any] | None
    escape_mode: str
    settlement: Mapping[str, Any] | None


class AccountView(TypedDict):
    """A player's account: id, display name and balance per edition."""

    id: int
    name: str
    balances: dict[str, int]


class RoomSummary(TypedDict):
    """A room as the lobby shows it; ``bot_level``: the level its bots play at; ``variant``:
    the game's rule variant when its configuration names one."""

    name: str
    title: str
    family: str
    edition: str
    seats: int
    variant: str | None
    bot_level: str
    stakes: list[int]
    entry: int | None
    turn_seconds: float
    players: int
    free_seats: int
    open: bool


class TurnMoves:
    """The legal moves of the seat to act in hint order (:meth:`GameFamily.moves_json`), as
    JSON text computed once per turn and seat (a Shuangkou lead's moves number thousands:
    encoding them anew for every message would cost more than everything else a state costs)."""

    def __init__(self) -> None:
        self._key: tuple[int, int] | None = None
        self._text = "[]"

    def json(self, game: GameFamily, hand: Hand, seat: int, turn: int) -> str:
        """The JSON list of the moves of ``seat`` in ``hand`` in the turn that began with
        state ``turn`` (the table's ``wait_seq``: a new number for every turn of every game,
        and for every state of a clocked wait, whose moves change as its cards arrive)."""
        if (turn, seat) != self._key:
            self._text = game.moves_json(hand, seat)
            self._key = (turn, seat)
        return self._text


def table_view(table: TableBase, you: int | None) -> TableView:
    """The table as seat ``you`` (None: a spectator) may see it."""
    return TableViews(table).of(you)


class TableViews:
    """The views of a table as it stands, for every seat and the spectators: what they all
    see alike is built once (a change is shown to every seat at once), each seat's own
    part (its hand, tracker and escape cost) for it."""

    def __init__(self, table: TableBase) -> None:
        current = table.current
        playing = table.playing
        game = current.game if current is not None else None
        config = current.config if playing and current is not None else table.room.config
        phase: Phase
        if playing:
            phase = "playing"
        elif current is not None and current.settlement is not None:
            phase = "settled"
        elif current is not None:
            phase = "settling"
        elif table.free_seats:
            phase = "waiting"
        else:
            phase = "ready"
        seats: list[SeatView | None] = []
        for seat in table.seats:
            if seat is None:
                seats.append(None)
                continue
            seats.append({
                "name": seat.account.name,
                "account": seat.account.id,
                "bot": seat.bot is not None,
                "bot_level": seat.bot.level if seat.bot is not None else None,
                "connected": seat.bot is not None or seat.connection is not None,
                "ready": seat.ready,
                "balance": seat.balance,
                "ready_deadline": _millis(seat.ready_clock.deadline),
            })
        self._game = game
        self._public = game.view() if game is not None else None
        self._balances = table.balances() if playing else None
        self._view: TableView = {
            "id": table.id,
            "room": table.room.name,
            "family": config.game,
            "edition": config.edition,
            "seq": table.seq,
            "phase": phase,
            "you": None,
            "seats": seats,
            "game": self._public,
            "game_id": current.game_id if current is not None else None,
            "turn_seconds": table.clock.turn_seconds or config.turn_seconds,
            "turn_deadline": _millis(table.clock.turn_deadline),
            "escape_cost": None,
            "escape_mode": config.escape_mode,
            "settlement": current.settlement if current is not None else None,
        }

    def of(self, you: int | None) -> TableView:
        """The view of seat ``you`` (None: a spectator)."""
        if you is None:
            return self._view
        view = self._view.copy()
        view["you"] = you
        game = self._game
        if game is not None:
            view["game"] = game.view(you, self._public)
            if self._balances is not None:  # None: leaving now is no escape (C6)
                cost = game.leaving_cost(you, self._balances)
                view["escape_cost"] = cost
        return view


def _millis(stamp: float | None) -> int | None:
    return None if stamp is None else int(stamp * 1000)
