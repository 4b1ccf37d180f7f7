"""One hand of Tractor as a pure state machine (T2–T11): the deal with its declarations,
the dealer's bury, the tricks, the score.

Phases, and whom each waits for (:meth:`TractorHand.waiting`):

- ``deal``: the cards arrive round by round (T2.1); every seat that has not had its card
  of the round is waited for, under a timer of four deal intervals, and its card arrives
  with a :class:`Draw`, its timer's action: the wait is clocked (:class:`Waiting`), so a
  bot's or a hosted seat's card arrives with the same clock as a person's. Any seat may
  :class:`Declare` meanwhile, with cards it holds (T2.3–T2.5).
- ``declare``: the window after the last card (T2.6): every seat that has not said it is
  done (:class:`Done`, its timer's action) is waited for; an accepted declaration reopens
  it for all (a new turn, so the timers start again). When all are done the trump is fixed
  (T2.7–T2.9) — or, in a first hand nobody declared in, the cards are dealt again (T2.8).
- ``bury``: the dealer alone, with the bottom in its hand, buries as many cards (T3).
- ``play``: the seat to lead or follow (T6–T8); forced plays are made at once (T7.8).
- ``over``: nothing.

Cards are faces (:mod:`.order`) counted per seat. A hand is built by
:meth:`TractorHand.begin` from a :class:`Start` (the decks of a dealt hand, or hands and a
bottom given by a referee scenario) and replays its actions exactly: :meth:`undo` replays
all actions but the last.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from ...cards import CardParseError
from ...errors import Refusal, allowed
from ..interface import Waiting
from ..seat_actions import Escape, HostedTurn, Hosting, Timeout, seat_action_from_dict, seat_action_to_dict
from .config import TractorRoom, tractor_room_from_dict
from .follows import follow_problem, hosting_follow, hosting_lead, only_follow
from .formats import (
    Counts,
    Lead,
    Unit,
    beaten_units,
    beats_unit,
    counted,
    decompose,
    forced_unit,
    key_of,
    matches,
    suit_of,
)
from .order import BJ, SJ, TRUMP, Order, face_text, faces_of, faces_text, points_of, rank_index, rank_text
from .scoring import HandScore, TractorSettlement, bottom_multiplier, settle_hand, team_of

__all__ = [
    "Action",
    "Bury",
    "Declaration",
    "Declare",
    "Done",
    "Draw",
    "Escape",
    "Event",
    "HostedTurn",
    "Hosting",
    "Play",
    "Start",
    "Timeout",
    "TractorError",
    "TractorHand",
    "TractorRecord",
    "action_from_dict",
    "action_to_dict",
]

SEATS = 4
HAND_CARDS = 25
BOTTOM_CARDS = 8
Phase = Literal["deal", "declare", "bury", "play", "over"]
Cause = Literal["player", "auto_play", "timeout", "hosting", "escape", "disconnect"]
TRUMP_NAMES = ("S", "H", "C", "D")


class TractorError(Refusal, ValueError):
    """An action, a start or a record that Tractor refuses; nothing changed."""


# ---------------------------------------------------------------------------
# Actions


def _faces(text: str, what: str) -> tuple[int, ...]:
    try:
        return tuple(faces_of(text))
    except CardParseError as error:
        raise TractorError("unknown_card", f"{what}: {error}") from None


@dataclass(frozen=True, slots=True)
class Draw:
    """The seat's card of the current round arrives (T2.1): its deal timer ran out, or a
    bot or hosting took it."""

    seat: int


@dataclass(frozen=True, slots=True)
class Declare:
    """Show level cards or a joker pair: declare, override or reinforce (T2.2–T2.5)."""

    seat: int
    faces: tuple[int, ...]

    @classmethod
    def of(cls, seat: int, cards: str) -> Declare:
        """From a card string (``"10H 10H"``)."""
        return cls(seat, _faces(cards, "declare"))


@dataclass(frozen=True, slots=True)
class Done:
    """The seat declares no more in this window (T2.6); an accepted declaration reopens it."""

    seat: int


@dataclass(frozen=True, slots=True)
class Bury:
    """The dealer buries cards, as many as the bottom held (T3.1)."""

    seat: int
    faces: tuple[int, ...]

    @classmethod
    def of(cls, seat: int, cards: str) -> Bury:
        """From a card string."""
        return cls(seat, _faces(cards, "bury"))


@dataclass(frozen=True, slots=True)
class Play:
    """Lead (a single, a pair, a tractor or a throw) or follow (T6, T7)."""

    seat: int
    faces: tuple[int, ...]

    @classmethod
    def of(cls, seat: int, cards: str) -> Play:
        """From a card string."""
        return cls(seat, _faces(cards, "play"))


Action = Draw | Declare | Done | Bury | Play | Timeout | HostedTurn | Hosting | Escape
_ACTIONS = (Draw, Declare, Done, Bury, Play, Timeout, HostedTurn, Hosting, Escape)


def action_to_dict(action: Action) -> dict[str, object]:
    """An action's JSON form (the referee's and the journal's)."""
    seat = action.seat
    if isinstance(action, Declare):
        return {"seat": seat, "declare": faces_text(action.faces)}
    if isinstance(action, Bury):
        return {"seat": seat, "bury": faces_text(action.faces)}
    if isinstance(action, Play):
        return {"seat": seat, "play": faces_text(action.faces)}
    if isinstance(action, Draw):
        return {"seat": seat, "draw": True}
    if isinstance(action, Done):
        return {"seat": seat, "pass": True}
    return seat_action_to_dict(action)


def action_from_dict(data: Mapping[str, object]) -> Action:
    """An action from its JSON form; ``bad_action`` or ``unknown_card`` when malformed."""
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise TractorError("bad_action", f"an action needs an integer 'seat', got {seat!r}")
    for key, kind in (("declare", Declare), ("bury", Bury), ("play", Play)):
        if key in data:
            cards = data[key]
            if not isinstance(cards, str):
                raise TractorError("bad_action", f"'{key}' must be a card string, not {cards!r}")
            return kind.of(seat, cards)
    for key, flag in (("draw", Draw), ("pass", Done)):
        if data.get(key) is True:
            return flag(seat)
    seat_action = seat_action_from_dict(seat, data, TractorError)
    if seat_action is not None:
        return seat_action
    raise TractorError("bad_action", f"unknown action {dict(data)!r}: give one of declare, pass, bury, play, "
                       "draw, timeout, hosting, escape")


# ---------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as every seat may see it: ``type`` and its fields."""

    type: str
    fields: Mapping[str, object] = field(default_factory=dict)

    def view(self) -> dict[str, object]:
        """JSON form."""
        return {"type": self.type, **self.fields}

    def to_dict(self) -> dict[str, object]:
        """JSON form, as records keep it."""
        return self.view()


# ---------------------------------------------------------------------------
# Declarations


@dataclass(frozen=True, slots=True)
class Declaration:
    """An accepted declaration (T2.2): its seat, the cards shown, its strength (1 one
    level card, 2 a level pair, 3 two SJ, 4 two BJ) and its trump suit (None: no trump)."""

    seat: int
    faces: tuple[int, ...]
    strength: int
    suit: int | None
    kind: str = "declare"

    def view(self) -> dict[str, object]:
        """JSON form."""
        return {"seat": self.seat, "cards": faces_text(self.faces), "kind": self.kind,
                "trump": _suit_name(self.suit)}


def _suit_name(suit: int | None) -> str:
    return "none" if suit is None else TRUMP_NAMES[suit]


def read_declaration(faces: Sequence[int], level: int) -> tuple[int, int | None] | None:
    """The strength and trump suit of cards shown as a declaration at level ``level``, or
    None when they are none (T2.2)."""
    if len(faces) == 1 and faces[0] < SJ and faces[0] % 13 == level:
        return 1, faces[0] // 13
    if len(faces) == 2 and faces[0] == faces[1]:
        if faces[0] == SJ:
            return 3, None
        if faces[0] == BJ:
            return 4, None
        if faces[0] % 13 == level:
            return 2, faces[0] // 13
    return None


# ---------------------------------------------------------------------------
# The start and the record


@dataclass(frozen=True, slots=True)
class Start:
    """How a hand starts: the ``levels`` of teams 0 and 1 (indexes), the ``dealer`` (None:
    the first hand of a match, T2.8), and either ``decks`` (a dealt hand: 108 faces in deal
    order per deal; more than one deck for a first hand's redeals) with ``first`` (the seat
    the first deal starts at) and ``fallback`` (the first hand's dealer when nobody
    declares, T2.8), or ``hands`` and ``bottom`` given (a referee scenario). ``trump``
    fixes the trump without declaring (``"S"`` … ``"none"``); ``scripted``: the referee
    deals and closes the declaring itself (docs/referee.md)."""

    levels: tuple[int, int]
    dealer: int | None
    decks: tuple[tuple[int, ...], ...] = ()
    first: int = 0
    fallback: int = 0
    hands: tuple[tuple[int, ...], ...] | None = None
    bottom: tuple[int, ...] = ()
    trump: str | None = None
    seed: int | None = None
    scripted: bool = False

    def to_dict(self) -> dict[str, object]:
        """JSON form."""
        data: dict[str, object] = {
            "levels": [rank_text(level) for level in self.levels], "dealer": self.dealer, "seed": self.seed,
        }
        if self.hands is not None:
            data.update(hands=[faces_text(hand) for hand in self.hands], bottom=faces_text(self.bottom))
        else:
            data.update(decks=[faces_text(deck) for deck in self.decks], first=self.first, fallback=self.fallback)
        if self.trump is not None:
            data["trump"] = self.trump
        if self.scripted:
            data["scripted"] = True
        return data

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Start:
        """Read :meth:`to_dict`'s form; ``bad_record`` naming what is wrong."""
        try:
            levels = data["levels"]
            dealer = data["dealer"]
            hands = data.get("hands")
            start = Start(
                levels=(rank_index(levels[0]), rank_index(levels[1])),
                dealer=None if dealer is None else int(dealer),
                decks=tuple(tuple(faces_of(deck)) for deck in data.get("decks", ())),
                first=int(data.get("first", 0)),
                fallback=int(data.get("fallback", 0)),
                hands=None if hands is None else tuple(tuple(faces_of(hand)) for hand in hands),
                bottom=tuple(faces_of(data.get("bottom", ""))),
                trump=data.get("trump"),
                seed=data.get("seed"),
                scripted=bool(data.get("scripted", False)),
            )
        except (KeyError, IndexError, TypeError, ValueError) as error:
            raise TractorError("bad_record", f"the hand's start cannot be read: {error}") from None
        if start.hands is None and not start.decks:
            raise TractorError("bad_record", "the start needs 'decks' or 'hands'")
        return start


@dataclass(frozen=True, slots=True)
class TractorRecord:
    """A hand's record: its room, its start, its actions (JSON forms) and their events."""

    config: TractorRoom
    start: Start
    actions: tuple[Mapping[str, object], ...]
    events: tuple[Mapping[str, object], ...] | None

    def to_dict(self) -> dict[str, object]:
        """JSON form, as stored."""
        return {"config": json.loads(self.config.to_json()), **self.start.to_dict(),
                "actions": [dict(action) for action in self.actions],
                "events": None if self.events is None else [dict(event) for event in self.events]}

    def to_orjson(self) -> dict[str, object]:
        """:meth:`to_dict`."""
        return self.to_dict()

    def with_actions(
        self, actions: Sequence[Mapping[str, object]], events: Sequence[Mapping[str, object]] | None = None
    ) -> TractorRecord:
        """A copy with other actions and their events."""
        return replace(self, actions=tuple(actions), events=None if events is None else tuple(events))

    @staticmethod
    def from_dict(data: Mapping[str, Any], room: TractorRoom | None = None) -> TractorRecord:
        """Read :meth:`to_dict`'s form; ``bad_record`` naming what is wrong."""
        if not isinstance(data, Mapping):
            raise TractorError("bad_record", f"a record is a JSON object, not {type(data).__name__}")
        if room is None:
            config = data.get("config")
            if not isinstance(config, Mapping):
                raise TractorError("bad_record", "the record has no 'config'")
            room = tractor_room_from_dict(config, source="record")
        actions = data.get("actions")
        if not isinstance(actions, list | tuple):
            raise TractorError("bad_record", "'actions' must be a list")
        events = data.get("events")
        return TractorRecord(room, Start.from_dict(data), tuple(actions),
                             None if events is None else tuple(events))


# ---------------------------------------------------------------------------
# Tricks


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick: its leader, each play in order as (seat, faces), the winner and
    the points it held."""

    leader: int
    plays: tuple[tuple[int, tuple[int, ...]], ...]
    winner: int
    points: int

    def view(self) -> dict[str, object]:
        """JSON form, as the referee reports it."""
        return {"leader": self.leader, "plays": [[seat, faces_text(faces)] for seat, faces in self.plays],
                "winner": self.winner, "points": self.points}


def trick_winner(lead: Lead, plays: Sequence[tuple[int, Mapping[int, int]]], order: Order) -> int:
    """The seat that wins a trick (T8.3): the leader first; each later play that matches
    takes it when it trumps a non-trump holder, or is of the holder's suit with a strictly
    greater key (T4.5: equal keys stay with the earlier)."""
    shape = lead.shape
    holder, first = plays[0]
    suit, best = lead.suit, key_of(first, shape, order)
    for seat, cards in plays[1:]:
        if not matches(cards, lead, order):
            continue
        played = suit_of(cards, order)
        key = key_of(cards, shape, order)
        if (played == TRUMP and suit != TRUMP) or (played == suit and key > best):
            holder, suit, best = seat, TRUMP if played == TRUMP else suit, key
    return holder


# ---------------------------------------------------------------------------
# The hand


def _remove(hand: Counts, faces: Mapping[int, int]) -> None:
    for face, count in faces.items():
        left = hand[face] - count
        if left:
            hand[face] = left
        else:
            del hand[face]


def _holds(hand: Mapping[int, int], faces: Mapping[int, int]) -> bool:
    return all(hand.get(face, 0) >= count for face, count in faces.items())


def _sorted(counts: Mapping[int, int]) -> list[int]:
    return sorted((face for face, count in counts.items() for _ in range(count)), reverse=True)


@dataclass
class TractorHand:
    """One hand under a room (:class:`~.config.TractorRoom`), from a :class:`Start`."""

    room: TractorRoom
    start: Start
    phase: Phase = "deal"
    levels: tuple[int, int] = (0, 0)
    dealer: int | None = None
    redeals: int = 0
    deal_from: int = 0
    hands: list[Counts] = field(default_factory=list)
    drawn: list[int] = field(default_factory=list)
    bottom: tuple[int, ...] = ()
    declarations: list[Declaration] = field(default_factory=list)
    done: set[int] = field(default_factory=set)
    order: Order | None = None
    trump_by: str | None = None
    bottom_card: int | None = None
    buried: tuple[int, ...] = ()
    to_act: int = 0
    leader: int = 0
    trick: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    lead: Lead | None = None
    attempt: dict[str, object] | None = None
    tricks: list[Trick] = field(default_factory=list)
    last_lead: Lead | None = None
    plays_made: int = 0
    trick_points: list[int] = field(default_factory=lambda: [0, 0])
    won_cards: list[list[int]] = field(default_factory=lambda: [[], []])
    penalties: int = 0
    timeouts: list[int] = field(default_factory=lambda: [0] * SEATS)
    hosting: list[bool] = field(default_factory=lambda: [False] * SEATS)
    escaped: int | None = None
    score: HandScore | None = None
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    seats = SEATS
    swap = None

    # -- creation ---------------------------------------------------------------

    @classmethod
    def begin(cls, room: TractorRoom, start: Start) -> TractorHand:
        """A hand at its start: dealing, or (hands given) declaring or burying."""
        hand = cls(room, start, levels=start.levels, dealer=start.dealer)
        if start.hands is not None:
            hand.hands = [counted(cards) for cards in start.hands]
            hand.drawn = [len(cards) for cards in start.hands]
            hand.bottom = start.bottom
            hand.deal_from = start.dealer if start.dealer is not None else 0
            hand.phase = "declare"
            hand._event("deal", dealer=hand.dealer, levels=hand._level_names(), level=rank_text(hand.level),
                        cards=len(start.hands[0]), bottom=len(start.bottom))
            if start.trump is not None:
                suit = None if start.trump == "none" else TRUMP_NAMES.index(start.trump)
                hand._fix_trump(suit, "scenario")
                hand._auto_play()
        else:
            hand._deal(0)
        return hand

    def _deal(self, redeal: int) -> None:
        self.redeals = redeal
        self.deal_from = (self.start.first + redeal) % SEATS
        self.hands = [{} for _ in range(SEATS)]
        self.drawn = [0] * SEATS
        self.bottom = self.start.decks[redeal][SEATS * HAND_CARDS:]
        self.declarations, self.done = [], set()
        self.phase = "deal"
        self._event("deal", dealer=self.dealer, first=self.deal_from, levels=self._level_names(),
                    level=rank_text(self.level), redeal=redeal)

    # -- what the hand is -------------------------------------------------------

    @property
    def level(self) -> int:
        """ℓ: the dealer team's level (T10.5); both teams' in a first hand (T2.8)."""
        return self.levels[team_of(self.dealer)] if self.dealer is not None else self.levels[0]

    @property
    def seq(self) -> int:
        """Actions applied so far."""
        return len(self.actions)

    @property
    def finished(self) -> bool:
        """Whether the hand is over."""
        return self.phase == "over"

    @property
    def standing(self) -> Declaration | None:
        """The standing declaration (T2.4)."""
        return self.declarations[-1] if self.declarations else None

    @property
    def turn(self) -> tuple[object, ...] | None:
        """Changes exactly when a turn passes: the deal and its window are one turn per
        accepted declaration (T2.6); the bury one; each play one."""
        if self.phase in ("deal", "declare"):
            return ("declare", self.redeals, len(self.declarations))
        if self.phase == "bury":
            return ("bury",)
        if self.phase == "play":
            return ("play", self.plays_made)
        return None

    @property
    def result(self) -> str | None:
        """``"dealer"``, ``"attackers"`` or ``"escape"`` once over."""
        if self.score is None:
            return None
        return "escape" if self.score.escape else self.score.side

    @property
    def attackers_points(self) -> int:
        """The attackers' points so far: their tricks' points and the throw penalties
        (T9.1), before the bottom."""
        if self.dealer is None:
            return 0
        return self.trick_points[1 - team_of(self.dealer)] + self.penalties

    def _level_names(self) -> list[str]:
        return [rank_text(level) for level in self.levels]

    def _event(self, event_type: str, /, **fields: object) -> None:
        self.events.append(Event(event_type, fields))

    def waiting(self) -> tuple[Waiting, ...]:
        """The seats that may act now (see the module's docstring)."""
        if self.phase == "deal":
            round_ = min(self.drawn)
            seconds = SEATS * self.room.deal_interval_ms / 1000
            return tuple(Waiting(seat, "deal", seconds, clocked=True)
                         for seat in self._deal_order() if self.drawn[seat] == round_)
        if self.phase == "declare":
            seconds = self.room.declare_window_seconds
            return tuple(Waiting(seat, "declare", seconds) for seat in self._deal_order() if seat not in self.done)
        if self.phase == "bury":
            assert self.dealer is not None
            return (Waiting(self.dealer, "bury", self.room.bury_seconds),)
        if self.phase == "play":
            return (Waiting(self.to_act, "turn", self.room.turn_seconds),)
        return ()

    def _deal_order(self) -> list[int]:
        return [(self.deal_from + k) % SEATS for k in range(SEATS)]

    # -- checking -----------------------------------------------------------------

    def check(self, action: Action) -> None:
        """Refuse ``action`` (a :class:`TractorError`) if it may not be applied now."""
        self._check(action)

    def _as_phase(self, action: Action) -> Action:
        """A timeout or a hosted turn during the deal or the window: the seat's card, or no
        more declaring (what its timer and hosting do there)."""
        if isinstance(action, Timeout | HostedTurn) and self.phase in ("deal", "declare"):
            return self.default_action(action.seat)
        return action

    def _check(self, action: Action) -> None:
        if isinstance(action, Timeout | HostedTurn):
            action = self._as_phase(action)
        if not isinstance(action, _ACTIONS):
            raise TractorError("bad_action", f"not an action: {action!r}")
        seat = action.seat
        if isinstance(seat, bool) or seat not in range(SEATS):
            raise TractorError("bad_seat", f"seats are 0 to 3, not {seat!r}")
        if self.finished:
            raise TractorError("game_over", "the hand is over")
        if isinstance(action, Hosting | Escape):
            if isinstance(action, Escape) and self.escaped is not None:
                raise TractorError("escaped", f"seat {self.escaped} has escaped already")
            if isinstance(action, Hosting) and not action.on and self.escaped == seat:
                raise TractorError("escaped", f"seat {seat} has left: hosting plays it to the end (T11.5)")
            return
        if self.escaped == seat and not isinstance(action, HostedTurn | Timeout | Draw | Done):
            raise TractorError("escaped", f"seat {seat} has left the hand")
        if isinstance(action, Draw):
            if self.phase != "deal" or self.drawn[seat] != min(self.drawn):
                raise TractorError("not_your_turn", f"seat {seat} has no card to take now")
        elif isinstance(action, Declare):
            self._check_declare(action)
        elif isinstance(action, Done):
            if self.phase != "declare" or seat in self.done:
                raise TractorError("not_your_turn", f"seat {seat} is not declaring now")
        elif isinstance(action, Bury):
            self._check_bury(action)
        elif isinstance(action, Play):
            self._check_play(action)
        elif self.phase not in ("bury", "play") or seat not in (wait.seat for wait in self.waiting()):
            raise TractorError("not_your_turn", f"it is not seat {seat}'s turn")

    def _check_declare(self, action: Declare) -> None:
        if self.start.trump is not None:
            raise TractorError("bad_scenario", "the scenario fixes the trump: it has no 'declare' (T16.8)")
        if self.phase not in ("deal", "declare"):
            raise TractorError("not_your_turn", "declaring is over (T2.6)")
        if not _holds(self.hands[action.seat], counted(action.faces)):
            raise TractorError("cards_not_held", f"seat {action.seat} does not hold {faces_text(action.faces)}")
        if not self.start.scripted:
            problem = self.declaration_problem(action.seat, action.faces)
            if problem is not None:
                raise TractorError("declaration_refused", problem)

    def declaration_problem(self, seat: int, faces: Sequence[int]) -> str | None:
        """Why T2.2–T2.5 do not allow this declaration now, or None when they do."""
        shown = read_declaration(faces, self.level)
        if shown is None:
            return (f"{faces_text(faces) or 'nothing'} is no declaration: one or two identical "
                    f"{rank_text(self.level)}s of a suit, or two SJ, or two BJ (T2.2)")
        strength, suit = shown
        standing = self.standing
        if standing is None:
            return None
        if standing.seat == seat:
            if standing.strength == 1 and strength == 2 and suit == standing.suit:
                return None
            if self.room.self_override and strength > standing.strength:
                return None
            return "the standing declarer may only reinforce its single (T2.5)"
        if strength > standing.strength:
            return None
        if (self.room.equal_pair_by_suit and strength == standing.strength == 2 and suit is not None
                and standing.suit is not None and suit < standing.suit):
            return None
        return "an override needs a stronger declaration (T2.4)"

    def declarable(self, seat: int) -> list[tuple[int, ...]]:
        """The declarations ``seat`` may make now (T2.2–T2.5), from the cards it holds:
        its level cards, one or two of a suit, and its joker pairs; none once declaring is
        over or when the trump is fixed without it."""
        if self.phase not in ("deal", "declare") or self.start.trump is not None:
            return []
        mine = self.hands[seat]
        shows = [(face,) * count for face in (suit * 13 + self.level for suit in range(4))
                 for count in (1, 2) if mine.get(face, 0) >= count]
        shows += [(joker, joker) for joker in (SJ, BJ) if mine.get(joker, 0) == 2]
        return [shown for shown in shows if self.declaration_problem(seat, shown) is None]

    def _check_bury(self, action: Bury) -> None:
        if self.phase != "bury" or action.seat != self.dealer:
            raise TractorError("not_your_turn", f"seat {action.seat} is not burying")
        if len(action.faces) != len(self.bottom):
            raise TractorError("bad_action", f"bury {len(self.bottom)} cards, not {len(action.faces)} (T3.1)")
        if not _holds(self.hands[action.seat], counted(action.faces)):
            raise TractorError("cards_not_held", f"seat {action.seat} does not hold {faces_text(action.faces)}")

    def _check_play(self, action: Play) -> None:
        if self.phase != "play" or action.seat != self.to_act:
            who = f"seat {self.to_act}'s turn" if self.phase == "play" else f"no play now ({self.phase})"
            raise TractorError("not_your_turn", f"it is {who}, not seat {action.seat}'s")
        cards = counted(action.faces)
        hand = self.hands[action.seat]
        if not action.faces:
            raise TractorError("no_cards", "a play has at least one card")
        if not _holds(hand, cards):
            raise TractorError("cards_not_held", f"seat {action.seat} does not hold {faces_text(action.faces)}")
        order = self.order
        assert order is not None
        if self.lead is None:
            if suit_of(cards, order) is None:
                raise TractorError("invalid_combination",
                                   f"{faces_text(action.faces)}: a lead is of one effective suit (T6.1)")
            return
        problem = follow_problem(hand, cards, self.lead, order, self.room.partial_tractor_follow)
        if problem is not None:
            raise TractorError("illegal_follow", str(problem), asdict(problem))

    # -- applying -----------------------------------------------------------------

    def apply(self, action: Action) -> list[Event]:
        """Check and apply ``action``; the events it caused (forced plays included). A
        refused action changes nothing."""
        before, applied = len(self.events), len(self.actions)
        try:
            if self.start.scripted:
                self._script(action)
            self._check(action)
        except TractorError:
            if len(self.actions) != applied:  # the referee's own dealing before it is taken back
                self._replay(self.actions[:applied])
            raise
        self.actions.append(action)
        self._apply(action)
        self._auto_play()
        return self.events[before:]

    def _script(self, action: Action) -> None:
        """A scenario's referee deals and closes the declaring itself (docs/referee.md):
        before a declaration, until the seat holds the cards; before a bury or a play, to
        the end of the declaring (a first hand nobody declared in is dealt again)."""
        if isinstance(action, Declare):
            while self.phase == "deal" and not _holds(self.hands[action.seat], counted(action.faces)):
                self._internal(Draw(self.waiting()[0].seat))
        elif isinstance(action, Bury | Play):
            while self.phase in ("deal", "declare"):
                wait = self.waiting()[0]
                self._internal(Draw(wait.seat) if self.phase == "deal" else Done(wait.seat))

    def _internal(self, action: Action) -> None:
        self._check(action)
        self.actions.append(action)
        self._apply(action)
        self._auto_play()

    def _apply(self, action: Action) -> None:
        action = self._as_phase(action)
        seat = action.seat
        if isinstance(action, Hosting):
            if self.hosting[seat] != action.on:
                self.hosting[seat] = action.on
                self._event("hosting", seat=seat, cause=action.cause, on=action.on)
        elif isinstance(action, Escape):
            self._escape(seat)
        elif isinstance(action, Draw):
            self._draw(seat)
        elif isinstance(action, Declare):
            self._declare(action)
        elif isinstance(action, Done):
            self.done.add(seat)
            if len(self.done) == SEATS:
                self._close_window()
        elif isinstance(action, Bury):
            self._bury(action.faces, "player")
        elif isinstance(action, Play):
            self._play(seat, action.faces, "player")
        elif isinstance(action, Timeout):
            if self.phase == "bury":
                self._bury(self.bottom, "timeout")
                return
            self.timeouts[seat] += 1
            self._event("timeout", seat=seat, count=self.timeouts[seat])
            self._play(seat, self._hosting_play(seat), "timeout")
            if self.timeouts[seat] >= self.room.max_timeouts and not self.hosting[seat]:
                self.hosting[seat] = True
                self._event("hosting", seat=seat, cause="timeout", on=True)
        elif isinstance(action, HostedTurn):
            if self.phase == "bury":
                self._bury(self.bottom, "hosting")
            else:
                self._play(seat, self._hosting_play(seat), "hosting")

    def _draw(self, seat: int) -> None:
        round_ = self.drawn[seat]
        deck = self.start.decks[self.redeals]
        face = deck[round_ * SEATS + (seat - self.deal_from) % SEATS]
        self.hands[seat][face] = self.hands[seat].get(face, 0) + 1
        self.drawn[seat] += 1
        if min(self.drawn) == HAND_CARDS:
            self.phase = "declare"
            self.done = set()
            self._event("dealt")

    def _declare(self, action: Declare) -> None:
        problem = self.declaration_problem(action.seat, action.faces)
        cards = faces_text(action.faces)
        if problem is not None:  # a scenario's refused declaration is an event (T16.8)
            self._event("declare", seat=action.seat, cards=cards, accepted=False, reason=problem)
            return
        shown = read_declaration(action.faces, self.level)
        assert shown is not None
        strength, suit = shown
        standing = self.standing
        kind = "declare" if standing is None else "reinforce" if standing.seat == action.seat and \
            standing.strength == 1 and strength == 2 and standing.suit == suit else "override"
        self.declarations.append(Declaration(action.seat, action.faces, strength, suit, kind))
        self.done = set()
        self._event("declare", seat=action.seat, cards=cards, accepted=True, kind=kind, trump=_suit_name(suit))

    def _close_window(self) -> None:
        standing = self.standing
        if standing is not None:
            if self.dealer is None:
                first = self.declarations[0].seat if self.room.first_dealer == "first_declarer" else standing.seat
                self.dealer = first
            self._fix_trump(standing.suit, "declaration")
            return
        if self.dealer is None:
            if self.room.first_hand_no_bid == "redeal" and self.redeals < min(
                    self.room.max_redeals, len(self.start.decks) - 1):
                self._event("redeal", count=self.redeals + 1)
                self._deal(self.redeals + 1)
                return
            self.dealer = self.start.fallback
        if self.room.no_bid_trump == "no_trump" or len(self.bottom) < 3:
            self._fix_trump(None, "no_trump")
            return
        card = self.bottom[2]
        self.bottom_card = card
        self._event("bottom_card", card=face_text(card))
        self._fix_trump(None if card >= SJ else card // 13, "third_bottom")

    def _fix_trump(self, suit: int | None, by: str) -> None:
        assert self.dealer is not None
        self.order = Order.of(self.level, suit, self.room.two_is_constant_trump)
        self.trump_by = by
        self._event("trump", suit=_suit_name(suit), level=rank_text(self.level), dealer=self.dealer, by=by)
        if self.bottom:
            for face in self.bottom:
                self.hands[self.dealer][face] = self.hands[self.dealer].get(face, 0) + 1
            self.phase = "bury"
            self._event("take_bottom", seat=self.dealer, count=len(self.bottom))
        else:
            self._start_play()

    def _bury(self, faces: Sequence[int], cause: Cause) -> None:
        assert self.dealer is not None
        _remove(self.hands[self.dealer], counted(faces))
        self.buried = tuple(faces)
        self._event("bury", seat=self.dealer, cause=cause)
        self._start_play()

    def _start_play(self) -> None:
        assert self.dealer is not None
        self.phase = "play"
        self.to_act = self.leader = self.dealer

    def _hosting_play(self, seat: int) -> tuple[int, ...]:
        order = self.order
        assert order is not None
        hand = self.hands[seat]
        if self.lead is None:
            play = hosting_lead(hand, order)
        else:
            play = hosting_follow(hand, self.lead, order, self.room.partial_tractor_follow)
        return tuple(_sorted(play))

    def _play(self, seat: int, faces: Sequence[int], cause: Cause) -> None:
        order = self.order
        assert order is not None and self.dealer is not None
        cards = counted(faces)
        if self.lead is None:
            units = decompose(cards, order)
            self.attempt = None
            if len(units) > 1:
                suit = order.eff[faces[0]]
                others = [{face: count for face, count in self.hands[other].items() if order.eff[face] == suit}
                          for other in range(SEATS) if other != seat]
                beaten = beaten_units(units, others, order)
                if beaten:
                    forced = forced_unit(beaten, self.room.failed_throw_forced)
                    returned = len(faces) - forced.size
                    penalty = returned * self.room.throw_penalty_per_card
                    self.penalties += penalty if team_of(seat) == team_of(self.dealer) else -penalty
                    attempt: dict[str, object] = {"seat": seat, "attempted": faces_text(self._display(cards)),
                                                  "forced": faces_text(forced.faces), "returned": returned}
                    if self.room.reveal_throw_blocker:
                        attempt["blockers"] = [other for other in range(SEATS) if other != seat and any(
                            _beats(unit, self.hands[other], order, suit) for unit in beaten)]
                    self.attempt = attempt
                    self._event("throw_failed", **attempt)
                    cards = counted(forced.faces)
                    units = [forced]
            self.lead = Lead(order.eff[next(iter(cards))], tuple(units))
            self.leader = seat
        played = tuple(self._display(cards))
        _remove(self.hands[seat], cards)
        self.trick.append((seat, played))
        self.plays_made += 1
        self._event("play", seat=seat, cards=faces_text(played), cause=cause)
        if len(self.trick) < SEATS:
            self.to_act = (seat + 1) % SEATS
            return
        self._end_trick()

    def _end_trick(self) -> None:
        order, lead, dealer = self.order, self.lead, self.dealer
        assert order is not None and lead is not None and dealer is not None
        plays = [(seat, counted(faces)) for seat, faces in self.trick]
        winner = trick_winner(lead, plays, order)
        cards = [face for _, faces in self.trick for face in faces]
        points = points_of(cards)
        team = team_of(winner)
        self.trick_points[team] += points
        self.won_cards[team].extend(face for face in cards if points_of((face,)))
        self.tricks.append(Trick(self.leader, tuple(self.trick), winner, points))
        self._event("trick", winner=winner, points=points)
        self.last_lead, self.lead, self.trick = lead, None, []
        self.to_act = self.leader = winner
        if not any(self.hands):
            self._finish(winner)

    def _finish(self, last_winner: int) -> None:
        dealer, lead = self.dealer, self.last_lead
        assert dealer is not None and lead is not None
        attackers = 1 - team_of(dealer)
        bottom_points = points_of(self.buried)
        multiplier = bottom_multiplier(lead, self.room.bottom_multiplier)
        self.score = HandScore.of(self.room, dealer, self.levels, self.trick_points[attackers], bottom_points,
                                  multiplier, team_of(last_winner) == attackers, self.penalties)
        self.phase = "over"
        self._event("end", bottom=faces_text(self.buried), **self.score.view())

    def _escape(self, seat: int) -> None:
        self.escaped = seat
        self._event("escape", seat=seat, cause="escape")
        if self.room.escape_mode == "host":
            if not self.hosting[seat]:
                self.hosting[seat] = True
                self._event("hosting", seat=seat, cause="escape", on=True)
            return
        dealer = self.dealer if self.dealer is not None else self.start.fallback
        attackers = 1 - team_of(dealer)
        self.score = HandScore.escaped(dealer, self.levels, self.trick_points[attackers], points_of(self.buried))
        self.phase = "over"
        self._event("end", bottom=faces_text(self.buried or self.bottom), **self.score.view())

    def _auto_play(self) -> None:
        """Forced plays at once (T7.8, T16.9): a seat with exactly one legal play."""
        if not self.room.auto_play_forced:
            return
        while self.phase == "play":
            forced = self.forced_play(self.to_act)
            if forced is None:
                return
            self._play(self.to_act, forced, "auto_play")

    def forced_play(self, seat: int) -> tuple[int, ...] | None:
        """The only legal play of ``seat`` now, when it has exactly one (T7.8)."""
        order = self.order
        if self.phase != "play" or seat != self.to_act or order is None:
            return None
        hand = self.hands[seat]
        if self.lead is None:
            return tuple(_sorted(hand)) if sum(hand.values()) == 1 else None
        only = only_follow(hand, self.lead, order, self.room.partial_tractor_follow)
        return None if only is None else tuple(_sorted(only))

    def undo(self) -> Action:
        """Take the last action back (its forced plays and events too); return it."""
        if not self.actions:
            raise TractorError("nothing_to_undo", "no action has been applied")
        last = self.actions[-1]
        self._replay(self.actions[:-1])
        return last

    def _replay(self, actions: Sequence[Action]) -> None:
        """This hand from its start with ``actions`` applied."""
        replayed = TractorHand.begin(self.room, self.start)
        for action in actions:
            replayed._internal(action)
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(replayed, name))

    # -- automatic actions and leaving ------------------------------------------

    def default_action(self, seat: int) -> Action:
        """What hosting (or an absent player) does now: take the card, declare no more,
        bury the bottom back (T3.2), make the hosting play (T11.2)."""
        if self.phase == "deal":
            return Draw(seat)
        if self.phase == "declare":
            return Done(seat)
        return HostedTurn(seat)

    def timeout_action(self, seat: int) -> Action:
        """What ``seat``'s timer does: take the card, close its window, or the hosting move
        (counted on a turn, T11.1)."""
        if self.phase in ("deal", "declare"):
            return self.default_action(seat)
        return Timeout(seat)

    def escape_action(self, seat: int) -> Escape | None:
        """Leaving now as an action (T11.5): from the first card to the last trick, once."""
        return allowed(self.check, Escape(seat))

    def hosted(self, seat: int) -> bool:
        """Whether hosting plays ``seat``."""
        return self.hosting[seat]

    def hosting_action(self, seat: int, on: bool, cause: str | None = None) -> Hosting:
        """Hosting switched by the player, or on when its connection dropped."""
        return Hosting(seat, on, "disconnect" if cause == "disconnect" else "player")

    def in_play(self, seat: int) -> bool:
        """Every seat plays to the end of the hand."""
        return not self.finished

    def leaving_cost(self, seat: int, balances: Sequence[int]) -> dict[str, Any] | None:
        """What leaving now would cost (T11.5): ``escape_units`` × X, whatever the hand."""
        if self.escape_action(seat) is None:
            return None
        penalty = self.room.escape_units * self.room.match_points_for(*balances)
        return {"mode": self.room.escape_mode, "penalty": penalty}

    def escape_charged(self, settled: TractorSettlement) -> dict[str, Any] | None:
        """What the escape charged, read from the settlement."""
        if settled.escaper is None:
            return None
        return {"mode": self.room.escape_mode, "seat": settled.escaper, "penalty": settled.penalty,
                "charge": -settled.deltas[settled.escaper]}

    # -- results ---------------------------------------------------------------------

    def settlement(self, balances: Sequence[int]) -> TractorSettlement:
        """The money of the finished hand (T11.4–T11.5)."""
        if self.score is None:
            raise TractorError("not_finished", "only a finished hand is settled")
        return settle_hand(self.room, self.score, balances, self.escaped, {"bottom": faces_text(self.buried)})

    def carried(self) -> dict[str, Any]:
        """The match for the next hand (T10): both levels and the next dealer; nothing when
        the match is over (won, or ended by an escape, T11.5)."""
        score = self.score
        if score is None or score.match_over or score.next_dealer is None or self.escaped is not None:
            return {}
        return {"levels": [rank_text(level) for level in score.levels_after], "dealer": score.next_dealer}

    def to_record(self) -> TractorRecord:
        """The start, the actions and their events."""
        return TractorRecord(self.room, self.start, tuple(action_to_dict(action) for action in self.actions),
                             tuple(event.to_dict() for event in self.events))

    # -- views -----------------------------------------------------------------------

    def view(self, seat: int | None = None, public: Any = None) -> dict[str, Any]:
        """What ``seat`` may see (T11.3): its own hand and the declarations it may make now,
        every seat's card count, every declaration, the trump, the trick and the last one, a
        failed throw, the attackers' points and cards, the bottom to the dealer once taken
        and to all at the end, and the settings that order the cards and bind a follow.
        ``None``: a spectator."""
        data = dict(public) if public is not None else self._public()
        if seat is not None:
            data["seat"] = seat
            data["hand"] = [face_text(face) for face in self._display(self.hands[seat])]
            data["declarable"] = [faces_text(shown) for shown in self.declarable(seat)]
            if self.phase in ("bury", "play") and seat == self.dealer:
                data["bottom"] = faces_text(self.bottom)
                if self.phase == "play":
                    data["buried"] = faces_text(self.buried)
        return data

    def _display(self, hand: Mapping[int, int]) -> list[int]:
        faces = [face for face, count in hand.items() for _ in range(count)]
        if self.order is None:
            return sorted(faces, key=lambda face: (face >= SJ, face % 13 if face < SJ else face, face // 13),
                          reverse=True)
        return sorted(faces, key=self.order.display_key)

    def _public(self) -> dict[str, Any]:
        over = self.finished
        standing = self.standing
        last = self.tricks[-1].view() if self.tricks else None
        waits = self.waiting()
        return {
            "seq": self.seq,
            "phase": self.phase,
            "dealer": self.dealer,
            "levels": self._level_names(),
            "level": rank_text(self.level),
            "cards_left": [sum(hand.values()) for hand in self.hands],
            "declarations": [declaration.view() for declaration in self.declarations],
            "standing": standing.view() if standing is not None else None,
            "trump": self.trump_view(),
            "bottom_card": face_text(self.bottom_card) if self.bottom_card is not None else None,
            "bottom_count": len(self.bottom),
            "waiting": [wait.seat for wait in waits],
            "to_act": waits[0].seat if len(waits) == 1 else None,
            "leader": self.leader if self.phase == "play" else None,
            "trick": [[seat, faces_text(faces)] for seat, faces in self.trick],
            "throw": self.attempt if self.trick else None,
            "last_trick": last,
            "tricks": len(self.tricks),
            "attackers_points": self.attackers_points,
            "attackers_cards": faces_text(self.won_cards[1 - team_of(self.dealer)]) if self.dealer is not None else "",
            "timeouts": list(self.timeouts),
            "hosting": list(self.hosting),
            "escaped": self.escaped,
            "finished": over,
            "result": self.result,
            "score": self.score.view() if self.score is not None else None,
            "bottom": faces_text(self.buried or self.bottom) if over else None,
            "settings": self.settings_view(),
        }

    def settings_view(self) -> dict[str, bool]:
        """The room's settings that order the cards (T4.3) and bind a follow (T7.3), public in
        a view and a replay (a page sorts a hand by the first)."""
        return {"two_is_constant_trump": self.room.two_is_constant_trump,
                "partial_tractor_follow": self.room.partial_tractor_follow}

    def trump_view(self) -> dict[str, str] | None:
        """``{"suit": "H", "level": "10"}`` once fixed."""
        if self.order is None:
            return None
        return {"suit": _suit_name(self.order.suit), "level": rank_text(self.level)}

    # -- for bots --------------------------------------------------------------------

    def plays_seen(self) -> Iterator[tuple[int, tuple[int, ...]]]:
        """Every play so far, finished tricks first."""
        for trick in self.tricks:
            yield from trick.plays
        yield from self.trick


def _beats(unit: Unit, hand: Mapping[int, int], order: Order, suit: int) -> bool:
    return beats_unit(unit, {face: count for face, count in hand.items() if order.eff[face] == suit}, order)
