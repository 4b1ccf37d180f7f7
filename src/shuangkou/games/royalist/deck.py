"""Royalist's cards (Y0, Y1): the decks of four packs (168, 216 and 165 cards), the marked
emperor and guard cards, card strings with their marks, the deal, the physical cards a
hand-built deal or a play names, and the cards an emperor may call (Y9).

Cards are the shared :class:`~shuangkou.cards.Card` with a pack copy 0..3. The marked
cards (:class:`MarkedCard`, written with a star) are the big and the small joker of pack
0: ``BJ*`` (the emperor card) and ``SJ*`` (the guard card), which in play are the jokers
they are (Y4.1); in a room with ``guard_card = "called"`` there is no ``SJ*``, and the
called card's fourth copy becomes the marked 保子牌 when the emperor calls it (``7H*``,
worth 18, Y9).

>>> [card_text(card) for card in parse_hand("BJ* 9 9 SJ 7H*")]
['9', '9', 'SJ', 'BJ*', '7H*']
>>> len(deck_of("168")), len(deck_of("216")), len(deck_of("165"))
(168, 216, 168)
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ...cards import Card, CardParseError, Rank, Suit, parse_cards

__all__ = [
    "EMPEROR_CARD",
    "GUARD_CARD",
    "DeckKind",
    "GuardCard",
    "MarkedCard",
    "callable_cards",
    "card_text",
    "cards_text",
    "deal_cards",
    "deck_of",
    "default_call",
    "draw_hands",
    "is_called_card",
    "marked_cards",
    "parse_hand",
    "take_cards",
]

DeckKind = Literal["168", "216", "165"]
GuardCard = Literal["marked", "called"]


@dataclass(frozen=True, slots=True, eq=False)
class MarkedCard(Card):
    """A card written with a star: ``BJ*`` (the emperor card), ``SJ*`` (the guard card) or
    the called guard card once called (``7H*``, the 保子牌, Y9). Never equal to the unmarked
    card of its rank, suit and pack; a marked natural card sorts above every joker (it is
    worth 18)."""

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return (isinstance(other, MarkedCard) and self.rank == other.rank and self.suit is other.suit
                and self.deck == other.deck)

    def __hash__(self) -> int:
        return hash((self.rank, self.suit, self.deck, "*"))

    @property
    def sort_key(self) -> tuple[int, int, int]:
        """A marked joker's place among its jokers; a marked natural card's after every joker."""
        rank, suit, pack = Card(self.rank, self.suit, self.deck).sort_key
        return (rank, suit, pack) if self.rank.is_joker else (Rank.BIG_JOKER + 1, suit, pack)


EMPEROR_CARD = MarkedCard(Rank.BIG_JOKER, None, 0)
"""``BJ*``, the emperor card (皇帝牌, Y0)."""
GUARD_CARD = MarkedCard(Rank.SMALL_JOKER, None, 0)
"""``SJ*``, the guard card (侍卫牌, Y0); none in a room with ``guard_card = "called"`` (Y9)."""
MARKED = (EMPEROR_CARD, GUARD_CARD)
PACKS = 4
SIXES_SET_ASIDE = 3  # the 165-card deck (Y1.2)
CALL_COPIES = 3  # identical cards an emperor holds to call the fourth (Y9)


def marked_cards(guard_card: GuardCard) -> tuple[Card, ...]:
    """The cards marked from the deal (Y0, Y9): ``BJ*`` and ``SJ*``, or ``BJ*`` alone when
    the guard card is called."""
    return MARKED if guard_card == "marked" else (EMPEROR_CARD,)


def is_called_card(card: Card) -> bool:
    """Whether ``card`` is the called guard card (保子牌, Y9): a marked natural card."""
    return isinstance(card, MarkedCard) and not card.rank.is_joker


def deck_of(kind: DeckKind, guard_card: GuardCard = "marked") -> tuple[Card, ...]:
    """The physical cards of a deck kind (Y1.2), sorted: four packs without 3s, 4s and 5s
    (``"168"``, also the deck ``"165"`` is dealt from), or four full packs (``"216"``);
    the jokers of pack 0 marked as :func:`marked_cards` says."""
    lowest = Rank.THREE if kind == "216" else Rank.SIX
    marked = {card.rank: card for card in marked_cards(guard_card)}
    cards = [
        marked[rank] if pack == 0 and rank in marked else Card(rank, None if rank.is_joker else suit, pack)
        for pack in range(PACKS)
        for rank in Rank
        if rank >= lowest
        for suit in (Suit if not rank.is_joker else (None,))
    ]
    return tuple(sorted(cards))


def card_text(card: Card) -> str:
    """A card as written (R0, Y0): ``10H``, ``SJ``, and ``BJ*``/``SJ*``/``7H*`` for the marked cards."""
    return f"{card}*" if isinstance(card, MarkedCard) else str(card)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards joined by spaces, as given, with their marks."""
    return " ".join(card_text(card) for card in cards)


_MARK = re.compile(r"(BJ\*|SJ\*|(?:10|[2-9TJQKA])[SHCD♠♥♣♦]\*)", re.IGNORECASE)


def parse_hand(text: str) -> list[Card]:
    """The cards of a card string (R0) with the marks of Y0 (``BJ*``, ``SJ*``) and of a
    called guard card (``7H*``, with its suit, Y9), sorted. A plain joker is an unmarked
    one; a card without a suit names any card of its rank."""
    cards: list[Card] = []
    for part in _MARK.split(text):
        if _MARK.fullmatch(part):
            upper = part.upper()
            if upper in ("BJ*", "SJ*"):
                cards.append(EMPEROR_CARD if upper == "BJ*" else GUARD_CARD)
            else:
                natural = parse_cards(part[:-1])[0]
                cards.append(MarkedCard(natural.rank, natural.suit))
        elif part.strip():
            if "*" in part:
                raise CardParseError(
                    f"only BJ*, SJ* and a called card written with its suit (7H*) carry a mark, in {text!r}")
            cards.extend(parse_cards(part))
    return sorted(cards, key=_order)


def _order(card: Card) -> tuple[int, int, int]:
    return card.sort_key


def _matches(held: Card, wanted: Card) -> bool:
    """Whether ``held`` is a card ``wanted`` names: a marked card of its rank and suit (and
    pack) for a marked one, an unmarked card otherwise, of the suit (and pack) when given."""
    if held.rank != wanted.rank or isinstance(wanted, MarkedCard) is not isinstance(held, MarkedCard):
        return False
    return (
        (wanted.suit is None or held.suit is wanted.suit)
        and (wanted.deck is None or held.deck == wanted.deck)
    )


def take_cards(hand: Sequence[Card], wanted: Sequence[Card], marked_last: bool = True) -> tuple[Card, ...]:
    """The cards of ``hand`` that ``wanted`` names, in hand order: exact cards first, then
    the first matching card. With ``marked_last`` a plain joker takes the marked one when
    no unmarked joker of its rank is left (a play by ranks: hosting, bots); a written
    ``SJ`` of a player never does. Raises ``LookupError`` naming a card the hand lacks."""
    used: set[int] = set()
    for card in sorted(wanted, key=lambda c: (not isinstance(c, MarkedCard), c.deck is None, c.suit is None)):
        index = next((i for i, held in enumerate(hand) if i not in used and _matches(held, card)), None)
        if index is None and marked_last and card.rank.is_joker and not isinstance(card, MarkedCard):
            marked = EMPEROR_CARD if card.rank is Rank.BIG_JOKER else GUARD_CARD
            index = next((i for i, held in enumerate(hand) if i not in used and held == marked), None)
        if index is None:
            raise LookupError(f"{card_text(card)} is not in the hand")
        used.add(index)
    return tuple(hand[i] for i in sorted(used))


def deal_cards(
    kind: DeckKind, first_taker: int, rng: random.Random, seats: int = 5, guard_card: GuardCard = "marked"
) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """Shuffle and deal (Y1.3, Y1.4): one card at a time from ``first_taker`` round in play
    order until the deck is used up; the ``"165"`` deck first sets three random 6s aside
    unseen. The hands (sorted) and the cards set aside."""
    deck = list(deck_of(kind, guard_card))
    rng.shuffle(deck)
    aside: tuple[Card, ...] = ()
    if kind == "165":
        sixes = [index for index, card in enumerate(deck) if card.rank is Rank.SIX]
        chosen = set(rng.sample(sixes, SIXES_SET_ASIDE))
        aside = tuple(sorted((deck[i] for i in chosen), key=_order))
        deck = [card for index, card in enumerate(deck) if index not in chosen]
    hands: list[list[Card]] = [[] for _ in range(seats)]
    for index, card in enumerate(deck):
        hands[(first_taker + index) % seats].append(card)
    return [sorted(hand, key=_order) for hand in hands], aside


def draw_hands(kind: DeckKind, hands: Sequence[Sequence[Card]], guard_card: GuardCard = "marked") -> list[list[Card]]:
    """Physical cards for hand-built hands, all from one deck of ``kind`` (Y13.13): the
    marked cards exactly once each (``SJ*`` never when the guard card is called, Y9), a
    suited card where a copy of it is left, then each card without a suit from what is
    left. ``ValueError`` naming the first problem."""
    pool = sorted(deck_of(kind, guard_card), key=lambda card: (card.rank, card.deck, card.sort_key))  # suits, packs
    sixes = sum(card.rank is Rank.SIX for hand in hands for card in hand)
    if kind == "165" and sixes > PACKS * len(Suit) - SIXES_SET_ASIDE:
        raise ValueError(f"the 165-card deck holds 13 sixes, not {sixes} (Y13.13)")
    marks: Counter[Card] = Counter(card for hand in hands for card in hand if isinstance(card, MarkedCard))
    for stray in marks.keys() - marked_cards(guard_card):
        where = "a dealt hand holds the called card unmarked" if is_called_card(stray) else (
            'there is none with guard_card = "called"')
        raise ValueError(f"{card_text(stray)}: {where} (Y9)")
    for marked in marked_cards(guard_card):
        if marks[marked] != 1:
            raise ValueError(f"{card_text(marked)} must be in exactly one hand, not {marks[marked]} (Y13.13)")
    drawn: list[list[Card | None]] = [[None] * len(hand) for hand in hands]
    order = sorted(
        ((seat, index, card) for seat, hand in enumerate(hands) for index, card in enumerate(hand)),
        key=lambda item: (not isinstance(item[2], MarkedCard), item[2].suit is None),
    )
    for seat, index, card in order:
        found = next((held for held in pool if _matches(held, card)), None)
        if found is None:
            raise ValueError(f"hand {seat}: {card_text(card)} is one card more than a {kind}-card deck holds (Y13.13)")
        pool.remove(found)
        drawn[seat][index] = found
    return [sorted((card for card in hand if card is not None), key=_order) for hand in drawn]


def callable_cards(hand: Sequence[Card]) -> dict[Card, int]:
    """The natural cards (rank and suit) of which ``hand`` holds three or four identical
    copies, lowest first, with the copies held: the cards its holder may call (Y9)."""
    held = Counter(Card(card.rank, card.suit) for card in hand
                   if not card.rank.is_joker and not isinstance(card, MarkedCard))
    return {card: copies for card, copies in sorted(held.items()) if copies >= CALL_COPIES}


def default_call(hand: Sequence[Card]) -> Card | None:
    """The call made for a seat (Y8.1's default, hosting, Y9; our choice): the lowest card
    held three times, so that a guard holds the fourth; else the lowest held four times (a
    secret solo); None when the hand can call nothing."""
    calls = callable_cards(hand)
    return min(calls, key=lambda card: (calls[card] > CALL_COPIES, card.sort_key), default=None)
