"""Faces, effective suits and the order of cards in one hand of Tractor (T0, T1.3, T4).

A *face* is a card without its deck copy, as a small integer: ``suit × 13 + r`` for the
suited cards (suits S H C D = 0 1 2 3, ranks 2 3 … A = r 0 … 12), 52 for ``SJ`` and 53
for ``BJ``. Two copies of a face are the same card to every rule. Rule work happens on
faces and their counts (at most 2 of each); physical cards only at the edges.

An :class:`Order` is the order of one hand: its level rank ℓ, its trump suit (None for a
no-trump hand) and whether the 2s are constant trumps. It gives every face its effective
suit (:attr:`Order.eff`, 0–3 or :data:`TRUMP`) and its order index ω within that suit
(:attr:`Order.omega`, T4.4): equal cards share an ω, each higher tier the next one.

>>> order = Order.of(level=rank_index("10"), suit=0)          # level 10, ♠ trump
>>> [order.omega[face] for face in faces_of("BJ SJ 10S 10H 10C AS 2S")]
[16, 15, 14, 13, 13, 12, 1]
>>> order.eff[face_of_text("10H")] == TRUMP, order.eff[face_of_text("JH")]
(True, 1)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from ...cards import Card, CardParseError, Rank, Suit, parse_cards

__all__ = [
    "BJ",
    "FACES",
    "LEVEL_RANKS",
    "POINTS",
    "SJ",
    "SUITS",
    "TRUMP",
    "Order",
    "card_of_face",
    "face_of",
    "face_of_text",
    "face_text",
    "faces_of",
    "faces_text",
    "points_of",
    "rank_index",
    "rank_text",
    "suited_cards",
]

SUITS: tuple[Suit, ...] = tuple(Suit)
"""The suits in their order S H C D (T16.3): index 0 to 3."""

TRUMP = 4
"""The effective suit of every trump (T4.1)."""

SJ = 52
BJ = 53
FACES = 54

LEVEL_RANKS: tuple[str, ...] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
"""The ranks 2 to A, lowest first: a level's index is its place here (T1.2)."""

_RANKS = (Rank.TWO, *(Rank(value) for value in range(3, 15)))  # index r -> Rank
_R_OF_RANK = {rank: index for index, rank in enumerate(_RANKS)}
_SUIT_INDEX = {suit: index for index, suit in enumerate(SUITS)}


def rank_index(text: str) -> int:
    """The index of a rank written ``text`` (``"2"`` … ``"10"``, ``"J"`` … ``"A"``)."""
    try:
        return LEVEL_RANKS.index(text.upper())
    except ValueError:
        raise ValueError(f"a rank is one of {', '.join(LEVEL_RANKS)}, not {text!r}") from None


def rank_text(index: int) -> str:
    """The rank of index ``index`` as written (``"10"``)."""
    return LEVEL_RANKS[index]


def face_of(card: Card) -> int:
    """A card's face (its deck copy dropped); the card must have a suit unless a joker."""
    if card.rank is Rank.SMALL_JOKER:
        return SJ
    if card.rank is Rank.BIG_JOKER:
        return BJ
    if card.suit is None:
        raise CardParseError(f"{card} needs a suit (S, H, C or D)")
    return _SUIT_INDEX[card.suit] * 13 + _R_OF_RANK[card.rank]


def card_of_face(face: int, deck: int | None = None) -> Card:
    """The card of a face, with a deck copy when given."""
    if face == SJ:
        return Card(Rank.SMALL_JOKER, None, deck)
    if face == BJ:
        return Card(Rank.BIG_JOKER, None, deck)
    return Card(_RANKS[face % 13], SUITS[face // 13], deck)


_FACE_TEXT = tuple(str(card_of_face(face)) for face in range(FACES))


def face_text(face: int) -> str:
    """``"10H"``, ``"SJ"``."""
    return _FACE_TEXT[face]


def suited_cards(text: str) -> list[Card]:
    """The cards of a card string in which every card but a joker has its suit (T0.1):
    ``"10H 10H SJ"``; :class:`CardParseError` naming a card without one."""
    return parse_cards(text, suited=True)


def faces_of(text: str) -> list[int]:
    """The faces of a card string (:func:`suited_cards`), in its order."""
    return [face_of(card) for card in suited_cards(text)]


def face_of_text(text: str) -> int:
    """The face of one card written ``text``."""
    faces = faces_of(text)
    if len(faces) != 1:
        raise CardParseError(f"expected one card, found {len(faces)} in {text!r}")
    return faces[0]


def faces_text(faces: Iterable[int]) -> str:
    """Faces as a card string, in the order given."""
    return " ".join(_FACE_TEXT[face] for face in faces)


POINTS: tuple[int, ...] = tuple(
    0 if face >= SJ else {3: 5, 8: 10, 11: 10}.get(face % 13, 0) for face in range(FACES)
)
"""Each face's card points: 5 for a 5, 10 for a 10 or a K, 0 otherwise (T1.3)."""


def points_of(faces: Iterable[int]) -> int:
    """The card points of some faces (T1.3)."""
    return sum(POINTS[face] for face in faces)


@dataclass(frozen=True, slots=True, eq=False)
class Order:
    """The order of cards in one hand (T4): level rank index ``level`` (0 = ``"2"``),
    trump suit ``suit`` (0–3, None: no trump) and the constant 2 (T4.3).

    - ``eff[face]``: the effective suit, 0–3 or :data:`TRUMP` (T4.1);
    - ``omega[face]``: the order index within it, 1 for the lowest tier (T4.4);
    - ``tiers[eff]``: per effective suit, the faces of each ω (index ω − 1), in suit order;
    - ``hosting_key[face]``: T11.2's ranking (non-trump first, non-point first, lower ω,
      then suit S H C D).
    """

    level: int
    suit: int | None
    two_constant: bool
    eff: tuple[int, ...]
    omega: tuple[int, ...]
    tiers: tuple[tuple[tuple[int, ...], ...], ...]
    hosting_key: tuple[tuple[int, int, int, int], ...]

    @staticmethod
    def of(level: int, suit: int | None, two_constant: bool = False) -> Order:
        """The order of a hand at level ``level`` with trump ``suit`` (cached: few exist)."""
        return _order(level, suit, two_constant)

    def is_trump(self, face: int) -> bool:
        """Whether ``face`` is a trump in this hand (T4.1)."""
        return self.eff[face] == TRUMP

    def display_key(self, face: int) -> tuple[int, int, int]:
        """A hand's display order: side suits S H C D, then trumps; high cards first in each."""
        return (self.eff[face], -self.omega[face], face // 13)


def _tiers_of_suit(suit: int, level: int, two_constant: bool) -> list[list[int]]:
    """A side suit's cards from the lowest, one face per tier (T4.2)."""
    return [[suit * 13 + r] for r in range(13) if r != level and not (two_constant and r == 0)]


@cache
def _order(level: int, suit: int | None, two_constant: bool) -> Order:
    if not 0 <= level < 13 or suit not in (None, 0, 1, 2, 3):
        raise ValueError(f"no order for level {level} and trump suit {suit}")
    constant = two_constant and level != 0  # at level 2 both settings coincide (T4.3)
    tiers: list[list[list[int]]] = [[] for _ in range(5)]
    for side in range(4):
        if side != suit:
            tiers[side] = _tiers_of_suit(side, level, constant)
    trump: list[list[int]] = _tiers_of_suit(suit, level, constant) if suit is not None else []
    if constant:
        if suit is None:
            trump.append([s * 13 for s in range(4)])
        else:
            trump.append([s * 13 for s in range(4) if s != suit])
            trump.append([suit * 13])
    if suit is None:
        trump.append([s * 13 + level for s in range(4)])
    else:
        trump.append([s * 13 + level for s in range(4) if s != suit])
        trump.append([suit * 13 + level])
    trump.extend(([SJ], [BJ]))
    tiers[TRUMP] = trump
    eff = [0] * FACES
    omega = [0] * FACES
    for effective, suit_tiers in enumerate(tiers):
        for index, tier in enumerate(suit_tiers):
            for face in tier:
                eff[face], omega[face] = effective, index + 1
    hosting = tuple(
        (int(eff[face] == TRUMP), int(POINTS[face] > 0), omega[face], min(face // 13, 4)) for face in range(FACES)
    )
    return Order(
        level, suit, constant, tuple(eff), tuple(omega),
        tuple(tuple(tuple(tier) for tier in suit_tiers) for suit_tiers in tiers), hosting,
    )
