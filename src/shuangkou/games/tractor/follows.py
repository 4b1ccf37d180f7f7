"""Following a lead (T7): the duties of a follow, every legal follow, and the hosting
follow (T11.2).

Let n be the cards led, S the follower's cards of the led effective suit and C the play.
C holds min(n, |S|) cards of S (T7.2); when |S| > n, C ∩ S reaches τ(S) (T7.3, T16.1)
and holds min(P(L), pairs(S)) pairs (T7.4). Only the pairs of C decide both: a follow is
its *doubled* faces D (pairs(C) = |D|, τ(C) = τ(D)) and its singles. So
:func:`legal_follows` chooses D among the subsets of S's pairs that meet the duties, then
the singles among the other faces of S, and each follow comes out once: sound and
complete by construction (``tests/test_tractor_follows.py`` checks it against a
brute-force reading of T7 over every subset of small hands).

>>> from collections import Counter
>>> from .formats import Lead, counted
>>> from .order import Order, faces_of, faces_text, rank_index
>>> order = Order.of(rank_index("10"), 0)
>>> lead = Lead.of(counted(faces_of("5H 5H")), order)
>>> hand = counted(faces_of("9H 9H 7H 3H 4S"))
>>> problem = follow_problem(hand, counted(faces_of("7H 3H")), lead, order)
>>> problem
FollowProblem(rule='T7.4', need=1, given=0)
>>> str(problem)
'a pair of the led suit must be played: 1 held, 0 played (T7.4)'
>>> [faces_text(sorted(play.elements())) for play in map(Counter, legal_follows(hand, lead, order))]
['9H 9H']
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Literal

from .formats import Counts, Lead, best_runs, pair_count, profile_of, tau
from .order import Order

__all__ = ["FollowProblem", "follow_problem", "hosting_follow", "hosting_lead", "legal_follows", "only_follow"]


def _split(hand: Mapping[int, int], lead: Lead, order: Order) -> tuple[Counts, Counts]:
    """The hand's cards of the led effective suit, and the others."""
    suited: Counts = {}
    other: Counts = {}
    for face, count in hand.items():
        (suited if order.eff[face] == lead.suit else other)[face] = count
    return suited, other


@dataclass(frozen=True)
class FollowProblem:
    """The duty of T7 a follow breaks: ``need`` of what the rule counts (cards, cards of the
    led suit, pairs in runs, pairs), ``given`` in the play. ``str()`` says it in words."""

    rule: Literal["T7.1", "T7.2", "T7.3", "T7.4"]
    need: int
    given: int

    def __str__(self) -> str:
        if self.rule == "T7.1":
            return f"a follow has as many cards as the lead: {self.need}, not {self.given} (T7.1)"
        if self.rule == "T7.2":
            return f"{self.need} cards of the led suit must be played, not {self.given} (T7.2)"
        if self.rule == "T7.3":
            return (f"the tractors of the led suit must be played: {self.need} pairs in runs held, "
                    f"{self.given} played (T7.3)")
        noun = "a pair" if self.need == 1 else f"{self.need} pairs"
        return f"{noun} of the led suit must be played: {self.need} held, {self.given} played (T7.4)"


def follow_problem(
    hand: Mapping[int, int], play: Mapping[int, int], lead: Lead, order: Order, partial: bool = True
) -> FollowProblem | None:
    """The duty of T7.1–T7.4 that ``play`` (cards of ``hand``) breaks as a follow of
    ``lead``, or None when it is legal. ``partial``: ``partial_tractor_follow`` (T7.3)."""
    n = lead.size
    played = sum(play.values())
    if played != n:
        return FollowProblem("T7.1", n, played)
    suited, _ = _split(hand, lead, order)
    held = sum(suited.values())
    inside = {face: count for face, count in play.items() if order.eff[face] == lead.suit}
    given = sum(inside.values())
    if given < min(n, held):
        return FollowProblem("T7.2", min(n, held), given)
    if held <= n:
        return None
    tractors = lead.tractors
    if tractors:
        needed = tau(profile_of(suited, order), tractors, not partial)
        made = tau(profile_of(inside, order), tractors, not partial)
        if made < needed:
            return FollowProblem("T7.3", needed, made)
    pairs_needed = min(lead.pairs, pair_count(suited))
    pairs_made = pair_count(inside)
    if pairs_made < pairs_needed:
        return FollowProblem("T7.4", pairs_needed, pairs_made)
    return None


def _multisets(counts: Counts, size: int) -> Iterator[Counts]:
    """Every sub-multiset of ``size`` cards of ``counts``, each once."""
    faces = sorted(counts)

    def walk(index: int, left: int, chosen: Counts) -> Iterator[Counts]:
        if left == 0:
            yield dict(chosen)
            return
        if index == len(faces) or sum(counts[face] for face in faces[index:]) < left:
            return
        face = faces[index]
        for take in range(min(counts[face], left), -1, -1):
            if take:
                chosen[face] = take
            yield from walk(index + 1, left - take, chosen)
            chosen.pop(face, None)

    yield from walk(0, size, {})


def legal_follows(
    hand: Mapping[int, int], lead: Lead, order: Order, partial: bool = True
) -> Iterator[Counts]:
    """Every legal follow of ``lead`` from ``hand`` (T7), each set of faces once."""
    n = lead.size
    suited, other = _split(hand, lead, order)
    held = sum(suited.values())
    if held <= n:
        for rest in _multisets(other, n - held):
            yield {**suited, **rest}
        return
    doubles = sorted(face for face, count in suited.items() if count >= 2)
    pairs_needed = min(lead.pairs, len(doubles))
    tractors = lead.tractors
    needed = tau(profile_of(suited, order), tractors, not partial) if tractors else 0
    for size in range(pairs_needed, min(len(doubles), n // 2) + 1):
        for doubled in combinations(doubles, size):
            play = dict.fromkeys(doubled, 2)
            if tractors and tau(profile_of(play, order), tractors, not partial) < needed:
                continue
            pool = [face for face in sorted(suited) if face not in play]
            for singles in combinations(pool, n - 2 * size):
                yield {**play, **dict.fromkeys(singles, 1)}


def only_follow(hand: Mapping[int, int], lead: Lead, order: Order, partial: bool = True) -> Counts | None:
    """The one legal follow when there is exactly one (T7.8), else None."""
    found = None
    for play in legal_follows(hand, lead, order, partial):
        if found is not None:
            return None
        found = play
    return found


def _ranked(counts: Mapping[int, int], order: Order) -> list[int]:
    """The cards one by one in T11.2's ranking."""
    return [face for face in sorted(counts, key=order.hosting_key.__getitem__) for _ in range(counts[face])]


def hosting_lead(hand: Mapping[int, int], order: Order) -> Counts:
    """The hosting lead (T11.2): the first single in T11.2's ranking."""
    return {_ranked(hand, order)[0]: 1}


def hosting_follow(hand: Mapping[int, int], lead: Lead, order: Order, partial: bool = True) -> Counts:
    """The hosting follow (T11.2, built as T7.5): the required runs (lowest tops first), the
    required pairs (lowest first), then the rest of S in T11.2's ranking, then the other
    cards in that ranking."""
    n = lead.size
    suited, other = _split(hand, lead, order)
    play: Counts = {}

    def take(face: int, count: int = 1) -> None:
        play[face] = play.get(face, 0) + count

    if sum(suited.values()) > n:
        profile = profile_of(suited, order)
        for length, top in best_runs(profile, lead.tractors, not partial) if lead.tractors else ():
            for omega in range(top - length + 1, top + 1):
                face = next(face for face in order.tiers[lead.suit][omega - 1]
                            if suited.get(face, 0) - play.get(face, 0) >= 2)
                take(face, 2)
        pairs_needed = min(lead.pairs, pair_count(suited)) - pair_count(play)
        spare = sorted((face for face, count in suited.items() if count >= 2 and face not in play),
                       key=order.hosting_key.__getitem__)
        for face in spare[:max(pairs_needed, 0)]:
            take(face, 2)
    for source in (suited, other):
        left = {face: count - play.get(face, 0) for face, count in source.items() if count > play.get(face, 0)}
        for face in _ranked(left, order):
            if sum(play.values()) == n:
                break
            take(face)
    return play
