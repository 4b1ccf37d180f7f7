"""Royalist (保皇, RULES-ROYALIST.md) for the environment.

Actions, one space for every Royalist room with the marked guard card ``SJ*``:

- 0 pass (Y3.2); 1 ascend (Y2.1; a holder of ``SJ*`` ascending so plays a secret solo,
  Y2.5); 2 ascend as an open solo (包, Y2.5); 3 abdicate (Y2.2); 4 declare (明保 or revolt,
  Y2.6); 5 stay hidden;
- then every set (Y4.2) as (natural rank, naturals, big jokers, small jokers, with the guard
  card): ranks 3 … 2 with 1 … 16 naturals, or no natural (jokers alone), each with 0 … 4
  big and 0 … 4 small jokers; a set with small jokers comes twice, without and with
  ``SJ*`` among them (playing ``SJ*`` reveals its holder, Y2.9). Big jokers are plain ones
  before ``BJ*``; naturals any of their rank;
- last, the bombs of four identical cards by rank 3 … 2 (rooms with ``bombs =
  "four_identical"``, Y4.8).

A room with ``guard_card = "called"`` (叫保子, Y9) has a space of its own: actions 0 … 5 as
above (1 and 2, an ascent without a call, never allowed there); then the calls (:data:`CALLS`),
each natural card by rank 3 … 2 and suit S H C D, called plainly and with 包 (allowed with
all four copies held); then every set of the list above without ``SJ*``, each twice: without
and with the 保子牌 (worth 18, on top of its naturals and jokers), the 保子牌 alone among them;
last the bombs (:data:`CALLED_SETS`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from ..cards import NUM_SLOTS, Card, Rank, Suit
from ..errors import allowed
from ..games.royalist.config import RoyalistRoom
from ..games.royalist.deck import EMPEROR_CARD, GUARD_CARD, is_called_card
from ..games.royalist.game import Abdicate, Action, Ascend, Declare, Pass, Play, RoyalistHand, cards_for
from ..games.royalist.sets import SJ_SLOT, CardSet, legal_sets
from .core import IllegalAction, Mask, Vector

__all__ = ["CALLED_SETS", "CALLS", "DECISIONS", "SETS", "RoyalistEncoder", "SetAction"]

SetAction = tuple[int, int, int, int, bool, bool]
"""(natural rank or 0, naturals, big jokers, small jokers, with the guard card, bomb): the
guard card is ``SJ*`` among the small jokers, or in a called room the 保子牌 beside them."""

DECISIONS = ("pass", "ascend", "ascend as an open solo", "abdicate", "declare", "stay hidden")
"""Actions 0 … 5."""

PASS, ASCEND, OPEN_SOLO, ABDICATE, DECLARE, HIDDEN = range(len(DECISIONS))

SEATS = 5
_COPIES = 16  # copies of a natural rank in the 168 and 216 decks (Y1.2): no set holds more
_JOKERS = 4  # big jokers, and small jokers, in every deck
_MOST_CARDS = 44  # the largest hand dealt (216 cards, Y1.4)
_PHASES = ("throne", "declare", "play", "over")
_ROLES = ("emperor", "guard", "revolutionary")


_NATURAL_RANKS = range(3, Rank.TWO.value + 1)


def _sets(called: bool) -> Iterator[SetAction]:
    """The sets of a space: with ``SJ*`` when a small joker is among them, or (``called``)
    with the 保子牌 beside any of them, the 保子牌 alone too."""
    for rank in (0, *_NATURAL_RANKS):
        for naturals in range(1, _COPIES + 1) if rank else (0,):
            for big in range(_JOKERS + 1):
                for small in range(_JOKERS + 1):
                    if naturals + big + small:
                        yield (rank, naturals, big, small, False, False)
                    if small or called:
                        yield (rank, naturals, big, small, True, False)
    for rank in _NATURAL_RANKS:
        yield (rank, 4, 0, 0, False, True)


SETS: tuple[SetAction, ...] = tuple(_sets(called=False))
"""The set of each action from 6 on (action ``i`` is ``SETS[i - 6]``)."""

CALLS: tuple[tuple[Card, bool], ...] = tuple(
    (Card(Rank(rank), suit), open_solo) for rank in _NATURAL_RANKS for suit in Suit for open_solo in (False, True))
"""A called room's calls from action 6 on: (the card called, 包)."""

CALLED_SETS: tuple[SetAction, ...] = tuple(_sets(called=True))
"""A called room's sets after its calls (action ``i`` is ``CALLED_SETS[i - 6 - len(CALLS)]``)."""


_PLAIN = {(rank, naturals, big, small, bomb): action for action, (rank, naturals, big, small, marked, bomb)
          in enumerate(SETS, len(DECISIONS)) if not marked}
"""The action of each set (rank, naturals, big, small jokers, bomb) without ``SJ*``; with it, the next."""
_CALLED_INDEX = {card_set: action for action, card_set in enumerate(CALLED_SETS, len(DECISIONS) + len(CALLS))}
_CALL_ACTIONS = {call: action for action, call in enumerate(CALLS, len(DECISIONS))}
_ORDERS = tuple(tuple((seat + step) % SEATS for step in range(SEATS)) for seat in range(SEATS))
"""The seats counted from each seat: itself first, then in play order."""
_STATE = 4 + SEATS + 2 + 3 + SEATS * 3 + 2 + 1 + 2 + SEATS
_FEATURES = 15 + 2 + SEATS * 15 + SEATS + SEATS + _STATE + 7 + 15 + SEATS + SEATS + 1
_CALLED_FEATURES = len(_NATURAL_RANKS) + len(Suit) + 1
_SUITS = tuple(Suit)


class RoyalistEncoder:
    """Decisions and sets as actions (see the module's docstring); the observation of a
    seat, seats counted from it (itself first, then in play order):

    ==========  =======================================================================
    entries     what
    ==========  =======================================================================
    15          its hand per rank 3 … 2, SJ, BJ (÷ 16)
    2           whether it holds ``BJ*``, ``SJ*``
    5 × 15      the cards each seat has played (÷ 16)
    5           each seat's cards left (÷ 44)
    5           each seat's place once out (÷ 5)
    4           the phase: throne, declare, play, over
    5 + 2       the candidate (throne offer), abdications (÷ 5), forced ascent
    3           its own role: emperor, guard, revolutionary
    5 × 3       each seat's role as it knows it
    2           a solo it knows of; an open solo
    1           the multiplier *m* − 1 (Y2.8)
    2           its own answer: declared, stayed hidden
    5           which seats have answered
    1 + 5 + 1   the published declarations: open guard, revolts, a successful revolt
    15          the set on the table (÷ 16)
    5 + 5       who played it; who passed since
    1           1 on a lead
    13 + 4 + 1  a called room only (Y9): the called card's rank 3 … 2 and suit S H C D, and
                whether the 保子牌 is unplayed
    ==========  =======================================================================

    In a called room the hand per rank leaves the 保子牌 out, and the second marked card
    held is the 保子牌.
    """

    def __init__(self, room: RoyalistRoom) -> None:
        self.room = room
        self.called = room.guard_card == "called"
        self.sets = CALLED_SETS if self.called else SETS
        self._first_set = len(DECISIONS) + (len(CALLS) if self.called else 0)
        self.actions = self._first_set + len(self.sets)
        self.features = _FEATURES + (_CALLED_FEATURES if self.called else 0)
        self._hand: RoyalistHand | None = None
        self._legal_at: tuple[int, int] = (-1, -1)
        self._legal: dict[int, Any] = {}
        self._acting_at = -1
        self._acting: int | None = None
        self._holding_at = -1
        self._holding: dict[int, tuple[tuple[int, ...], bool, bool]] = {}
        self._played = [[0.0] * NUM_SLOTS for _ in range(SEATS)]
        self._played_count = 0

    def start(self, hand: Any) -> None:
        """A new hand."""
        self._hand = hand
        self._legal_at = (-1, -1)
        self._acting_at = self._holding_at = -1
        self._played = [[0.0] * NUM_SLOTS for _ in range(SEATS)]
        self._played_count = 0

    def _current(self) -> RoyalistHand:
        if self._hand is None:
            raise RuntimeError("no hand: reset() deals one")
        return self._hand

    def acting(self) -> int | None:
        """The candidate, the first seat owing a declaration, or the seat to play."""
        hand = self._current()
        if hand.seq != self._acting_at:
            waiting = hand.waiting()
            self._acting = waiting[0].seat if waiting else None
            self._acting_at = hand.seq
        return self._acting

    def legal(self, seat: int) -> dict[int, Any]:
        """The legal actions of ``seat`` now and the game action of each."""
        hand = self._current()
        if (seat, hand.seq) != self._legal_at:
            self._legal = self._find_legal(hand, seat) if seat == self.acting() else {}
            self._legal_at = (seat, hand.seq)
        return self._legal

    def _find_legal(self, hand: RoyalistHand, seat: int) -> dict[int, Any]:
        """Decisions as game actions, sets as (set, with ``SJ*``) until one is taken."""
        if hand.phase != "play":
            decisions: dict[int, Action]
            if hand.phase == "throne" and self.called:
                decisions = {ABDICATE: Abdicate(seat)}
                for card in hand.calls(seat):
                    decisions[_CALL_ACTIONS[card, False]] = Ascend(seat, False, card)
                    decisions[_CALL_ACTIONS[card, True]] = Ascend(seat, True, card)
            elif hand.phase == "throne":
                decisions = {ASCEND: Ascend(seat), OPEN_SOLO: Ascend(seat, True), ABDICATE: Abdicate(seat)}
            else:
                decisions = {DECLARE: Declare(seat, True), HIDDEN: Declare(seat, False)}
            return {action: move for action, move in decisions.items() if allowed(hand.check, move) is not None}
        # The seat is the one to play (legal() asks for no other): the hand's check refuses
        # its pass only on a lead (Y3.2), so the pass is not put to it on every turn.
        legal: dict[int, Any] = {PASS: Pass(seat)} if hand.table is not None else {}
        counts, _, guard = self._held(hand, seat)
        if self.called:
            return legal | self._called_sets(hand, seat, counts, guard)
        plain_small = counts[SJ_SLOT] - guard
        bombs = self.room.bombs != "none"
        held = hand.hands[seat]
        for card_set in legal_sets(counts, hand.table_set, self.room.set_rules, hand.bomb_ranks(seat)):
            small = card_set.small
            plain = _PLAIN[card_set.rank, card_set.naturals, card_set.big, small, card_set.bomb]
            for marked in (False, True) if small else (False,):
                if (marked and not guard) or (not marked and plain_small < small):
                    continue
                if bombs and allowed(hand.check, Play(seat, _cards(held, card_set, marked))) is None:
                    continue  # four identical cards read as a bomb, not as this set (Y4.8)
                legal[plain + marked] = (card_set, marked)
        return legal

    def _called_sets(self, hand: RoyalistHand, seat: int, counts: tuple[int, ...], top: bool) -> dict[int, Any]:
        """The sets of a called room (Y9), the 保子牌 a card of its own: no ``SJ*`` to tell apart."""
        legal: dict[int, Any] = {}
        bombs = self.room.bombs != "none"
        held = hand.hands[seat]
        for card_set in legal_sets(counts, hand.table_set, self.room.set_rules, hand.bomb_ranks(seat), top):
            if bombs and allowed(hand.check, Play(seat, _cards(held, card_set, False))) is None:
                continue  # four identical cards read as a bomb, not as this set (Y4.8)
            key = (card_set.rank, card_set.naturals, card_set.big, card_set.small, bool(card_set.top), card_set.bomb)
            legal[_CALLED_INDEX[key]] = (card_set, False)
        return legal

    def _held(self, hand: RoyalistHand, seat: int) -> tuple[tuple[int, ...], bool, bool]:
        """The seat's hand per rank slot (:meth:`RoyalistHand.counts`: the 保子牌 left out),
        whether it holds ``BJ*``, the guard card (``SJ*``, or the 保子牌 in a called room);
        kept until the next action."""
        if hand.seq != self._holding_at:
            self._holding.clear()
            self._holding_at = hand.seq
        found = self._holding.get(seat)
        if found is None:
            counts = [0] * NUM_SLOTS
            jokers = []
            for card in hand.hands[seat]:
                slot = card.rank - 3
                counts[slot] += 1
                if slot >= SJ_SLOT:
                    jokers.append(card)
            guard = GUARD_CARD in jokers
            if self.called and hand.tops(seat):
                top = next(card for card in hand.hands[seat] if is_called_card(card))
                counts[top.rank - 3] -= 1
                guard = True
            found = self._holding[seat] = (tuple(counts), EMPEROR_CARD in jokers, guard)
        return found

    def _move(self, seat: int, legal: Any) -> Any:
        """The game action of a legal action's entry."""
        if isinstance(legal, tuple):
            card_set, marked = legal
            return Play(seat, _cards(self._current().hands[seat], card_set, marked))
        return legal

    def mask(self, seat: int) -> Mask:
        """1 for each legal action of ``seat``."""
        mask = np.zeros(self.actions, dtype=np.int8)
        mask[list(self.legal(seat))] = 1
        return mask

    def act(self, seat: int, action: int) -> None:
        """Apply the action's decision or play."""
        legal = self.legal(seat)
        if action not in legal:
            raise IllegalAction(f"seat {seat} may not take action {action} ({self.describe(action)}) now")
        self._current().apply(self._move(seat, legal[action]))

    def _played_by_seat(self, hand: RoyalistHand) -> list[list[float]]:
        """The cards each seat has played (÷ 16), kept from one call to the next."""
        plays = hand.plays
        if len(plays) < self._played_count:  # another hand
            self._played = [[0.0] * NUM_SLOTS for _ in range(SEATS)]
            self._played_count = 0
        for play in plays[self._played_count :]:
            row = self._played[play.seat]
            for slot, count in enumerate(play.set.counts):
                if count:
                    row[slot] += count / _COPIES
        self._played_count = len(plays)
        return self._played

    def observe(self, seat: int) -> Vector:
        """What ``seat`` sees (the table above)."""
        hand = self._current()
        order = _ORDERS[seat]
        counts, emperor, guard = self._held(hand, seat)
        values: list[float] = [count / _COPIES for count in counts]
        values += (emperor, guard)
        played = self._played_by_seat(hand)
        for other in order:
            values += played[other]
        hands = hand.hands
        values += [len(hands[other]) / _MOST_CARDS for other in order]
        places = hand.places()
        values += [(places[other] or 0) / SEATS for other in order]
        state = [0.0] * _STATE
        state[_PHASES.index(hand.phase)] = 1.0
        at = 4
        if hand.phase == "throne":
            state[at + (hand.candidate - seat) % SEATS] = 1.0
        at += SEATS
        state[at : at + 2] = (len(hand.abdications) / SEATS, hand.forced)
        at += 2
        own = hand.role(seat)
        if own is not None:
            state[at + _ROLES.index(own)] = 1.0
        at += 3
        for slot, other in enumerate(order):
            known = hand.known_role(seat, other)
            if known is not None:
                state[at + 3 * slot + _ROLES.index(known)] = 1.0
        at += 3 * SEATS
        roles = hand.roles
        if roles is not None and roles.solo is not None:
            public = hand.solo_shown or hand.finished or roles.solo == "open"
            state[at : at + 2] = (public or seat == roles.emperor, roles.solo == "open")
        at += 2
        state[at] = hand.multiplier - 1
        at += 1
        answers = hand.answers
        answer = answers[seat]
        if answer is not None:
            state[at + (0 if answer else 1)] = 1.0
        at += 2
        for slot, other in enumerate(order):
            state[at + slot] = answers[other] is not None
        values += state
        published = [0.0] * 7
        if hand.published:
            published[0] = hand.open_guard
            for other in hand.revolts:
                published[1 + (other - seat) % SEATS] = 1.0
            published[6] = hand.revolt_success
        values += published
        table = [0.0] * (NUM_SLOTS + 2 * SEATS + 1)
        record = hand.table
        if record is None:
            table[-1] = 1.0
        else:
            table[:NUM_SLOTS] = [count / _COPIES for count in record.set.counts]
            table[NUM_SLOTS + (record.seat - seat) % SEATS] = 1.0
            for other in hand.passed:
                table[NUM_SLOTS + SEATS + (other - seat) % SEATS] = 1.0
        values += table
        if self.called:
            values += _called_features(hand)
        return np.array(values, dtype=np.float32)

    def action_of(self, seat: int, move: Any) -> int:
        """The action of a bot's decision or play."""
        for action, entry in self.legal(seat).items():
            legal = self._move(seat, entry)
            if legal == move or (isinstance(move, Play) and isinstance(legal, Play) and _same_play(move, legal)):
                return action
        raise IllegalAction(f"seat {seat}: {move!r} is no legal action now")

    def describe(self, action: int) -> str:
        """A decision's name, a call (``"call 7H, open solo (包)"``) or the set: ``"7 7 BJ SJ*
        (set)"``, in a called room ``"7 7 BJ 保子牌 (set)"``."""
        if 0 <= action < len(DECISIONS):
            return DECISIONS[action]
        if not 0 <= action < self.actions:
            return f"no action {action} (the space has {self.actions})"
        if action < self._first_set:
            card, open_solo = CALLS[action - len(DECISIONS)]
            return f"call {card}{', open solo (包)' if open_solo else ''}"
        rank, naturals, big, small, marked, bomb = self.sets[action - self._first_set]
        if self.called:
            cards = [Rank(rank).symbol] * naturals + ["BJ"] * big + ["SJ"] * small + ["保子牌"] * marked
        else:
            cards = [Rank(rank).symbol] * naturals + ["BJ"] * big + ["SJ*"] * marked + ["SJ"] * (small - marked)
        return f"{' '.join(cards)} ({'bomb' if bomb else 'set'})"


def _called_features(hand: RoyalistHand) -> list[float]:
    """A called room's entries (Y9): the called card's rank and suit once called, and 1
    while the 保子牌 is unplayed."""
    rank, suit = [0.0] * len(_NATURAL_RANKS), [0.0] * len(Suit)
    called = hand.called
    if called is not None and called.suit is not None:
        rank[called.rank - 3] = 1.0
        suit[_SUITS.index(called.suit)] = 1.0
    return [*rank, *suit, float(hand.tops_unplayed)]



def _cards(held: list[Card], card_set: CardSet, marked: bool) -> tuple[Card, ...]:
    """The cards of ``held`` that play ``card_set``: any naturals of its rank, plain big
    jokers before ``BJ*``, ``SJ*`` among the small jokers when ``marked``, the 保子牌 for a
    set's top card (Y9)."""
    if card_set.bomb:
        return cards_for(held, card_set)
    rank = card_set.rank
    naturals = [card for card in held if card.rank == rank and not is_called_card(card)][: card_set.naturals] \
        if rank else []
    jokers = [card for card in held if card.rank >= Rank.SMALL_JOKER]
    plain_big = [card for card in jokers if card.rank is Rank.BIG_JOKER and card != EMPEROR_CARD]
    big = (plain_big + [EMPEROR_CARD])[: card_set.big]
    plain_small = [card for card in jokers if card.rank is Rank.SMALL_JOKER and card != GUARD_CARD]
    small = ([GUARD_CARD] + plain_small[: card_set.small - 1]) if marked else plain_small[: card_set.small]
    top = [card for card in held if is_called_card(card)][: card_set.top] if card_set.top else []
    return (*naturals, *big, *small, *top)


def _same_play(move: Play, legal: Play) -> bool:
    """Whether a bot's play and a legal action's play take the same ranks and marked cards."""
    def shape(cards: tuple[Card, ...]) -> list[tuple[int, bool]]:
        return sorted((card.rank.value, card == GUARD_CARD or is_called_card(card)) for card in cards)

    return shape(move.cards) == shape(legal.cards)

