"""Royalist on the wire: its client messages, its moves as a state carries them, and the
JSON Schemas of its messages, view and events.

A set is played with the platform's ``play`` message (``{"type": "play", "seq": 7, "cards":
"9 9 SJ"}``) and passed with ``pass``, the same messages as Shuangkou's (one shape for
every climbing game in the protocol's envelope; Royalist reads no ``as``, since a set has
one reading). The decisions are Royalist's own: ``ascend`` (``"open_solo": true`` for
包), ``call`` (in a room with a called guard card, the ascent that names the card: ``{"type":
"call", "seq": 3, "card": "7H"}``, ``"open_solo": true`` for 包 with all four copies, Y9),
``abdicate`` and ``declaration`` (``"declare": true`` / ``false``, the same question for
every seat, Y2.6). The called guard card is played by its name with a star, ``7H*``.
"""

from __future__ import annotations

from typing import Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, TypeAdapter
from typing_extensions import TypedDict

from ...cards import CardParseError
from ..shuangkou.wire import PassMessage, PlayMessage
from .deck import EMPEROR_CARD, GUARD_CARD, card_text, default_call, is_called_card, parse_hand
from .game import Abdicate, Action, Ascend, Declare, Pass, Play, RoyalistError, RoyalistHand, cards_for, parse_call
from .sets import TOP_SYMBOL, CardSet, legal_sets

__all__ = [
    "MESSAGES", "AbdicateMessage", "AscendMessage", "CallMessage", "DeclareMessage", "message_action", "moves",
    "schemas",
]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class AscendMessage(_Message):
    """The candidate ascends against state ``seq`` (Y2.1); ``open_solo`` announces a solo (包, Y2.5)."""

    type: Literal["ascend"]
    seq: int
    open_solo: bool = False


class CallMessage(_Message):
    """The candidate ascends against state ``seq`` by calling ``card`` (rank and suit, held
    three or four times, Y9); ``open_solo`` announces a solo (包) with all four copies."""

    type: Literal["call"]
    seq: int
    card: str
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


MESSAGES: tuple[type[BaseModel], ...] = (
    AscendMessage, CallMessage, AbdicateMessage, DeclareMessage, PlayMessage, PassMessage,
)
"""Royalist's client messages (``play`` and ``pass`` shared with Shuangkou)."""


def message_action(seat: int, message: BaseModel) -> Action:
    """The action ``seat`` asks for with one of :data:`MESSAGES`."""
    if isinstance(message, AscendMessage):
        return Ascend(seat, message.open_solo)
    if isinstance(message, CallMessage):
        return Ascend(seat, message.open_solo, parse_call(message.card))
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
        found = _call_moves(hand, seat) if room.guard_card == "called" else _ascend_moves(hand, seat)
        if hand.may_abdicate(seat):
            found.append({"type": "abdicate"})
        return found
    if hand.phase == "declare":
        return [{"type": "declaration", "declare": False}, {"type": "declaration", "declare": True}]
    table = hand.table_set
    sets = legal_sets(hand.counts(seat), table, room.set_rules, hand.bomb_ranks(seat), hand.tops(seat))
    found = [{"type": "play", "cards": _move_text(hand, seat, move)} for move in sets]
    if table is not None:
        found.append({"type": "pass"})
    return found


def _ascend_moves(hand: RoyalistHand, seat: int) -> list[dict[str, object]]:
    """The ascent, and 包 for a holder of both marked cards (Y2.5)."""
    found: list[dict[str, object]] = [{"type": "ascend"}]
    if GUARD_CARD in hand.hands[seat] and hand.room.open_solo:
        found.append({"type": "ascend", "open_solo": True})
    return found


def _call_moves(hand: RoyalistHand, seat: int) -> list[dict[str, object]]:
    """Every call ``seat`` may make (Y9), the default call first, each card held four times
    also with 包 when the room allows it; none when it must abdicate."""
    calls = hand.calls(seat)
    first = default_call(hand.hands[seat])
    found: list[dict[str, object]] = []
    for card in sorted(calls, key=lambda card: card != first):
        found.append({"type": "call", "card": str(card)})
        if calls[card] == 4 and hand.room.open_solo:
            found.append({"type": "call", "card": str(card), "open_solo": True})
    return found


def _move_text(hand: RoyalistHand, seat: int, move: CardSet) -> str:
    """The cards of a set as the seat plays them: ranks, a joker the seat holds only marked
    written ``BJ*``/``SJ*`` (a plain ``BJ`` names an unmarked one, which the hand may lack),
    and the called guard card by its name (``7H*``, Y9)."""
    words = str(move).split()
    used = cards_for(hand.hands[seat], move)
    for marked in (EMPEROR_CARD, GUARD_CARD):
        if marked in used:
            plain = card_text(marked).rstrip("*")
            words[len(words) - 1 - words[::-1].index(plain)] = card_text(marked)
    called = [card_text(card) for card in used if is_called_card(card)]
    return " ".join([word for word in words if word != TOP_SYMBOL] + called)


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
    call: str
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
