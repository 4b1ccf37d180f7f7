"""Cards, the double deck and card strings (RULES §0, R1.2)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangkou.cards import (
    DECK,
    EMPTY,
    NUM_SLOTS,
    Card,
    CardParseError,
    Rank,
    Suit,
    cards_from_counts,
    counts_of,
    format_cards,
    format_counts,
    parse_card,
    parse_cards,
    parse_counts,
)

# ---------------------------------------------------------------------------
# §0 ranks and suits


def test_notation_rank_order_3_to_big_joker() -> None:
    """§0: 3 4 5 6 7 8 9 10 J Q K A 2 SJ BJ, numbered 3..17."""
    symbols = [rank.symbol for rank in sorted(Rank)]
    assert symbols == ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ"]
    assert [int(rank) for rank in sorted(Rank)] == list(range(3, 18))
    assert Rank.JACK == 11 and Rank.ACE == 14 and Rank.TWO == 15
    assert Rank.SMALL_JOKER == 16 and Rank.BIG_JOKER == 17


def test_notation_two_ranks_above_ace_and_below_jokers() -> None:
    """§0: 2 is above A; the jokers are above 2, BJ above SJ."""
    assert Rank.ACE < Rank.TWO < Rank.SMALL_JOKER < Rank.BIG_JOKER


def test_notation_only_sj_and_bj_are_jokers() -> None:
    """§0: "joker" means SJ or BJ."""
    assert [rank for rank in Rank if rank.is_joker] == [Rank.SMALL_JOKER, Rank.BIG_JOKER]


def test_notation_rank_slot_is_value_minus_three() -> None:
    """§0 numeric order: counts slot = rank value - 3."""
    assert [rank.slot for rank in sorted(Rank)] == list(range(NUM_SLOTS))


@pytest.mark.parametrize(
    ("symbol", "rank"),
    [("3", Rank.THREE), ("10", Rank.TEN), ("T", Rank.TEN), ("t", Rank.TEN), ("J", Rank.JACK),
     ("q", Rank.QUEEN), ("A", Rank.ACE), ("2", Rank.TWO), ("SJ", Rank.SMALL_JOKER),
     ("bj", Rank.BIG_JOKER)],
)
def test_notation_rank_from_symbol(symbol: str, rank: Rank) -> None:
    """§0: rank symbols, case ignored, T for 10."""
    assert Rank.from_symbol(symbol) is rank


@pytest.mark.parametrize("symbol", ["1", "11", "B", "S", "X", ""])
def test_notation_unknown_rank_symbol_raises(symbol: str) -> None:
    """§0: only the listed rank symbols exist."""
    with pytest.raises(CardParseError, match="unknown rank"):
        Rank.from_symbol(symbol)


def test_notation_suit_letters_and_glyphs() -> None:
    """§0: suits S H C D (♠♥♣♦)."""
    assert [suit.value for suit in Suit] == ["S", "H", "C", "D"]
    assert [suit.glyph for suit in Suit] == ["♠", "♥", "♣", "♦"]


# ---------------------------------------------------------------------------
# Card values


def test_card_str_is_rank_then_suit() -> None:
    """§0: a card string is the rank followed by the optional suit."""
    assert str(Card(Rank.TEN, Suit.HEARTS)) == "10H"
    assert str(Card(Rank.QUEEN, Suit.SPADES, 1)) == "QS"
    assert str(Card(Rank.THREE)) == "3"
    assert str(Card(Rank.SMALL_JOKER)) == "SJ"
    assert str(Card(Rank.BIG_JOKER, None, 0)) == "BJ"


def test_card_joker_with_a_suit_is_rejected() -> None:
    """§0: jokers have no suit."""
    with pytest.raises(CardParseError, match="joker has no suit"):
        Card(Rank.BIG_JOKER, Suit.HEARTS)


@pytest.mark.parametrize("deck", [-1, 4, 5])
def test_R1_2_card_deck_copy_is_0_to_3(deck: int) -> None:
    """R1.2: two decks in Shuangkou, four packs in Royalist (Y1.2): a physical copy is 0 to 3."""
    with pytest.raises(CardParseError, match="deck copy"):
        Card(Rank.FIVE, Suit.CLUBS, deck)


def test_card_order_is_rank_then_suit_then_copy() -> None:
    """§0 rank order first; suits and copies only break ties (R3.7)."""
    cards = [Card(Rank.BIG_JOKER, None, 1), Card(Rank.TWO, Suit.DIAMONDS, 0), Card(Rank.THREE, Suit.CLUBS, 1),
             Card(Rank.THREE, Suit.SPADES, 1), Card(Rank.THREE, Suit.SPADES, 0), Card(Rank.THREE)]
    assert [(str(card), card.deck) for card in sorted(cards)] == [
        ("3", None), ("3S", 0), ("3S", 1), ("3C", 1), ("2D", 0), ("BJ", 1)]


def test_cards_are_hashable_values() -> None:
    """R1.2: the two copies of a card are different cards."""
    assert Card(Rank.ACE, Suit.SPADES, 0) == Card(Rank.ACE, Suit.SPADES, 0)
    assert Card(Rank.ACE, Suit.SPADES, 0) != Card(Rank.ACE, Suit.SPADES, 1)
    assert len({Card(Rank.ACE, Suit.SPADES, 0), Card(Rank.ACE, Suit.SPADES, 0)}) == 1


# ---------------------------------------------------------------------------
# R1.2 the double deck


def test_R1_2_deck_has_108_distinct_cards() -> None:
    assert len(DECK) == 108
    assert len(set(DECK)) == 108


def test_R1_2_every_rank_eight_times_jokers_twice() -> None:
    ranks = Counter(card.rank for card in DECK)
    for rank in Rank:
        assert ranks[rank] == (2 if rank.is_joker else 8), rank


def test_R1_2_every_suited_card_once_per_deck() -> None:
    """R1.2: two full decks of 52 + 2: each (rank, suit) once in each copy."""
    faces = Counter((card.rank, card.suit) for card in DECK if not card.rank.is_joker)
    assert len(faces) == 52
    assert set(faces.values()) == {2}
    for copy in (0, 1):
        deck = [card for card in DECK if card.deck == copy]
        assert len(deck) == 54
        assert sum(card.rank.is_joker for card in deck) == 2


def test_R1_2_jokers_have_no_suit_and_suited_cards_have_one() -> None:
    assert all((card.suit is None) == card.rank.is_joker for card in DECK)


def test_R1_2_deck_is_sorted_and_counts_are_full() -> None:
    assert list(DECK) == sorted(DECK)
    assert counts_of(DECK) == (8,) * 13 + (2, 2)


# ---------------------------------------------------------------------------
# §0 card strings


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("10H", Rank.TEN, Suit.HEARTS),
        ("10h", Rank.TEN, Suit.HEARTS),
        ("T", Rank.TEN, None),
        ("TD", Rank.TEN, Suit.DIAMONDS),
        ("QS", Rank.QUEEN, Suit.SPADES),
        ("3", Rank.THREE, None),
        ("2C", Rank.TWO, Suit.CLUBS),
        ("SJ", Rank.SMALL_JOKER, None),
        ("BJ", Rank.BIG_JOKER, None),
        ("sj", Rank.SMALL_JOKER, None),
        ("J", Rank.JACK, None),
        ("JS", Rank.JACK, Suit.SPADES),
        ("Q♠", Rank.QUEEN, Suit.SPADES),
        ("10♥", Rank.TEN, Suit.HEARTS),
        ("  A  ", Rank.ACE, None),
    ],
)
def test_notation_parse_one_card(text: str, rank: Rank, suit: Suit | None) -> None:
    """§0: rank then optional suit; T is 10; jokers are SJ/BJ."""
    card = parse_card(text)
    assert (card.rank, card.suit, card.deck) == (rank, suit, None)


def test_notation_plain_j_is_always_the_jack() -> None:
    """§0: a plain J is the Jack, never a joker."""
    assert [card.rank for card in parse_cards("J J")] == [Rank.JACK, Rank.JACK]
    assert [card.rank for card in parse_cards("JJ")] == [Rank.JACK, Rank.JACK]
    assert [card.rank for card in parse_cards("10JQKA")] == [
        Rank.TEN, Rank.JACK, Rank.QUEEN, Rank.KING, Rank.ACE]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("33445 BJ", ["3", "3", "4", "4", "5", "BJ"]),
        ("3 3 4 4 5 BJ", ["3", "3", "4", "4", "5", "BJ"]),
        ("3,3, 4 ,4", ["3", "3", "4", "4"]),
        ("5678 SJ", ["5", "6", "7", "8", "SJ"]),
        ("5SJ", ["5", "SJ"]),
        ("QSJ", ["Q", "SJ"]),
        ("3H4", ["3H", "4"]),
        ("TJQKA", ["10", "J", "Q", "K", "A"]),
        ("10JQKA", ["10", "J", "Q", "K", "A"]),
        ("SJSJBJBJ", ["SJ", "SJ", "BJ", "BJ"]),
        ("sj bj 10h t", ["SJ", "BJ", "10H", "10"]),
        ("4444 55555 66666", ["4"] * 4 + ["5"] * 5 + ["6"] * 5),
        ("", []),
        ("   ", []),
    ],
)
def test_notation_parse_card_strings(text: str, expected: list[str]) -> None:
    """§0: compact and spaced card strings, commas allowed, case ignored."""
    assert [str(card) for card in parse_cards(text)] == expected


def test_notation_parse_iterable_of_strings() -> None:
    """§0: several card strings read as one list."""
    assert [str(card) for card in parse_cards(["3 4", "BJ", "10S"])] == ["3", "4", "BJ", "10S"]


@pytest.mark.parametrize(
    ("text", "position", "found"),
    [
        ("3 X 4", 2, "X 4"),
        ("1", 0, "1"),
        ("11", 0, "11"),
        ("3 4 Z", 4, "Z"),
        ("SJH", 2, "H"),
        ("BJS", 2, "S"),
        ("QQ ?", 3, "?"),
        ("10 1", 3, "1"),
    ],
)
def test_notation_bad_card_string_names_the_position(text: str, position: int, found: str) -> None:
    """§0: a string that names no card is refused, naming where."""
    with pytest.raises(CardParseError) as caught:
        parse_cards(text)
    message = str(caught.value)
    assert f"position {position}" in message
    assert repr(text) in message
    assert repr(found) in message


def test_notation_card_parse_error_is_a_value_error() -> None:
    """§0: bad card strings raise a ValueError subclass."""
    with pytest.raises(ValueError, match="position 0"):
        parse_cards("W")


@pytest.mark.parametrize("text", ["3 4", "", "33"])
def test_notation_parse_card_wants_exactly_one(text: str) -> None:
    """§0: parse_card reads exactly one card."""
    with pytest.raises(CardParseError, match="expected one card"):
        parse_card(text)


def test_notation_every_deck_card_round_trips_through_its_string() -> None:
    """§0, R1.2: every card of the deck prints and reads back."""
    for card in DECK:
        parsed = parse_card(str(card))
        assert (parsed.rank, parsed.suit) == (card.rank, card.suit)


# ---------------------------------------------------------------------------
# Counts


def test_counts_of_cards_and_ranks() -> None:
    """R1.2: counts per rank slot 3..BJ."""
    assert counts_of(parse_cards("3 3 4 4 5 BJ")) == (2, 2, 1) + (0,) * 11 + (1,)
    assert counts_of([Rank.SMALL_JOKER, Rank.TWO, Rank.TWO]) == (0,) * 12 + (2, 1, 0)
    assert counts_of([]) == EMPTY
    assert len(EMPTY) == NUM_SLOTS == 15


def test_counts_ignore_suits() -> None:
    """R3.7: suits never matter, so counts forget them."""
    assert parse_counts("3S 4H 5C 6D 7S") == parse_counts("3 4 5 6 7")


def test_format_counts_lowest_rank_first() -> None:
    """§0 rank order: counts print lowest rank first."""
    assert format_counts(parse_counts("BJ 5 3 4 3 4")) == "3 3 4 4 5 BJ"
    assert format_counts(parse_counts("SJ 10 2 T")) == "10 10 2 SJ"
    assert format_counts(EMPTY) == ""


@given(st.lists(st.integers(0, 12), min_size=15, max_size=15))
def test_format_counts_is_every_card_lowest_rank_first(counts: list[int]) -> None:
    """A rank's cards are written at once, up to eight of them (two decks), else card by card."""
    names = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ"]
    symbols = [names[slot] for slot, count in enumerate(counts) for _ in range(count)]
    assert format_counts(tuple(counts)) == " ".join(symbols)


def test_cards_from_counts_round_trip() -> None:
    """§0: counts back to suitless cards."""
    counts = parse_counts("3 3 10 J Q 2 2 SJ BJ BJ")
    cards = cards_from_counts(counts)
    assert format_cards(cards) == "3 3 10 J Q 2 2 SJ BJ BJ"
    assert all(card.suit is None for card in cards)
    assert counts_of(cards) == counts


def test_format_cards_keeps_the_given_order() -> None:
    """§0: cards print as given."""
    assert format_cards(parse_cards("BJ 10H 3")) == "BJ 10H 3"
