"""The expert player: determinized Monte Carlo search over what one seat has seen.

The expert knows what :class:`~shuangkou.games.shuangkou.bots.Seen` holds — its own hand, the plays so far,
every seat's card count — and the room's rules, nothing else. The cards it has not seen
are the other hands and, with two seats, the 54 undealt cards (R1.3). To choose a move it

1. lists a few candidate moves (:func:`candidates`: the hints' best of each kind, the
   weakest bomb, and the pass);
2. deals the unseen cards again at random, consistently with the card counts (a
   *determinization*: one possible world) — with two seats weighted by what the
   opponent's passes and follows said of its hand (:func:`opponent_clues`,
   :class:`OpponentDealer`) — and plays each candidate in that world to the end with a
   fast policy for every seat (a *rollout*, on :class:`Playout`, a light model of the
   turn order that :class:`~shuangkou.games.shuangkou.game.Game` keeps; an opponent that plays as
   hosting is played by hosting, :func:`plays_like_hosting`);
3. repeats over fresh worlds, the same worlds for every candidate still in the race,
   dropping the worse half after each stage (successive halving, the greedy planner's
   move always kept), until its budget of rollouts or time is spent, and plays the
   candidate with the best mean value — the settlement of its seat (its team's with four
   seats) plus a bonus for a win — when it is surely better than the planner's move
   (by its gain world by world), else the planner's move.

All randomness comes from one seeded :class:`random.Random`: with a budget of rollouts
(not of time), the same seed and the same view give the same move.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ...cards import DECK, NUM_SLOTS, Counts, counts_of
from ..interface import Budget
from .bots import Acting, GreedyBot, Seen, hint_moves, whole_hand
from .combos import BJ_SLOT, SJ_SLOT, TWO_SLOT, Combo, Kind
from .config import DEFAULT_EXPERT_ROLLOUTS, RoomConfig
from .moves import hosting_move, legal_moves
from .scoring import BombPlay, partner_of, settle_classic, settle_game
from .scoring import decided_result as _decided

__all__ = [
    "DEFAULT_GATE", "DEFAULT_ROLLOUTS", "POLICIES", "Budget", "ExpertBot", "OpponentDealer", "Playout", "candidates",
    "opponent_clues", "plays_like_hosting", "unseen_counts",
]

DEFAULT_ROLLOUTS = DEFAULT_EXPERT_ROLLOUTS
"""Rollouts per decision by default: a median of about 50 ms of one core with two seats
(p95 125 ms), 195 ms with four (docs/simulation.md#the-expert)."""

DEFAULT_GATE = 1.0
"""How sure the search must be to play another move than the greedy planner's: its mean
gain over the plan, world by world, must exceed this many standard errors."""

_DECK_COUNTS: Counts = counts_of(DECK)


Policy = Callable[[Seen], Combo | None]
"""A rollout policy: the move a seat makes in a playout (None: pass)."""


def unseen_counts(seen: Seen) -> Counts:
    """Per rank, the cards ``seen``'s seat has not seen: the 108-card deck less its own hand
    and every card played so far."""
    left = list(_DECK_COUNTS)
    for slot, count in enumerate(seen.hand):
        left[slot] -= count
    for play in seen.plays:
        for slot, count in enumerate(play.combo.cards):
            left[slot] -= count
    return tuple(left)


def candidates(seen: Seen, limit: int) -> list[Combo | None]:
    """At most ``limit`` moves worth searching, the most promising first: the hints' first
    move (the greedy planner's), then the first hint of each kind of combination, the
    weakest move that spends a joker or breaks a bomb, the weakest bomb, and further hints
    in their order; on a follow the pass is one of them."""
    hints = hint_moves(seen)
    chosen: list[Combo | None] = []
    if seen.table is not None:
        chosen.append(None)
    picked: set[Combo] = set()

    def add(move: Combo) -> None:
        if move not in picked and len(chosen) < limit:
            picked.add(move)
            chosen.append(move)

    if hints:
        add(hints[0])
    kinds: set[Kind] = set()
    for move in hints:  # the first of each kind: a lead of singles, pairs, straights...
        if move.kind not in kinds and not move.is_bomb:
            kinds.add(move.kind)
            add(move)
    bombs = [move for move in hints if move.is_bomb]
    if bombs:
        add(bombs[0])
    for move in hints:
        add(move)
    return chosen


_SETS = {Kind.SINGLE: 1, Kind.PAIR: 2, Kind.TRIPLE: 3}
"""The single-rank kinds whose beaters a hand's rank counts tell, and the cards each needs."""

ACE_SLOT = TWO_SLOT - 1

DOUBT = 0.001
"""How much likelier the expert finds a world where the opponent's passes and follows were
plain (a cheap beater passed over) less likely than one where they were: the factor per
such pass or follow."""


@dataclass(frozen=True, slots=True)
class _Clue:
    """What one move (or pass) of the opponent says about its hand at the time (the hand
    now plus ``later``, the cards it played since): no rank slot in ``slots`` held
    ``need`` to ``most`` cards."""

    later: Counts
    slots: range
    need: int
    most: int


PLAIN_MOST = 3
"""A plain beater takes up to 3 cards of a rank: more would break a bomb."""

ANY_MOST = 12

CLOSE = 8
"""With this many cards or fewer a seat is close to going out: an opponent that passes
then holds no bomb."""

SPENDING = 6
"""With this many cards or fewer left to this seat, the opponent spends 2s and jokers."""

DESPERATE = 3
"""With this many cards or fewer left to this seat, the opponent beats with anything."""


def plays_like_hosting(seen: Seen) -> bool:
    """With two seats, whether the opponent plays as hosting does (R11.2), as far as its
    plays show: it has led at least twice, every lead a single, and never played a card
    (jokers aside) below one it led before — hosting leads its lowest card."""
    if len(seen.cards_left) != 2:
        return False
    opponent = 1 - seen.seat
    leads = 0
    lowest = -1
    for play in seen.plays:
        if play.seat != opponent:
            continue
        natural = [slot for slot, count in enumerate(play.combo.cards[:SJ_SLOT]) if count]
        if natural and min(natural) < lowest:
            return False
        if play.lead:
            if play.combo.kind is not Kind.SINGLE:
                return False
            leads += 1
            lowest = max(lowest, play.combo.top - 3)
    return leads >= 2


def opponent_clues(seen: Seen, hosting: bool = False) -> list[_Clue]:
    """With two seats, what the opponent's answers to this seat's plays say, read as a
    sensible player plays (the greedy planner's thresholds):

    - a pass, or a bomb, on a single, pair or triple X: it held no plain beater of X (one
      to three cards of a rank, breaking no bomb) up to the ace (up to the 2 on an ace) —
      it keeps 2s, jokers and bombs for later; with this seat at :data:`SPENDING` cards or
      fewer, none up to the jokers; at :data:`DESPERATE` or fewer, no beater at all;
    - a pass on anything with this seat at :data:`CLOSE` cards or fewer: it held no bomb;
    - a follow of X with Y of X's kind: no plain beater between X and Y (one follows with
      its weakest fitting combination).

    Of an opponent that plays as ``hosting`` (:func:`plays_like_hosting`): no beater at
    all after a pass, no bomb either, and no card below a single it led. Nothing with four
    seats (partners pass on purpose)."""
    if len(seen.cards_left) != 2:
        return []
    opponent = 1 - seen.seat
    plays = seen.plays
    later = [0] * NUM_SLOTS
    mine = sum(seen.hand)  # this seat's cards after the play looked at
    clues: list[_Clue] = []
    for index in range(len(plays) - 1, -1, -1):
        play = plays[index]
        if play.seat == opponent:
            for slot, count in enumerate(play.combo.cards):
                later[slot] += count
            if hosting and play.lead and play.combo.top - 3 < SJ_SLOT:
                clues.append(_Clue(tuple(later), range(play.combo.top - 3), 1, ANY_MOST))
            continue
        answer = plays[index + 1] if index + 1 < len(plays) else None
        passed = answer.seat != opponent if answer is not None else seen.table is None
        left = mine
        mine += play.combo.size
        if answer is None and not passed:
            continue  # the opponent has not answered yet
        anything = hosting or left <= DESPERATE
        if passed and (anything or left <= CLOSE):
            clues.append(_Clue(tuple(later), range(TWO_SLOT + 1), 4, ANY_MOST))
        need = _SETS.get(play.combo.kind)
        if need is None:
            continue
        top = play.combo.top - 3
        if answer is not None and not passed and not answer.combo.is_bomb:  # the weakest it held
            slots = range(top + 1, answer.combo.top - 3)
            most = ANY_MOST if hosting else PLAIN_MOST
        else:
            jokers = (anything or left <= SPENDING) and need < 3
            last = BJ_SLOT if jokers else ACE_SLOT if top < ACE_SLOT else TWO_SLOT
            slots = range(top + 1, last + 1)
            most = ANY_MOST if anything else PLAIN_MOST
        if slots:
            clues.append(_Clue(tuple(later), slots, need, most))
    return clues


class OpponentDealer:
    """Deals the opponent's hand (two seats) from the unseen cards, by rank counts, with
    the chance of each hand weighted by :func:`opponent_clues`: a hand is as likely as the
    number of ways to draw it, times :data:`DOUBT` for every clue it contradicts. Exact
    sampling by dynamic programming over the rank slots (the clues are per slot)."""

    def __init__(self, unseen: Counts, cards: int, clues: Sequence[_Clue]) -> None:
        self.cards = cards
        self.weights: list[list[float]] = []
        for slot, available in enumerate(unseen):
            row = []
            for count in range(available + 1):
                weight = float(math.comb(available, count))
                for clue in clues:
                    if slot in clue.slots and clue.need <= count + clue.later[slot] <= clue.most:
                        weight *= DOUBT
                row.append(weight)
            self.weights.append(row)
        # ways[slot][total]: the weight of all ways to hold ``total`` cards in slots from ``slot`` on
        self.ways = [[0.0] * (cards + 1) for _ in range(NUM_SLOTS + 1)]
        self.ways[NUM_SLOTS][0] = 1.0
        for slot in range(NUM_SLOTS - 1, -1, -1):
            after, here = self.ways[slot + 1], self.ways[slot]
            row = self.weights[slot]
            for total in range(cards + 1):
                here[total] = sum(row[count] * after[total - count] for count in range(min(len(row), total + 1)))

    def deal(self, rng: random.Random) -> Counts:
        """One hand of the opponent's card count."""
        hand = [0] * NUM_SLOTS
        total = self.cards
        for slot in range(NUM_SLOTS):
            after, row = self.ways[slot + 1], self.weights[slot]
            pick = rng.random() * self.ways[slot][total]
            count = 0
            for count in range(min(len(row), total + 1)):
                pick -= row[count] * after[total - count]
                if pick < 0:
                    break
            while row[count] * after[total - count] == 0:  # rounding: the last possible count
                count -= 1
            hand[slot] = count
            total -= count
        return tuple(hand)


class Playout:
    """A light model of one game's turn order for rollouts: hands as counts, the table,
    passes, the finishing order and every seat's bombs — the rules of
    :class:`~shuangkou.games.shuangkou.game.Game` (R2, C2) without cards, events, timers or undo. Built
    from a seat's view and the hands of one determinization."""

    __slots__ = (
        "bombs", "config", "finish_order", "finished", "hands", "passes", "plays", "rules", "table",
        "table_seat", "teams", "to_act",
    )

    def __init__(self, config: RoomConfig, seen: Seen, hands: Sequence[Counts]) -> None:
        self.config = config
        self.rules = config.rules
        self.hands = list(hands)
        self.teams = seen.teams
        self.table = seen.table
        self.table_seat = -1 if seen.table_seat is None else seen.table_seat
        self.to_act = seen.seat
        self.finish_order = list(seen.finish_order)
        self.finished = False
        self.plays = len(seen.plays)
        self.bombs: list[list[BombPlay]] = [[] for _ in hands]
        for play in seen.plays:
            if play.combo.is_bomb:
                self.bombs[play.seat].append(BombPlay(play.index, play.combo))
        self.passes = 0
        if self.table is not None:  # every seat holding cards between the table's and this one passed
            seat = self._next_holding(self.table_seat)
            while seat != self.to_act:
                self.passes += 1
                seat = self._next_holding(seat)

    @property
    def seats(self) -> int:
        """The number of seats."""
        return len(self.hands)

    def seen(self) -> Seen:
        """What the seat to act sees (the plays so far left out: rollout policies don't read them)."""
        table_seat = None if self.table is None else self.table_seat
        return Seen(
            self.to_act, self.hands[self.to_act], self.table, table_seat, tuple(map(sum, self.hands)),
            self.teams, tuple(self.finish_order), (), self.rules,
        )

    def move(self, move: Combo | None) -> None:
        """The seat to act plays ``move`` (None: passes); the move must be legal."""
        if move is None:
            self._pass()
        else:
            self._play(move)

    def _play(self, combo: Combo) -> None:
        seat = self.to_act
        hand = tuple(have - used for have, used in zip(self.hands[seat], combo.cards, strict=True))
        self.hands[seat] = hand
        self.plays += 1
        if combo.phase:  # only bombs have a phase (R4)
            self.bombs[seat].append(BombPlay(self.plays, combo))
        self.table, self.table_seat, self.passes = combo, seat, 0
        if not any(hand):  # out (R2.5, C2.2)
            self.finish_order.append(seat)
            if self.seats == 2:
                self.finished = True
                return
            if _decided(self.finish_order) is not None:  # C3.2
                if len(self.finish_order) == 3:
                    self.finish_order.append(next(s for s in range(4) if s not in self.finish_order))
                self.finished = True
                return
        self.to_act = self._next_holding(seat)

    def _pass(self) -> None:
        self.passes += 1
        table_seat = self.table_seat
        others = sum(1 for other in range(self.seats) if other != table_seat and any(self.hands[other]))
        if self.passes < others:  # C2.1: the round goes on
            self.to_act = self._next_holding(self.to_act)
            return
        self.table, self.passes = None, 0  # R2.4, C2.1: the round is over
        if any(self.hands[table_seat]):
            self.to_act = table_seat
        elif self.config.jiefeng and any(self.hands[partner_of(table_seat)]):
            self.to_act = partner_of(table_seat)  # 接风 (C2.3)
        else:
            self.to_act = self._next_holding(table_seat)

    def _next_holding(self, seat: int) -> int:
        for step in range(1, self.seats):
            candidate = (seat + step) % self.seats
            if any(self.hands[candidate]):
                return candidate
        return seat

    def play_out(self, policies: Sequence[Policy], limit: int = 1000) -> None:
        """Play to the end, every seat with its policy in ``policies``."""
        for _ in range(limit):
            if self.finished:
                return
            self.move(policies[self.to_act](self.seen()))
        raise RuntimeError("a playout did not end")  # a policy that passes on a lead


class _Scorer:
    """A finished playout's value for one seat: its settlement (its team's sum with four
    seats), every seat starting from the room's starting balance, plus ``win_weight``
    match points X for a win and minus as many for a loss; kept per distinct outcome."""

    def __init__(self, config: RoomConfig, seat: int, win_weight: float) -> None:
        self.config = config
        self.balances = (config.starting_balance,) * config.seats
        self.win_points = win_weight * config.match_points_for(*self.balances)
        self.teams = tuple(seat % 2 if config.seats == 4 else seat for seat in range(config.seats))
        self.team = self.teams[seat]
        team = config.seats == 4
        self.seats = (seat, partner_of(seat)) if team else (seat,)
        self.known: dict[tuple[object, ...], float] = {}

    def points(self, playout: Playout) -> float:
        bombs = playout.bombs
        shape = tuple(
            tuple(sorted((bomb.combo.kind, bomb.combo.top, bomb.combo.phase) for bomb in own)) for own in bombs
        )
        if playout.seats == 2:
            winner = playout.finish_order[-1]
            outcome: tuple[object, ...] = (winner, sum(playout.hands[1 - winner]), shape)
        else:
            outcome = (tuple(playout.finish_order), shape)
        known = self.known.get(outcome)
        if known is None:
            deltas: tuple[int, ...]
            if playout.seats == 2:
                deltas = settle_game(
                    self.config, winner=winner, loser_cards_left=sum(playout.hands[1 - winner]),
                    bombs=bombs, balances=self.balances,
                ).deltas
            else:
                deltas = settle_classic(self.config, playout.finish_order, bombs, self.balances).deltas
            won = self.win_points if self.teams[playout.finish_order[0]] == self.team else -self.win_points
            known = self.known[outcome] = sum(deltas[seat] for seat in self.seats) + won
        return known


def greedy_policy(seen: Seen) -> Combo | None:
    """The greedy planner (:class:`~shuangkou.games.shuangkou.bots.GreedyBot`) as a rollout policy."""
    return _GREEDY.choose(seen)


def hosting_policy(seen: Seen) -> Combo | None:
    """The hosting choice (R11.2) as a rollout policy."""
    return hosting_move(seen.hand, seen.table, seen.rules)


_GREEDY = GreedyBot()

POLICIES: dict[str, Policy] = {"greedy": greedy_policy, "hosting": hosting_policy}


class ExpertBot(Acting):
    """Chooses by determinized Monte Carlo search (module docstring) within ``budget``;
    ``seed`` seeds its one random source, ``policy`` is the rollout policy by name
    (:data:`POLICIES`), ``win_weight`` the match points a win is worth beyond its
    settlement (the settlement alone swings with bombs; the bonus steadies the search
    towards winning), ``clock`` reads the time for ``budget.milliseconds``, ``gate`` is
    how sure the search must be to leave the greedy planner's move (:data:`DEFAULT_GATE`)."""

    def __init__(
        self,
        config: RoomConfig,
        seed: int | None = None,
        budget: Budget | None = None,
        policy: str = "greedy",
        win_weight: float = 10.0,
        clock: Callable[[], float] = time.perf_counter,
        gate: float = DEFAULT_GATE,
    ) -> None:
        self.config = config
        self.rng = random.Random(seed)
        self.budget = budget or Budget()
        self.policy = POLICIES[policy]
        self.win_weight = win_weight
        self.clock = clock
        self.gate = gate

    def choose(self, seen: Seen) -> Combo | None:
        """The move to make for ``seen``'s seat (None: pass)."""
        if seen.table is None:
            moves = legal_moves(seen.hand, None, seen.rules)
            if len(moves) == 1:
                return moves[0]
        elif not legal_moves(seen.hand, seen.table, seen.rules):
            return None
        out = whole_hand(seen.hand, seen.table, seen.rules)
        if out is not None:
            return out
        options = candidates(seen, self.budget.candidates)
        return options[self._search(seen, options)]

    def _search(self, seen: Seen, options: list[Combo | None]) -> int:
        """The index of the option to play, by successive halving: every option still in
        the race is played out in the same fresh worlds; after each stage the worse half
        drops out (the greedy planner's choice, the *plan*, stays), until one is left or
        the budget is spent. The best mean wins if it beats the plan's by ``gate``
        standard errors of their differences world by world; else the plan is played."""
        budget = self.budget
        deadline = None if budget.milliseconds is None else self.clock() + budget.milliseconds / 1000
        scorer = _Scorer(self.config, seen.seat, self.win_weight)
        totals = [0.0] * len(options)
        plan = _GREEDY.choose(seen)
        first = options.index(plan) if plan in options else 0
        gains: list[list[float]] = [[] for _ in options]  # world by world, over the plan
        racing = list(range(len(options)))
        stages = max(1, len(options).bit_length() - 1)  # halvings from the options down to one
        hosting = plays_like_hosting(seen)
        deal = self._dealer(seen, hosting)
        policy = _memoized(self.policy)
        policies = [policy] * len(seen.cards_left)
        if hosting:
            policies[1 - seen.seat] = _memoized(hosting_policy)
        for _ in range(stages):
            for _ in range(max(1, budget.rollouts // (stages * len(racing)))):
                hands = deal()
                values: dict[int, float] = {}
                for index in racing:
                    playout = Playout(self.config, seen, hands)
                    playout.move(options[index])
                    playout.play_out(policies)
                    values[index] = scorer.points(playout)
                    totals[index] += values[index]
                for index, value in values.items():
                    gains[index].append(value - values[first])
                if deadline is not None and self.clock() >= deadline:
                    break
            racing.sort(key=lambda index: (-totals[index], index))
            racing = sorted({*racing[: max(1, len(racing) // 2)], first})
            if len(racing) == 1 or (deadline is not None and self.clock() >= deadline):
                break
        best = max(racing, key=totals.__getitem__)  # ties: the earlier option
        return best if _beats(gains[best], self.gate) else first

    def _dealer(self, seen: Seen, hosting: bool) -> Callable[[], list[Counts]]:
        """Deals determinizations: with two seats the opponent's hand by
        :class:`OpponentDealer` (what its passes and follows said weighs in), with four the
        unseen cards at random to the other seats by their card counts; the rest stay
        undealt."""
        unseen = unseen_counts(seen)
        if len(seen.cards_left) == 2:
            opponent = 1 - seen.seat
            dealer = OpponentDealer(unseen, seen.cards_left[opponent], opponent_clues(seen, hosting))

            def deal_two() -> list[Counts]:
                hands = [seen.hand, seen.hand]
                hands[opponent] = dealer.deal(self.rng)
                return hands

            return deal_two
        cards = _cards_of(unseen)

        def deal_four() -> list[Counts]:
            self.rng.shuffle(cards)
            hands: list[Counts] = []
            start = 0
            for seat, count in enumerate(seen.cards_left):
                if seat == seen.seat:
                    hands.append(seen.hand)
                    continue
                hand = [0] * NUM_SLOTS
                for slot in cards[start : start + count]:
                    hand[slot] += 1
                start += count
                hands.append(tuple(hand))
            return hands

        return deal_four


def _beats(gains: Sequence[float], gate: float) -> bool:
    """Whether ``gains`` (an option's values less the plan's, world by world) are above
    zero by more than ``gate`` standard errors of their mean."""
    if len(gains) < 2:
        return False
    mean = sum(gains) / len(gains)
    spread = math.sqrt(sum((gain - mean) ** 2 for gain in gains) / (len(gains) - 1))
    return mean > gate * spread / math.sqrt(len(gains))


def _memoized(policy: Policy) -> Policy:
    """``policy`` remembering its answers (for one decision: the worlds of a search repeat
    many positions)."""
    known: dict[Seen, Combo | None] = {}

    def remembered(seen: Seen) -> Combo | None:
        try:
            return known[seen]
        except KeyError:
            move = known[seen] = policy(seen)
            return move

    return remembered


def _cards_of(counts: Counts) -> list[int]:
    """One entry per card: its rank slot."""
    return [slot for slot, count in enumerate(counts) for _ in range(count)]
