"""One game of Shuangkou as a state machine: two-seat Rush (RULES §1–2, R10, R11) or the
classic four-seat game in two teams (RULES-CLASSIC C1–C3, C6), by the room's ``seats``.

A :class:`Game` is created by dealing (:meth:`Game.deal`, shuffled by a secure source or
by an explicit seed, R1.3–R1.4) or from explicit hands (:meth:`Game.from_hands`). Its
:meth:`~Game.check` says whether an action is legal without changing anything;
:meth:`~Game.apply` checks an action the same way, and only then changes the state and
returns the events it caused; an illegal action raises :class:`GameError` and changes
nothing. :meth:`~Game.undo` takes the last action back. Automatic passes (R2.6) follow
from the state and are applied by the game itself. Clocks, connections and balances live
outside: the server sends a :class:`Timeout` when a turn timer runs out and settles a
finished game with :func:`shuangkou.games.shuangkou.scoring`. A :class:`GameRecord` holds everything
needed to replay a game.
"""

from __future__ import annotations

import json
import random
import secrets
from bisect import insort
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from operator import add
from typing import Literal, NamedTuple, NotRequired

import orjson
from typing_extensions import TypedDict  # pydantic reads it for schemas on Python < 3.12

from ...cards import (
    DECK,
    EMPTY,
    HAND_SIZE,
    NUM_SLOTS,
    Card,
    CardParseError,
    Counts,
    Rank,
    cards_from_counts,
    counts_of,
    format_cards,
    parse_card,
    parse_cards,
)
from ...errors import Refusal, allowed
from ..interface import Waiting
from ..seat_actions import Escape, HostedTurn, Hosting, Timeout, seat_action_from_dict, seat_action_to_dict
from .combos import KIND_NAMES, Combo, ComboView, InvalidCombination, Kind, beats, classify
from .config import ConfigError, RoomConfig, config_from_dict
from .moves import hosting_move, legal_moves
from .rules import Rules
from .scoring import (
    BombPlay,
    Settlement,
    TableSettlement,
    classic_escape_penalty,
    decided_result,
    partner_of,
    scoring_phase,
    settle,
    settle_classic,
    team_of,
)

__all__ = [
    "Action",
    "BombPlay",
    "Escape",
    "EscapeCost",
    "EscapeCostView",
    "Event",
    "Game",
    "GameError",
    "GameRecord",
    "GameView",
    "HostedTurn",
    "Hosting",
    "Pass",
    "PassView",
    "Play",
    "PlayView",
    "Timeout",
    "action_from_dict",
    "seat_team",
]

Cause = Literal["player", "auto_pass", "timeout", "hosting", "escape", "disconnect"]


def seat_team(seat: int, seats: int) -> int:
    """A seat's team at a table of ``seats``: itself with two seats; 0 for seats 0 and 2, 1
    for 1 and 3 with four (C1.1)."""
    return seat if seats == 2 else team_of(seat)


class GameError(Refusal, ValueError):
    """An action (or a record, or hands) the game refuses; nothing changed."""


# ---------------------------------------------------------------------------
# Actions


@dataclass(frozen=True, slots=True)
class Play:
    """Play cards. ``cards`` may name exact physical cards or only ranks (then any
    cards of those ranks in the hand are taken); ``kind`` names the reading (R5.4)."""

    seat: int
    cards: tuple[Card, ...]
    kind: Kind | None = None

    @classmethod
    def of(cls, seat: int, cards: str | Sequence[Card], kind: Kind | str | None = None) -> Play:
        """A play from a card string or cards."""
        parsed = parse_cards(cards) if isinstance(cards, str) else list(cards)
        return cls(seat, tuple(parsed), Kind(kind) if kind else None)

    @classmethod
    def move(cls, seat: int, move: Combo) -> Play:
        """The play of a move from :func:`~shuangkou.games.shuangkou.moves.legal_moves`, under its reading."""
        return cls(seat, _cards_of(move.cards), move.kind)


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass (过) on a follow (R2.3)."""

    seat: int


Action = Play | Pass | Timeout | HostedTurn | Hosting | Escape
_ACTIONS = (Play, Pass, Timeout, HostedTurn, Hosting, Escape)

_ESCAPE_COSTS_KEPT = 16  # Game.escape_cost's kept costs: a few per seat (they change with a bomb, say)

_CheckedPlay = tuple[tuple[Card, ...], Combo]
"""A legal play: the cards it takes from the hand, and their reading."""


def action_to_dict(action: Action) -> dict[str, object]:
    """JSON form of an action, as stored in game records."""
    if isinstance(action, Play):
        data: dict[str, object] = {"seat": action.seat, "play": format_cards(action.cards)}
        if action.kind is not None:
            data["as"] = action.kind.value
        return data
    if isinstance(action, Pass):
        return {"seat": action.seat, "pass": True}
    return seat_action_to_dict(action)


def action_from_dict(data: Mapping[str, object]) -> Action:
    """Parse the JSON form of an action (see :func:`action_to_dict`)."""
    seat = data.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise GameError("bad_action", f"an action needs an integer 'seat', got {seat!r}")
    if "play" in data:
        cards = data["play"]
        kind = data.get("as")
        if not isinstance(cards, str):
            raise GameError("bad_action", "'play' must be a card string")
        if kind is not None and kind not in KIND_NAMES:
            raise GameError("bad_action", f"unknown kind {kind!r} in 'as'")
        try:
            return Play.of(seat, cards, kind if isinstance(kind, str) else None)
        except ValueError as error:
            raise GameError("unknown_card", str(error)) from None
    if data.get("pass") is True:
        return Pass(seat)
    seat_action = seat_action_from_dict(seat, data, GameError)
    if seat_action is None:
        raise GameError("bad_action", f"unknown action {data!r}")
    return seat_action


# ---------------------------------------------------------------------------
# Events


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened in the game. ``type`` names it; the other fields depend on it."""

    type: str
    seat: int | None = None
    cause: Cause | None = None
    cards: tuple[Card, ...] = ()
    combo: Combo | None = None
    count: int = 0
    on: bool = False

    def to_dict(self) -> dict[str, object]:
        """JSON form, as game records keep it (cards as strings, the combination as :meth:`Combo.to_dict`)."""
        return self._form(Combo.to_dict)

    def view(self) -> dict[str, object]:
        """JSON form sent to players: :meth:`to_dict` with the combination as :meth:`Combo.view`."""
        return self._form(Combo.view)

    def _form(self, combo_form: Callable[[Combo], Mapping[str, object]]) -> dict[str, object]:
        data: dict[str, object] = {"type": self.type}
        if self.seat is not None:
            data["seat"] = self.seat
        if self.cause is not None:
            data["cause"] = self.cause
        if self.type == "play":
            data["cards"] = format_cards(self.cards)
            assert self.combo is not None
            data["combo"] = combo_form(self.combo)
        elif self.type == "timeout":
            data["count"] = self.count
        elif self.type == "hosting":
            data["on"] = self.on
        elif self.type == "deal":
            data["flip_card"] = format_cards(self.cards) or None
        elif self.type == "end":
            data["cards_left"] = self.count
        elif self.type == "out":
            data["place"] = self.count
        elif self.type == "swap":
            data["with"] = self.count
        return data


class PlayView(TypedDict):
    """One play as views show it (:meth:`PlayRecord.to_dict`)."""

    index: int
    seat: int
    cards: str
    combo: ComboView
    cause: Cause


class GameView(TypedDict):
    """What a seat (or a spectator) may see of a game: :meth:`Game.view`."""

    seq: int
    to_act: int | None
    leader: int
    flip_card: str | None
    cards_left: list[int]
    table: PlayView | None
    plays: list[PlayView]
    round_start: int | None
    passed: list[PassView]
    timeouts: list[int]
    hosting: list[bool]
    played: list[bool]
    finished: bool
    winner: int | None
    result: str | None
    escaped: int | None
    teams: list[int]
    finish_order: list[int]
    winners: list[int]
    swap: list[int] | None
    revealed: list[list[str]] | None
    seat: NotRequired[int]
    hand: NotRequired[list[str]]
    tracker: NotRequired[dict[str, int]]


class EscapeCostView(TypedDict):
    """JSON form of an :class:`EscapeCost`, as a seat that may leave is shown it."""

    mode: Literal["settle", "host"]
    penalty: int
    owed: int | None
    fee: int | None
    charge: int | None


@dataclass(frozen=True, slots=True)
class EscapeCost:
    """What leaving the game now would cost ``seat`` (:meth:`Game.escape_cost`).

    ``penalty`` is the escape penalty: X × ``escape_multiplier`` (R10.3) or D (C6.2) when
    the game would end at once (``mode = "settle"``), P (C6.1) or nothing (R10.1) when
    hosting plays the seat to the end (``"host"``). ``settlement`` is the settlement leaving
    now would make, with its whole breakdown (``"settle"`` only: in ``"host"`` mode the game
    is settled when it ends)."""

    seat: int
    mode: Literal["settle", "host"]
    penalty: int
    settlement: Settlement | TableSettlement | None

    @classmethod
    def settled(cls, seat: int, settlement: Settlement | TableSettlement) -> EscapeCost:
        """The cost of an escape that ended the game at once, from its settlement (R10.2,
        C6.2): what it announces before, and what it charged after."""
        return cls(seat, "settle", settlement.penalty, settlement)

    @property
    def charge(self) -> int | None:
        """What the seat's balance would lose in all (table fee and caps included), or None
        in ``"host"`` mode."""
        return None if self.settlement is None else -self.settlement.deltas[self.seat]

    @property
    def owed(self) -> int | None:
        """What the escape makes the seat owe before the table fee and caps: the penalty,
        plus the normal loss and the opponent's contribution (R10.3) or the others'
        contributions (C6.2); None in ``"host"`` mode."""
        settlement = self.settlement
        if settlement is None:
            return None
        if isinstance(settlement, Settlement):
            return settlement.due if settlement.payer == self.seat else 0
        return -settlement.nets[self.seat]

    @property
    def fee(self) -> int | None:
        """The table fee the seat would pay (R9.7, C5.7), or None in ``"host"`` mode."""
        return None if self.settlement is None else self.settlement.table_fees[self.seat]

    def view(self) -> EscapeCostView:
        """JSON form: the mode, penalty, owed, fee and charge (None where not known yet)."""
        return {"mode": self.mode, "penalty": self.penalty, "owed": self.owed, "fee": self.fee, "charge": self.charge}


class PassView(TypedDict):
    """A seat's pass as views show it: who passed, and why (``player``, ``auto_pass``,
    ``timeout`` or ``hosting``)."""

    seat: int
    cause: Cause


@dataclass(frozen=True, slots=True)
class PlayRecord:
    """One play on the table; ``lead`` when it began a round (R2.2, C2.1)."""

    index: int
    seat: int
    cards: tuple[Card, ...]
    combo: Combo
    cause: Cause
    lead: bool = False

    def to_dict(self) -> PlayView:
        """JSON form, as in views (the combination as :meth:`Combo.view`)."""
        return {
            "index": self.index,
            "seat": self.seat,
            "cards": format_cards(self.cards),
            "combo": self.combo.view(),
            "cause": self.cause,
        }


class _Saved(NamedTuple):
    """The state :meth:`Game.apply` may change, as it was before one action, for
    :meth:`Game.undo`. Plays and events are only ever appended: their counts suffice."""

    to_act: int
    table: PlayRecord | None
    plays: int
    events: int
    timeouts: tuple[int, ...]
    hosting: tuple[bool, ...]
    escaped: int | None
    winner: int | None
    finished: bool
    ended_by_escape: bool
    finish_order: int
    passes: int


# ---------------------------------------------------------------------------
# The game


@dataclass
class Game:
    """The state of one game under a room's configuration: seats 0 and 1 (Rush), or seats
    0–3 in the teams 0+2 and 1+3 (classic, ``seats = 4``).

    ``finish_order`` lists the seats out, first out first (C2.2; with two seats the winner
    alone). ``winner`` is the first player out — with four seats the scoring team's first
    (C5.2) — or, when an escape ends a two-seat game, the other seat. ``swap`` names the two
    seats that changed places before play by the flip card (C1.4), their hands with them."""

    settings: RoomConfig
    hands: list[list[Card]]
    leader: int
    flip_card: Card | None = None
    unseen: tuple[Card, ...] = ()
    seed: int | None = None
    swap: tuple[int, int] | None = None
    to_act: int = 0
    table: PlayRecord | None = None
    passes: int = 0  # passes since the table's play (C2.1)
    plays: list[PlayRecord] = field(default_factory=list)
    timeouts: list[int] = field(default_factory=list)
    hosting: list[bool] = field(default_factory=list)
    finish_order: list[int] = field(default_factory=list)
    escaped: int | None = None
    winner: int | None = None
    finished: bool = False
    ended_by_escape: bool = False
    seq: int = 0
    actions: list[Action] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    _counts: list[tuple[int, Counts] | None] = field(default_factory=list, repr=False)
    _hand_texts: list[tuple[int, tuple[str, ...]] | None] = field(default_factory=list, repr=False, compare=False)
    _play_views: list[PlayView] = field(default_factory=list, repr=False)
    _played_after: list[Counts] = field(default_factory=list, repr=False, compare=False)  # all played, after each play
    _saved: list[_Saved] = field(default_factory=list, repr=False, compare=False)
    _bombs_after: list[int] = field(default_factory=list, repr=False, compare=False)  # bombs played, after each play
    _escape_costs: dict[tuple[object, ...], EscapeCost] = field(default_factory=dict, repr=False, compare=False)
    _dealt: tuple[str, ...] | None = field(default=None, repr=False, compare=False)  # to_record's hands, once built

    def __post_init__(self) -> None:
        seats = self.settings.seats
        if len(self.hands) != seats:
            raise GameError("bad_hands", f"this room seats {seats} players; got {len(self.hands)} hands")
        self.timeouts = self.timeouts or [0] * seats
        self.hosting = self.hosting or [False] * seats
        self._counts = [None] * seats
        self._hand_texts = [None] * seats

    # -- creation -------------------------------------------------------------

    @classmethod
    def deal(
        cls, settings: RoomConfig, seed: int | None = None, previous_winner: int | None = None
    ) -> Game:
        """Shuffle and deal 27 cards to each seat: 54 unseen with two seats (R1.3), none
        with four (C1.2). Without ``seed`` the shuffle uses the operating system's secure
        source (R1.4). The first player holds the flip card, one of the dealt cards, or is
        ``previous_winner`` when the room says so (R2.1, C1.3: pass the previous game's
        :attr:`leads_next`). With ``partner_by_flip`` the holder of the flip card's other
        copy becomes the leader's partner (C1.4)."""
        rng: random.Random = random.Random(seed) if seed is not None else secrets.SystemRandom()
        order = list(range(len(DECK)))  # positions in the sorted deck: cheap to sort again
        rng.shuffle(order)
        seats = settings.seats
        dealt = seats * HAND_SIZE
        hands = [[DECK[i] for i in sorted(order[k * HAND_SIZE : (k + 1) * HAND_SIZE])] for k in range(seats)]
        flip = rng.choice(order[:dealt])
        leader = order.index(flip) // HAND_SIZE
        if settings.first_player == "winner" and previous_winner is not None:
            leader = previous_winner
        swap = _partner_swap(hands, leader, DECK[flip]) if settings.partner_by_flip else None
        if swap is not None:
            first, second = swap
            hands[first], hands[second] = hands[second], hands[first]
        unseen = tuple(DECK[i] for i in sorted(order[dealt:]))
        game = cls(settings, hands, leader, DECK[flip], unseen, seed, swap)
        game._start()
        return game

    @classmethod
    def from_hands(
        cls,
        settings: RoomConfig,
        hands: Sequence[str | Sequence[Card]],
        leader: int = 0,
        swap: tuple[int, int] | None = None,
    ) -> Game:
        """A game from explicit hands, one per seat of the room (any sizes of at least one
        card, drawable together from one 108-card deck); ``swap`` records a C1.4 swap that
        the hands already show."""
        seats = settings.seats
        if len(hands) != seats:
            raise GameError("bad_hands", f"this room seats {seats} players: {seats} hands are needed, got {len(hands)}")
        parsed = [parse_cards(hand) if isinstance(hand, str) else list(hand) for hand in hands]
        for seat, hand in enumerate(parsed):
            if not hand:
                raise GameError("bad_hands", f"hand {seat} is empty: each player starts with cards")
        physical = _assign_physical(parsed)
        if leader not in range(seats) or isinstance(leader, bool):
            raise GameError("bad_seat", f"leader must be a seat 0 to {seats - 1}, not {leader!r}")
        game = cls(settings, [sorted(hand) for hand in physical], leader, swap=swap)
        game._start()
        return game

    def _start(self) -> None:
        self.to_act = self.leader
        self.events.append(Event("deal", self.leader, cards=(self.flip_card,) if self.flip_card else ()))
        if self.swap is not None:
            self.events.append(Event("swap", self.swap[0], count=self.swap[1]))

    # -- seats ------------------------------------------------------------------

    @property
    def seats(self) -> int:
        """The number of seats: 2 (Rush) or 4 (classic)."""
        return len(self.hands)

    def team(self, seat: int) -> int:
        """The seat's team (:func:`seat_team`)."""
        return seat_team(seat, self.seats)

    @property
    def winners(self) -> tuple[int, ...]:
        """The seats that score once finished: the winner, or with four seats the winner's
        team (the escaper's opponents when an escape ends the game), sorted; else ()."""
        if not self.finished:
            return ()
        if self.seats == 2:
            return (self.winner,) if self.winner is not None else ()
        if self.ended_by_escape and self.escaped is not None:
            side = 1 - team_of(self.escaped)
        elif self.winner is not None:
            side = team_of(self.winner)
        else:
            return ()
        return tuple(seat for seat in range(self.seats) if team_of(seat) == side)

    @property
    def leads_next(self) -> int | None:
        """Who leads the next game at this table when the room says ``first_player =
        "winner"``: the winner (R2.1); with four seats the first player out, except after a
        double win or an escape that ended the game, when the flip card decides (C1.3)."""
        if not self.finished or self.winner is None:
            return None
        if self.seats == 4 and (self.ended_by_escape or self.result == "double"):
            return None
        return self.winner

    def _next_holding(self, seat: int) -> int:
        """The next seat after ``seat`` in play order that still holds cards (C1.1, C2.2)."""
        for step in range(1, self.seats):
            candidate = (seat + step) % self.seats
            if self.hands[candidate]:
                return candidate
        return seat

    # -- reading the state ------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules variants in force."""
        return self.settings.rules

    def counts(self, seat: int) -> Counts:
        """The seat's hand as counts per rank slot."""
        hand = self.hands[seat]
        cached = self._counts[seat]
        if cached is not None and cached[0] == len(hand):  # hands only shrink (undoing its seat's play clears this)
            return cached[1]
        counts = [0] * NUM_SLOTS
        for card in hand:
            counts[card.rank - 3] += 1
        result = tuple(counts)
        self._counts[seat] = (len(hand), result)
        return result

    @property
    def table_combo(self) -> Combo | None:
        """The combination to beat, or None on a lead."""
        return self.table.combo if self.table else None

    def legal_moves(self, seat: int | None = None) -> list[Combo]:
        """The moves of the seat to act (or of ``seat`` were it its turn), weakest first."""
        seat = self.to_act if seat is None else seat
        return legal_moves(self.counts(seat), self.table_combo, self.rules)

    def bombs(self, seat: int) -> list[BombPlay]:
        """The bombs ``seat`` played, in order (R8)."""
        return [
            BombPlay(play.index, play.combo)
            for play in self.plays
            if play.seat == seat and play.combo.is_bomb
        ]

    def settle(self, balances: Sequence[int]) -> Settlement:
        """The settlement of the finished two-seat game for the two balances before it (R9,
        R10); a four-seat game is settled by :meth:`settle_table`."""
        if self.seats != 2:
            raise GameError("bad_config", "a four-seat game is settled by settle_table (C5)")
        if not self.finished or self.winner is None:
            raise GameError("not_finished", "only a finished game is settled")
        escaper = self.escaped if self.ended_by_escape else None
        return settle(
            self.settings,
            winner=self.winner,
            loser_cards_left=len(self.hands[1 - self.winner]),
            bombs=[self.bombs(0), self.bombs(1)],
            balances=balances,
            escaper=escaper,
            escaper_played=escaper is not None and self.has_played(escaper),
        )

    def settlement(self, balances: Sequence[int]) -> Settlement | TableSettlement:
        """The settlement of the finished game, of either kind: :meth:`settle` with two
        seats, :meth:`settle_table` with four. Both have ``deltas``, ``house``,
        ``balances_after`` and ``to_dict()``."""
        return self.settle(balances) if self.seats == 2 else self.settle_table(balances)

    def settle_table(self, balances: Sequence[int]) -> TableSettlement:
        """The settlement of the finished four-seat game for the four balances before it
        (C4–C6): by the finishing order, or the escape that ended it."""
        if self.seats != 4:
            raise GameError("bad_config", "a two-seat game is settled by settle (R9)")
        if not self.finished:
            raise GameError("not_finished", "only a finished game is settled")
        return settle_classic(
            self.settings,
            finish_order=self.finish_order,
            bombs=[self.bombs(seat) for seat in range(4)],
            balances=balances,
            escaper=self.escaped,
        )

    def escape_cost(self, seat: int, balances: Sequence[int]) -> EscapeCost | None:
        """What leaving now would cost ``seat``, for the seats' balances before the game; None
        when its leaving would be no escape (the game is over, the seat is out or another
        seat has escaped already, C6). With ``escape_mode = "settle"`` (R10.2, C6.2) the
        cost is exact: the escape is applied, the game settled by :meth:`settlement` — the
        code that settles a real escape — and the escape taken back (:meth:`undo`). With
        ``"host"`` the game is settled at its end: the penalty is known now (C6.1 with four
        seats; none with two, R10.1), the rest is the game's result.

        A cost once computed is kept, keyed by everything it depends on (the seat, the
        balances and :meth:`_escape_inputs`): the server asks for every seat's on every
        change of its table, and most changes leave it as it was."""
        if self.escape_action(seat) is None:
            return None
        key = (seat, tuple(balances), *self._escape_inputs(seat))
        cost = self._escape_costs.get(key)
        if cost is None:
            if len(self._escape_costs) >= _ESCAPE_COSTS_KEPT:
                self._escape_costs.clear()
            cost = self._escape_costs[key] = self._computed_escape_cost(seat, balances)
        return cost

    def _escape_inputs(self, seat: int) -> tuple[object, ...]:
        """What the settlement of ``seat``'s escape reads of the game besides the balances —
        whether the seat has played a card (R10.3, two seats only), the bombs played (R9.2,
        C5) and the seats out (C2.2, C6.2) — told apart by their counts: plays and seats out
        are only ever added to, and taking one back (:meth:`undo`) drops the kept costs."""
        return self.seats == 2 and self.has_played(seat), self._bomb_count(), len(self.finish_order)

    def _bomb_count(self) -> int:
        """The bombs played so far; kept after each play (undo drops the last)."""
        counts = self._bombs_after
        while len(counts) < len(self.plays):
            counts.append((counts[-1] if counts else 0) + self.plays[len(counts)].combo.is_bomb)
        return counts[-1] if counts else 0

    def _computed_escape_cost(self, seat: int, balances: Sequence[int]) -> EscapeCost:
        """:meth:`escape_cost` computed anew, for a seat that may escape."""
        mode = self.settings.escape_mode
        if mode == "host":
            return EscapeCost(seat, mode, self._host_escape_penalty(balances), None)
        self.apply(Escape(seat))
        try:
            return EscapeCost.settled(seat, self.settlement(balances))
        finally:
            self.undo()

    def _host_escape_penalty(self, balances: Sequence[int]) -> int:
        """The penalty an escaper hosted to the end pays with the game's result: P of C6.1
        (:func:`classic_escape_penalty`, as :func:`settle_classic` charges it) with four
        seats, nothing with two (R10.1: settled normally)."""
        if self.seats == 2:
            return 0
        x = self.settings.match_points_for(*balances)
        phases = [scoring_phase(self.bombs(seat), self.settings) for seat in range(self.seats)]
        return classic_escape_penalty(self.settings, x, phases)

    def has_played(self, seat: int) -> bool:
        """Whether the seat has played a card in this game (R10.3)."""
        return self._played()[seat]

    def _played(self) -> list[bool]:
        played = [False] * self.seats
        missing = self.seats
        for play in self.plays:  # every seat has played within the first few plays
            if not played[play.seat]:
                played[play.seat] = True
                missing -= 1
                if not missing:
                    break
        return played

    @property
    def turn_key(self) -> tuple[int, int, bool] | None:
        """Who is to act, after how many plays, and whether on a lead; None once finished.
        A turn has passed (R2.2–R2.4) exactly when it changes: hosting switched on or off
        leaves it as it is, so a move chosen for the turn stays valid."""
        if self.finished:
            return None
        return (self.to_act, len(self.plays), self.table is None)

    @property
    def result(self) -> str | None:
        """Once finished: ``flat``, ``single`` or ``double`` by the loser's cards left (R7.1)
        with two seats; ``double``, ``single`` or ``draw`` by the finishing order (C3.2) with
        four; ``escape`` when an escape ended the game (R10.2, C6.2)."""
        if not self.finished:
            return None
        if self.ended_by_escape:
            return "escape"
        if self.seats == 4:
            return decided_result(self.finish_order)
        if self.winner is None:
            return None
        return self.settings.result_level(len(self.hands[1 - self.winner]))

    # -- the platform's questions (shuangkou.games.interface.Hand) ----------------

    def waiting(self) -> tuple[Waiting, ...]:
        """The seat to act, under the room's turn timer (R11.3); none once the game is over."""
        return () if self.finished else (Waiting(self.to_act, "turn", self.settings.turn_seconds),)

    def default_action(self, seat: int) -> HostedTurn:
        """What a hosted or absent seat does: the hosting move (R11.2)."""
        return HostedTurn(seat)

    def timeout_action(self, seat: int) -> Timeout:
        """What the turn timer does when it runs out: the hosting move, counted (R11.3)."""
        return Timeout(seat)

    def escape_action(self, seat: int) -> Escape | None:
        """``seat`` leaving now, when :meth:`check` allows it as an escape (a game in
        progress, the seat still holding cards, no escape yet: R10, C6); else None."""
        return allowed(self.check, Escape(seat))

    def hosted(self, seat: int) -> bool:
        """Whether hosting plays ``seat`` (R11.2)."""
        return self.hosting[seat]

    @property
    def turn(self) -> tuple[int, int, bool] | None:
        """:attr:`turn_key`."""
        return self.turn_key

    def hosting_action(self, seat: int, on: bool, cause: str | None = None) -> Hosting:
        """Hosting switched for ``seat`` by the player, or on when its connection dropped (R11.5)."""
        return Hosting(seat, on, "disconnect" if cause == "disconnect" else "player")

    def in_play(self, seat: int) -> bool:
        """Whether ``seat`` still holds cards in a game in progress (C2.2: a seat out has none)."""
        return not self.finished and bool(self.hands[seat])

    def leaving_cost(self, seat: int, balances: Sequence[int]) -> EscapeCostView | None:
        """:meth:`escape_cost`, as the table shows it."""
        cost = self.escape_cost(seat, balances)
        return cost.view() if cost is not None else None

    def escape_charged(self, settled: Settlement | TableSettlement) -> EscapeCostView | None:
        """What the escape that ended the game charged (R10.2, C6.2), from its settlement."""
        if not self.ended_by_escape or self.escaped is None:
            return None
        return EscapeCost.settled(self.escaped, settled).view()

    def carried(self) -> dict[str, int]:
        """What the table's next game takes from this one: its leader when the room says
        ``first_player = "winner"`` (:attr:`leads_next`, R2.1, C1.3); nothing otherwise
        (the flip card chooses every game's leader)."""
        leader = self.leads_next
        return {"leader": leader} if self.settings.first_player == "winner" and leader is not None else {}

    # -- checking and applying actions ------------------------------------------

    def check(self, action: Action) -> None:
        """Raise the :class:`GameError` that :meth:`apply` would raise for ``action``;
        change nothing. Returns None when the action is legal."""
        self._check(action)

    def _check(self, action: Action) -> _CheckedPlay | None:
        """Every rule an action must meet in this state (R2, R10, R11.2), checked once for
        :meth:`check` and :meth:`apply`; for a play, the cards taken and their reading."""
        if not isinstance(action, _ACTIONS):
            raise GameError("bad_action", f"not an action: {action!r}")
        if self.finished:
            raise GameError("game_over", "the game is over")
        seat = action.seat
        if seat not in range(self.seats) or isinstance(seat, bool):
            raise GameError("bad_seat", f"seat must be 0 to {self.seats - 1}, not {seat!r}")
        if isinstance(action, Hosting):
            if not action.on and self.escaped == seat:
                raise GameError("escaped", f"seat {seat} has left; hosting stays on (R10.1)")
            return None
        if isinstance(action, Escape):
            if self.escaped is not None:
                raise GameError("escaped", f"seat {self.escaped} has already left")
            if not self.hands[seat]:
                raise GameError("escaped", f"seat {seat} is out: leaving now is no escape (C6)")
            return None
        if seat != self.to_act:
            raise GameError("not_your_turn", f"it is seat {self.to_act}'s turn, not seat {seat}'s")
        if isinstance(action, Play):
            return self._check_play(action)
        if isinstance(action, Pass) and self.table is None:
            raise GameError("pass_on_lead", "a lead cannot be passed (R2.4)")
        if isinstance(action, HostedTurn) and not self.hosting[seat]:
            raise GameError("not_hosted", f"seat {seat} is not hosted")
        return None

    def apply(self, action: Action) -> list[Event]:
        """Apply one action and return the events it caused, automatic passes included.
        An illegal action raises :class:`GameError` (as :meth:`check`) and changes nothing."""
        checked = self._check(action)
        self._saved.append(
            _Saved(
                self.to_act,
                self.table,
                len(self.plays),
                len(self.events),
                tuple(self.timeouts),
                tuple(self.hosting),
                self.escaped,
                self.winner,
                self.finished,
                self.ended_by_escape,
                len(self.finish_order),
                self.passes,
            )
        )
        start = len(self.events)
        if isinstance(action, Hosting):
            self._set_hosting(action)
        elif isinstance(action, Escape):
            self._escape(action.seat)
        else:
            self._turn(action, checked)
        self.actions.append(action)
        self.seq += 1
        return self.events[start:]

    def undo(self) -> Action:
        """Take back the last applied action completely (its events, automatic passes,
        hosting switches, timeouts and the end of the game) and return it. Raises
        :class:`GameError` ``nothing_to_undo`` when no action was applied."""
        if not self._saved:
            raise GameError("nothing_to_undo", "no action has been applied")
        saved = self._saved.pop()
        taken_back = self.plays[saved.plays :]
        if taken_back:
            self._escape_costs.clear()  # kept for the plays taken back (see _escape_inputs)
        for play in taken_back:
            hand = self.hands[play.seat]
            for card in play.cards:
                insort(hand, card)  # hands are kept sorted
            # the hand's caches assume it only shrinks; no other seat's hand changed
            self._counts[play.seat] = self._hand_texts[play.seat] = None
        del self.plays[saved.plays :]
        del self._play_views[saved.plays :]
        del self._played_after[saved.plays :]
        del self._bombs_after[saved.plays :]
        del self.events[saved.events :]
        self.to_act, self.table, self.passes = saved.to_act, saved.table, saved.passes
        del self.finish_order[saved.finish_order :]
        self.timeouts[:] = saved.timeouts
        self.hosting[:] = saved.hosting
        self.escaped, self.winner = saved.escaped, saved.winner
        self.finished, self.ended_by_escape = saved.finished, saved.ended_by_escape
        self.seq -= 1
        return self.actions.pop()

    def _turn(self, action: Play | Pass | Timeout | HostedTurn, checked: _CheckedPlay | None) -> None:
        seat = action.seat
        if isinstance(action, Play):
            assert checked is not None
            self._play(seat, *checked, "player")
        elif isinstance(action, Pass):
            self._pass(seat, "player")
        elif isinstance(action, HostedTurn):
            self._hosting_move(seat, "hosting")
        else:
            self.timeouts[seat] += 1
            self.events.append(Event("timeout", seat, count=self.timeouts[seat]))
            self._hosting_move(seat, "timeout")
            limit = self.timeouts[seat] >= self.settings.max_timeouts
            if limit and not self.hosting[seat] and not self.finished:  # nothing after the end (R2.5)
                self.hosting[seat] = True
                self.events.append(Event("hosting", seat, "timeout", on=True))
        self._auto_pass()

    def _check_play(self, action: Play) -> _CheckedPlay:
        if not action.cards:
            raise GameError("no_cards", "a play needs at least one card")
        cards = _take(self.hands[action.seat], action.cards)
        table = self.table_combo
        try:
            combo = classify(cards, table, self.rules, action.kind)
        except InvalidCombination as error:
            raise GameError("invalid_combination", error.reason) from None
        if table is not None and not beats(combo, table, self.rules):
            raise GameError("does_not_beat", f"{combo} does not beat {table} (R6)")
        return cards, combo

    def _play(self, seat: int, cards: tuple[Card, ...], combo: Combo, cause: Cause) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)
        record = PlayRecord(len(self.plays) + 1, seat, cards, combo, cause, lead=self.table is None)
        self.plays.append(record)
        self.table = record
        self.passes = 0
        self.events.append(Event("play", seat, cause, cards, combo))
        if not hand:
            self._go_out(seat)
        if not self.finished:
            self.to_act = self._next_holding(seat)

    def _go_out(self, seat: int) -> None:
        """The seat played its last card: it takes the next place (C2.2); the game ends at
        the first out with two seats (R2.5), when the result is decided with four (C3.2)."""
        self.finish_order.append(seat)
        if self.seats == 2:
            self._finish(seat)
            return
        self.events.append(Event("out", seat, count=len(self.finish_order)))
        if decided_result(self.finish_order) is not None:
            if len(self.finish_order) == 3:  # the last player is fourth (C2.2)
                self.finish_order.append(next(s for s in range(4) if s not in self.finish_order))
            self._finish(self.finish_order[0])

    def _pass(self, seat: int, cause: Cause) -> None:
        table = self.table
        assert table is not None
        self.events.append(Event("pass", seat, cause))
        self.passes += 1
        others = sum(1 for other in range(self.seats) if other != table.seat and self.hands[other])
        if self.passes < others:  # C2.1: the round goes on
            self.to_act = self._next_holding(seat)
            return
        self.table = None  # every other seat holding cards has passed: the round is over
        self.passes = 0
        if self.hands[table.seat]:
            self.to_act = table.seat  # the last player leads the next round (R2.4, C2.1)
        elif self.settings.jiefeng and self.hands[partner_of(table.seat)]:
            self.to_act = partner_of(table.seat)  # 接风 (C2.3)
            self.events.append(Event("jiefeng", self.to_act))
        else:
            self.to_act = self._next_holding(table.seat)

    def _hosting_move(self, seat: int, cause: Cause) -> None:
        move = hosting_move(self.counts(seat), self.table_combo, self.rules)
        if move is None:
            self._pass(seat, cause)
        else:
            self._play(seat, _take(self.hands[seat], Play.move(seat, move).cards), move, cause)

    def _auto_pass(self) -> None:
        """R2.6: pass at once for each player in turn who cannot beat the table."""
        if not self.settings.auto_pass:
            return
        rules = self.rules if self.rules.hosting_bombs else _with_bombs(self.rules)
        while not self.finished and self.table is not None:
            if hosting_move(self.counts(self.to_act), self.table.combo, rules) is not None:
                return
            self._pass(self.to_act, "auto_pass")

    def _set_hosting(self, action: Hosting) -> None:
        if self.hosting[action.seat] != action.on:
            self.hosting[action.seat] = action.on
            self.events.append(Event("hosting", action.seat, action.cause, on=action.on))

    def _escape(self, seat: int) -> None:
        self.escaped = seat
        self.events.append(Event("escape", seat, "escape"))
        if self.settings.escape_mode == "settle":  # R10.2, C6.2
            self.finished = True
            self.ended_by_escape = True
            self.winner = 1 - seat if self.seats == 2 else None
            self.events.append(Event("end", self.winner, "escape", count=self._cards_left_at_end(seat)))
        elif not self.hosting[seat]:  # R10.1: hosting plays the seat to the end
            self.hosting[seat] = True
            self.events.append(Event("hosting", seat, "escape", on=True))

    def _finish(self, winner: int) -> None:
        """The game is over, ``winner`` first out."""
        self.finished = True
        self.winner = winner
        self.events.append(Event("end", winner, count=self._cards_left_at_end(1 - winner)))

    def _cards_left_at_end(self, loser: int) -> int:
        """What the end event counts: the cards ``loser`` holds with two seats (R7.1), the
        cards all seats still hold with four."""
        return len(self.hands[loser]) if self.seats == 2 else sum(len(hand) for hand in self.hands)

    # -- views and records ------------------------------------------------------

    def view(self, seat: int | None = None, public: GameView | None = None) -> GameView:
        """What ``seat`` may see (its own hand, never another's until the game is over:
        then ``revealed`` shows every hand still held, C5.8); None for spectators.
        ``public``, when given, is this game's ``view()`` as it stands (a spectator's): a seat's
        view adds its own part to a copy of it, for one moment shown to every seat.
        The plays in it are shared between views: read them, don't change them."""
        data = self._public_view() if public is None else public.copy()
        if seat is not None:
            data["seat"] = seat
            data["hand"] = list(self._hand_text(seat))
            data["tracker"] = self.tracker(seat)
        return data

    def _hand_text(self, seat: int) -> tuple[str, ...]:
        """The seat's cards as text, kept while its hand stays as it is (a view is built for
        every seat at every change; a hand changes only when its seat plays)."""
        hand = self.hands[seat]
        kept = self._hand_texts[seat]
        if kept is None or kept[0] != len(hand):  # hands only shrink (undoing its seat's play clears this)
            kept = self._hand_texts[seat] = (len(hand), tuple(map(str, hand)))
        return kept[1]

    def _public_view(self) -> GameView:
        plays = self._play_views
        while len(plays) < len(self.plays):  # each play's dictionary is made once
            plays.append(self.plays[len(plays)].to_dict())
        data: GameView = {
            "seq": self.seq,
            "to_act": None if self.finished else self.to_act,
            "leader": self.leader,
            "flip_card": str(self.flip_card) if self.flip_card else None,
            "cards_left": [len(hand) for hand in self.hands],
            "table": plays[-1] if self.table else None,  # the table is the last play
            "plays": list(plays),  # a view taken now keeps the plays made so far
            "round_start": self._round_lead().index if self.plays else None,
            "passed": self.round_passes(),
            "timeouts": list(self.timeouts),
            "hosting": list(self.hosting),
            "played": self._played(),
            "finished": self.finished,
            "winner": self.winner,
            "result": self.result,
            "escaped": self.escaped,
            "teams": [self.team(seat) for seat in range(self.seats)],
            "finish_order": list(self.finish_order),
            "winners": list(self.winners),
            "swap": list(self.swap) if self.swap is not None else None,
            # 亮牌: once the game is over every hand still held is shown to all (C5.8)
            "revealed": [[str(card) for card in hand] for hand in self.hands] if self.finished else None,
        }
        return data

    def _round_lead(self) -> PlayRecord:
        """The play that began the current round (or the round just over, until the next
        lead); there must be a play."""
        return next(play for play in reversed(self.plays) if play.lead)

    def round_passes(self) -> list[PassView]:
        """The passes of the current round (since its lead, R2.3, C2.1) by seats that have
        not played since, in the order made: what the table shows by each seat."""
        if not self.plays:
            return []
        plays_since = len(self.plays) - self._round_lead().index  # plays after the lead
        passes: dict[int, Cause] = {}
        played: set[int] = set()
        for event in reversed(self.events):
            if event.seat is None:
                continue
            if event.type == "play":
                if not plays_since:
                    break  # the lead: earlier passes belong to an earlier round
                plays_since -= 1
                played.add(event.seat)
            elif event.type == "pass" and event.seat not in played:
                passes.setdefault(event.seat, event.cause or "player")
        return [{"seat": seat, "cause": cause} for seat, cause in reversed(passes.items())]

    def tracker(self, seat: int) -> dict[str, int]:
        """The card tracker (记牌器) of ``seat``: per rank, lowest first, how many of the 108
        cards it has not seen — neither in its hand nor played. The other hands (and, with two
        seats, the cards not dealt) hold them."""
        return {
            symbol: deck - held - played
            for symbol, deck, held, played in zip(
                _RANK_SYMBOLS, _DECK_COUNTS, self.counts(seat), self._played_counts(), strict=True
            )
        }

    def _played_counts(self) -> Counts:
        """Every card played so far, per rank slot; kept after each play (undo drops the last)."""
        played = self._played_after
        while len(played) < len(self.plays):
            before = played[-1] if played else EMPTY
            played.append(tuple(map(add, before, self.plays[len(played)].combo.cards)))
        return played[-1] if played else EMPTY

    def to_record(self) -> GameRecord:
        """Everything needed to replay the game: the room configuration, hands, leader, flip
        card, seed, actions and the events they caused (each with its cause, R11.6)."""
        return GameRecord(
            config=self.settings,
            seed=self.seed,
            hands=self._dealt_hands(),
            leader=self.leader,
            flip_card=str(self.flip_card) if self.flip_card else None,
            actions=tuple(action_to_dict(action) for action in self.actions),
            events=tuple(event.to_dict() for event in self.events),
            swap=self.swap,
        )

    def record(self) -> dict[str, object]:
        """:meth:`to_record` as JSON-ready data (:meth:`GameRecord.to_dict`)."""
        return self.to_record().to_dict()

    def _dealt_hands(self) -> tuple[str, ...]:
        """The hands as dealt, as text: built once (at the deal the server records the game,
        at its end again), since applying and taking back actions only moves cards between
        the hands and the plays."""
        if self._dealt is None:
            hands = [list(hand) for hand in self.hands]
            for play in self.plays:
                hands[play.seat].extend(play.cards)
            self._dealt = tuple(format_cards(sorted(hand)) for hand in hands)
        return self._dealt

    @classmethod
    def restore(cls, record: GameRecord) -> Game:
        """Rebuild a game by replaying a record's actions. Raises :class:`GameError`:
        ``replay_mismatch`` when the record has events and the replay's differ, or the
        code of the first action the replay refuses."""
        game = cls.from_hands(record.config, record.hands, record.leader, record.swap)
        if record.flip_card is not None:
            game.flip_card = parse_card(record.flip_card)
            game.events[0] = Event("deal", record.leader, cards=(game.flip_card,))
        game.seed = record.seed
        for action in record.actions:
            game.apply(action_from_dict(action))
        if record.events is not None and list(record.events) != [event.to_dict() for event in game.events]:
            raise GameError("replay_mismatch", "replayed events differ from the record")
        return game

    @classmethod
    def replay(cls, settings: RoomConfig, record: Mapping[str, object]) -> Game:
        """Rebuild a game from :meth:`record` data under ``settings`` (see :meth:`restore`)."""
        return cls.restore(GameRecord.from_dict(record, settings))


@lru_cache(maxsize=64)  # a room's configuration text: the same for every game of the room
def _config_fragment(config_json: str) -> orjson.Fragment:
    """A configuration's JSON text, compact, to be written as it is inside other JSON."""
    return orjson.Fragment(orjson.dumps(json.loads(config_json)))


@dataclass(frozen=True)
class GameRecord:
    """Everything needed to replay a game (:meth:`Game.to_record`, :meth:`Game.restore`):
    the room configuration, the seed of a dealt game, both hands as dealt, the leader and
    the flip card (R2.1), the actions in their JSON form, and the events they caused (None:
    not known, so not compared on restore)."""

    config: RoomConfig
    seed: int | None
    hands: tuple[str, ...]
    leader: int
    flip_card: str | None
    actions: tuple[dict[str, object], ...]
    events: tuple[dict[str, object], ...] | None
    swap: tuple[int, int] | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON form, as stored: the configuration in its file layout (``swap`` only when
        seats changed places, C1.4)."""
        return self._form(json.loads(self.config.to_json()))

    def to_orjson(self) -> dict[str, object]:
        """:meth:`to_dict` as :func:`orjson.dumps` takes it, to write the same JSON: the
        configuration as JSON text made once per room, not parsed again for every record."""
        return self._form(_config_fragment(self.config.to_json()))

    def _form(self, config: object) -> dict[str, object]:
        data: dict[str, object] = {
            "config": config,
            "seed": self.seed,
            "hands": list(self.hands),
            "leader": self.leader,
            "flip_card": self.flip_card,
            "actions": list(self.actions),
            "events": None if self.events is None else list(self.events),
        }
        if self.swap is not None:
            data["swap"] = list(self.swap)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, object], config: RoomConfig | None = None) -> GameRecord:
        """Read :meth:`to_dict`'s form. The configuration is ``config`` when given, else read
        from ``data["config"]``; ``seed``, ``flip_card`` and ``events`` may be left out.
        Raises :class:`GameError` ``bad_record`` naming the key missing or wrong."""
        if not isinstance(data, Mapping):
            raise GameError("bad_record", f"a record is a JSON object, not {type(data).__name__}")
        if config is None:
            config = _record_config(_required(data, "config"))
        seats = config.seats
        hands = _required(data, "hands")
        if not isinstance(hands, list | tuple) or len(hands) != seats or not all(isinstance(h, str) for h in hands):
            raise GameError("bad_record", f"'hands' must be {seats} card strings, not {hands!r}")
        for hand in hands:
            _record_cards("hands", hand)
        leader = _required(data, "leader")
        if not isinstance(leader, int) or isinstance(leader, bool) or not 0 <= leader < seats:
            raise GameError("bad_record", f"'leader' must be a seat 0 to {seats - 1}, not {leader!r}")
        swap = data.get("swap")
        if swap is not None and not (
            isinstance(swap, list | tuple) and len(swap) == 2
            and all(seat in range(seats) and not isinstance(seat, bool) for seat in swap)
        ):
            raise GameError("bad_record", f"'swap' must be two seats or null, not {swap!r}")
        seed = data.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)):
            raise GameError("bad_record", f"'seed' must be an integer or null, not {seed!r}")
        events = data.get("events")
        return cls(
            config=config,
            seed=seed,
            hands=tuple(hands),
            leader=leader,
            flip_card=_record_flip_card(data.get("flip_card")),
            actions=_record_list("actions", _required(data, "actions")),
            events=None if events is None else _record_list("events", events),
            swap=None if swap is None else (swap[0], swap[1]),
        )

    def with_actions(
        self, actions: Iterable[Mapping[str, object]], events: Iterable[Mapping[str, object]] | None = None
    ) -> GameRecord:
        """A copy with other actions (a journal's, say) and their events (None: not compared
        on :meth:`Game.restore`)."""
        return replace(
            self,
            actions=_record_list("actions", actions),
            events=None if events is None else _record_list("events", events),
        )


def _required(data: Mapping[str, object], key: str) -> object:
    if key not in data:
        raise GameError("bad_record", f"the record has no {key!r}")
    return data[key]


def _record_config(data: object) -> RoomConfig:
    if not isinstance(data, Mapping):
        raise GameError("bad_record", f"'config' must be a configuration object, not {data!r}")
    try:
        return config_from_dict(data, source="the record's config")
    except ConfigError as error:
        raise GameError("bad_record", f"'config': {error}") from None


def _record_cards(key: str, text: str) -> list[Card]:
    try:
        return parse_cards(text)
    except CardParseError as error:
        raise GameError("bad_record", f"{key!r}: {error}") from None


def _record_flip_card(value: object) -> str | None:
    if value is None or (isinstance(value, str) and len(_record_cards("flip_card", value)) == 1):
        return value
    raise GameError("bad_record", f"'flip_card' must be one card or null, not {value!r}")


def _record_list(key: str, items: object) -> tuple[dict[str, object], ...]:
    """A record's list of JSON objects (actions or events) as a tuple of dicts."""
    if isinstance(items, str | bytes | Mapping) or not isinstance(items, Iterable):
        raise GameError("bad_record", f"{key!r} must be a list of objects, not {items!r}")
    result = tuple(items)
    for index, item in enumerate(result):
        if not isinstance(item, Mapping):
            raise GameError("bad_record", f"{key!r}[{index}] must be an object, not {item!r}")
    return tuple(dict(item) for item in result)


_DECK_COUNTS: tuple[int, ...] = tuple(counts_of(DECK))
_RANK_SYMBOLS: tuple[str, ...] = tuple(rank.symbol for rank in Rank)
"""Cards of each rank in the two decks (R1.2): 8 of each ordinary rank, 2 of each joker."""


@cache
def _with_bombs(rules: Rules) -> Rules:
    return replace(rules, hosting_bombs=True)


def _cards_of(counts: Counts) -> tuple[Card, ...]:
    """Suitless cards for counts (hosting picks ranks; the hand supplies the cards)."""
    return tuple(cards_from_counts(counts))


def _take(hand: Sequence[Card], wanted: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``hand`` (kept sorted) matching ``wanted``, in hand order: exact cards
    where suit and deck are given, otherwise the lowest matching card. Raises if the hand
    lacks any."""
    used: set[int] = set()
    for card in sorted(wanted, key=lambda c: (c.deck is None, c.suit is None)):
        index = next(
            (
                i
                for i, held in enumerate(hand)
                if held.rank == card.rank
                and i not in used
                and (card.suit is None or held.suit is card.suit)
                and (card.deck is None or held.deck == card.deck)
            ),
            None,
        )
        if index is None:
            raise GameError("cards_not_held", f"{card} is not in the hand")
        used.add(index)
    return tuple(hand[i] for i in sorted(used))


def _partner_swap(hands: Sequence[Sequence[Card]], leader: int, flip: Card) -> tuple[int, int] | None:
    """C1.4: the seats that change places so that the holder of the flip card's other copy
    sits opposite the leader — that holder and the leader's partner — or None when the
    leader holds it or its holder already sits opposite."""
    other = replace(flip, deck=1 - (flip.deck or 0))
    holder = next(seat for seat, hand in enumerate(hands) if other in hand)
    if holder in (leader, partner_of(leader)):
        return None
    return (holder, partner_of(leader))


def _assign_physical(hands: list[list[Card]]) -> list[list[Card]]:
    """Give explicit hands physical cards from one 108-card deck (R1.2)."""
    pool = list(DECK)
    result: list[list[Card]] = []
    for seat, hand in enumerate(hands):
        try:
            taken = _take(pool, hand)
        except GameError:
            raise GameError(
                "bad_hands", f"hand {seat} cannot be drawn from one 108-card deck with the other hand"
            ) from None
        for card in taken:
            pool.remove(card)
        result.append(list(taken))
    return result
