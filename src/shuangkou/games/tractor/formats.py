"""Combinations and what a play is worth (T5, T6.3–T6.4, T8): pairs, tractors, the
decomposition of a set of cards into components, the throw check, the forced component of
a failed throw, matching a lead and the key of a play.

Cards are faces (:mod:`.order`) counted in a ``dict`` face → count (1 or 2). A set of
cards of one effective suit has a *pair profile*: for each ω, how many pairs it holds of
that tier (a tier of several faces, such as the side-level cards, may hold several). A
*run* is k ≥ 2 consecutive ω with a pair each: a tractor (T5.3). Every question of T5–T8
is a small search over profiles of at most 18 tiers.

>>> from .order import Order, faces_of, rank_index
>>> order = Order.of(rank_index("10"), 0)
>>> [unit.kind for unit in decompose(counted(faces_of("JH JH 9H 9H 8H")), order)]
['tractor', 'single']
>>> [unit.kind for unit in decompose(counted(faces_of("10S 10S 10H 10H AS AS")), order)]
['tractor']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .order import TRUMP, Order, faces_text

__all__ = [
    "Counts",
    "Lead",
    "Unit",
    "beaten_units",
    "best_runs",
    "counted",
    "decompose",
    "forced_unit",
    "key_of",
    "matches",
    "pair_count",
    "profile_of",
    "run_tops",
    "suit_of",
    "tau",
]

Counts = dict[int, int]
"""Cards as face → count (1 or 2)."""

ForcedRule = Literal["lowest", "smallest"]


def counted(faces: Iterable[int]) -> Counts:
    """Faces counted."""
    return dict(Counter(faces))


def suit_of(counts: Mapping[int, int], order: Order) -> int | None:
    """The effective suit of a set of cards, or None when they span two (or none)."""
    suits = {order.eff[face] for face in counts}
    return suits.pop() if len(suits) == 1 else None


@dataclass(frozen=True, slots=True)
class Unit:
    """One component of a decomposition (T5.5): a single (``pairs`` 0), a pair (1) or a
    tractor of ``pairs`` ≥ 2 pairs; ``top`` its highest ω; ``faces`` its cards, highest
    first (a pair's face twice)."""

    pairs: int
    top: int
    faces: tuple[int, ...]

    @property
    def kind(self) -> str:
        """``"single"``, ``"pair"`` or ``"tractor"``."""
        return ("single", "pair")[self.pairs] if self.pairs < 2 else "tractor"

    @property
    def size(self) -> int:
        """Cards in it."""
        return len(self.faces)

    @property
    def suit_rank(self) -> int:
        """The suit order of its top card (S H C D first, T16.3; jokers after)."""
        return min(self.faces[0] // 13, 4)

    def view(self) -> dict[str, object]:
        """``{"kind": "tractor", "pairs": 2, "cards": "JH JH 9H 9H"}``."""
        return {"kind": self.kind, "pairs": self.pairs, "cards": faces_text(self.faces)}


def decompose(counts: Mapping[int, int], order: Order) -> list[Unit]:
    """The components of cards of one effective suit (T5.5): tractors as long as possible
    (the layered scan: layer i takes the i-th pair of each ω, in suit order S H C D, and its
    runs of consecutive ω are tractors, T16.3), then the other pairs, then the singles.
    Tractors longest first, each kind highest first."""
    pairs_at: dict[int, list[int]] = {}
    singles: list[int] = []
    for face, count in counts.items():
        if count >= 2:
            pairs_at.setdefault(order.omega[face], []).append(face)
        if count % 2:
            singles.append(face)
    for faces in pairs_at.values():
        faces.sort()
    units: list[Unit] = []
    layer = 0
    while True:
        omegas = sorted(omega for omega, faces in pairs_at.items() if len(faces) > layer)
        if not omegas:
            break
        start = 0
        for index in range(1, len(omegas) + 1):
            if index == len(omegas) or omegas[index] != omegas[index - 1] + 1:
                run = omegas[start:index][::-1]
                run_faces = tuple(face for omega in run for face in (pairs_at[omega][layer],) * 2)
                units.append(Unit(len(run), run[0], run_faces))
                start = index
        layer += 1
    units.extend(Unit(0, order.omega[face], (face,)) for face in singles)
    units.sort(key=lambda unit: (-unit.pairs, -unit.top, unit.suit_rank))
    return units


def profile_of(counts: Mapping[int, int], order: Order) -> tuple[int, ...]:
    """The pair profile: pairs per ω (index ω; index 0 unused), as long as the highest ω
    with a pair + 1."""
    tiers: Counter[int] = Counter(order.omega[face] for face, count in counts.items() if count >= 2)
    if not tiers:
        return ()
    profile = [0] * (max(tiers) + 1)
    for omega, pairs in tiers.items():
        profile[omega] = pairs
    return tuple(profile)


def pair_count(counts: Mapping[int, int]) -> int:
    """The pairs in a set of cards, inside tractors or not (T7.4)."""
    return sum(1 for count in counts.values() if count >= 2)


def run_tops(profile: Sequence[int], length: int) -> list[int]:
    """The tops of every run of ``length`` consecutive ω with a pair each, part of a longer
    run included, lowest first."""
    tops = []
    streak = 0
    for omega in range(1, len(profile)):
        streak = streak + 1 if profile[omega] else 0
        if streak >= length:
            tops.append(omega)
    return tops


@lru_cache(maxsize=1 << 16)
def best_runs(profile: tuple[int, ...], tractors: tuple[int, ...], exact: bool) -> tuple[tuple[int, int], ...]:
    """Disjoint runs of ``profile``, each matched to a different tractor length of
    ``tractors`` and 2 to that length long (exactly that length when ``exact``), with the
    largest total length; lowest tops first among the best. Each run as (length, top).
    (T7.3, T8.1, T16.1)"""
    if not tractors or sum(profile) < 2:
        return ()
    first, rest = tractors[0], tractors[1:]
    best = best_runs(profile, rest, exact)
    best_total = sum(length for length, _ in best)
    for length in (first,) if exact else range(first, 1, -1):
        if best_total >= length + sum(rest):  # no shorter first run can do better
            break
        for top in run_tops(profile, length):
            reduced = list(profile)
            for omega in range(top - length + 1, top + 1):
                reduced[omega] -= 1
            others = best_runs(tuple(reduced), rest, exact)
            total = length + sum(run for run, _ in others)
            if total > best_total:
                best, best_total = ((length, top), *others), total
    return best


def tau(profile: tuple[int, ...], tractors: tuple[int, ...], exact: bool = False) -> int:
    """τ (T7.3, T16.1): the largest total length of disjoint runs of ``profile`` matched to
    different led tractors."""
    return sum(length for length, _ in best_runs(profile, tractors, exact))


@dataclass(frozen=True, slots=True)
class Lead:
    """What a trick's lead asks of every follow: its effective ``suit``, its ``units``
    (T5.5), its ``size`` n; derived: the tractor lengths, P(L) and the key shape."""

    suit: int
    units: tuple[Unit, ...]

    @staticmethod
    def of(counts: Mapping[int, int], order: Order) -> Lead:
        """The lead of these cards (one effective suit)."""
        suit = suit_of(counts, order)
        if suit is None:
            raise ValueError(f"cards of two effective suits are no lead: {faces_text(counts)}")
        return Lead(suit, tuple(decompose(counts, order)))

    @property
    def size(self) -> int:
        """n: the cards led."""
        return sum(unit.size for unit in self.units)

    @property
    def tractors(self) -> tuple[int, ...]:
        """The lengths of its tractors, longest first."""
        return tuple(unit.pairs for unit in self.units if unit.pairs >= 2)

    @property
    def pair_units(self) -> int:
        """Its pair components (T16.2)."""
        return sum(1 for unit in self.units if unit.pairs == 1)

    @property
    def pairs(self) -> int:
        """P(L): every pair, those inside tractors too (T7.4)."""
        return sum(unit.pairs for unit in self.units)

    @property
    def shape(self) -> int:
        """The key shape (T8.2): the pairs of its largest component (0 single, 1 pair, k)."""
        return max(unit.pairs for unit in self.units)

    @property
    def largest(self) -> Unit:
        """Its largest component (T9.2): the first of the decomposition."""
        return self.units[0]

    @property
    def faces(self) -> tuple[int, ...]:
        """Its cards, component by component."""
        return tuple(face for unit in self.units for face in unit.faces)


def matches(counts: Mapping[int, int], lead: Lead, order: Order) -> bool:
    """Whether a play matches the lead (T8.1, T16.2): all in one effective suit, the lead's
    or trump, and every tractor and every pair component of the lead given its own part of
    the play — k consecutive pairs, a pair — no card used twice."""
    suit = suit_of(counts, order)
    if suit is None or suit not in (lead.suit, TRUMP):
        return False
    profile = profile_of(counts, order)
    tractors = lead.tractors
    if tau(profile, tractors, exact=True) < sum(tractors):
        return False
    return sum(profile) - sum(tractors) >= lead.pair_units


def key_of(counts: Mapping[int, int], shape: int, order: Order) -> int:
    """The key of a play for a lead of key shape ``shape`` (T8.2): the highest top of a run
    of ``shape`` pairs, the highest pair, or the highest card; 0 when it has none."""
    if shape >= 2:
        tops = run_tops(profile_of(counts, order), shape)
        return tops[-1] if tops else 0
    if shape == 1:
        return max((order.omega[face] for face, count in counts.items() if count >= 2), default=0)
    return max((order.omega[face] for face in counts), default=0)


def beats_unit(unit: Unit, counts: Mapping[int, int], order: Order) -> bool:
    """Whether cards of the led suit (another seat's) beat one component of a throw (T6.3):
    a greater card for a single, a greater pair for a pair, as many consecutive pairs with a
    greater top for a tractor."""
    if unit.pairs == 0:
        return any(order.omega[face] > unit.top for face in counts)
    if unit.pairs == 1:
        return any(count >= 2 and order.omega[face] > unit.top for face, count in counts.items())
    tops = run_tops(profile_of(counts, order), unit.pairs)
    return bool(tops) and tops[-1] > unit.top


def beaten_units(units: Sequence[Unit], others: Sequence[Mapping[int, int]], order: Order) -> list[Unit]:
    """The components of a throw that another seat beats (T6.3): ``others`` are the other
    seats' cards of the led effective suit (a void seat's trumps never count)."""
    return [unit for unit in units if any(beats_unit(unit, cards, order) for cards in others)]


def forced_unit(beaten: Sequence[Unit], rule: ForcedRule) -> Unit:
    """The component a failed throw plays (T6.4, T16.3): the lowest top, fewer cards on a
    tie (``"lowest"``), or the fewest cards, then the lowest top (``"smallest"``); then the
    first in suit order S H C D."""
    if rule == "smallest":
        return min(beaten, key=lambda unit: (unit.size, unit.top, unit.suit_rank))
    return min(beaten, key=lambda unit: (unit.top, unit.size, unit.suit_rank))
