"""Royalist's cards (Y0, Y1): the decks of four packs (168, 216 and 165 cards), the marked
emperor and guard cards, card strings with their marks, the deal, and the physical cards
a hand-built deal or a play names.

Cards are the shared :class:`~shuangkou.cards.Card` with a pack copy 0..3. The marked
cards are the big and the small joker of pack 0: ``BJ*`` (the emperor card) and ``SJ*``
(the guard card); in play they are the jokers they are (Y4.1).

>>> [card_text(card) for card in parse_hand("BJ* 9 9 SJ")]
['9', '9', 'SJ', 'BJ*']
>>> len(deck_of("168")), len(deck_of("216")), len(deck_of("165"))
(168, 216, 168)
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Literal

from ...cards import Card, CardParseError, Rank, Suit, parse_cards

__all__ = [
    "EMPEROR_CARD",
    "GUARD_CARD",
    "DeckKind",
    "card_text",
    "cards_text",
    "deal_cards",
    "deck_of",
    "draw_hands",
    "parse_hand",
    "take_cards",
]

DeckKind = Literal["168", "216", "165"]

EMPEROR_CARD = Card(Rank.BIG_JOKER, None, 0)
"""``BJ*``, the emperor card (皇帝牌, Y0)."""
GUARD_CARD = Card(Rank.SMALL_JOKER, None, 0)
"""``SJ*``, the guard card (侍卫牌, Y0)."""
MARKED = (EMPEROR_CARD, GUARD_CARD)
PACKS = 4
SIXES_SET_ASIDE = 3  # the 165-card deck (Y1.2)


def deck_of(kind: DeckKind) -> tuple[Card, ...]:
    """The physical cards of a deck kind (Y1.2), sorted: four packs without 3s, 4s and 5s
    (``"168"``, also the deck ``"165"`` is dealt from), or four full packs (``"216"``)."""
    lowest = Rank.THREE if kind == "216" else Rank.SIX
    cards = [
        Card(rank, None if rank.is_joker else suit, pack)
        for pack in range(PACKS)
        for rank in Rank
        if rank >= lowest
        for suit in (Suit if not rank.is_joker else (None,))
    ]
    return tuple(sorted(cards))


def card_text(card: Card) -> str:
    """A card as written (R0, Y0): ``10H``, ``SJ``, and ``BJ*``/``SJ*`` for the marked cards."""
    return f"{card}*" if card in MARKED else str(card)


def cards_text(cards: Iterable[Card]) -> str:
    """Cards joined by spaces, as given, with their marks."""
    return " ".join(card_text(card) for card in cards)


_MARK = re.compile(r"(BJ\*|SJ\*)", re.IGNORECASE)


def parse_hand(text: str) -> list[Card]:
    """The cards of a card string (R0) with the marks of Y0 (``BJ*``, ``SJ*``), sorted. A
    plain joker is an unmarked one; a card without a suit names any card of its rank."""
    cards: list[Card] = []
    for part in _MARK.split(text):
        if _MARK.fullmatch(part):
            cards.append(EMPEROR_CARD if part.upper() == "BJ*" else GUARD_CARD)
        elif part.strip():
            if "*" in part:
                raise CardParseError(f"only BJ* and SJ* carry a mark, in {text!r}")
            cards.extend(parse_cards(part))
    return sorted(cards, key=_order)


def _order(card: Card) -> tuple[int, int, int]:
    return card.sort_key


def _matches(held: Card, wanted: Card) -> bool:
    """Whether ``held`` is a card ``wanted`` names: the marked card for a marked one, an
    unmarked joker for a plain joker, a card of the suit (and pack) when given."""
    if wanted in MARKED or held in MARKED:
        return held == wanted
    return (
        held.rank == wanted.rank
        and (wanted.suit is None or held.suit is wanted.suit)
        and (wanted.deck is None or held.deck == wanted.deck)
    )


def take_cards(hand: Sequence[Card], wanted: Sequence[Card], marked_last: bool = True) -> tuple[Card, ...]:
    """The cards of ``hand`` that ``wanted`` names, in hand order: exact cards first, then
    the first matching card. With ``marked_last`` a plain joker takes the marked one when
    no unmarked joker of its rank is left (a play by ranks: hosting, bots); a written
    ``SJ`` of a player never does. Raises ``LookupError`` naming a card the hand lacks."""
    used: set[int] = set()
    for card in sorted(wanted, key=lambda c: (c not in MARKED, c.deck is None, c.suit is None)):
        index = next((i for i, held in enumerate(hand) if i not in used and _matches(held, card)), None)
        if index is None and marked_last and card.rank.is_joker and card not in MARKED:
            marked = EMPEROR_CARD if card.rank is Rank.BIG_JOKER else GUARD_CARD
            index = next((i for i, held in enumerate(hand) if i not in used and held == marked), None)
        if index is None:
            raise LookupError(f"{card_text(card)} is not in the hand")
        used.add(index)
    return tuple(hand[i] for i in sorted(used))


def deal_cards(
    kind: DeckKind, first_taker: int, rng: random.Random, seats: int = 5
) -> tuple[list[list[Card]], tuple[Card, ...]]:
    """Shuffle and deal (Y1.3, Y1.4): one card at a time from ``first_taker`` round in play
    order until the deck is used up; the ``"165"`` deck first sets three random 6s aside
    unseen. The hands (sorted) and the cards set aside."""
    deck = list(deck_of(kind))
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


def draw_hands(kind: DeckKind, hands: Sequence[Sequence[Card]]) -> list[list[Card]]:
    """Physical cards for hand-built hands, all from one deck of ``kind`` (Y13.13): the
    marked cards exactly once each, a suited card where a copy of it is left, then each
    card without a suit from what is left. ``ValueError`` naming the first problem."""
    pool = sorted(deck_of(kind), key=lambda card: (card.rank, card.deck, card.sort_key))  # suits first, then packs
    sixes = sum(card.rank is Rank.SIX for hand in hands for card in hand)
    if kind == "165" and sixes > PACKS * len(Suit) - SIXES_SET_ASIDE:
        raise ValueError(f"the 165-card deck holds 13 sixes, not {sixes} (Y13.13)")
    marks = Counter(card for hand in hands for card in hand if card in MARKED)
    for card in MARKED:
        if marks[card] != 1:
            raise ValueError(f"{card_text(card)} must be in exactly one hand, not {marks[card]} (Y13.13)")
    drawn: list[list[Card | None]] = [[None] * len(hand) for hand in hands]
    order = sorted(
        ((seat, index, card) for seat, hand in enumerate(hands) for index, card in enumerate(hand)),
        key=lambda item: (item[2] not in MARKED, item[2].suit is None),
    )
    for seat, index, card in order:
        found = next((held for held in pool if _matches(held, card)), None)
        if found is None:
            raise ValueError(f"hand {seat}: {card_text(card)} is one card more than a {kind}-card deck holds (Y13.13)")
        pool.remove(found)
        drawn[seat][index] = found
    return [sorted((card for card in hand if card is not None), key=_order) for hand in drawn]
