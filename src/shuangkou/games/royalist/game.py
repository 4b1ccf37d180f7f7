"""One hand of Royalist as a state machine (Y1–Y8): the deal, the throne offer, the
declarations that four seats answer at once, the play of sets, going out, the end as soon
as the score is fixed, hosting, timeouts and escapes.

A :class:`RoyalistHand` is dealt (:func:`deal_hand`, shuffled by a secure source or an
explicit seed) or built from explicit hands (:func:`hand_from_cards`). :meth:`~RoyalistHand.check`
says whether an action may be applied, changing nothing; :meth:`~RoyalistHand.apply`
checks it the same way, then applies it and returns the events it caused (automatic
passes included); :meth:`~RoyalistHand.undo` takes the last action back. Who may act is a
set (:meth:`~RoyalistHand.waiting`): the candidate during the throne offer, every seat that
owes a declaration during the declarations (Y13.3), the seat to play during play.

Every event is public: an event says *that* a seat answered, never *what*, until the
answers are published together (Y2.6); the guard's seat and a secret solo appear in no
event and no view but the guard's and the emperor's own until they are public (Y2.10).

In a room with ``guard_card = "called"`` (Y9) the candidate ascends by calling a card he
holds three or four times (:class:`Ascend` with ``call``); the fourth copy becomes the
marked 保子牌 (``7H*``) in its holder's hand, and its holder the guard.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from ...cards import Card, CardParseError, Counts, Rank, cards_from_counts, counts_of, parse_cards
from ...errors import Refusal, allowed
from ..interface import Waiting
from ..seat_actions import Escape, HostedTurn, Hosting, Timeout, seat_action_from_dict, seat_action_to_dict
from .config import RoyalistRoom
from .deck import (
    EMPEROR_CARD,
    GUARD_CARD,
    MarkedCard,
    callable_cards,
    cards_text,
    deal_cards,
    default_call,
    is_called_card,
    take_cards,
)
from .scoring import SEATS, Roles, RoyalistSettlement, game_over, result_of, settle_royalist, unit_scores
from .sets import CardSet, InvalidSet, as_bomb, beats, read_set, smallest_beating, unbeatable

__all__ = [
    "Abdicate",
    "Action",
    "Ascend",
    "Declare",
    "Escape",
    "Event",
    "HostedTurn",
    "Hosting",
    "Pass",
    "Phase",
    "Play",
    "PlayRecord",
    "RoyalistError",
    "RoyalistHand",
    "Timeout",
    "Tribute",
    "action_from_dict",
    "action_to_dict",
    "parse_call",
]

Cause = Literal["player", "auto_pass", "timeout", "hosting", "escape", "disconnect"]
Phase = Literal["throne", "declare", "play", "over"]
Role = Literal["emperor", "guard", "revolutionary"]


class RoyalistError(Refusal, ValueError):
    """An action (or a record, or hands) Royalist refuses; nothing changed."""


# ---------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Ascend:
    """The candidate ascends (登基, Y2.1); ``open_solo``: a holder of both marked cards
    announces his solo (包, Y2.5). The plain ascent of such a holder is a secret solo. In a
    room with a called guard card, ``call`` is the card he calls (叫保子, Y9: rank and suit,
    held three or four times; 包 only with all four)."""

    seat: int
    open_solo: bool = False
    call: Card | None = None


@dataclass(frozen=True, slots=True)
class Abdicate:
    """The candidate abdicates (让位): ``BJ*`` moves to the next seat (Y2.2)."""

    seat: int


@dataclass(frozen=True, slots=True)
class Declare:
    """A seat's answer to the declaration (Y2.6): ``True`` declares — the guard's 明保, a
    revolutionary's revolt —, ``False`` stays hidden. The same question for every seat."""

    seat: int
    declare: bool


@dataclass(frozen=True, slots=True)
class Play:
    """Play a set (Y3.2, Y4). Cards without a suit take any card of their rank; a plain
    joker an unmarked one, ``BJ*``/``SJ*`` the marked one."""

    seat: int
    cards: tuple[Card, ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (过) on a follow (Y3.2)."""

    seat: int


Action = Ascend | Abdicate | Declare | Play | Pass | Timeout | HostedTurn | Hosting | Escape
_ACTIONS = (Ascend, Abdicate, Declare, Play, Pass, Timeout, HostedTurn, Hosting, Escape)


def action_to_dict(action: Action) -> dict[str, object]:
    """JSON form of an action, as records and the referee write it."""
    seat: dict[str, object] = {"seat": action.seat}
    if isinstance(action, Ascend) and action.call is not None:
        return {**seat, "call": str(action.call), **({"open_solo": True} if action.open_solo else {})}
    if isinstance(action, Ascend):
        return {**seat, "ascend": "open_solo" if action.open_solo else True}
    if isinstance(action, Abdicate):
        return {**seat, "abdicate": True}
    if isinstance(action, Declare):
        return {**seat, "declare": action.declare}
    if isinstance(action, Play):
        return {**seat, "play": cards_text(action.cards)}
    if isinstance(action, Pass):
        return {**seat, "pass": True}
    return seat_action_to_dict(action)


def action_from_dict(data: Mapping[str, object]) -> Action:
    """An action from its JSON form (:func:`action_to_dict`); :class:`RoyalistError` when malformed."""
    from .deck import parse_hand

    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise RoyalistError("bad_action", f"an action needs an integer 'seat', got {seat!r}")
    if "call" in data:
        return Ascend(seat, _open_solo(data), parse_call(data["call"]))
    if "ascend" in data:
        ascend = data["ascend"]
        if ascend is True or ascend == "open_solo":
            return Ascend(seat, ascend == "open_solo")
        raise RoyalistError("bad_action", f"'ascend' is true or \"open_solo\", not {ascend!r}")
    if data.get("abdicate") is True:
        return Abdicate(seat)
    if "declare" in data:
        if not isinstance(data["declare"], bool):
            raise RoyalistError("bad_action", f"'declare' is true or false, not {data['declare']!r}")
        return Declare(seat, data["declare"])
    if "play" in data:
        cards = data["play"]
        if not isinstance(cards, str):
            raise RoyalistError("bad_action", "'play' must be a card string")
        try:
            return Play(seat, tuple(parse_hand(cards)))
        except ValueError as error:
            raise RoyalistError("unknown_card", str(error)) from None
    if data.get("pass") is True:
        return Pass(seat)
    seat_action = seat_action_from_dict(seat, data, RoyalistError)
    if seat_action is None:
        raise RoyalistError("bad_action", f"unknown action {dict(data)!r}")
    return seat_action


def parse_call(text: object) -> Card:
    """The card a call names (Y9): one natural card with its suit, as ``"7H"``;
    :class:`RoyalistError` otherwise."""
    try:
        cards = parse_cards(text) if isinstance(text, str) else []
    except CardParseError:
        cards = []
    if len(cards) != 1 or cards[0].rank.is_joker or cards[0].suit is None:
        raise RoyalistError("bad_action", f"'call' names one card with its rank and suit, as \"7H\", not {text!r}")
    return cards[0]


def _open_solo(data: Mapping[str, object]) -> bool:
    """A call's ``open_solo`` (包, Y2.5): true or false, false when left out."""
    open_solo = data.get("open_solo", False)
    if not isinstance(open_solo, bool):
        raise RoyalistError("bad_action", f"'open_solo' is true or false, not {open_solo!r}")
    return open_solo


# ---------------------------------------------------------------------------
# Events and plays


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as every seat may see it: ``type``, the ``seat`` (when
    one), the ``cause`` (R11.6) and the event's own fields."""

    type: str
    seat: int | None = None
    cause: Cause | None = None
    detail: Mapping[str, object] = field(default_factory=dict)

    def to_dict(self) -> dict[str, object]:
        """JSON form, as records keep it and the protocol sends it."""
        data: dict[str, object] = {"type": self.type}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.cause is not None:
            data["cause"] = self.cause
        data.update(self.detail)
        return data

    def view(self) -> dict[str, object]:
        """:meth:`to_dict`: every event is public."""
        return self.to_dict()


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """One play on the table; ``lead`` when it began a round."""

    index: int
    seat: int
    cards: tuple[Card, ...]
    set: CardSet
    cause: Cause
    lead: bool

    def view(self) -> dict[str, object]:
        """JSON form, as views show it."""
        return {"index": self.index, "seat": self.seat, "cards": cards_text(self.cards), "set": self.set.view(),
                "cause": self.cause}


@dataclass(frozen=True, slots=True)
class Tribute:
    """A card given face down before the throne offer (Y7.4): known to both seats only."""

    seat: int
    to: int
    card: Card


# ---------------------------------------------------------------------------
# The hand


@dataclass
class RoyalistHand:
    """One hand at a five-seat table under a room (see the module's docstring).

    ``dealt``: the hands as the throne offer found them (after any tribute); ``hands``:
    what each seat holds now, sorted."""

    room: RoyalistRoom
    dealt: tuple[tuple[Card, ...], ...]
    first_taker: int
    seed: int | None = None
    tributes: tuple[Tribute, ...] = ()
    hands: list[list[Card]] = field(default_factory=list)
    phase: Phase = "throne"
    holder: int = 0  # the seat the offer started with (Y2.3)
    candidate: int = 0
    abdications: list[int] = field(default_factory=list)
    forced: bool = False
    roles: Roles | None = None
    called: Card | None = None  # the card the emperor called (Y9), rank and suit
    answers: list[bool | None] = field(default_factory=lambda: [None] * SEATS)
    asked: tuple[int, ...] = ()
    published: bool = False
    open_guard: bool = False
    revolts: tuple[int, ...] = ()
    revolt_success: bool = False
    guard_shown: bool = False
    solo_shown: bool = False
    multiplier: int = 1
    to_act: int = 0
    table: PlayRecord | None = None
    passed: set[int] = field(default_factory=set)
    plays: list[PlayRecord] = field(default_factory=list)
    finish_order: list[int] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=lambda: [0] * SEATS)
    hosting: list[bool] = field(default_factory=lambda: [False] * SEATS)
    escapers: list[int] = field(default_factory=list)
    ended_by_escape: bool = False
    finished: bool = False
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    seats = SEATS
    swap = None

    def __post_init__(self) -> None:
        if not self.hands:
            self.hands = [list(hand) for hand in self.dealt]

    def _start(self) -> None:
        """The deal's events and the throne offer (Y1.6: the emperor card's holder is public)."""
        holder = self.holder_of(EMPEROR_CARD)
        self.holder = self.candidate = holder
        counts = [len(hand) + sum(t.seat == seat for t in self.tributes) - sum(t.to == seat for t in self.tributes)
                  for seat, hand in enumerate(self.dealt)]
        self.events.append(Event("deal", self.first_taker, detail={"cards": counts, "emperor_card": holder}))
        for tribute in self.tributes:
            self.events.append(Event("tribute", tribute.seat, detail={"to": tribute.to}))
        self.events.append(Event("offer", holder, detail={"abdications": 0, "forced": not self.room.abdication}))
        self.forced = not self.room.abdication

    # -- reading the state -----------------------------------------------------

    def holder_of(self, card: Card) -> int:
        """The seat holding ``card`` now."""
        return next(seat for seat, hand in enumerate(self.hands) if card in hand)

    def counts(self, seat: int) -> Counts:
        """The seat's hand as counts per rank (the marked cards as the jokers they are, Y4.1),
        the called guard card apart (:meth:`tops`)."""
        hand = self.hands[seat]
        return split_counts(hand)[0] if self.tops(seat) else counts_of(hand)

    def tops(self, seat: int) -> int:
        """1 when ``seat`` holds the called guard card (保子牌, Y9), else 0. Only the guard
        can: the call marks a card of his, and cards change hands no more."""
        if self.room.guard_card != "called" or self.roles is None or seat != self.roles.guard:
            return 0
        return sum(map(is_called_card, self.hands[seat]))

    @property
    def tops_unplayed(self) -> int:
        """1 while the called guard card is in a hand (Y9), else 0: public knowledge."""
        return 0 if self.roles is None else self.tops(self.roles.guard)

    def calls(self, seat: int) -> dict[Card, int]:
        """The cards ``seat`` may call with its copies held, lowest first (Y9; none in a room
        whose guard card is marked)."""
        return callable_cards(self.hands[seat]) if self.room.guard_card == "called" else {}

    def may_ascend(self, seat: int) -> bool:
        """Whether ``seat`` may ascend: always, but in a called room only with a card to call (Y9)."""
        return self.room.guard_card == "marked" or bool(self.calls(seat))

    def may_abdicate(self, seat: int) -> bool:
        """Whether the candidate ``seat`` may abdicate: not after a forced ascent or in a room
        without abdication (Y2.1, Y2.3), nor as a holder of both marked cards when the room
        says so (Y2.5); always when it can call nothing (Y9)."""
        if not self.may_ascend(seat):
            return True
        return not self.forced and (GUARD_CARD not in self.hands[seat] or self.room.solo_may_abdicate)

    def bomb_ranks(self, seat: int) -> tuple[int, ...]:
        """The natural ranks of which ``seat`` holds four identical cards (Y4.8; none in
        rooms without bombs)."""
        if self.room.bombs == "none":
            return ()
        seen: dict[tuple[Rank, object], int] = {}
        for card in self.hands[seat]:
            if not card.rank.is_joker and not is_called_card(card):
                seen[card.rank, card.suit] = seen.get((card.rank, card.suit), 0) + 1
        return tuple(sorted({rank.value for (rank, _), count in seen.items() if count >= 4}))

    @property
    def seq(self) -> int:
        """Actions applied so far."""
        return len(self.actions)

    @property
    def table_set(self) -> CardSet | None:
        """The set to beat, or None on a lead."""
        return self.table.set if self.table else None

    def role(self, seat: int) -> Role | None:
        """The seat's role once the emperor has ascended (Y2.4, Y2.5); None before."""
        roles = self.roles
        if roles is None:
            return None
        if seat == roles.emperor:
            return "emperor"
        return "guard" if seat == roles.guard else "revolutionary"

    def public_role(self, seat: int) -> Role | None:
        """The seat's role as every seat knows it (Y2.6–Y2.9), None while hidden."""
        roles = self.roles
        if roles is None:
            return None
        if seat == roles.emperor:
            return "emperor"
        if self.finished:
            return self.role(seat)
        if roles.solo is not None:
            return "revolutionary" if self.solo_shown or seat in self.revolts else None
        if self.guard_shown:
            return self.role(seat)
        return "revolutionary" if seat in self.revolts else None

    def known_role(self, viewer: int, seat: int) -> Role | None:
        """``seat``'s role as ``viewer`` knows it: its own, the public ones, and — for the
        guard — the emperor (public anyway) and the revolutionaries (Y2.4)."""
        if viewer == seat or (self.role(viewer) == "guard" and self.roles is not None and self.roles.solo is None):
            return self.role(seat)
        return self.public_role(seat)

    @property
    def result(self) -> str | None:
        """Once over: ``royals``, ``draw``, ``revolutionaries`` (Y6.4) or ``escape``."""
        if not self.finished:
            return None
        if self.ended_by_escape or self.roles is None:
            return "escape"
        return result_of(self.units(), self.roles)

    def units(self) -> tuple[int, ...]:
        """Each seat's units (Y6, *m* included), once the score is fixed; zeros before, and
        when an escape ended the game."""
        if not self.finished or self.ended_by_escape or self.roles is None:
            return (0,) * SEATS
        return unit_scores(self.roles, self.finish_order, self.multiplier)

    def places(self) -> list[int | None]:
        """Each seat's place, None for a seat still holding cards (Y13.1)."""
        place = {seat: index + 1 for index, seat in enumerate(self.finish_order)}
        return [place.get(seat) for seat in range(SEATS)]

    # -- the platform's questions (shuangkou.games.interface.Hand) --------------

    def waiting(self) -> tuple[Waiting, ...]:
        """Who may act now (Y13.3): the candidate; the seats owing a declaration, sorted;
        the seat to play; nobody once the hand is over."""
        if self.finished:
            return ()
        decision = self.room.decision_seconds
        if self.phase == "throne":
            return (Waiting(self.candidate, "throne", decision),)
        if self.phase == "declare":
            return tuple(Waiting(seat, "declare", decision) for seat in self.asked if self.answers[seat] is None)
        return (Waiting(self.to_act, "turn", self.room.turn_seconds),)

    @property
    def to_act_now(self) -> int | list[int] | None:
        """The referee's ``to_act``: a seat, the list of seats owing a declaration, or None."""
        waiting = [wait.seat for wait in self.waiting()]
        if not waiting:
            return None
        return waiting if self.phase == "declare" else waiting[0]

    @property
    def turn(self) -> tuple[object, ...] | None:
        """Changes exactly when a turn passes: an offer per candidate, one window for every
        declaration, a turn of play per seat and play (None once over)."""
        if self.finished:
            return None
        if self.phase == "throne":
            return ("throne", len(self.abdications))
        if self.phase == "declare":
            return ("declare",)
        return ("play", self.to_act, len(self.plays), self.table is None)

    def default_action(self, seat: int) -> HostedTurn:
        """What hosting does for a seat the hand waits for (Y8.2)."""
        return HostedTurn(seat)

    def timeout_action(self, seat: int) -> Timeout:
        """What the seat's timer does (Y8.1)."""
        return Timeout(seat)

    def escape_action(self, seat: int) -> Escape | None:
        """``seat`` leaving now, when that is an escape (Y8.4); else None."""
        return allowed(self.check, Escape(seat))

    def hosted(self, seat: int) -> bool:
        """Whether hosting plays ``seat``."""
        return self.hosting[seat]

    def hosting_action(self, seat: int, on: bool, cause: str | None = None) -> Hosting:
        """Hosting switched by the player, or on when its connection dropped (Y8.3)."""
        return Hosting(seat, on, "disconnect" if cause == "disconnect" else "player")

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` still holds cards in a hand in progress."""
        return not self.finished and bool(self.hands[seat])

    def leaving_cost(self, seat: int, balances: Sequence[int]) -> dict[str, Any] | None:
        """What leaving now costs ``seat`` (Y8.4): P = ``escape_units`` × X on top of the
        game's result (host mode), or D = P × *m* with the game ended at once (settle mode)."""
        if self.escape_action(seat) is None:
            return None
        x = self.room.match_points_for(*balances)
        amount = self.room.escape_units * x
        if self.room.escape_mode == "host":
            return {"mode": "host", "penalty": amount, "owed": None, "fee": None, "charge": None}
        settled = settle_royalist(self.room, balances, roles=self.roles, finish_order=self.finish_order,
                                  multiplier=self.multiplier, escapers=[*self.escapers, seat], ended_by_escape=True)
        return {"mode": "settle", "penalty": amount * self.multiplier, "owed": -settled.nets[seat],
                "fee": settled.table_fees[seat], "charge": -settled.deltas[seat]}

    def escape_charged(self, settled: RoyalistSettlement) -> dict[str, Any] | None:
        """What the escape that ended the hand charged, from its settlement."""
        if not self.ended_by_escape or not self.escapers:
            return None
        seat = self.escapers[-1]
        return {"mode": "settle", "penalty": -settled.escape_payments[seat], "owed": -settled.nets[seat],
                "fee": settled.table_fees[seat], "charge": -settled.deltas[seat]}

    def settlement(self, balances: Sequence[int]) -> RoyalistSettlement:
        """The finished hand's settlement for the five balances before it (Y7, Y8.4)."""
        if not self.finished:
            raise RoyalistError("not_finished", "only a finished game is settled")
        return settle_royalist(self.room, balances, roles=self.roles, finish_order=self.finish_order,
                               multiplier=self.multiplier, escapers=self.escapers,
                               ended_by_escape=self.ended_by_escape)

    def carried(self) -> dict[str, Any]:
        """What the next hand at the table takes from this one: its first taker, the next
        seat (Y1.5), and for tribute (Y7.4) the roles and the result."""
        data: dict[str, Any] = {"first_taker": (self.first_taker + 1) % SEATS}
        if self.finished and self.roles is not None and not self.ended_by_escape:
            data["previous"] = {**self.roles.view(), "result": self.result, "units": list(self.units())}
        return data

    # -- checking and applying ---------------------------------------------------

    def check(self, action: Action) -> None:
        """Raise the :class:`RoyalistError` :meth:`apply` would raise; change nothing."""
        self._check(action)

    def _check(self, action: Action) -> tuple[tuple[Card, ...], CardSet] | None:
        if not isinstance(action, _ACTIONS):
            raise RoyalistError("bad_action", f"not an action: {action!r}")
        if self.finished:
            raise RoyalistError("game_over", "the game is over")
        seat = action.seat
        if isinstance(seat, bool) or seat not in range(SEATS):
            raise RoyalistError("bad_seat", f"seat must be 0 to {SEATS - 1}, not {seat!r}")
        if isinstance(action, Hosting):
            if not action.on and seat in self.escapers:
                raise RoyalistError("escaped", f"seat {seat} has left; hosting stays on (Y8.4)")
            return None
        if isinstance(action, Escape):
            if seat in self.escapers:
                raise RoyalistError("escaped", f"seat {seat} has already left")
            if not self.hands[seat]:
                raise RoyalistError("escaped", f"seat {seat} is out: leaving now is no escape (Y8.4)")
            return None
        waited = [wait.seat for wait in self.waiting()]
        if seat not in waited:
            raise RoyalistError("not_your_turn", self._whose_turn(seat))
        if isinstance(action, HostedTurn) and not self.hosting[seat]:
            raise RoyalistError("not_hosted", f"seat {seat} is not hosted")
        if isinstance(action, Timeout | HostedTurn):
            return None
        if self.phase == "throne":
            self._check_throne(action)
            return None
        if self.phase == "declare":
            self._check_declare(action)
            return None
        if isinstance(action, Play):
            return self._check_play(action)
        if isinstance(action, Pass):
            if self.table is None:
                raise RoyalistError("pass_on_lead", "a lead cannot be passed (Y3.2)")
            return None
        raise RoyalistError("bad_action", f"it is seat {seat}'s turn of play: play a set or pass")

    def _whose_turn(self, seat: int) -> str:
        if self.phase == "throne":
            return f"the throne is offered to seat {self.candidate}, not seat {seat} (Y2.1)"
        if self.phase == "declare":
            return f"seat {seat} owes no declaration (Y2.6)"
        return f"it is seat {self.to_act}'s turn, not seat {seat}'s"

    def _check_throne(self, action: Action) -> None:
        seat = action.seat
        if isinstance(action, Ascend):
            if self.room.guard_card == "called":
                self._check_call(action)
                return None
            if action.call is not None:
                raise RoyalistError("bad_action", "the guard holds SJ* in this room: ascend without a call (Y2.4)")
            if action.open_solo:
                if GUARD_CARD not in self.hands[seat]:
                    raise RoyalistError("bad_action", "only a holder of both BJ* and SJ* plays a solo (Y13.8)")
                self._check_open_solo()
            return None
        if isinstance(action, Abdicate):
            if self.may_abdicate(seat):
                return None
            if self.forced:
                why = "the throne came back: seat must ascend (Y2.3)" if self.room.abdication else (
                    "this room has no abdication (Y2.1)")
                raise RoyalistError("bad_action", why)
            raise RoyalistError("bad_action", "a holder of both marked cards may not abdicate here (Y2.5)")
        raise RoyalistError("bad_action", f"the throne is offered to seat {seat}: ascend or abdicate (Y2.1)")

    def _check_open_solo(self) -> None:
        if not self.room.open_solo:
            raise RoyalistError("bad_action", "this room has no open solo: every solo is secret (Y2.5)")

    def _check_call(self, action: Ascend) -> None:
        """Y9: the candidate ascends by calling a card he holds three or four times; 包 only
        with all four; with no such card he must abdicate."""
        seat, call = action.seat, action.call
        if not self.may_ascend(seat):
            raise RoyalistError("bad_action", f"seat {seat} holds no three identical cards to call: abdicate (Y9)")
        if call is None:
            raise RoyalistError("bad_action", 'the guard card is called in this room: ascend by a call, as '
                                '{"call": "7H"} (Y9)')
        copies = self.calls(seat).get(Card(call.rank, call.suit), 0)
        if not copies:
            raise RoyalistError("bad_action", f"seat {seat} does not hold three {call}: call a card held three or "
                                "four times (Y9)")
        if action.open_solo:
            if copies < 4:
                raise RoyalistError("bad_action", f"包 needs all four {call}: only a solo is announced (Y2.5, Y9)")
            self._check_open_solo()

    def _check_declare(self, action: Action) -> None:
        if not isinstance(action, Declare):
            raise RoyalistError("bad_action", "the declarations are open: declare or stay hidden (Y2.6)")
        if action.declare:
            guard = self.role(action.seat) == "guard"
            if guard and not self.room.open_guard:
                raise RoyalistError("bad_action", "this room has no open guard: stay hidden (Y13.5)")
            if not guard and not self.room.revolt:
                raise RoyalistError("bad_action", "this room has no revolt: stay hidden (Y13.5)")
        return None

    def _check_play(self, action: Play) -> tuple[tuple[Card, ...], CardSet]:
        if not action.cards:
            raise RoyalistError("no_cards", "a play needs at least one card")
        hand = self.hands[action.seat]
        try:
            cards = take_cards(hand, action.cards, marked_last=False)
        except LookupError as error:
            raise RoyalistError("cards_not_held", str(error)) from None
        counts, top = split_counts(cards)
        try:
            played = read_set(counts, self.room.set_rules, self.counts(action.seat), top, self.tops(action.seat))
        except InvalidSet as error:
            raise RoyalistError("invalid_combination", error.reason) from None
        if self.room.bombs == "four_identical" and _identical_four(cards):
            played = as_bomb(played)
        table = self.table_set
        if table is not None and not beats(played, table):
            raise RoyalistError("does_not_beat", f"{played} does not beat {table} (Y4.4)")
        return cards, played

    def apply(self, action: Action) -> list[Event]:
        """Apply one action; the events it caused. An illegal action raises (as :meth:`check`)."""
        checked = self._check(action)
        start = len(self.events)
        seat = action.seat
        if isinstance(action, Hosting):
            if self.hosting[seat] != action.on:
                self.hosting[seat] = action.on
                self.events.append(Event("hosting", seat, action.cause, {"on": action.on}))
        elif isinstance(action, Escape):
            self._escape(seat)
        elif isinstance(action, Timeout | HostedTurn):
            cause: Cause = "timeout" if isinstance(action, Timeout) else "hosting"
            if self.phase == "play" and isinstance(action, Timeout):
                self.timeouts[seat] += 1
                self.events.append(Event("timeout", seat, detail={"count": self.timeouts[seat]}))
            self._default(seat, cause)
            if (isinstance(action, Timeout) and self.timeouts[seat] >= self.room.max_timeouts
                    and not self.hosting[seat] and not self.finished):
                self.hosting[seat] = True
                self.events.append(Event("hosting", seat, "timeout", {"on": True}))
        elif isinstance(action, Ascend):
            self._ascend(seat, action.open_solo, "player", action.call)
        elif isinstance(action, Abdicate):
            self._abdicate(seat, "player")
        elif isinstance(action, Declare):
            self._declare(seat, action.declare, "player")
        elif isinstance(action, Play):
            assert checked is not None
            self._play(seat, *checked, "player")
        else:
            self._pass(seat, "player")
        self._auto_pass()
        self.actions.append(action)
        return self.events[start:]

    def undo(self) -> Action:
        """Take the last action back (the hand is replayed without it); return it."""
        if not self.actions:
            raise RoyalistError("nothing_to_undo", "no action has been applied")
        last = self.actions[-1]
        replayed = RoyalistHand(self.room, self.dealt, self.first_taker, self.seed, self.tributes)
        replayed.events = []
        replayed._start()
        for action in self.actions[:-1]:
            replayed.apply(action)
        self.__dict__.update(replayed.__dict__)
        return last

    # -- the throne and the declarations (Y2) --------------------------------------

    def _default(self, seat: int, cause: Cause) -> None:
        """The default of Y8.1 (ascend, secret solo, 暗保, no revolt) or the hosting move."""
        if self.phase == "throne":
            if self.may_ascend(seat):
                self._ascend(seat, False, cause, default_call(self.hands[seat]) if self.calls(seat) else None)
            else:
                self._abdicate(seat, cause)  # Y9: nothing to call
        elif self.phase == "declare":
            self._declare(seat, False, cause)
        else:
            from .bots import hosting_choice

            choice = hosting_choice(self, seat)
            if choice is None:
                self._pass(seat, cause)
            else:
                self._play(seat, *choice, cause)

    def _ascend(self, seat: int, open_solo: bool, cause: Cause, call: Card | None = None) -> None:
        guard = self.holder_of(GUARD_CARD) if call is None else self._call(seat, call)
        solo: Literal["open", "secret"] | None = ("open" if open_solo else "secret") if guard == seat else None
        self.roles = Roles(seat, guard, solo)
        detail = {"call": str(call)} if call is not None else {}
        self.events.append(Event("ascend", seat, cause, {**detail, "solo": "open"} if open_solo else detail))
        room = self.room
        if open_solo:
            self.multiplier, self.solo_shown = 2, True  # Y2.8
        elif room.declarations and (room.open_guard or room.revolt):
            self.phase = "declare"
            self.asked = tuple(other for other in range(SEATS) if other != seat)
            self.events.append(Event("declarations_open", detail={"seats": list(self.asked)}))
            return
        self._begin_play()

    def _call(self, seat: int, call: Card) -> int:
        """Y9: the emperor shows three copies of ``call`` (his first in hand order); the
        fourth copy becomes the marked 保子牌 and its holder the guard — the emperor himself
        when he holds all four, or when the fourth is in no hand (a hand-built deal)."""
        self.called = Card(call.rank, call.suit)
        order = [seat, *(other for other in range(SEATS) if other != seat)]
        copies = [(other, card) for other in order for card in self.hands[other]
                  if card.rank == call.rank and card.suit is call.suit]
        if len(copies) <= 3:
            return seat
        holder, card = copies[3]
        hand = self.hands[holder]
        hand[hand.index(card)] = MarkedCard(card.rank, card.suit, card.deck)
        hand.sort(key=_order)
        return holder

    def _abdicate(self, seat: int, cause: Cause) -> None:
        successor = (seat + 1) % SEATS
        self.hands[seat].remove(EMPEROR_CARD)
        self.hands[successor].append(EMPEROR_CARD)
        self.hands[successor].sort(key=_order)
        self.abdications.append(seat)
        self.candidate = successor
        self.events.append(Event("abdicate", seat, cause, {"to": successor}))
        # Y2.1: no abdication in the room; Y2.3: back with the seat dealt it
        self.forced = not self.room.abdication or len(self.abdications) >= SEATS
        self.events.append(Event("offer", successor, detail={"abdications": len(self.abdications),
                                                              "forced": self.forced}))

    def _declare(self, seat: int, declare: bool, cause: Cause) -> None:
        self.answers[seat] = declare
        self.events.append(Event("declared", seat, cause))  # that it answered, not what (Y2.6)
        if any(self.answers[other] is None for other in self.asked):
            return
        roles = self.roles
        assert roles is not None
        self.published = True
        self.open_guard = roles.solo is None and bool(self.answers[roles.guard])
        self.revolts = tuple(
            other for other in self.asked if self.answers[other] and self.role(other) == "revolutionary"
        )
        self.revolt_success = len(self.revolts) >= self.room.revolt_quorum  # Y2.7, Y13.6
        self.multiplier = 2 if self.open_guard or self.revolt_success else 1  # Y2.8
        self.guard_shown = roles.solo is None and (self.open_guard or self.revolt_success)
        self.solo_shown = roles.solo is not None and self.revolt_success
        self.events.append(Event("declarations", detail={
            "open_guard": roles.guard if self.open_guard else None,
            "revolts": list(self.revolts),
            "revolt_success": self.revolt_success,
            "guard": roles.guard if self.guard_shown else None,
            "solo": roles.solo if self.solo_shown else None,
            "multiplier": self.multiplier,
        }))
        self._begin_play()

    def _begin_play(self) -> None:
        assert self.roles is not None
        self.phase = "play"
        self.to_act = self.roles.emperor  # Y3.1

    # -- play (Y3) -------------------------------------------------------------------

    def _play(self, seat: int, cards: tuple[Card, ...], played: CardSet, cause: Cause) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        record = PlayRecord(len(self.plays) + 1, seat, cards, played, cause, lead=self.table is None)
        self.plays.append(record)
        self.table = record
        if not self.room.hard_pass:
            self.passed.clear()
        self.events.append(Event("play", seat, cause, {"cards": cards_text(cards), "set": played.view()}))
        if GUARD_CARD in cards or any(is_called_card(card) for card in cards):
            self._reveal(seat)
        if not hand:
            self.finish_order.append(seat)
            self.events.append(Event("out", seat, detail={"place": len(self.finish_order)}))
            assert self.roles is not None
            if game_over(self.roles, self.finish_order, self.room.open_solo_second):
                self._finish()
                return
        self._advance(seat)

    def _reveal(self, seat: int) -> None:
        """Y2.9: the guard card (``SJ*``, or the called 保子牌, Y9) played shows its holder's
        role (the guard, or the emperor alone)."""
        roles = self.roles
        assert roles is not None
        if roles.solo is None and not self.guard_shown:
            self.guard_shown = True
            self.events.append(Event("reveal", seat, detail={"role": "guard"}))
        elif roles.solo is not None and not self.solo_shown:
            self.solo_shown = True
            self.events.append(Event("reveal", seat, detail={"role": "solo"}))

    def _pass(self, seat: int, cause: Cause) -> None:
        self.events.append(Event("pass", seat, cause))
        self.passed.add(seat)
        self._advance(seat)

    def _advance(self, seat: int) -> None:
        """The next seat to play after ``seat``, or the end of the round (Y3.3, Y3.4)."""
        table = self.table
        assert table is not None
        holders = [other for other in range(SEATS) if self.hands[other]]
        if all(other in self.passed for other in holders if other != table.seat):
            self._end_round(table.seat)
            return
        for step in range(1, SEATS + 1):
            other = (seat + step) % SEATS
            if self.hands[other] and not (self.room.hard_pass and other in self.passed):
                self.to_act = other
                return
        raise AssertionError("a round with no seat to play")  # pragma: no cover

    def _end_round(self, last: int) -> None:
        """Y3.4, Y3.6: the last player leads, or after its last card the next seat holding
        cards (or its known partner, ``jiefeng = "partner"``)."""
        self.table = None
        self.passed.clear()
        if self.hands[last]:
            self.to_act = last
            return
        leader = next(other for step in range(1, SEATS) if self.hands[other := (last + step) % SEATS])
        if self.room.jiefeng == "partner":
            partners = [other for step in range(1, SEATS) if self.hands[other := (last + step) % SEATS]
                        and self._public_teammates(last, other)]
            leader = partners[0] if partners else leader
        self.to_act = leader
        self.events.append(Event("jiefeng", leader))

    def _public_teammates(self, seat: int, other: int) -> bool:
        """Whether every seat knows ``seat`` and ``other`` to be teammates (Y3.6, Y13.16)."""
        mine, theirs = self.public_role(seat), self.public_role(other)
        if mine is None or theirs is None or (self.roles is not None and self.roles.solo is not None
                                              and "emperor" in (mine, theirs)):
            return False
        return (mine == "revolutionary") == (theirs == "revolutionary")

    def can_beat(self, seat: int) -> bool:
        """Whether ``seat`` could beat the table as auto-pass judges it (Y3.7): with the cards
        it holds and, while the called guard card is unplayed, that card as if it held it, so
        that no auto-pass shows who holds it (Y13.18)."""
        table = self.table_set
        if table is None:
            return True
        rules = self.room.set_rules
        return smallest_beating(self.counts(seat), table, rules, self.bomb_ranks(seat), self.tops_unplayed) is not None

    def _auto_pass(self) -> None:
        """Y3.7: a seat that holds no set beating the table is passed at once; after a set
        nothing can beat, every seat is, whatever the room (Y13.9)."""
        while not self.finished and self.phase == "play" and self.table is not None:
            if not unbeatable(self.table.set, self.room.set_rules, self.tops_unplayed) and not (
                self.room.auto_pass and not self.can_beat(self.to_act)
            ):
                return
            self._pass(self.to_act, "auto_pass")

    def _escape(self, seat: int) -> None:
        self.escapers.append(seat)
        self.events.append(Event("escape", seat, "escape"))
        if self.room.escape_mode == "settle":
            self.ended_by_escape = True
            self._finish()
        elif not self.hosting[seat]:
            self.hosting[seat] = True
            self.events.append(Event("hosting", seat, "escape", {"on": True}))

    def _finish(self) -> None:
        """The score is fixed (Y5) or an escape ended the game: every role and hand is shown (Y2.9)."""
        self.finished = True
        self.phase = "over"
        units = self.units()
        self.events.append(Event("end", detail={
            "result": self.result,
            "roles": None if self.roles is None else self.roles.view(),
            "multiplier": self.multiplier,
            "finish_order": list(self.finish_order),
            "places": self.places(),
            "units": list(units),
            "hands": [cards_text(hand) for hand in self.hands],
        }))

    # -- views (Y2.10) -----------------------------------------------------------------

    def view(self, seat: int | None = None, public: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """What ``seat`` may see (None: a spectator): its own hand and role, every seat's
        card count, the emperor, the abdications, the published declarations and every
        card played; the guard's seat only when public or to the guard; "solo" only when
        public or to the emperor; every hand once the game is over (Y2.10)."""
        data = dict(public) if public is not None else self._public_view()
        if seat is not None:
            data["seat"] = seat
            data["hand"] = [cards_text([card]) for card in self.hands[seat]]
            data["role"] = self.role(seat)
            data["known_roles"] = [self.known_role(seat, other) for other in range(SEATS)]
            roles = self.roles
            if roles is not None and not self.finished:
                own = dict(data["roles"])
                if self.role(seat) == "guard" and roles.solo is None:
                    own["guard"] = roles.guard
                if seat == roles.emperor and roles.solo is not None:
                    own["solo"] = roles.solo
                data["roles"] = own
            data["declared"] = self.answers[seat]
            data["tributes"] = [{"seat": t.seat, "to": t.to, "card": cards_text([t.card])}
                                for t in self.tributes if seat in (t.seat, t.to)]
        return data

    def _public_view(self) -> dict[str, Any]:
        roles = self.roles
        public_roles: dict[str, Any] = {"emperor": None, "guard": None, "solo": None}
        if roles is not None:
            public_roles = {
                "emperor": roles.emperor,
                "guard": roles.guard if roles.solo is None and (self.guard_shown or self.finished) else None,
                "solo": roles.solo if self.solo_shown or self.finished else None,
            }
        return {
            "seq": self.seq,
            "phase": self.phase,
            "first_taker": self.first_taker,
            "emperor_card": self.holder_of(EMPEROR_CARD) if self.phase == "throne" else None,
            "candidate": self.candidate if self.phase == "throne" else None,
            "abdications": list(self.abdications),
            "forced": self.forced,
            "to_act": self.to_act_now,
            "cards_left": [len(hand) for hand in self.hands],
            "roles": public_roles,
            "guard_card": self.room.guard_card,
            "called": None if self.called is None else str(self.called),
            "public_roles": [self.public_role(seat) for seat in range(SEATS)],
            "answered": [self.answers[seat] is not None for seat in range(SEATS)],
            "declarations": None if not self.published else {
                "open_guard": self.open_guard, "revolts": list(self.revolts), "revolt_success": self.revolt_success},
            "multiplier": self.multiplier,
            "table": self.table.view() if self.table else None,
            "plays": [play.view() for play in self.plays],
            "passed": sorted(self.passed) if self.table else [],
            "finish_order": list(self.finish_order),
            "places": self.places(),
            "timeouts": list(self.timeouts),
            "hosting": list(self.hosting),
            "escapers": list(self.escapers),
            "finished": self.finished,
            "result": self.result,
            "units": list(self.units()) if self.finished else None,
            "revealed": [cards_text(hand) for hand in self.hands] if self.finished else None,
        }

    def to_record(self) -> Any:
        """The hand's record (:class:`~.record.RoyalistRecord`)."""
        from .record import RoyalistRecord, record_of

        record: RoyalistRecord = record_of(self)
        return record


def _order(card: Card) -> tuple[int, int, int]:
    return card.sort_key


def split_counts(cards: Sequence[Card]) -> tuple[Counts, int]:
    """Counts per rank of ``cards`` but the called guard card, and how many of it (Y9)."""
    return counts_of(card for card in cards if not is_called_card(card)), sum(map(is_called_card, cards))


def _identical_four(cards: Sequence[Card]) -> bool:
    """Y4.8: four natural cards of one rank and suit (never the called guard card)."""
    return len(cards) == 4 and not cards[0].rank.is_joker and len({(c.rank, c.suit) for c in cards}) == 1 and (
        cards[0].suit is not None) and not any(is_called_card(card) for card in cards)


def _guard_callable(room: RoyalistRoom, hands: Sequence[Sequence[Card]]) -> bool:
    """Whether a guard can be had from ``hands``: always with a marked guard card; with a
    called one, when some seat holds three identical cards to call (Y9)."""
    return room.guard_card == "marked" or any(callable_cards(hand) for hand in hands)


def hand_from_cards(
    room: RoyalistRoom,
    hands: Sequence[Sequence[Card]],
    first_taker: int = 0,
    seed: int | None = None,
    tributes: Sequence[Tribute] = (),
) -> RoyalistHand:
    """A hand from physical hands (one per seat, as the throne offer finds them)."""
    if len(hands) != SEATS:
        raise RoyalistError("bad_hands", f"Royalist seats five players: five hands are needed, got {len(hands)}")
    if not _guard_callable(room, hands):
        raise RoyalistError("bad_hands", "no seat holds three identical cards to call a guard: the cards are "
                            "dealt again (Y9)")
    dealt = tuple(tuple(sorted(hand, key=_order)) for hand in hands)
    hand = RoyalistHand(room, dealt, first_taker, seed, tuple(tributes))
    hand._start()
    return hand


def deal_hand(
    room: RoyalistRoom,
    seed: int | None = None,
    first_taker: int | None = None,
    previous: Mapping[str, Any] | None = None,
) -> RoyalistHand:
    """Shuffle (seeded, or by the secure source) and deal from ``first_taker`` (random
    when None, Y1.5); with ``previous`` (the last game's roles and result) in a room with
    tribute, the losers give before the offer (Y7.4)."""
    rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
    if first_taker is None or room.first_taker == "random":
        first_taker = rng.randrange(SEATS)
    while True:
        hands, _ = deal_cards(room.deck, first_taker, rng, guard_card=room.guard_card)
        tributes = _tributes(hands, previous) if room.tribute and previous else ()
        if _guard_callable(room, hands):
            return hand_from_cards(room, hands, first_taker, seed, tributes)
        # Y9: no seat can call: the cards are dealt again, from the same first taker (Y13.18)


def _tributes(hands: list[list[Card]], previous: Mapping[str, Any]) -> tuple[Tribute, ...]:
    """Y7.4, Y13.14: each loser's highest non-joker card to a winner; revolutionaries in
    play order from the emperor; none after a draw."""
    emperor, guard, result = previous.get("emperor"), previous.get("guard"), previous.get("result")
    if not isinstance(emperor, int) or result not in ("royals", "revolutionaries"):
        return ()
    others = [(emperor + step) % SEATS for step in range(1, SEATS)]
    if isinstance(guard, int):
        rebels = [seat for seat in others if seat != guard]
        pairs = ([(rebels[0], emperor), (rebels[1], emperor), (rebels[2], guard)] if result == "royals"
                 else [(emperor, rebels[0]), (emperor, rebels[1]), (guard, rebels[2])])
    else:
        pairs = [(seat, emperor) for seat in others] if result == "royals" else [(emperor, seat) for seat in others]
    given = []
    for giver, taker in pairs:
        naturals = [card for card in hands[giver] if not card.rank.is_joker]
        if not naturals:
            continue
        card = max(naturals, key=lambda c: c.rank)  # the first such card in hand order on a tie
        hands[giver].remove(card)
        hands[taker].append(card)
        hands[taker].sort(key=_order)
        given.append(Tribute(giver, taker, card))
    return tuple(given)


def cards_for(hand: Sequence[Card], played: CardSet) -> tuple[Card, ...]:
    """The physical cards of ``hand`` for a set chosen by ranks (hosting, bots): unmarked
    jokers before the marked ones; the called guard card for a top card (Y9); four identical
    cards for a bomb."""
    if played.bomb:
        for suit_card in hand:
            same = [card for card in hand if card.rank == suit_card.rank and card.suit is suit_card.suit
                    and not is_called_card(card)]
            if suit_card.rank.value == played.rank and len(same) >= 4:
                return tuple(same[:4])
    tops = [card for card in hand if is_called_card(card)][: played.top]
    return take_cards(hand, [*cards_from_counts(played.counts), *tops])
