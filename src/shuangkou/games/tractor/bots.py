"""Tractor's bots: hosting (T11.2), a random player and a greedy partner.

Every bot answers the phase the hand waits for: take its card during the deal, declare
or not, bury, lead or follow. It reads what its seat may see: its own cards (the bottom
once it took it), every declaration, every play so far and the trump, never another
hand (:func:`unseen` counts the cards it cannot see).

The greedy partner declares when its hand supports a suit, buries its short side suits'
low cards, leads what nobody can beat (throwing a side suit's sure components together)
or low cards of its long side suits, gives points to a partner who holds the trick, and
wins the tricks worth it at the least cost, trumping and over-trumping with the lowest
structure that does (T8.1–T8.3).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from itertools import islice
from typing import Protocol

from .follows import hosting_follow, hosting_lead, legal_follows
from .formats import Counts, Lead, beats_unit, counted, decompose, key_of, matches, profile_of, run_tops
from .hand import Action, Bury, Declare, Done, Draw, Play, TractorHand, trick_winner
from .order import BJ, FACES, POINTS, SJ, TRUMP, Order
from .scoring import team_of

__all__ = ["BOTS", "GreedyBot", "HostingBot", "RandomBot", "TractorBot", "make_bot", "unseen"]

BOTS: dict[str, str] = {
    "hosting": "the hosting moves of T11.2: never declares, buries the bottom back, plays the lowest",
    "greedy": "a greedy partner: declares on a good suit, leads sure cards, feeds its partner, wins tricks cheaply",
    "random": "takes a random legal play (random leads and throws)",
}


class TractorBot(Protocol):
    """A bot: the action of ``seat`` in ``hand`` now."""

    def act(self, hand: TractorHand, seat: int) -> Action:
        """The bot's action."""
        ...


def _faces(counts: Mapping[int, int]) -> tuple[int, ...]:
    return tuple(face for face, count in sorted(counts.items()) for _ in range(count))


def unseen(hand: TractorHand, seat: int) -> Counts:
    """The cards ``seat`` cannot see: the deck less its own cards, every card played and
    (the dealer's) the cards it buried."""
    left = dict.fromkeys(range(FACES), 2)
    seen: list[Iterable[int]] = [_faces(hand.hands[seat]), *(faces for _, faces in hand.plays_seen())]
    if seat == hand.dealer and hand.phase == "play":
        seen.append(hand.buried)
    for faces in seen:
        for face in faces:
            left[face] -= 1
    return {face: count for face, count in left.items() if count > 0}


def _in_suit(counts: Mapping[int, int], suit: int, order: Order) -> Counts:
    return {face: count for face, count in counts.items() if order.eff[face] == suit}


class HostingBot:
    """T11.2's moves, as a player: never declares, buries the bottom back, the hosting
    lead and follow."""

    def act(self, hand: TractorHand, seat: int) -> Action:
        """The hosting action of ``seat`` in the phase the hand waits for."""
        if hand.phase == "deal":
            return Draw(seat)
        if hand.phase == "declare":
            return Done(seat)
        if hand.phase == "bury":
            return Bury(seat, hand.bottom)
        order = hand.order
        assert order is not None
        mine = hand.hands[seat]
        if hand.lead is None:
            return Play(seat, _faces(hosting_lead(mine, order)))
        return Play(seat, _faces(hosting_follow(mine, hand.lead, order, hand.room.partial_tractor_follow)))


class RandomBot:
    """Uniformly random among a few legal plays: random leads of one effective suit (throws
    included), random follows, random burials; never declares."""

    def __init__(self, seed: int | None = None) -> None:
        self.random = random.Random(seed)

    def act(self, hand: TractorHand, seat: int) -> Action:
        """A random action of ``seat``."""
        if hand.phase in ("deal", "declare"):
            return HostingBot().act(hand, seat)
        cards = list(_faces(hand.hands[seat]))
        if hand.phase == "bury":
            return Bury(seat, tuple(self.random.sample(cards, len(hand.bottom))))
        order = hand.order
        assert order is not None
        if hand.lead is None:
            suit = order.eff[self.random.choice(cards)]
            suited = [face for face in cards if order.eff[face] == suit]
            size = self.random.randint(1, min(len(suited), 6))
            return Play(seat, tuple(self.random.sample(suited, size)))
        follows = list(islice(legal_follows(hand.hands[seat], hand.lead, order, hand.room.partial_tractor_follow), 64))
        return Play(seat, _faces(self.random.choice(follows)))


class GreedyBot:
    """The greedy partner (see the module's docstring)."""

    def act(self, hand: TractorHand, seat: int) -> Action:
        """The greedy action of ``seat``."""
        if hand.phase in ("deal", "declare"):
            declaration = self.declaration(hand, seat)
            if declaration is not None:
                return Declare(seat, declaration)
            return Draw(seat) if hand.phase == "deal" else Done(seat)
        if hand.phase == "bury":
            return Bury(seat, self.burial(hand, seat))
        if hand.lead is None:
            return Play(seat, self.lead(hand, seat))
        return Play(seat, self.follow(hand, seat))

    # -- declaring -----------------------------------------------------------------

    def declaration(self, hand: TractorHand, seat: int) -> tuple[int, ...] | None:
        """The declaration to make now, if any: a suit its hand supports (its cards of the
        suit, level cards and jokers), a reinforcement of its own single, an override of
        the other team's weaker suit; at the window's end, a first hand's best suit."""
        mine = hand.hands[seat]
        held = sum(mine.values())
        level = hand.level
        standing = hand.standing
        window = hand.phase == "declare"
        if standing is not None and team_of(standing.seat) == team_of(seat):
            if standing.seat == seat and standing.strength == 1 and mine.get(standing.faces[0], 0) == 2:
                return (standing.faces[0],) * 2  # reinforce (T2.5)
            return None
        best: tuple[int, tuple[int, ...]] | None = None
        jokers = mine.get(SJ, 0) + mine.get(BJ, 0)
        levels = sum(mine.get(suit * 13 + level, 0) for suit in range(4))
        for suit in range(4):
            face = suit * 13 + level
            count = mine.get(face, 0)
            if not count:
                continue
            length = sum(c for f, c in mine.items() if f < SJ and f // 13 == suit and f % 13 != level)
            support = length + levels + jokers
            shown = (face,) * count
            if hand.declaration_problem(seat, shown) is not None:
                shown = (face,)
                if hand.declaration_problem(seat, shown) is not None:
                    continue
            if best is None or support > best[0]:
                best = (support, shown)
        for joker in (BJ, SJ):
            if mine.get(joker, 0) == 2 and hand.declaration_problem(seat, (joker, joker)) is None:
                support = jokers + levels + 2
                if best is None or support > best[0]:
                    best = (support, (joker, joker))
        if best is None:
            return None
        strength, shown = best
        need = (0.0 if window else max(4.0, 0.34 * held)) if standing is None else max(5.0, 0.4 * held)
        return shown if strength >= need and (held >= 6 or window) else None

    # -- burying -------------------------------------------------------------------

    def burial(self, hand: TractorHand, seat: int) -> tuple[int, ...]:
        """The cards to bury: side cards of the shortest side suits first, keeping trumps,
        pairs, point cards and aces."""
        order = hand.order
        assert order is not None
        mine = hand.hands[seat]
        lengths = [sum(count for face, count in mine.items() if order.eff[face] == suit) for suit in range(5)]
        tops = [len(order.tiers[suit]) for suit in range(5)]

        def worth(face: int) -> tuple[int, ...]:
            suit = order.eff[face]
            return (suit == TRUMP, mine[face] >= 2, POINTS[face] > 0, order.omega[face] >= tops[suit] - 1,
                    lengths[suit], order.omega[face])

        cards = sorted((face for face, count in mine.items() for _ in range(count)), key=worth)
        return tuple(cards[: len(hand.bottom)])

    # -- leading -------------------------------------------------------------------

    def lead(self, hand: TractorHand, seat: int) -> tuple[int, ...]:
        """A lead: a side suit's sure components (thrown together when there are several),
        then a sure trump structure, then the lowest card of the longest side suit."""
        order = hand.order
        assert order is not None
        mine = hand.hands[seat]
        hidden = unseen(hand, seat)
        voids = self._voids(hand)
        partner = (seat + 2) % 4
        opponents = [(seat + 1) % 4, (seat + 3) % 4]
        best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
        for suit in range(5):
            cards = _in_suit(mine, suit, order)
            if not cards:
                continue
            if suit != TRUMP and any(suit in voids[other] for other in opponents):
                continue
            others = _in_suit(hidden, suit, order)
            sure = [unit for unit in decompose(cards, order) if not beats_unit(unit, others, order)]
            if not sure:
                continue
            if suit == TRUMP:
                sure = [unit for unit in sure if unit.pairs >= 1]
                if not sure:
                    continue
            faces = tuple(face for unit in sure for face in unit.faces)
            rank = (sum(unit.pairs for unit in sure), len(faces))
            if best is None or rank > best[0]:
                best = (rank, faces)
        if best is not None:
            return best[1]
        side = [suit for suit in range(4) if _in_suit(mine, suit, order)]
        if side:
            favoured = [suit for suit in side if suit in voids[partner]
                        and not any(suit in voids[other] for other in opponents)]
            suits = favoured or side
            suit = max(suits, key=lambda s: sum(_in_suit(mine, s, order).values()))
            cards = _in_suit(mine, suit, order)
            singles = [face for face in cards if cards[face] == 1] or list(cards)
            low = min(singles, key=lambda face: (POINTS[face] > 0, order.omega[face]))
            return (low,)
        return _faces(hosting_lead(mine, order))

    @staticmethod
    def _voids(hand: TractorHand) -> list[set[int]]:
        """The effective suits each seat has shown it lacks (it followed a lead of the suit
        with other cards)."""
        order = hand.order
        assert order is not None
        voids: list[set[int]] = [set() for _ in range(4)]
        for trick in (*hand.tricks, None):
            plays = trick.plays if trick is not None else tuple(hand.trick)
            if not plays:
                continue
            suit = order.eff[plays[0][1][0]]
            for seat, faces in plays[1:]:
                if any(order.eff[face] != suit for face in faces):
                    voids[seat].add(suit)
        return voids

    # -- following -----------------------------------------------------------------

    def follow(self, hand: TractorHand, seat: int) -> tuple[int, ...]:
        """A follow: points for a partner who holds the trick, the cheapest play that wins a
        trick worth it, or the cheapest play that gives the fewest points."""
        order, lead = hand.order, hand.lead
        assert order is not None and lead is not None
        mine = hand.hands[seat]
        plays = [(other, counted(faces)) for other, faces in hand.trick]
        holder = trick_winner(lead, plays, order)
        last = len(plays) == 3
        at_stake = sum(POINTS[face] for _, faces in hand.trick for face in faces)
        candidates = self._candidates(hand, seat, plays, holder)

        def cost(play: Mapping[int, int]) -> tuple[int, int]:
            spent = sum(count * (order.omega[face] + (30 if order.eff[face] == TRUMP else 0)
                                 + (8 if mine[face] >= 2 and count == 1 else 0))
                        for face, count in play.items())
            return (sum(POINTS[face] * count for face, count in play.items()), spent)

        def wins(play: Mapping[int, int]) -> bool:
            return trick_winner(lead, [*plays, (seat, dict(play))], order) == seat

        if team_of(holder) == team_of(seat):
            safe = last or self._holds(hand, seat, holder, plays)
            if safe:
                return _faces(max(candidates, key=lambda play: (cost(play)[0], -cost(play)[1])))
            return _faces(min(candidates, key=lambda play: (cost(play)[1], cost(play)[0])))
        winning = [play for play in candidates if wins(play)]
        if winning:
            choice = min(winning, key=lambda play: cost(play)[1])
            worth = at_stake + cost(choice)[0]
            if worth >= 10 or last or lead.shape >= 1 or order.eff[next(iter(choice))] != TRUMP:
                return _faces(choice)
        return _faces(min(candidates, key=cost))

    def _holds(self, hand: TractorHand, seat: int, holder: int, plays: list[tuple[int, Counts]]) -> bool:
        """Whether the partner's play likely keeps the trick: the seats still to play hold
        nothing (as far as this seat can see) that beats it in its suit, and it is trump or
        nobody after is known void."""
        order, lead = hand.order, hand.lead
        assert order is not None and lead is not None
        played = dict(next(cards for other, cards in plays if other == holder))
        suit = order.eff[next(iter(played))]
        others = _in_suit(unseen(hand, seat), suit, order)
        key = key_of(played, lead.shape, order)
        shape = lead.shape
        if shape >= 2:
            tops = run_tops(profile_of(others, order), shape)
            beaten = bool(tops) and tops[-1] > key
        elif shape == 1:
            beaten = any(count >= 2 and order.omega[face] > key for face, count in others.items())
        else:
            beaten = any(order.omega[face] > key for face in others)
        if beaten:
            return False
        if suit == TRUMP:
            return True
        voids = self._voids(hand)
        after = [(seat + step) % 4 for step in range(1, 4 - len(plays))]
        return not any(lead.suit in voids[other] for other in after if team_of(other) != team_of(seat))

    def _candidates(self, hand: TractorHand, seat: int, plays: list[tuple[int, Counts]], holder: int) -> list[Counts]:
        order, lead = hand.order, hand.lead
        assert order is not None and lead is not None
        mine = hand.hands[seat]
        n = lead.size
        suited = _in_suit(mine, lead.suit, order)
        held = sum(suited.values())
        partial = hand.room.partial_tractor_follow
        if held > n:
            return list(islice(legal_follows(mine, lead, order, partial), 300))
        if held == n:
            return [suited]
        other = {face: count for face, count in mine.items() if face not in suited}
        short = n - held
        found = []
        for ranking in (self._discard_rank(other, order), self._feed_rank(other, order)):
            play = dict(suited)
            for face in islice(ranking, short):
                play[face] = play.get(face, 0) + 1
            found.append(play)
        if not held:
            trumping = self._trumping(hand, seat, plays, holder)
            if trumping is not None:
                found.append(trumping)
        return found

    @staticmethod
    def _discard_rank(cards: Mapping[int, int], order: Order) -> list[int]:
        faces = sorted(cards, key=lambda face: (order.eff[face] == TRUMP, POINTS[face] > 0, cards[face] >= 2,
                                                order.omega[face]))
        return [face for face in faces for _ in range(cards[face])]

    @staticmethod
    def _feed_rank(cards: Mapping[int, int], order: Order) -> list[int]:
        faces = sorted(cards, key=lambda face: (order.eff[face] == TRUMP, -POINTS[face], cards[face] >= 2,
                                                order.omega[face]))
        return [face for face in faces for _ in range(cards[face])]

    def _trumping(self, hand: TractorHand, seat: int, plays: list[tuple[int, Counts]], holder: int) -> Counts | None:
        """The cheapest all-trump play that matches the lead and beats the trick's holder
        (T8.1–T8.3), or None."""
        order, lead = hand.order, hand.lead
        assert order is not None and lead is not None
        trumps = _in_suit(hand.hands[seat], TRUMP, order)
        if sum(trumps.values()) < lead.size or lead.suit == TRUMP:
            return None
        held = dict(next(cards for other, cards in plays if other == holder))
        bar = key_of(held, lead.shape, order) if order.eff[next(iter(held))] == TRUMP else 0
        for key_play in self._key_structures(trumps, lead.shape, bar, order):
            play = self._fill(trumps, key_play, lead, order)
            if play is not None and matches(play, lead, order) and key_of(play, lead.shape, order) > bar:
                return play
        return None

    @staticmethod
    def _key_structures(cards: Counts, shape: int, bar: int, order: Order) -> list[Counts]:
        """Structures of the key shape in ``cards`` with a key above ``bar``, lowest first."""
        tiers = order.tiers[TRUMP]
        if shape == 0:
            return [{face: 1} for face in sorted(cards, key=lambda f: (order.omega[f], POINTS[f]))
                    if order.omega[face] > bar]
        if shape == 1:
            return [{face: 2} for face in sorted(cards, key=lambda f: order.omega[f])
                    if cards[face] >= 2 and order.omega[face] > bar]
        found = []
        for top in run_tops(profile_of(cards, order), shape):
            if top > bar:
                run = {}
                for omega in range(top - shape + 1, top + 1):
                    run[next(face for face in tiers[omega - 1] if cards.get(face, 0) >= 2)] = 2
                found.append(run)
        return found

    @staticmethod
    def _fill(cards: Counts, key_play: Counts, lead: Lead, order: Order) -> Counts | None:
        """``key_play`` completed to the lead's format with the lowest cards left: runs for
        the other tractors, pairs for the pairs, then singles."""
        play = dict(key_play)
        left = {face: count - play.get(face, 0) for face, count in cards.items() if count > play.get(face, 0)}
        units = list(lead.units[1:])
        for unit in units:
            if unit.pairs >= 2:
                tops = run_tops(profile_of(left, order), unit.pairs)
                if not tops:
                    return None
                for omega in range(tops[0] - unit.pairs + 1, tops[0] + 1):
                    face = next(f for f in order.tiers[TRUMP][omega - 1] if left.get(f, 0) >= 2)
                    play[face] = play.get(face, 0) + 2
                    left[face] -= 2
            elif unit.pairs == 1:
                pairs = sorted((face for face, count in left.items() if count >= 2), key=lambda f: order.omega[f])
                if not pairs:
                    return None
                play[pairs[0]] = play.get(pairs[0], 0) + 2
                left[pairs[0]] -= 2
        singles = sum(1 for unit in units if unit.pairs == 0)
        rest = sorted((face for face, count in left.items() for _ in range(count)),
                      key=lambda f: (POINTS[f] > 0, order.omega[f]))
        if len(rest) < singles:
            return None
        for face in rest[:singles]:
            play[face] = play.get(face, 0) + 1
        return play if sum(play.values()) == lead.size else None


def make_bot(name: str, seed: int | None = None) -> TractorBot:
    """A bot by name (:data:`BOTS`); ``ValueError`` naming them otherwise."""
    if name == "hosting":
        return HostingBot()
    if name == "greedy":
        return GreedyBot()
    if name == "random":
        return RandomBot(seed)
    raise ValueError(f"unknown bot {name!r}; choose from {', '.join(BOTS)}")
