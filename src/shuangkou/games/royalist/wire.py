"""Royalist on the wire: its client messages, its moves as a state carries them, and the
JSON Schemas of its messages, view and events.

A set is played with the platform's ``play`` message (``{"type": "play", "seq": 7, "cards":
"9 9 SJ"}``) and passed with ``pass``, the same messages as Shuangkou's (one shape for
every climbing game in the protocol's envelope; Royalist reads no ``as``, since a set has
one reading). The decisions are Royalist's own: ``ascend`` (``"open_solo": true`` for
包), ``abdicate`` and ``declaration`` (``"declare": true`` / ``false``, the same question
for every seat, Y2.6).
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, TypeAdapter
from typing_extensions import TypedDict

from ...cards import CardParseError
from ..shuangkou.wire import PassMessage, PlayMessage
from .deck import EMPEROR_CARD, GUARD_CARD, card_text, parse_hand
from .game import Abdicate, Action, Ascend, Declare, Pass, Play, RoyalistError, RoyalistHand, cards_for
from .sets import CardSet, legal_sets

__all__ = ["MESSAGES", "AbdicateMessage", "AscendMessage", "DeclareMessage", "message_action", "moves", "schemas"]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class AscendMessage(_Message):
    """The candidate ascends against state ``seq`` (Y2.1); ``open_solo`` announces a solo (包, Y2.5)."""

    type: Literal["ascend"]
    seq: int
    open_solo: bool = False


class AbdicateMessage(_Message):
    """The candidate abdicates against state ``seq`` (Y2.2)."""

    type: Literal["abdicate"]
    seq: int


class DeclareMessage(_Message):
    """A seat's declaration against state ``seq`` (Y2.6): ``true`` declares (the guard's 明保,
    a revolutionary's revolt), ``false`` stays hidden."""

    type: Literal["declaration"]
    seq: int
    declare: bool


MESSAGES: tuple[type[BaseModel], ...] = (AscendMessage, AbdicateMessage, DeclareMessage, PlayMessage, PassMessage)
"""Royalist's client messages (``play`` and ``pass`` shared with Shuangkou)."""


def message_action(seat: int, message: BaseModel) -> Action:
    """The action ``seat`` asks for with one of :data:`MESSAGES`."""
    if isinstance(message, AscendMessage):
        return Ascend(seat, message.open_solo)
    if isinstance(message, AbdicateMessage):
        return Abdicate(seat)
    if isinstance(message, DeclareMessage):
        return Declare(seat, message.declare)
    if isinstance(message, PassMessage):
        return Pass(seat)
    if isinstance(message, PlayMessage):
        if message.as_ is not None:
            raise RoyalistError("bad_action", "a Royalist set has one reading: leave out 'as' (Y4.3)")
        try:
            return Play(seat, tuple(parse_hand(message.cards)))
        except CardParseError as problem:
            raise RoyalistError("unknown_card", str(problem)) from None
    raise RoyalistError("bad_action", f"not a Royalist message: {message!r}")


def moves(hand: RoyalistHand, seat: int) -> list[dict[str, object]]:
    """What ``seat`` may do now, as the bodies of its messages, the hint first: the throne
    offer's choices (ascending first), the declaration's two answers (the same for every
    seat asked, Y2.6), or the sets that may be played in the order of Y4.7, then ``pass``
    on a follow (Y3.7: the hint is the smallest beating set, or pass)."""
    waiting = {wait.seat for wait in hand.waiting()}
    if seat not in waiting:
        return []
    room = hand.room
    if hand.phase == "throne":
        both = GUARD_CARD in hand.hands[seat]
        found: list[dict[str, object]] = [{"type": "ascend"}]
        if both and room.open_solo:
            found.append({"type": "ascend", "open_solo": True})
        if not hand.forced and (not both or room.solo_may_abdicate):
            found.append({"type": "abdicate"})
        return found
    if hand.phase == "declare":
        return [{"type": "declaration", "declare": False}, {"type": "declaration", "declare": True}]
    table = hand.table_set
    sets = legal_sets(hand.counts(seat), table, room.set_rules, hand.bomb_ranks(seat))
    found = [{"type": "play", "cards": _move_text(hand, seat, move)} for move in sets]
    if table is not None:
        found.append({"type": "pass"})
    return found


def _move_text(hand: RoyalistHand, seat: int, move: CardSet) -> str:
    """The cards of a set as the seat plays them: ranks, and a joker the seat holds only
    marked written ``BJ*``/``SJ*`` (a plain ``BJ`` names an unmarked one, which the hand
    may lack)."""
    words = str(move).split()
    used = cards_for(hand.hands[seat], move)
    for marked in (EMPEROR_CARD, GUARD_CARD):
        if marked in used:
            plain = card_text(marked).rstrip("*")
            words[len(words) - 1 - words[::-1].index(plain)] = card_text(marked)
    return " ".join(words)


def moves_json(hand: RoyalistHand, seat: int) -> str:
    """:func:`moves` as JSON text."""
    return orjson.dumps(moves(hand, seat)).decode()


class RoleView(TypedDict):
    """The roles as a view shows them: the guard and a solo only once public (or to the
    guard, to the emperor)."""

    emperor: int | None
    guard: int | None
    solo: Literal["open", "secret"] | None


class RoyalistEventView(TypedDict, total=False):
    """An event (``type``: deal, tribute, offer, abdicate, ascend, declarations_open,
    declared, declarations, play, reveal, pass, timeout, hosting, escape, out, jiefeng,
    end); the other fields depend on it."""

    type: str
    seat: int
    cause: str
    cards: Any
    emperor_card: int
    to: int
    abdications: int
    forced: bool
    solo: Any
    seats: list[int]
    open_guard: int | None
    revolts: list[int]
    revolt_success: bool
    guard: int | None
    multiplier: int
    set: dict[str, Any]
    role: str
    count: int
    on: bool
    place: int
    result: str
    roles: RoleView | None
    finish_order: list[int]
    places: list[int | None]
    units: list[int]
    hands: list[str]


def schemas() -> dict[str, Any]:
    """JSON Schemas of Royalist's messages, events and moves."""
    schema: dict[str, Any] = {
        "event": TypeAdapter(RoyalistEventView).json_schema(),
        "roles": TypeAdapter(RoleView).json_schema(),
        "move": TypeAdapter(dict[str, Any]).json_schema(),
    }
    schema["messages"] = {cls.__name__: cls.model_json_schema(by_alias=True) for cls in MESSAGES}
    return schema
