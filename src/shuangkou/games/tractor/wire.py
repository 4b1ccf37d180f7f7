"""Tractor on the wire: its client messages, the legal moves a seat's state carries, and
the JSON Schemas of its view and events.

Message types are one namespace for every game of the platform (the protocol's envelope
tells them apart by ``type``), and Shuangkou's ``play`` and ``pass`` are taken: Tractor's
are ``declare`` (declare, override or reinforce, T2.2–T2.5), ``declare_done`` (no more
declaring in this window, T2.6), ``bury`` (T3.1) and ``trick_play`` (a lead, a throw or a
follow, T6–T7), each with the state ``seq`` it is made against.

>>> message_action(2, DeclareMessage(type="declare", seq=7, cards="10H 10H"))
Declare(seat=2, faces=(21, 21))
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice
from typing import Any, Literal, NotRequired

import orjson
from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for schemas on Python < 3.12

from .follows import hosting_follow, hosting_lead, legal_follows
from .formats import Counts, profile_of, run_tops
from .hand import Action, Bury, Declare, Done, Play, TractorError, TractorHand
from .order import TRUMP, faces_text

__all__ = [
    "MESSAGES",
    "BuryMessage",
    "DeclareDoneMessage",
    "DeclareMessage",
    "EventView",
    "MoveView",
    "TractorView",
    "TrickPlayMessage",
    "message_action",
    "moves",
    "moves_json",
    "schemas",
]

MAX_MOVES = 40
"""The most moves a state or a hint carries (a void seat may have thousands of follows)."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)


class DeclareMessage(_Message):
    """Show level cards or a joker pair (``"10H"``, ``"10H 10H"``, ``"SJ SJ"``) against state ``seq``."""

    type: Literal["declare"]
    seq: int
    cards: str = Field(min_length=1, max_length=40)


class DeclareDoneMessage(_Message):
    """Declare no more in this window (T2.6) against state ``seq``."""

    type: Literal["declare_done"]
    seq: int


class BuryMessage(_Message):
    """Bury cards (the dealer, T3.1) against state ``seq``."""

    type: Literal["bury"]
    seq: int
    cards: str = Field(min_length=1, max_length=200)


class TrickPlayMessage(_Message):
    """Lead or follow with cards (suits required but for jokers) against state ``seq``."""

    type: Literal["trick_play"]
    seq: int
    cards: str = Field(min_length=1, max_length=400)


MESSAGES: tuple[type[BaseModel], ...] = (DeclareMessage, DeclareDoneMessage, BuryMessage, TrickPlayMessage)
"""Tractor's client messages, beside the shell's."""


def message_action(seat: int, message: BaseModel) -> Action:
    """The action ``seat`` asks for; ``unknown_card`` for a card the deck has not (or one
    without its suit), ``bad_action`` for another game's message."""
    if isinstance(message, DeclareDoneMessage):
        return Done(seat)
    if isinstance(message, DeclareMessage):
        return Declare.of(seat, message.cards)
    if isinstance(message, BuryMessage):
        return Bury.of(seat, message.cards)
    if isinstance(message, TrickPlayMessage):
        return Play.of(seat, message.cards)
    raise TractorError("bad_action", f"not a Tractor message: {type(message).__name__}")


def _faces(counts: Counts) -> list[int]:
    return sorted((face for face, count in counts.items() for _ in range(count)), reverse=True)


def moves(hand: TractorHand, seat: int) -> list[dict[str, str]]:
    """The legal moves of ``seat`` now in hint order, each as its message names it
    (``{"type": "trick_play", "cards": "AH AH"}``), at most :data:`MAX_MOVES`: the
    declarations it may make; the burial of the bottom as taken; on a lead the hosting lead,
    then every tractor, pair and single; on a follow the hosting follow, then the others."""
    found: list[dict[str, str]] = []
    if hand.finished:
        return found
    phase = hand.phase
    if phase in ("deal", "declare"):
        if hand.start.trump is not None:
            return found
        found = [{"type": "declare", "cards": faces_text(shown)} for shown in hand.declarable(seat)]
        if phase == "declare" and seat in (wait.seat for wait in hand.waiting()):
            found.append({"type": "declare_done"})
        return found
    if phase == "bury":
        return [{"type": "bury", "cards": faces_text(hand.bottom)}] if seat == hand.dealer else []
    order = hand.order
    assert order is not None
    if phase != "play" or seat != hand.to_act:
        return found
    mine = hand.hands[seat]
    plays: Iterable[Counts]
    if hand.lead is None:
        plays = [hosting_lead(mine, order), *_structures(mine, hand)]
    else:
        partial = hand.room.partial_tractor_follow
        plays = [hosting_follow(mine, hand.lead, order, partial),
                 *islice(legal_follows(mine, hand.lead, order, partial), MAX_MOVES)]
    texts = dict.fromkeys(faces_text(_faces(play)) for play in plays)
    return [{"type": "trick_play", "cards": text} for text in islice(texts, MAX_MOVES)]


def _structures(mine: Counts, hand: TractorHand) -> list[Counts]:
    """Every tractor, pair and single of a hand, side suits first, high first."""
    order = hand.order
    assert order is not None
    found: list[Counts] = []
    for suit in (0, 1, 2, 3, TRUMP):
        cards = {face: count for face, count in mine.items() if order.eff[face] == suit}
        profile = profile_of(cards, order)
        for length in range(len(profile), 1, -1):
            for top in reversed(run_tops(profile, length)):
                found.append({next(face for face in order.tiers[suit][omega - 1] if cards.get(face, 0) >= 2): 2
                              for omega in range(top - length + 1, top + 1)})
        high_first = sorted(cards, key=lambda face: -order.omega[face])
        found.extend({face: 2} for face in high_first if cards[face] >= 2)
        found.extend({face: 1} for face in high_first)
    return found


def moves_json(hand: TractorHand, seat: int) -> str:
    """:func:`moves` as JSON text."""
    return orjson.dumps(moves(hand, seat)).decode()


class TrumpView(TypedDict):
    """The trump once fixed: its suit (``"none"``: no trump) and the level rank."""

    suit: Literal["S", "H", "C", "D", "none"]
    level: str


class DeclarationView(TypedDict):
    """An accepted declaration (T2.2–T2.5)."""

    seat: int
    cards: str
    kind: Literal["declare", "override", "reinforce"]
    trump: Literal["S", "H", "C", "D", "none"]


class TrickView(TypedDict):
    """A finished trick: each play as ``[seat, cards]``."""

    leader: int
    plays: list[tuple[int, str]]
    winner: int
    points: int


class ThrowView(TypedDict):
    """A failed throw (T6.4): the cards tried, the component played, the cards returned."""

    seat: int
    attempted: str
    forced: str
    returned: int
    blockers: NotRequired[list[int]]


class ScoreView(TypedDict):
    """The facts of a finished hand (T9–T10)."""

    dealer: int
    trick_points: int
    bottom_points: int
    bottom_multiplier: int
    bottom_bonus: int
    penalties: int
    attackers_points: int
    result: Literal["dealer", "attackers"] | None
    levels_gained: int
    levels_before: list[str]
    levels_after: list[str]
    next_dealer: int | None
    match_over: bool


class SettingsView(TypedDict):
    """The room's settings that order the cards (T4.3) and bind a follow (T7.3)."""

    two_is_constant_trump: bool
    partial_tractor_follow: bool


class TractorView(TypedDict):
    """What a seat (or a spectator) sees of a hand (T11.3): :meth:`~.hand.TractorHand.view`."""

    seq: int
    phase: Literal["deal", "declare", "bury", "play", "over"]
    dealer: int | None
    levels: list[str]
    level: str
    cards_left: list[int]
    declarations: list[DeclarationView]
    standing: DeclarationView | None
    trump: TrumpView | None
    bottom_card: str | None
    bottom_count: int
    waiting: list[int]
    to_act: int | None
    leader: int | None
    trick: list[tuple[int, str]]
    throw: ThrowView | None
    last_trick: TrickView | None
    tricks: int
    attackers_points: int
    attackers_cards: str
    timeouts: list[int]
    hosting: list[bool]
    escaped: int | None
    finished: bool
    result: Literal["dealer", "attackers", "escape"] | None
    score: ScoreView | None
    bottom: str | None
    settings: SettingsView
    seat: NotRequired[int]
    hand: NotRequired[list[str]]
    declarable: NotRequired[list[str]]
    buried: NotRequired[str]


class EventView(TypedDict):
    """Something that happened in the hand (``type``); the other fields depend on it (an
    ``end`` event carries :class:`ScoreView`'s fields and the ``bottom``)."""

    type: Literal["deal", "declare", "dealt", "redeal", "bottom_card", "trump", "take_bottom", "bury",
                  "throw_failed", "play", "trick", "timeout", "hosting", "escape", "end"]
    seat: NotRequired[int]
    cause: NotRequired[str]
    cards: NotRequired[str | int]
    accepted: NotRequired[bool]
    kind: NotRequired[str]
    trump: NotRequired[str]
    reason: NotRequired[str]
    dealer: NotRequired[int | None]
    first: NotRequired[int]
    levels: NotRequired[list[str]]
    level: NotRequired[str]
    redeal: NotRequired[int]
    bottom: NotRequired[str | int]
    count: NotRequired[int]
    card: NotRequired[str]
    suit: NotRequired[str]
    by: NotRequired[str]
    attempted: NotRequired[str]
    forced: NotRequired[str]
    returned: NotRequired[int]
    blockers: NotRequired[list[int]]
    winner: NotRequired[int]
    points: NotRequired[int]
    on: NotRequired[bool]


class MoveView(TypedDict):
    """A legal move as its message names it."""

    type: Literal["declare", "declare_done", "bury", "trick_play"]
    cards: NotRequired[str]


def schemas() -> dict[str, Any]:
    """JSON Schemas of Tractor's messages, view, events and moves."""
    shapes: dict[str, Any] = {"game": TractorView, "event": EventView, "move": MoveView}
    schema = {name: TypeAdapter(shape).json_schema() for name, shape in shapes.items()}
    schema["messages"] = {cls.__name__: cls.model_json_schema() for cls in MESSAGES}
    return schema
