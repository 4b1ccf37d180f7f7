"""Royalist's players: the hosting policy (托管, Y8.2, Y13.15), a uniformly random player
and a greedy player that plays its role. A bot sees what its seat may see (:class:`Seen`):
its hand and role, the roles it knows, the table, every seat's card count and the cards
played — never another hand nor a hidden role.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ...cards import NUM_SLOTS, Card, Counts, Rank
from .deck import CALL_COPIES, GUARD_CARD, default_call
from .sets import BJ_SLOT, SJ_SLOT, CardSet, InvalidSet, SetRules, beats, legal_sets, read_set, smallest_beating

if TYPE_CHECKING:
    from .config import RoyalistRoom
    from .game import Action, RoyalistHand

__all__ = [
    "BOTS", "GreedyBot", "HostingBot", "RandomBot", "RoyalistBot", "Seen", "hosting_choice", "hosting_set", "make_bot",
]

BOTS: dict[str, str] = {
    "hosting": "the hosting policy of Y8.2 (ascends, stays hidden, smallest beating set)",
    "greedy": "plays its role: ascends (a solo when it can), revolts, keeps its jokers for the rounds that matter, "
              "lets a known teammate's set stand",
    "random": "uniformly random among the legal actions",
}

Role = Literal["emperor", "guard", "revolutionary"]
Throne = Literal["ascend", "solo", "open_solo", "abdicate"]
"""A candidate's choice: ascend (with a guard where it has the choice), a secret or an open
solo, or abdicate."""


@dataclass(frozen=True, slots=True)
class Seen:
    """What ``seat`` knows now, and nothing more."""

    seat: int
    phase: str
    hand: tuple[Card, ...]
    counts: Counts
    role: Role | None
    known: tuple[Role | None, ...]
    table: CardSet | None
    table_seat: int | None
    cards_left: tuple[int, ...]
    finish_order: tuple[int, ...]
    played: Counts
    rules: SetRules
    bomb_ranks: tuple[int, ...]
    room: RoyalistRoom
    may_ascend: bool
    may_abdicate: bool
    calls: dict[Card, int]  # the cards it may call (Y9), with the copies held
    tops: int  # 1 when it holds the called guard card (Y9)
    solo: bool  # the seat is an emperor playing alone (his own knowledge)

    @classmethod
    def of(cls, hand: RoyalistHand, seat: int) -> Seen:
        """What ``seat`` may see of ``hand``."""
        table = hand.table
        played = [0] * NUM_SLOTS
        for play in hand.plays:
            for slot, count in enumerate(play.set.counts):
                played[slot] += count
        roles = hand.roles
        return cls(
            seat=seat,
            phase=hand.phase,
            hand=tuple(hand.hands[seat]),
            counts=hand.counts(seat),
            role=hand.role(seat),
            known=tuple(hand.known_role(seat, other) for other in range(hand.seats)),
            table=table.set if table else None,
            table_seat=table.seat if table else None,
            cards_left=tuple(len(cards) for cards in hand.hands),
            finish_order=tuple(hand.finish_order),
            played=tuple(played),
            rules=hand.room.set_rules,
            bomb_ranks=hand.bomb_ranks(seat),
            room=hand.room,
            may_ascend=hand.may_ascend(seat),
            may_abdicate=hand.may_abdicate(seat) if hand.phase == "throne" else False,
            calls=hand.calls(seat),
            tops=hand.tops(seat),
            solo=roles is not None and roles.emperor == seat and roles.solo is not None,
        )

    @property
    def may_solo(self) -> bool:
        """Whether ascending may make it an emperor alone: it holds both marked cards (Y2.5),
        or all four copies of a card it may call (Y9)."""
        if self.room.guard_card == "marked":
            return GUARD_CARD in self.hand
        return any(copies > CALL_COPIES for copies in self.calls.values())

    def teammate(self, other: int) -> bool:
        """Whether this seat knows ``other`` to be its teammate (Y13.15)."""
        mine, theirs = self.role, self.known[other]
        if other == self.seat or mine is None or theirs is None or self.solo:
            return False
        return (mine == "revolutionary") == (theirs == "revolutionary")

    def opponent(self, other: int) -> bool:
        """Whether ``other`` is surely or probably an opponent: known to be one, or of an
        unknown role for a seat whose teammates are few (the emperor, a revolutionary's
        unknown seat counts as a teammate two times in three)."""
        mine, theirs = self.role, self.known[other]
        if other == self.seat:
            return False
        if theirs is not None:
            return not self.teammate(other)
        return mine in ("emperor", "guard")


# ---------------------------------------------------------------------------
# Hosting (Y8.2, Y13.15)


def whole_hand_set(seen: Seen) -> CardSet | None:
    """The whole hand, when it is one set that may be played now."""
    try:
        whole = read_set(seen.counts, seen.rules, seen.counts, seen.tops, seen.tops)
    except InvalidSet:
        return None
    return whole if seen.table is None or beats(whole, seen.table) else None


def lead_set(counts: Counts, rules: SetRules, tops: int = 0) -> CardSet:
    """Hosting's lead (Y8.2): every natural card of the lowest natural rank held (skipping
    the 6s that sixes last forbids, Y13.15); with only jokers (and the called guard card,
    Y9), all of them — one small joker, else one big joker, else the called guard card,
    when jokers alone are no set."""
    for slot in range(SJ_SLOT):
        if counts[slot] and not (rules.sixes_last and slot + 3 == Rank.SIX.value):
            return CardSet(slot + 3, counts[slot], 0, 0)
    if rules.joker_only_sets:
        return CardSet(0, 0, counts[BJ_SLOT], counts[SJ_SLOT], top=tops)
    if counts[SJ_SLOT] or counts[BJ_SLOT]:
        return CardSet(0, 0, 0, 1) if counts[SJ_SLOT] else CardSet(0, 0, 1, 0)
    return CardSet(0, 0, 0, 0, top=1)


def hosting_set(seen: Seen) -> CardSet | None:
    """The hosting move (Y8.2) in the order of Y13.15: the whole hand when it is one set
    legal now; a pass on a known teammate's set (``hosting_spares_partner``); the smallest
    beating set (Y4.7) or a pass; on a lead, :func:`lead_set`."""
    whole = whole_hand_set(seen)
    if whole is not None:
        return whole
    if seen.table is not None:
        if seen.room.hosting_spares_partner and seen.table_seat is not None and seen.teammate(seen.table_seat):
            return None
        return smallest_beating(seen.counts, seen.table, seen.rules, seen.bomb_ranks, seen.tops)
    return lead_set(seen.counts, seen.rules, seen.tops)


def hosting_choice(hand: RoyalistHand, seat: int) -> tuple[tuple[Card, ...], CardSet] | None:
    """The hosting move of ``seat`` as the cards it takes and their set, or None to pass."""
    from .game import cards_for

    chosen = hosting_set(Seen.of(hand, seat))
    return None if chosen is None else (cards_for(hand.hands[seat], chosen), chosen)


# ---------------------------------------------------------------------------
# Players


class RoyalistBot:
    """A bot that answers every decision and turn through the platform's ``act``."""

    def act(self, hand: RoyalistHand, seat: int) -> Action:
        from .game import Abdicate, Ascend, Declare, Pass, Play, cards_for

        seen = Seen.of(hand, seat)
        if hand.phase == "throne":
            choice = self.throne(seen)
            if choice == "abdicate":
                return Abdicate(seat)
            return Ascend(seat, choice == "open_solo", call_for(seen, choice))
        if hand.phase == "declare":
            return Declare(seat, self.declare(seen))
        chosen = self.choose(seen)
        return Pass(seat) if chosen is None else Play(seat, cards_for(hand.hands[seat], chosen))

    def throne(self, seen: Seen) -> Throne:
        """The candidate's choice: ascend (Y8.1's default), or abdicate with nothing to call (Y9)."""
        return "ascend" if seen.may_ascend else "abdicate"

    def declare(self, seen: Seen) -> bool:
        """The answer to the declaration."""
        return False

    def choose(self, seen: Seen) -> CardSet | None:
        """The set to play, or None to pass."""
        return hosting_set(seen)


class HostingBot(RoyalistBot):
    """The hosting policy: the defaults of Y8.1 for decisions, Y8.2 for play."""


class RandomBot(RoyalistBot):
    """Uniformly random among the legal choices."""

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def throne(self, seen: Seen) -> Throne:
        choices: list[Throne] = ["ascend"] if seen.may_ascend else []
        if seen.may_abdicate:
            choices.append("abdicate")
        if seen.may_solo and seen.room.open_solo:
            choices.append("open_solo")
        if seen.may_solo and seen.room.guard_card == "called":
            choices.append("solo")  # a guard card held only marked makes every ascent a solo
        return self.rng.choice(choices)

    def declare(self, seen: Seen) -> bool:
        allowed = seen.room.open_guard if seen.role == "guard" and not seen.solo else seen.room.revolt
        return allowed and self.rng.random() < 0.5

    def choose(self, seen: Seen) -> CardSet | None:
        moves: list[CardSet | None] = list(legal_sets(seen.counts, seen.table, seen.rules, seen.bomb_ranks, seen.tops))
        if seen.table is not None:
            moves.append(None)
        return self.rng.choice(moves)


def groups(counts: Counts) -> int:
    """The natural ranks held: about the plays a hand needs to go out."""
    return sum(1 for slot in range(SJ_SLOT) if counts[slot])


def strength(counts: Counts, tops: int = 0) -> float:
    """A hand's strength for decisions: its jokers, the called guard card (Y9) and its top
    natural cards (which win rounds) against the natural ranks it must shed."""
    top = counts[Rank.TWO.slot] + 0.5 * counts[Rank.ACE.slot]
    return 4 * tops + 3 * counts[BJ_SLOT] + 2 * counts[SJ_SLOT] + top - 1.2 * groups(counts)


class GreedyBot(RoyalistBot):
    """Plays its role. It ascends (and plays a secret solo when dealt both marked cards: a
    solo wins most of its games); as a revolutionary it revolts, which makes it a known
    teammate of the other revolutionaries, while a guard stays hidden (明保 would show the
    revolutionaries to each other too); it leads its lowest group of two or more cards
    (a single is beaten by any higher card), keeps its jokers for the rounds that matter
    (an opponent about to go out, its own last sets), lets a known teammate's set stand,
    and beats an opponent's set with natural cards that break no rank — any natural set
    against a known opponent or near its own end."""

    # thresholds on :func:`strength` (dealt hands: median -3, 2 % below -9, 2 % above 4.5)
    ascend_from = -9.0  # only the weakest hands pass the throne on
    solo_from = -9.0
    open_solo_from = 6.0  # 包 doubles the stake: only with a hand of many jokers and top cards
    open_guard_from = 6.0  # 明保 helps the revolutionaries more than the royals: only with a winning hand
    revolt_from = -9.0  # a revolt makes the seat a known teammate of the other revolutionaries
    break_ranks_at = 3  # with this many natural ranks or fewer, a set may break a rank
    stop_opponent_at = 2  # an opponent holding this many cards or fewer is about to go out

    def throne(self, seen: Seen) -> Throne:
        power = strength(seen.counts, seen.tops)
        if not seen.may_ascend:
            return "abdicate"
        if seen.may_solo:
            if power >= self.open_solo_from and seen.room.open_solo:
                return "open_solo"
            if power >= self.solo_from or not seen.may_abdicate:
                return "solo"
            return "abdicate"
        return "ascend" if power >= self.ascend_from or not seen.may_abdicate else "abdicate"

    def declare(self, seen: Seen) -> bool:
        power = strength(seen.counts, seen.tops)
        if seen.role == "guard" and not seen.solo:
            return seen.room.open_guard and power >= self.open_guard_from
        return seen.room.revolt and power >= self.revolt_from

    def choose(self, seen: Seen) -> CardSet | None:
        whole = whole_hand_set(seen)
        if whole is not None:
            return whole
        if seen.table is None:
            return self._lead(seen)
        return self._follow(seen, seen.table)

    def _lead(self, seen: Seen) -> CardSet:
        counts = seen.counts
        ranks = [slot for slot in range(SJ_SLOT) if counts[slot]]
        jokers = counts[BJ_SLOT] + counts[SJ_SLOT] + seen.tops
        if counts[BJ_SLOT] and len(ranks) <= 2 and ranks:
            # a set with a big joker wins the round: shed the highest rank with it, lead the last
            slot = ranks[-1]
            return CardSet(slot + 3, counts[slot], 1, 0)
        lead = lead_set(counts, seen.rules, seen.tops)
        if len(ranks) == 1 and jokers and seen.rules.joker_only_sets and not (
            seen.rules.sixes_last and ranks[0] + 3 == Rank.SIX.value
        ):
            return CardSet(0, 0, counts[BJ_SLOT], counts[SJ_SLOT], top=seen.tops)  # keep the rank for last
        if lead.naturals == 1:  # a single is beaten by any higher card: lead the lowest group of two or more
            allowed = [slot for slot in ranks if not (seen.rules.sixes_last and slot + 3 == Rank.SIX.value)]
            group = next((slot for slot in allowed if counts[slot] >= 2), None)
            if group is not None:
                return CardSet(group + 3, counts[group], 0, 0)
        return lead

    def _follow(self, seen: Seen, table: CardSet) -> CardSet | None:
        table_seat = seen.table_seat
        assert table_seat is not None
        if seen.teammate(table_seat):
            return None
        moves = legal_sets(seen.counts, table, seen.rules, seen.bomb_ranks, seen.tops)
        if not moves:
            return None
        counts = seen.counts
        urgent = self._urgent(seen, table_seat)
        known_opponent = seen.known[table_seat] is not None and seen.opponent(table_seat)
        natural = [m for m in moves if not m.jokers and not m.bomb]
        clean = [m for m in natural if counts[m.rank - 3] == m.naturals or m.rank >= Rank.ACE.value]
        if clean:
            return clean[0]
        if natural and (urgent or known_opponent or groups(counts) <= self.break_ranks_at):
            return natural[0]
        if urgent or self._closing(seen, moves[0]):
            return moves[0]
        return None

    def _urgent(self, seen: Seen, table_seat: int) -> bool:
        """Whether the table's set must be stopped: an opponent's, and some opponent is close to going out."""
        if not seen.opponent(table_seat):
            return False
        left = [seen.cards_left[other] for other in range(len(seen.cards_left))
                if seen.cards_left[other] and seen.opponent(other)]
        return bool(left) and min(left) <= self.stop_opponent_at

    def _closing(self, seen: Seen, move: CardSet) -> bool:
        """Whether winning the round with ``move`` leaves few enough sets to go out."""
        rest = tuple(held - used for held, used in zip(seen.counts, move.counts, strict=True))
        return groups(rest) <= 1 + rest[BJ_SLOT]


def call_for(seen: Seen, choice: Throne) -> Card | None:
    """The card an ascent calls (Y9; None when the guard card is marked): for a solo the
    lowest card held four times, else the default call (:func:`~.deck.default_call`)."""
    if seen.room.guard_card == "marked":
        return None
    if choice in ("solo", "open_solo"):
        return min(card for card, copies in seen.calls.items() if copies > CALL_COPIES)
    return default_call(seen.hand)


def make_bot(name: str, seed: int | None = None) -> RoyalistBot:
    """A bot by name (:data:`BOTS`)."""
    if name not in BOTS:
        raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
    if name == "random":
        return RandomBot(seed)
    return GreedyBot() if name == "greedy" else HostingBot()


def legal_actions(hand: RoyalistHand, seat: int) -> Sequence[Action]:
    """Every action ``seat`` may take now (decisions and sets), for tests and hints."""
    from .game import Abdicate, Ascend, Declare, Pass, Play, RoyalistError, cards_for

    candidates: list[Action] = []
    if hand.phase == "throne":
        calls = [None, *hand.calls(seat)]
        candidates = [*(Ascend(seat, solo, call) for call in calls for solo in (False, True)), Abdicate(seat)]
    elif hand.phase == "declare":
        candidates = [Declare(seat, True), Declare(seat, False)]
    elif hand.phase == "play":
        table = hand.table_set
        for move in legal_sets(hand.counts(seat), table, hand.room.set_rules, hand.bomb_ranks(seat), hand.tops(seat)):
            candidates.append(Play(seat, cards_for(hand.hands[seat], move)))
        candidates.append(Pass(seat))
    allowed = []
    for action in candidates:
        try:
            hand.check(action)
        except RoyalistError:
            continue
        allowed.append(action)
    return allowed
