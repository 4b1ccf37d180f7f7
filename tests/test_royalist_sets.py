"""Royalist's sets and how they compare (RULES-ROYALIST Y4, Y3.7, Y3.8): reading sets, both
forms of the comparison checked against each other on every pair of small sets, the
move generator against a brute force, hints and the worked examples of Y10.1."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.cards import NUM_SLOTS, Counts
from shuangkou.games.royalist.sets import (
    BJ_SLOT,
    SJ_SLOT,
    CardSet,
    InvalidSet,
    SetRules,
    beats,
    beats_card_by_card,
    counts_text,
    legal_sets,
    read_set,
    smallest_beating,
    unbeatable,
)

PLAIN = SetRules()


def read(text: str, rules: SetRules = PLAIN, hand: str | None = None) -> CardSet:
    return read_set(counts_text(text), rules, None if hand is None else counts_text(hand))


def every_set(max_size: int, ranks: range = range(6, 16)) -> list[CardSet]:
    """Every set of up to ``max_size`` cards: X naturals of a rank, Y big and Z small jokers."""
    found = []
    for naturals, big, small in itertools.product(range(max_size + 1), repeat=3):
        if not 1 <= naturals + big + small <= max_size:
            continue
        for rank in ranks if naturals else (0,):
            found.append(CardSet(rank, naturals, big, small))
    return found


def test_Y4_4_Y4_5_both_forms_agree_on_every_pair_of_small_sets() -> None:
    """Y4.4 card by card and Y4.5's closed form, on every pair of sets of up to four cards."""
    sets = every_set(4)
    assert len(sets) == 214  # 20 shapes with naturals, 10 ranks each, and 14 of jokers alone
    for follow, table in itertools.product(sets, repeat=2):
        assert beats(follow, table) == beats_card_by_card(follow, table), (follow, table)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("9 9", CardSet(9, 2, 0, 0)),
        ("BJ SJ", CardSet(0, 0, 1, 1)),
        ("SJ 9 9", CardSet(9, 2, 0, 1)),
        ("BJ SJ 9 9", CardSet(9, 2, 1, 1)),
        ("K K K K K", CardSet(13, 5, 0, 0)),
        ("BJ* SJ*", CardSet(0, 0, 1, 1)),
        ("7", CardSet(7, 1, 0, 0)),
    ],
)
def test_Y4_2_Y4_1_a_set_is_naturals_of_one_rank_and_jokers(text: str, expected: CardSet) -> None:
    """Y4.2 (the marked cards are the jokers they are, Y4.1)."""
    assert read(text) == expected


@pytest.mark.parametrize("text", ["9 10", "6 7 8 9 10", "9 9 10 10", "K K K 7"])
def test_Y4_8_no_other_combination(text: str) -> None:
    """Y4.8: two natural ranks, straights, pair runs, triples with one: no set."""
    with pytest.raises(InvalidSet, match="one rank"):
        read(text)


def test_Y4_2_Y13_11_joker_only_sets_by_room() -> None:
    """Y4.2, Y13.11: with ``joker_only_sets = false`` two or more cards need a natural one; a
    single joker is still a set."""
    strict = SetRules(joker_only_sets=False)
    assert read("SJ", strict) == CardSet(0, 0, 0, 1)
    with pytest.raises(InvalidSet, match="jokers alone"):
        read("BJ SJ", strict)
    assert read("BJ SJ 7", strict) == CardSet(7, 1, 1, 1)
    assert CardSet(0, 0, 1, 1) not in legal_sets(counts_text("BJ SJ 7"), None, strict)


def test_Y3_8_sixes_last() -> None:
    """Y3.8: with ``sixes_last`` a set with a natural 6 is legal only as the whole hand, of 6s only."""
    rules = SetRules(sixes_last=True)
    with pytest.raises(InvalidSet, match="sixes"):
        read("6 6", rules, hand="6 6 9")
    with pytest.raises(InvalidSet, match="sixes"):
        read("SJ 6 6", rules, hand="SJ 6 6")
    assert read("6 6", rules, hand="6 6") == CardSet(6, 2, 0, 0)
    assert all(move.rank != 6 for move in legal_sets(counts_text("6 6 9 SJ"), None, rules))
    assert read("6 6", SetRules(), hand="6 6 9") == CardSet(6, 2, 0, 0)


@pytest.mark.parametrize(
    ("table", "played", "result"),
    [
        ("8 8", "9 9", True),
        ("8 8", "8 8", False),
        ("8 8", "9 9 9", False),
        ("8 8 8", "SJ 9 9", True),
        ("SJ 8 8 8", "BJ SJ 9 9", True),
        ("SJ 8 8 8", "SJ 9 9 9", False),
        ("SJ 8 8 8", "BJ 9 9 9", True),
        ("9 9 9 9", "SJ J J J", True),
        ("SJ J J J", "BJ A A A", True),
        ("K K", "2 SJ", True),
        ("SJ SJ", "BJ SJ", False),
        ("SJ SJ", "BJ BJ", True),
        ("Q", "SJ*", True),
        ("9 9", "SJ 7", False),
    ],
)
def test_Y10_1_worked_examples_of_sets(table: str, played: str, result: bool) -> None:
    """Y10.1's table (and Y13.10: ``SJ 7`` does not beat ``9 9``), in both forms (Y4.4, Y4.5)."""
    assert beats(read(played), read(table)) is result
    assert beats_card_by_card(read(played), read(table)) is result


def test_Y4_6_consequences() -> None:
    """Y4.6: a set with a BJ is never beaten; an SJ led must be met by a BJ; equal sets never
    beat each other; a natural set falls to a higher one of its size or to jokers anywhere."""
    sets = every_set(3)
    for follow in sets:
        assert not beats(follow, read("BJ 7"))
        assert not beats(follow, follow)
        if beats(follow, read("SJ 8 8")):
            assert follow.big >= 1
    assert unbeatable(read("BJ 7")) and not unbeatable(read("SJ 2"))
    assert not unbeatable(read("BJ 7"), SetRules(bombs="four_identical"))
    assert beats(read("SJ 9"), read("8 8")) and not beats(read("SJ 9"), read("8 8 8"))  # sizes must agree
    assert beats(read("BJ 9"), read("K K")) is False  # 9 is not above K (Y13.10)
    assert beats(read("SJ BJ"), read("K K")) and beats(read("A A"), read("K K"))


def test_Y4_3_jokers_are_not_wild() -> None:
    """Y4.3: a joker keeps its value: ``SJ 9 9`` is no triple of 9s and does not beat ``10 10 10``."""
    assert not beats(read("SJ 9 9"), read("10 10 10"))
    assert beats(read("SJ J J"), read("10 10 10"))


def test_Y4_8_bombs_of_four_identical_cards() -> None:
    """Y4.8 (home rules): a bomb beats any set of any size; bombs compare by rank."""
    bomb = CardSet(9, 4, 0, 0, True)
    assert beats(bomb, read("BJ SJ 2")) and beats(bomb, read("7")) and not beats(read("BJ 2 2 2"), bomb)
    assert beats(CardSet(10, 4, 0, 0, True), bomb) and not beats(bomb, CardSet(10, 4, 0, 0, True))
    assert bomb in legal_sets(counts_text("9 9 9 9 K"), read("BJ 7"), SetRules(bombs="four_identical"), (9,))


def test_Y4_7_Y10_2_the_hint_is_the_smallest_beating_set() -> None:
    """Y4.7, Y10.2: table ``8 8``, hand ``9 9 10 10 2 2 SJ BJ``: the hint is ``9 9``; the order
    is fewest big jokers, then fewest small, then the lowest rank."""
    hand = counts_text("9 9 10 10 2 2 SJ BJ")
    moves = legal_sets(hand, read("8 8"))
    assert moves[0] == read("9 9") == smallest_beating(hand, read("8 8"))
    keys = [(move.big, move.small, move.rank) for move in moves]
    assert keys == sorted(keys) and keys[-1] == (1, 1, 0)
    assert smallest_beating(counts_text("7 7 SJ"), read("8 8")) is None


def brute_force(hand: Counts, table: CardSet | None) -> set[CardSet]:
    """Every sub-multiset of ``hand`` that reads as a set and beats ``table``."""
    found = set()
    for choice in itertools.product(*(range(count + 1) for count in hand)):
        try:
            played = read_set(tuple(choice))
        except InvalidSet:
            continue
        if table is None or beats_card_by_card(played, table):
            found.add(played)
    return found


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 3), min_size=NUM_SLOTS, max_size=NUM_SLOTS).map(tuple),
    st.sampled_from([None, *every_set(3)]),
)
def test_Y3_7_Y4_4_the_generator_finds_exactly_the_brute_force_moves(hand: Counts, table: CardSet | None) -> None:
    """The move generator against a brute force over every sub-multiset of small hands (Y3.7's
    auto-pass and hint rest on it), the table compared card by card (Y4.4)."""
    small = tuple(count if slot in (3, 8, 12, SJ_SLOT, BJ_SLOT) else 0 for slot, count in enumerate(hand))
    generated = legal_sets(small, table)
    assert len(generated) == len(set(generated))
    assert set(generated) == brute_force(small, table)
    best = smallest_beating(small, table) if table is not None else None
    assert best == (generated[0] if generated and table is not None else None)


# The called guard card (保子牌, Y9): a top card worth 18 that joins any set like a joker.


def every_set_with_top(max_size: int) -> list[CardSet]:
    """Every set of up to ``max_size`` cards with and without the one top card (Y9)."""
    plain = every_set(max_size, range(6, 9))
    with_top = [card_set._replace(top=1) for card_set in every_set(max_size - 1, range(6, 9))]
    return [*plain, CardSet(0, 0, 0, 0, top=1), *with_top]


def test_Y9_Y4_4_Y4_5_both_forms_agree_with_the_called_card() -> None:
    """Y9: the 保子牌 is worth 18, above BJ, in Y4.4's card-by-card comparison; the closed form
    (T_L = 0, T_F ≥ Y_L, T_F + Y_F ≥ Y_L + Z_L) agrees on every pair of sets of up to four cards."""
    sets = every_set_with_top(4)
    assert sum(card_set.top for card_set in sets) == 1 + len(every_set(3, range(6, 9)))
    for follow, table in itertools.product(sets, repeat=2):
        assert beats(follow, table) == beats_card_by_card(follow, table), (follow, table)


@pytest.mark.parametrize(
    ("table", "played", "result"),
    [
        (CardSet(0, 0, 1, 0), CardSet(0, 0, 0, 0, top=1), True),  # 保子 above BJ
        (CardSet(7, 1, 1, 0), CardSet(8, 1, 0, 0, top=1), True),  # BJ 7 falls to 保子 8
        (CardSet(7, 1, 1, 0), CardSet(0, 0, 1, 0, top=1), True),  # and to 保子 BJ
        (CardSet(0, 0, 2, 0), CardSet(0, 0, 1, 0, top=1), False),  # one 保子 cannot cover two BJ
        (CardSet(9, 1, 0, 1), CardSet(8, 1, 0, 0, top=1), False),  # 8 is not above 9 (Y13.10)
        (CardSet(9, 2, 0, 0), CardSet(10, 1, 0, 0, top=1), True),  # joins any set like a joker
        (CardSet(0, 0, 0, 0, top=1), CardSet(0, 0, 1, 0), False),  # nothing beats the 保子牌
    ],
)
def test_Y9_the_called_card_is_above_BJ(table: CardSet, played: CardSet, result: bool) -> None:
    """Y9: the 保子牌 is worth 18, above BJ, and may join any set like a joker."""
    assert beats(played, table) is result
    assert beats_card_by_card(played, table) is result


def test_Y9_Y4_6_what_nobody_can_beat_with_the_called_card_unplayed() -> None:
    """Y4.6 with the 保子牌 (Y9): a set holding it is never beaten; a set with one BJ can still
    be beaten while the 保子牌 is in a hand, a set with two cannot."""
    assert unbeatable(CardSet(7, 1, 0, 0, top=1), PLAIN, tops_unplayed=0)
    assert not unbeatable(read("BJ 7"), PLAIN, tops_unplayed=1) and unbeatable(read("BJ 7"), PLAIN, 0)
    assert unbeatable(read("BJ BJ"), PLAIN, tops_unplayed=1)
    assert legal_sets(counts_text("8 SJ"), read("BJ 7"), PLAIN, tops=1) == [CardSet(8, 1, 0, 0, top=1),
                                                                          CardSet(0, 0, 0, 1, top=1)]
    assert legal_sets(counts_text("8 SJ BJ"), read("BJ 7"), PLAIN) == []


def test_Y9_Y4_7_the_hint_spends_the_called_card_last() -> None:
    """Y4.7 with the 保子牌 (Y9): fewest top cards first, then fewest big jokers, small jokers, rank."""
    moves = legal_sets(counts_text("9 9 BJ"), read("8 8"), PLAIN, tops=1)
    assert moves == [read("9 9"), CardSet(9, 1, 1, 0), CardSet(9, 1, 0, 0, top=1), CardSet(0, 0, 1, 0, top=1)]
    assert smallest_beating(counts_text("9 BJ"), read("8 8"), PLAIN, tops=1) == CardSet(9, 1, 1, 0)
    assert str(CardSet(9, 1, 1, 0, top=1)) == "9 BJ *" and CardSet(9, 1, 1, 0, top=1).view()["top"] == 1


def test_Y9_Y3_8_sixes_last_counts_the_called_card() -> None:
    """Y3.8 with the 保子牌 (Y9): a hand of 6s and the 保子牌 is no hand of 6s only."""
    rules = SetRules(sixes_last=True)
    with pytest.raises(InvalidSet, match="sixes"):
        read_set(counts_text("6 6"), rules, counts_text("6 6"), hand_top=1)
    assert all(move.rank != 6 for move in legal_sets(counts_text("6 6"), None, rules, tops=1))
    assert legal_sets(counts_text(""), None, SetRules(joker_only_sets=False), tops=1) == [CardSet(0, 0, 0, 0, top=1)]


def brute_force_with_top(hand: Counts, tops: int, table: CardSet | None) -> set[CardSet]:
    """Every sub-multiset of ``hand`` and its top cards that reads as a set and beats ``table``."""
    found = set()
    for top in range(tops + 1):
        for choice in itertools.product(*(range(count + 1) for count in hand)):
            try:
                played = read_set(tuple(choice), top=top)
            except InvalidSet:
                continue
            if table is None or beats_card_by_card(played, table):
                found.add(played)
    return found


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 2), min_size=NUM_SLOTS, max_size=NUM_SLOTS).map(tuple),
    st.integers(0, 1),
    st.sampled_from([None, *every_set_with_top(3)]),
)
def test_Y9_Y3_7_the_generator_finds_exactly_the_brute_force_moves_with_the_called_card(
    hand: Counts, tops: int, table: CardSet | None
) -> None:
    """Y9: the move generator, hand and table holding the 保子牌 or not, against a brute force
    compared card by card (Y4.4); the hint is the first move (Y4.7)."""
    small = tuple(count if slot in (3, 5, SJ_SLOT, BJ_SLOT) else 0 for slot, count in enumerate(hand))
    generated = legal_sets(small, table, PLAIN, (), tops)
    assert len(generated) == len(set(generated))
    assert set(generated) == brute_force_with_top(small, tops, table)
    best = smallest_beating(small, table, PLAIN, (), tops) if table is not None else None
    assert best == (generated[0] if generated and table is not None else None)
