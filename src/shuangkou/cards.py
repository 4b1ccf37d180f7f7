"""Cards, ranks, suits, the 108-card double deck, and card strings (RULES §0, R1.2).

All rule work happens on *counts*: a tuple of 15 integers, one per rank slot
``3 4 5 6 7 8 9 10 J Q K A 2 SJ BJ`` (slot = rank value − 3). Physical cards
(rank, suit, deck copy) only matter at the edges: dealing, display, and which
exact cards leave a hand.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, IntEnum
from functools import lru_cache
from itertools import chain, repeat
from operator import getitem

__all__ = [
    "DECK",
    "EMPTY",
    "HAND_SIZE",
    "MAX_PACKS",
    "NUM_SLOTS",
    "Card",
    "CardParseError",
    "Counts",
    "Rank",
    "Suit",
    "cards_from_counts",
    "counts_of",
    "format_cards",
    "format_counts",
    "parse_card",
    "parse_cards",
    "parse_counts",
]

Counts = tuple[int, ...]
"""Cards per rank slot: index ``rank - 3`` for ranks 3..BJ (15 slots)."""

NUM_SLOTS = 15
EMPTY: Counts = (0,) * NUM_SLOTS

HAND_SIZE = 27
"""Cards dealt to each player (R1.3)."""

MAX_PACKS = 4
"""The most packs a game plays with (Royalist's four, Y1.2): a card's ``deck`` copy is below it."""
_DECK_COPIES = (None, *range(MAX_PACKS))


class Rank(IntEnum):
    """Card ranks in game order (RULES §0): 3 lowest, then up to 2, SJ, BJ."""

    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    TWO = 15
    SMALL_JOKER = 16
    BIG_JOKER = 17

    @property
    def symbol(self) -> str:
        """The rank as written in card strings: ``3`` … ``10``, ``J`` … ``2``, ``SJ``, ``BJ``."""
        return _RANK_SYMBOLS[self.value - 3]

    @property
    def is_joker(self) -> bool:
        """True for SJ and BJ."""
        return self.value >= Rank.SMALL_JOKER

    @property
    def slot(self) -> int:
        """Index of this rank in a :data:`Counts` tuple."""
        return self.value - 3

    @classmethod
    def from_symbol(cls, symbol: str) -> Rank:
        """The rank written ``symbol`` (case-insensitive; ``T`` means 10)."""
        try:
            return _SYMBOL_RANKS[symbol.upper()]
        except KeyError:
            raise CardParseError(f"unknown rank {symbol!r}") from None


_RANK_SYMBOLS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ")
_SYMBOL_RANKS = {symbol: Rank(index + 3) for index, symbol in enumerate(_RANK_SYMBOLS)}
_SYMBOL_RANKS["T"] = Rank.TEN


class Suit(Enum):
    """Suits exist for display and card identity only; no rule looks at a suit (R3.7)."""

    SPADES = "S"
    HEARTS = "H"
    CLUBS = "C"
    DIAMONDS = "D"

    @property
    def glyph(self) -> str:
        """The suit symbol ♠ ♥ ♣ ♦."""
        return _SUIT_GLYPHS[self]


_SUIT_GLYPHS = {Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.CLUBS: "♣", Suit.DIAMONDS: "♦"}
_GLYPH_SUITS = {glyph: suit for suit, glyph in _SUIT_GLYPHS.items()}
# A card's text by suit, then rank slot: every view shows the hand card by card.
_CARD_TEXT: dict[Suit | None, tuple[str, ...]] = {
    suit: tuple(symbol + (suit.value if suit else "") for symbol in _RANK_SYMBOLS) for suit in (None, *Suit)
}


class CardParseError(ValueError):
    """A card string that names no card."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """One card. ``suit`` is None for jokers and for cards written without a suit;
    ``deck`` (0 to 3) tells the physical copies apart — two packs in Shuangkou (R1.2), four
    in Royalist (Y1.2) — and is None when unknown.
    Cards are equal when rank, suit and deck are."""

    rank: Rank
    suit: Suit | None = None
    deck: int | None = None

    # Written out rather than generated: hands are searched card by card (a played card is
    # removed from a list), and these skip the field tuples the generated ones build.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.rank == other.rank and self.suit is other.suit and self.deck == other.deck

    def __hash__(self) -> int:
        return hash((self.rank, self.suit, self.deck))

    def __post_init__(self) -> None:
        if self.rank.is_joker and self.suit is not None:
            raise CardParseError(f"a joker has no suit: {self.rank.symbol}{self.suit.value}")
        if self.deck not in _DECK_COPIES:
            raise CardParseError(f"deck copy must be 0 to {MAX_PACKS - 1}, not {self.deck!r}")

    def __str__(self) -> str:
        return _CARD_TEXT[self.suit][self.rank - 3]

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """Rank, then suit (S H C D, none first), then deck copy."""
        suit_index = _SUIT_ORDER[self.suit] if self.suit else -1
        return (self.rank, suit_index, -1 if self.deck is None else self.deck)

    def __lt__(self, other: Card) -> bool:
        return self.sort_key < other.sort_key


_SUIT_ORDER = {suit: index for index, suit in enumerate(Suit)}


def _build_deck() -> tuple[Card, ...]:
    cards = []
    for deck in (0, 1):
        for rank in Rank:
            if rank.is_joker:
                cards.append(Card(rank, None, deck))
            else:
                cards.extend(Card(rank, suit, deck) for suit in Suit)
    return tuple(sorted(cards))


DECK: tuple[Card, ...] = _build_deck()
"""The 108 physical cards of two full decks (R1.2), sorted."""

# A token is a joker, or a rank with an optional suit. Jokers are tried first, so in
# run-together text "5SJ" is 5 + SJ; write "JS" for the jack of spades.
_TOKEN = re.compile(
    r"\s*(?:(?P<joker>SJ|BJ)|(?P<rank>10|[2-9TJQKA])(?P<suit>[SHCD♠♥♣♦](?!J))?)\s*,?",
    re.IGNORECASE,
)


def parse_card(text: str) -> Card:
    """Parse one card: ``"10H"``, ``"T"``, ``"QS"``, ``"3"``, ``"SJ"``, ``"BJ"``.

    >>> parse_card("10h")
    Card(rank=<Rank.TEN: 10>, suit=<Suit.HEARTS: 'H'>, deck=None)
    """
    cards = parse_cards(text)
    if len(cards) != 1:
        raise CardParseError(f"expected one card, found {len(cards)} in {text!r}")
    return cards[0]


def parse_cards(text: str | Iterable[str], *, suited: bool = False) -> list[Card]:
    """Parse a card string such as ``"3 3 4 4 5 BJ"`` or ``"33445 BJ"``.

    Cards may be separated by spaces or commas or written together; case is ignored;
    suits are optional (``S H C D`` or ``♠ ♥ ♣ ♦``) unless ``suited``, for the games where
    suits matter (Tractor): then a card other than a joker without its suit is refused. A
    plain ``J`` is always the Jack. Raises :class:`CardParseError` naming the first
    unreadable character.

    >>> [str(card) for card in parse_cards("5678 SJ")]
    ['5', '6', '7', '8', 'SJ']
    >>> [str(card) for card in parse_cards("10H QS BJ", suited=True)]
    ['10H', 'QS', 'BJ']
    """
    if not isinstance(text, str):
        return [card for part in text for card in parse_cards(part, suited=suited)]
    cards: list[Card] = []
    position = 0
    stripped = text.rstrip()
    while position < len(stripped):
        match = _TOKEN.match(stripped, position)
        if match is None or match.end() == position:
            found = stripped[position:].lstrip()[:3]
            raise CardParseError(f"cannot read a card at position {position} of {text!r}: {found!r}")
        if match.group("joker"):
            cards.append(Card(Rank.from_symbol(match.group("joker"))))
        else:
            suit_text = match.group("suit")
            suit = None
            if suit_text:
                suit = _GLYPH_SUITS.get(suit_text) or Suit(suit_text.upper())
            elif suited:
                rank = match.group("rank").upper()
                raise CardParseError(f"{rank} needs its suit (S, H, C or D), as in {rank}H, in {text!r}")
            cards.append(Card(Rank.from_symbol(match.group("rank")), suit))
        position = match.end()
    return cards


def counts_of(cards: Iterable[Card | Rank]) -> Counts:
    """Cards per rank slot."""
    counts = [0] * NUM_SLOTS
    for card in cards:
        rank = card.rank if isinstance(card, Card) else card
        counts[rank - 3] += 1
    return tuple(counts)


def parse_counts(text: str) -> Counts:
    """Parse a card string straight to counts."""
    return counts_of(parse_cards(text))


def cards_from_counts(counts: Counts) -> list[Card]:
    """Suitless cards for ``counts``, lowest rank first."""
    return list(_suitless_cards(counts))


@lru_cache(maxsize=1 << 12)
def _suitless_cards(counts: Counts) -> tuple[Card, ...]:
    """Suitless cards for ``counts``, kept for the sets played most."""
    return tuple(chain.from_iterable(map(repeat, _SUITLESS, counts)))


_SUITLESS = tuple(Card(Rank(slot + 3)) for slot in range(NUM_SLOTS))


def format_counts(counts: Counts) -> str:
    """``"3 3 4 4 5 BJ"`` for counts, lowest rank first."""
    try:
        return " ".join(filter(None, map(getitem, _SYMBOL_RUNS, counts)))  # a rank's cards at once
    except IndexError:  # more cards of a rank than two decks hold
        return " ".join(_RANK_SYMBOLS[slot] for slot, count in enumerate(counts) for _ in range(count))


_SYMBOL_RUNS = tuple(tuple(" ".join((symbol,) * count) for count in range(9)) for symbol in _RANK_SYMBOLS)
"""``[slot][count]``: the text of ``count`` cards of the slot's rank, up to the eight two decks hold."""


def format_cards(cards: Iterable[Card]) -> str:
    """Cards joined by spaces, as given."""
    return " ".join(str(card) for card in cards)
