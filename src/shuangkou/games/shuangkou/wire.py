"""Shuangkou on the wire: its client messages (``play``, ``pass``), the types of its views
and events for the protocol's schema, and fast JSON for the longest part of what the server
sends, the mover's legal moves.

The moves of the seat to act travel with its ``state`` and in ``hint`` replies. A hand's
moves number hundreds on a lead (a few thousand for a full hand with jokers), and the same
moves recur in thousands of hands. So a move travels in its shortest playable form, the
body of a ``play`` message (``{"cards": "3 3 BJ", "as": "pair"}``: readings that differ only
in what the jokers stand for are one move, the server plays the strongest), and
:func:`moves_json` keeps the JSON text of each, by its kind and cards (all its text depends
on; a card count tuple hashes in about half the time of a whole :class:`Combo`).
``tests/test_server_render.py`` checks it against the core.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal, NotRequired

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from ...cards import Counts, format_counts
from .combos import Combo, ComboView, Kind
from .game import Action, EscapeCostView, GameError, GameView, Pass, Play
from .scoring import SettlementView, TableSettlementView

__all__ = [
    "MESSAGES",
    "EventView",
    "MoveView",
    "PassMessage",
    "PassMoveView",
    "PlayMessage",
    "message_action",
    "move_body",
    "moves_json",
    "schemas",
]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True, strict=True)


class PlayMessage(_Message):
    """Play cards (``"3H 3S"``, suits optional) against state ``seq``; ``as`` names the reading (R5.4)."""

    type: Literal["play"]
    seq: int
    cards: str = Field(min_length=1, max_length=400)
    as_: Kind | None = Field(default=None, alias="as")  # the core's combination kinds, by their names


class PassMessage(_Message):
    """Pass against state ``seq`` (R2.3)."""

    type: Literal["pass"]
    seq: int


MESSAGES: tuple[type[BaseModel], ...] = (PlayMessage, PassMessage)
"""Shuangkou's client messages, beside the shell's."""


def message_action(seat: int, message: BaseModel) -> Action:
    """The action ``seat`` asks for with a ``play`` or ``pass``; ``unknown_card`` naming a card
    the deck has not."""
    if isinstance(message, PassMessage):
        return Pass(seat)
    if not isinstance(message, PlayMessage):
        raise GameError("bad_action", f"not a Shuangkou message: {message!r}")
    try:
        return Play.of(seat, message.cards, message.as_)
    except ValueError as problem:
        raise GameError("unknown_card", str(problem)) from None


MoveView = TypedDict("MoveView", {"cards": str, "as": Kind})
"""A legal move as a ``play`` message names it: its cards, and the kind to read them as."""


class PassMoveView(TypedDict):
    """The pass among a follow's hints, as a ``pass`` message names it."""

    type: Literal["pass"]


EventType = Literal["deal", "swap", "play", "pass", "timeout", "hosting", "escape", "out", "jiefeng", "end"]

EventView = TypedDict(  # functional form: "with" is a Python keyword
    "EventView",
    {
        "type": EventType,
        "seat": NotRequired[int],
        "cause": NotRequired[str],
        "cards": NotRequired[str],
        "combo": NotRequired[ComboView],
        "count": NotRequired[int],
        "on": NotRequired[bool],
        "flip_card": NotRequired["str | None"],
        "cards_left": NotRequired[int],
        "place": NotRequired[int],  # out: the place taken in the finishing order (C2.2)
        "with": NotRequired[int],  # swap: the other seat (C1.4)
    },
)
"""Something that happened in the game (``type``); the other fields depend on it."""


def schemas() -> dict[str, Any]:
    """JSON Schemas of Shuangkou's messages, view, events, moves, escape cost and settlements."""
    shapes: dict[str, Any] = {
        "game": GameView, "event": EventView, "move": MoveView | PassMoveView, "escape_cost": EscapeCostView,
        "settlement": SettlementView | TableSettlementView,
    }
    schema = {name: TypeAdapter(shape).json_schema() for name, shape in shapes.items()}
    schema["messages"] = {cls.__name__: cls.model_json_schema(by_alias=True) for cls in MESSAGES}
    return schema

_MOVE_CACHE_LIMIT = 200_000  # per kind
_moves: dict[str, dict[Counts, str]] = {}


def _dumps(value: Any) -> str:
    return orjson.dumps(value).decode()


def move_body(move: Combo) -> dict[str, str]:
    """A move as a ``play`` message names it: its cards and its kind (``as``)."""
    return {"cards": format_counts(move.cards), "as": move.kind}


_PASS_BODY = '{"type":"pass"}'


def moves_json(moves: Iterable[Combo | None]) -> str:
    """The JSON list of the distinct :func:`move_body` of ``moves`` (None, the pass: ``{"type":
    "pass"}``), in their order, from a cache."""
    parts = []
    for move in moves:
        if move is None:
            parts.append(_PASS_BODY)
            continue
        cache = _moves.get(move.kind)
        if cache is None:
            cache = _moves[move.kind] = {}
        text = cache.get(move.cards)
        if text is None:
            if len(cache) >= _MOVE_CACHE_LIMIT:
                cache.clear()
            text = cache[move.cards] = _dumps(move_body(move))
        parts.append(text)
    return "[" + ",".join(dict.fromkeys(parts)) + "]"
