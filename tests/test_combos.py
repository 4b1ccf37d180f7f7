"""Reading cards as combinations, bombs and phases, wild jokers, and comparison
(RULES §3, §4, §5, §6 and the worked examples of §13)."""

from __future__ import annotations

import pytest
from reference import ref_beats, ref_playable

from shuangkou.cards import Rank, parse_cards, parse_counts
from shuangkou.games.shuangkou.combos import (
    KIND_NAMES,
    Combo,
    InvalidCombination,
    Kind,
    all_readings,
    beats,
    bomb_key,
    classify,
    playable_readings,
    readings,
)
from shuangkou.games.shuangkou.rules import DEFAULT_RULES, Rules, RulesError

SMALLEST = Rules(four_joker_bomb="smallest")
LARGEST = Rules(four_joker_bomb="largest")
TWO_IN_SERIAL = Rules(serial_bomb_two=True)


def read(text: str, rules: Rules = DEFAULT_RULES) -> str:
    """The strongest reading of ``text`` in the engine's display form."""
    return str(classify(text, rules=rules))


def wins(played: str, table: str, rules: Rules = DEFAULT_RULES) -> bool:
    """Whether ``played`` beats ``table`` (each read at its strongest), asserting that the
    brute-force reference of RULES §6 agrees."""
    combo, on_table = classify(played, rules=rules), classify(table, rules=rules)
    verdict = beats(combo, on_table, rules)
    assert verdict == ref_beats(combo, on_table, rules), (played, table)
    return verdict


def invalid(text: str, rules: Rules = DEFAULT_RULES) -> str:
    """The reason ``text`` is no combination (fails the test when it is one)."""
    with pytest.raises(InvalidCombination) as caught:
        classify(text, rules=rules)
    assert caught.value.reason
    assert str(caught.value) == caught.value.reason
    return caught.value.reason


# ---------------------------------------------------------------------------
# R3.1 - R3.3 single, pair, triple


@pytest.mark.parametrize("text", ["3", "7", "10", "A", "2", "SJ", "BJ"])
def test_R3_1_any_one_card_is_a_single(text: str) -> None:
    combo = classify(text)
    assert (combo.kind, combo.length, combo.top, combo.phase) == (Kind.SINGLE, 1, Rank.from_symbol(text), 0)
    assert combo.size == 1 and not combo.is_bomb


@pytest.mark.parametrize(
    ("text", "top"), [("33", 3), ("10H 10S", 10), ("22", 15), ("SJ SJ", 16), ("BJ BJ", 17)]
)
def test_R3_2_two_of_one_rank_are_a_pair(text: str, top: int) -> None:
    """R3.2: any rank; two identical jokers are a pair of that joker."""
    combo = classify(text)
    assert (combo.kind, combo.length, combo.top) == (Kind.PAIR, 1, top)


def test_R3_2_two_different_ranks_are_no_pair() -> None:
    assert "not a combination" in invalid("3 4")
    assert "not a combination" in invalid("A 2")


@pytest.mark.parametrize(("text", "top"), [("333", 3), ("JJJ", 11), ("222", 15)])
def test_R3_3_three_of_one_rank_are_a_triple(text: str, top: int) -> None:
    combo = classify(text)
    assert (combo.kind, combo.length, combo.top, combo.phase) == (Kind.TRIPLE, 1, top, 0)


def test_R3_3_three_jokers_are_no_triple_but_a_bomb() -> None:
    """R3.3 allows ranks 3..2 only; three jokers are the three-joker bomb (R4.2)."""
    assert classify("SJ SJ BJ").kind is Kind.JOKER_BOMB
    assert classify("SJ BJ BJ").kind is Kind.JOKER_BOMB


# ---------------------------------------------------------------------------
# R3.4 - R3.6 straights and runs


@pytest.mark.parametrize(
    ("text", "length", "top"),
    [("45678", 5, 8), ("34567", 5, 7), ("10JQKA", 5, 14), ("3 4 5 6 7 8 9 10 J Q K A", 12, 14),
     ("789 10 J Q", 6, 12)],
)
def test_R3_4_straight_five_or_more_consecutive_ranks(text: str, length: int, top: int) -> None:
    combo = classify(text)
    assert (combo.kind, combo.length, combo.top) == (Kind.STRAIGHT, length, top)
    assert combo.reading == combo.cards


@pytest.mark.parametrize("text", ["4567", "JQKA2", "10JQKA2", "A2345", "23456", "34568", "3 4 5 6 7 7"])
def test_R3_4_not_a_straight(text: str) -> None:
    """R3.4: at least 5, consecutive, within 3..A, one card each; R3.8 no run through 2."""
    invalid(text)


@pytest.mark.parametrize(
    ("text", "length", "top"),
    [("445566", 3, 6), ("JJQQKKAA", 4, 14), ("33 44 55 66 77 88 99 10 10 JJ QQ KK AA", 12, 14)],
)
def test_R3_5_pair_run_three_or_more_consecutive_pairs(text: str, length: int, top: int) -> None:
    combo = classify(text)
    assert (combo.kind, combo.length, combo.top) == (Kind.PAIR_RUN, length, top)


@pytest.mark.parametrize("text", ["3344", "KKAA22", "AA2233", "445577", "4455666"])
def test_R3_5_not_a_pair_run(text: str) -> None:
    invalid(text)


@pytest.mark.parametrize(
    ("text", "length", "top"), [("444555666", 3, 6), ("QQQKKKAAA", 3, 14), ("333444555666", 4, 6)]
)
def test_R3_6_triple_run_three_or_more_consecutive_triples(text: str, length: int, top: int) -> None:
    combo = classify(text)
    assert (combo.kind, combo.length, combo.top) == (Kind.TRIPLE_RUN, length, top)


@pytest.mark.parametrize("text", ["333444", "KKKAAA222", "444555777", "4445556666"])
def test_R3_6_not_a_triple_run(text: str) -> None:
    invalid(text)


def test_R3_7_suits_never_matter_straight_flush_is_a_straight() -> None:
    flush = classify(parse_cards("3H 4H 5H 6H 7H"))
    mixed = classify(parse_cards("3S 4D 5C 6H 7S"))
    assert flush == mixed
    assert flush.kind is Kind.STRAIGHT and flush.phase == 0
    assert not beats(flush, classify("3 4 5 6 7")) and not beats(classify("3 4 5 6 7"), flush)


@pytest.mark.parametrize(
    "text",
    ["3334", "33344", "333 44", "3344", "333444", "KA2", "QKA2 3", "JQKA2", "SJ BJ", "3 5", "33 5",
     "4444 5", "44445555", "3 3 4"],
)
def test_R3_8_not_combinations(text: str) -> None:
    """R3.8: triple with one or a pair, two-pair and two-triple runs, runs through 2,
    SJ+BJ, any other shape (and R4.6 two-bomb runs)."""
    invalid(text)


def test_R3_9_length_is_distinct_ranks_top_is_highest_rank() -> None:
    assert (classify("445566").length, classify("445566").top) == (3, 6)
    assert (classify("444555666777").length, classify("444555666777").top) == (4, 7)
    assert (classify("56789 10").length, classify("56789 10").top) == (6, 10)


# ---------------------------------------------------------------------------
# R4 bombs and phases


@pytest.mark.parametrize(("text", "phase"), [("4444", 4), ("33333", 5), ("777777", 6), ("2222222", 7),
                                            ("AAAAAAAA", 8)])
def test_R4_1_n_bomb_phase_is_n(text: str, phase: int) -> None:
    combo = classify(text)
    assert (combo.kind, combo.phase, combo.length, combo.size) == (Kind.BOMB, phase, 1, phase)
    assert combo.is_bomb


def test_R4_1_bomb_of_twos_and_up_to_twelve_with_jokers() -> None:
    """R4.1: any rank 3..2; natural N <= 8, up to 12 with jokers."""
    assert classify("2222").top == Rank.TWO
    combo = classify("22222222 SJ SJ BJ BJ")
    assert (combo.kind, combo.phase, combo.top, combo.size) == (Kind.BOMB, 12, 15, 12)
    assert combo.reading == parse_counts("2 " * 12)


@pytest.mark.parametrize("text", ["SJ SJ BJ", "SJ BJ BJ"])
def test_R4_2_any_three_jokers_are_the_three_joker_bomb(text: str) -> None:
    combo = classify(text)
    assert (combo.kind, combo.phase, combo.size) == (Kind.JOKER_BOMB, 6, 3)


def test_R4_3_all_four_jokers_are_the_four_joker_bomb() -> None:
    combo = classify("SJ SJ BJ BJ")
    assert (combo.kind, combo.phase, combo.size) == (Kind.JOKER_BOMB, 7, 4)


@pytest.mark.parametrize(
    ("text", "phase", "length", "top"),
    [
        ("444455556666", 7, 3, 6),
        ("3333 4444 5555 6666", 8, 4, 6),
        ("777778888899999", 8, 3, 9),
        ("JJJJ QQQQ KKKK AAAA", 8, 4, 14),
        ("3333 4444 5555 6666 7777", 9, 5, 7),
        ("444444 555555 666666", 9, 3, 6),
    ],
)
def test_R4_4_serial_bomb_phase_is_x_plus_y(text: str, phase: int, length: int, top: int) -> None:
    combo = classify(text)
    assert (combo.kind, combo.phase, combo.length, combo.top) == (Kind.SERIAL_BOMB, phase, length, top)
    assert combo.is_regular


@pytest.mark.parametrize("text", ["4444 5555 7777", "44445555", "4444 555 6666", "KKKK AAAA 2222"])
def test_R4_4_not_serial_bombs(text: str) -> None:
    """R4.4: at least 3 consecutive ranks within 3..A, each at least 4 cards."""
    invalid(text)


def test_R4_5_irregular_serial_bomb_counts_by_its_smallest_rank() -> None:
    """R4.5: `4444 55555 66666` is 4-phase 3-serial, phase 7, irregular."""
    combo = classify("4444 55555 66666")
    assert (combo.kind, combo.phase, combo.length, combo.top) == (Kind.SERIAL_BOMB, 7, 3, 6)
    assert not combo.is_regular
    assert combo.size == 14


def test_R4_5_regular_serial_bomb() -> None:
    assert classify("55555 66666 77777").is_regular
    assert not classify("55555 666666 77777").is_regular
    assert classify("4444").is_regular  # only serial bombs can be irregular


def test_R4_6_two_consecutive_bombs_are_no_combination() -> None:
    """R4.6: `44445555` is not a combination (no two-serial bombs)."""
    reason = invalid("44445555")
    assert "4 4 4 4 5 5 5 5" in reason
    invalid("AAAA 2222", TWO_IN_SERIAL)
    invalid("44445555 SJ")


def test_R4_6_serial_bombs_contain_no_two_by_default() -> None:
    invalid("QQQQ KKKK AAAA 2222")
    invalid("KKKK AAAA 2222")
    invalid("KKKK AAAA 222 SJ")


def test_R4_6_serial_bomb_two_variant_puts_two_after_ace() -> None:
    """R4.6 [config serial_bomb_two = true]: `QQQQ KKKK AAAA 2222`, no wrap to 3."""
    combo = classify("QQQQ KKKK AAAA 2222", rules=TWO_IN_SERIAL)
    assert (combo.kind, combo.phase, combo.length, combo.top) == (Kind.SERIAL_BOMB, 8, 4, 15)
    combo = classify("KKKK AAAA 222 SJ", rules=TWO_IN_SERIAL)
    assert (combo.kind, combo.phase, combo.top) == (Kind.SERIAL_BOMB, 7, 15)
    invalid("AAAA 2222 3333", TWO_IN_SERIAL)
    invalid("2222 3333 4444", TWO_IN_SERIAL)


def test_R4_6_serial_bomb_two_variant_does_not_touch_straights_and_runs() -> None:
    """R4.6 changes serial bombs only; R3.4-R3.6 still stop at A."""
    for text in ("10 J Q K A 2", "KKAA22", "QQQKKKAAA222"):
        invalid(text, TWO_IN_SERIAL)


def test_R4_6_serial_bombs_never_contain_a_joker_rank() -> None:
    """Jokers inside a serial bomb always stand for ranks 3..A (R4.6, R5.2)."""
    combo = classify("AAAA KKKK QQQ SJ", rules=TWO_IN_SERIAL)
    assert combo.kind is Kind.SERIAL_BOMB
    assert combo.reading == parse_counts("QQQQ KKKK AAAA")
    assert combo.reading[13:] == (0, 0)


@pytest.mark.parametrize(
    ("text", "phase"),
    [
        ("4444", 4),
        ("33333", 5),
        ("777777", 6),
        ("SJ SJ BJ", 6),
        ("SJ SJ BJ BJ", 7),
        ("444455556666", 7),
        ("777778888899999", 8),
        ("44444444 SJ", 9),
        ("44444444 SJ SJ BJ BJ", 12),
    ],
)
def test_R4_7_phase_examples(text: str, phase: int) -> None:
    """R4.7: every phase example of the rule book."""
    combo = classify(text)
    assert combo.is_bomb
    assert combo.phase == phase


def test_R4_7_five_phase_three_serial() -> None:
    """R4.7: `777778888899999` is 5-phase 3-serial."""
    combo = classify("777778888899999")
    assert (combo.phase - combo.length, combo.length) == (5, 3)


def test_R4_7_largest_phase_of_27_cards_is_12() -> None:
    """R4.7: 12 is reachable both by a 12-card bomb and by a 9-phase 3-serial bomb of
    27 cards (jokers filling), and nothing of 27 cards reads higher."""
    assert classify("22222222 SJ SJ BJ BJ").phase == 12
    serial = classify("44444444 55555555 6666666 SJ SJ BJ BJ")
    assert (serial.kind, serial.phase, serial.length, serial.size) == (Kind.SERIAL_BOMB, 12, 3, 27)
    assert serial.reading == parse_counts("4" * 9 + "5" * 9 + "6" * 9)
    assert classify("3333 4444 5555 6666 7777 8888 SJ SJ BJ").phase == 10


# ---------------------------------------------------------------------------
# R5 jokers as wild cards


def test_R5_1_joker_only_sets_read_at_face_value() -> None:
    assert read("SJ") == "single SJ"
    assert read("BJ") == "single BJ"
    assert read("SJ SJ") == "pair SJ SJ"
    assert read("BJ BJ") == "pair BJ BJ"
    assert classify("SJ SJ BJ").kind is Kind.JOKER_BOMB
    assert classify("SJ SJ BJ BJ").kind is Kind.JOKER_BOMB


def test_R5_1_small_and_big_joker_are_no_pair() -> None:
    reason = invalid("SJ BJ")
    assert "SJ and BJ" in reason and "R3.8" in reason


def test_R5_1_joker_only_sets_are_not_wild() -> None:
    """R5.1: `BJ BJ` is a pair of big jokers, not a pair of 2s; a single joker is itself."""
    assert classify("BJ BJ").top == Rank.BIG_JOKER
    assert classify("BJ BJ").reading == parse_counts("BJ BJ")
    assert classify("SJ").reading == parse_counts("SJ")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("BJ 222", "bomb 2 2 2 2 phase 4"),
        ("33445 BJ", "pair_run 3 3 4 4 5 5"),
        ("BJ 5679", "straight 5 6 7 8 9"),
        ("SJ 7", "pair 7 7"),
        ("SJ BJ 9", "triple 9 9 9"),
        ("2 SJ", "pair 2 2"),
        ("Q K A SJ BJ", "straight 10 J Q K A"),
        ("4 6 SJ SJ 8", "straight 4 5 6 7 8"),
    ],
)
def test_R5_2_jokers_stand_for_any_rank_3_to_2(text: str, expected: str) -> None:
    """R5.2: `BJ 222` = `2222`; `33445 BJ` = `334455`; `BJ 5679` = `56789`."""
    assert read(text) == expected


def test_R5_2_3344_with_a_joker_is_invalid() -> None:
    """R5.2: `3344 BJ` is invalid (no two-pair runs, no triple with a pair)."""
    invalid("3344 BJ")
    invalid("3344 SJ")


def test_R5_2_a_joker_never_stands_for_a_joker() -> None:
    """R5.2: `SJ 5` is a pair of 5s and `SJ SJ BJ 5` the bomb 5555, never joker sets."""
    assert classify("SJ 5").reading == parse_counts("5 5")
    combo = classify("SJ SJ BJ 5")
    assert (combo.kind, combo.top, combo.phase) == (Kind.BOMB, 5, 4)
    assert combo.reading == parse_counts("5555")
    assert classify("2 BJ").reading == parse_counts("2 2")
    assert classify("2 BJ").top == Rank.TWO
    assert read("SJ BJ BJ 5 6") == "straight 5 6 7 8 9"


def test_R5_2_reading_records_what_each_joker_stands_for() -> None:
    combo = classify("33445 BJ")
    assert combo.cards == parse_counts("33445 BJ")
    assert combo.reading == parse_counts("334455")
    assert combo.jokers == 1


def test_R5_3_strongest_reading_5678_sj_is_56789() -> None:
    """R5.3: `5678 SJ` reads as `56789`, not `45678`."""
    combo = classify("5678 SJ")
    assert (combo.kind, combo.top, combo.length) == (Kind.STRAIGHT, 9, 5)
    assert combo.reading == parse_counts("56789")


def test_R5_3_444_sj_reads_as_the_bomb() -> None:
    """R5.3: `444 SJ` reads as the bomb `4444`."""
    assert read("444 SJ") == "bomb 4 4 4 4 phase 4"


def test_R5_3_bomb_reading_beats_the_straight_reading() -> None:
    """R5.3: `5 SJ SJ BJ BJ` reads as the 5-bomb `55555` rather than a straight; the
    bomb is then the only playable reading."""
    assert read("5 SJ SJ BJ BJ") == "bomb 5 5 5 5 5 phase 5"
    kinds = {combo.kind for combo in all_readings(parse_counts("5 SJ SJ BJ BJ"))}
    assert kinds == {Kind.BOMB, Kind.STRAIGHT}
    assert [combo.kind for combo in readings("5 SJ SJ BJ BJ")] == [Kind.BOMB]
    with pytest.raises(InvalidCombination, match="cannot be played as straight"):
        classify("5 SJ SJ BJ BJ", kind=Kind.STRAIGHT)


def test_R5_3_run_reads_at_its_top_end_capped_at_ace() -> None:
    """R5.3: the jokers go to the top of a run, unless the run would pass A."""
    assert read("J Q K SJ BJ") == "straight 10 J Q K A"
    assert read("K A SJ SJ BJ") == "straight 10 J Q K A"
    assert read("QQ KK A SJ") == "pair_run Q Q K K A A"


def test_R5_3_follow_takes_the_strongest_reading_that_beats() -> None:
    """R5.3 exception: `456 SJ SJ SJ` is the straight `456789` on a lead, but the pair
    run `445566` on the pair run `334455`."""
    assert read("456 SJ SJ SJ") == "straight 4 5 6 7 8 9"
    on_pairs = classify("456 SJ SJ SJ", table="33 44 55")
    assert str(on_pairs) == "pair_run 4 4 5 5 6 6"
    assert beats(on_pairs, classify("334455"))
    on_straight = classify("456 SJ SJ SJ", table="3 4 5 6 7 8")
    assert str(on_straight) == "straight 4 5 6 7 8 9"


def test_R5_3_follow_with_no_beating_reading_gives_the_strongest() -> None:
    """classify with a table falls back to the strongest reading; beats() says no."""
    combo = classify("456 SJ SJ SJ", table="99 10 10 JJ")
    assert str(combo) == "straight 4 5 6 7 8 9"
    assert not beats(combo, classify("99 10 10 JJ"))
    assert str(classify("5 5", table="BJ")) == "pair 5 5"


def test_R5_3_follow_prefers_a_bomb_that_beats() -> None:
    """On an ordinary table the bomb reading beats, so it is taken."""
    assert str(classify("5 SJ SJ BJ BJ", table="3 4 5 6 7")) == "bomb 5 5 5 5 5 phase 5"


def test_R5_4_different_kinds_are_alternative_readings() -> None:
    """R5.4: `345 SJ SJ SJ` is the straight `345678` or the pair run `334455`."""
    options = readings("345 SJ SJ SJ")
    assert [str(combo) for combo in options] == ["straight 3 4 5 6 7 8", "pair_run 3 3 4 4 5 5"]
    assert str(classify("345 SJ SJ SJ", kind="pair_run")) == "pair_run 3 3 4 4 5 5"
    assert str(classify("345 SJ SJ SJ", kind=Kind.STRAIGHT)) == "straight 3 4 5 6 7 8"
    assert read("345 SJ SJ SJ") == "straight 3 4 5 6 7 8"


def test_R5_4_readings_of_different_kinds_are_not_comparable() -> None:
    straight = classify("345 SJ SJ SJ", kind="straight")
    pair_run = classify("345 SJ SJ SJ", kind="pair_run")
    assert not beats(straight, pair_run) and not beats(pair_run, straight)


def test_R5_4_equal_top_prefers_pair_run_over_straight() -> None:
    """R5.4: same top rank A: pair run `QQKKAA` over straight `9 10 J Q K A`."""
    assert read("Q K A SJ SJ SJ") == "pair_run Q Q K K A A"
    assert [combo.kind for combo in readings("Q K A SJ SJ SJ")] == [Kind.PAIR_RUN, Kind.STRAIGHT]
    assert str(classify("Q K A SJ SJ SJ", kind="straight")) == "straight 9 10 J Q K A"


def test_R5_4_equal_top_prefers_triple_run_over_pair_run() -> None:
    """R5.4: `JJQQKKAA` + 4 jokers: triple run J-A over pair run 9-A."""
    assert read("JJQQKKAA SJ SJ BJ BJ") == "triple_run J J J Q Q Q K K K A A A"
    assert [combo.kind for combo in readings("JJQQKKAA SJ SJ BJ BJ")] == [Kind.TRIPLE_RUN, Kind.PAIR_RUN]
    assert classify("JJQQKKAA SJ SJ BJ BJ", kind="pair_run").reading == parse_counts(
        "99 10 10 JJ QQ KK AA")


def test_R5_4_higher_top_wins_over_kind_preference() -> None:
    """R5.4: the highest top rank first, then the kind order."""
    assert [combo.kind for combo in readings("345 SJ SJ SJ")] == [Kind.STRAIGHT, Kind.PAIR_RUN]


def test_R5_4_naming_a_reading_on_a_follow() -> None:
    """When several readings beat the table the player may name one; naming one that does
    not beat it is refused."""
    assert str(classify("345 SJ SJ SJ", table="3", kind="pair_run")) == "pair_run 3 3 4 4 5 5"
    with pytest.raises(InvalidCombination, match="cannot be played as pair_run; it reads as straight"):
        classify("456 SJ SJ SJ", table="3 4 5 6 7 8", kind="pair_run")


@pytest.mark.parametrize(
    ("text", "phase"),
    [("444 SJ", 4), ("4444 SJ", 5), ("44444 SJ", 6), ("4444 SJ BJ", 6), ("44444444 SJ", 9),
     ("4 SJ SJ BJ", 4), ("44 SJ SJ BJ BJ", 6)],
)
def test_R5_5_each_joker_adds_one_to_the_phase(text: str, phase: int) -> None:
    """R5.5: 3 of a rank plus a joker make a 4-bomb; each further joker adds one."""
    combo = classify(text)
    assert (combo.kind, combo.phase, combo.top) == (Kind.BOMB, phase, 4)
    assert combo.reading == parse_counts("4" * phase)


def test_R5_5_jokers_fill_serial_bombs() -> None:
    """R5.5: `33334444555 BJ` is the 4-phase 3-serial bomb."""
    combo = classify("33334444555 BJ")
    assert (combo.kind, combo.phase, combo.length, combo.top) == (Kind.SERIAL_BOMB, 7, 3, 5)
    assert combo.reading == parse_counts("333344445555")
    assert combo.is_regular


def test_R5_5_jokers_fill_a_missing_rank_of_a_serial_bomb() -> None:
    combo = classify("4444 6666 SJ SJ BJ BJ")
    assert (combo.kind, combo.phase, combo.length) == (Kind.SERIAL_BOMB, 7, 3)
    assert combo.reading == parse_counts("444455556666")


def test_R5_5_jokers_raise_the_phase_of_a_serial_bomb() -> None:
    """Jokers go first to the smallest rank: `4444 5555 6666 SJ SJ BJ` is 5x3 (phase 8),
    not 4x4 of a wider window, which would need more jokers."""
    combo = classify("4444 5555 6666 SJ SJ BJ")
    assert (combo.phase, combo.length, combo.top) == (8, 3, 6)
    assert combo.reading == parse_counts("444445555566666")


def test_R5_5_longer_serial_bomb_reading_when_it_is_stronger() -> None:
    """`4444 5555 6666 SJ SJ BJ BJ`: 4x4 (phase 8, 16 cards) beats 5x3 plus a spare
    joker (phase 8, 15 cards), so the jokers make a fourth rank."""
    combo = classify("4444 5555 6666 SJ SJ BJ BJ")
    assert (combo.phase, combo.length, combo.top) == (8, 4, 7)
    assert combo.reading == parse_counts("4444555566667777")


# ---------------------------------------------------------------------------
# R6 comparison


def test_R6_1_same_kind_same_length_higher_top() -> None:
    assert wins("45678", "34567")
    assert not wins("34567", "45678")
    assert not wins("34567", "34567")
    assert wins("10JQKA", "9 10 J Q K")
    assert wins("556677", "445566")
    assert wins("555666777", "444555666")
    assert wins("4", "3") and wins("2", "A") and not wins("3", "4")


def test_R6_1_different_length_never_beats() -> None:
    assert not wins("456789", "34567")
    assert not wins("45678", "3456789")
    assert not wins("55667788", "445566")
    assert not wins("666777888999", "333444555")


def test_R6_1_different_kind_never_beats() -> None:
    assert not wins("KK", "3")
    assert not wins("3", "22")
    assert not wins("AAA", "KK")
    assert not wins("556677", "45678")
    assert not wins("345678", "334455")
    assert not wins("555666777", "445566")


def test_R6_1_pairs_and_singles_jokers_highest() -> None:
    """R6.1: pairs and triples compare by rank, jokers highest."""
    assert wins("SJ", "2") and wins("BJ", "SJ") and not wins("SJ", "BJ")
    assert wins("SJ SJ", "22") and wins("BJ BJ", "SJ SJ") and not wins("22", "SJ SJ")
    assert wins("222", "AAA") and not wins("333", "222")


def test_R6_1_jokers_as_wild_compare_by_the_rank_they_stand_for() -> None:
    assert wins("2 SJ", "AA")
    assert not wins("5 BJ", "66")
    assert wins("5678 SJ", "45678")  # 56789
    assert not wins("5678 SJ", "56789")  # equal top


def test_R6_2_every_bomb_beats_every_ordinary_combination() -> None:
    ordinary = ["3", "BJ", "BJ BJ", "222", "3 4 5 6 7 8 9 10 J Q K A", "JJQQKKAA", "QQQKKKAAA"]
    bombs = ["3333", "444 SJ", "SJ SJ BJ", "SJ SJ BJ BJ", "444455556666", "22222222 SJ SJ BJ BJ"]
    for bomb in bombs:
        for table in ordinary:
            assert wins(bomb, table), (bomb, table)
            assert not wins(table, bomb), (table, bomb)


def test_R6_3_higher_phase_wins() -> None:
    assert wins("33333", "2222")
    assert wins("444444", "88888")
    assert wins("3333 SJ SJ", "22222")
    assert wins("33333333", "444455556666")  # phase 8 over phase 7
    assert not wins("22222", "333333")


def test_R6_3_1_three_joker_bomb_smallest_of_phase_6() -> None:
    for rules in (SMALLEST, LARGEST):
        assert wins("SJ SJ BJ", "22222", rules)
        assert wins("333333", "SJ SJ BJ", rules)
        assert wins("33 SJ SJ BJ BJ", "SJ SJ BJ", rules)
        assert not wins("SJ SJ BJ", "333333", rules)
        assert wins("3333333", "SJ BJ BJ", rules)


def test_R6_3_2_four_joker_bomb_smallest_of_phase_7_by_default() -> None:
    """R6.3.2 [config four_joker_bomb = "smallest"]."""
    assert DEFAULT_RULES.four_joker_bomb == "smallest"
    assert wins("3333333", "SJ SJ BJ BJ")
    assert wins("444455556666", "SJ SJ BJ BJ")
    assert not wins("SJ SJ BJ BJ", "3333333")
    assert wins("SJ SJ BJ BJ", "222222")
    assert wins("SJ SJ BJ BJ", "SJ SJ BJ")  # phase 7 over phase 6


def test_R6_3_2_four_joker_bomb_largest_variant() -> None:
    """R6.3.2 [alternative "largest"]: largest of phase 7, still below phase 8."""
    assert wins("SJ SJ BJ BJ", "2222222", LARGEST)
    assert wins("SJ SJ BJ BJ", "JJJJ QQQQ KKKK", LARGEST)
    assert wins("SJ SJ BJ BJ", "JJJJ QQQQQ KKKKK", LARGEST)
    assert not wins("2222222", "SJ SJ BJ BJ", LARGEST)
    assert not wins("JJJJ QQQQ KKKK", "SJ SJ BJ BJ", LARGEST)
    assert wins("33333333", "SJ SJ BJ BJ", LARGEST)
    assert wins("3333 4444 5555 6666", "SJ SJ BJ BJ", LARGEST)
    assert not wins("SJ SJ BJ BJ", "33333333", LARGEST)


def test_R6_3_2_bomb_key_applies_the_variant() -> None:
    four = classify("SJ SJ BJ BJ")
    seven = classify("3333333")
    serial = classify("444455556666")
    assert bomb_key(four, SMALLEST) < bomb_key(seven, SMALLEST) < bomb_key(serial, SMALLEST)
    assert bomb_key(seven, LARGEST) < bomb_key(serial, LARGEST) < bomb_key(four, LARGEST)
    assert bomb_key(four, LARGEST) < bomb_key(classify("33333333"), LARGEST)


def test_R6_3_3_more_cards_wins_at_equal_phase() -> None:
    """R6.3.3: serial bombs count X*Y cards."""
    assert wins("3333 4444 5555", "2222222")  # phase 7: 12 cards over 7
    assert wins("333334444455555", "22222222")  # phase 8: 15 over 8
    assert wins("3333 4444 5555 6666", "JJJJJ QQQQQ KKKKK")  # phase 8: 16 over 15
    assert not wins("JJJJJ QQQQQ KKKKK", "3333 4444 5555 6666")


def test_R6_3_3_irregular_serial_counts_as_its_regular_form() -> None:
    """R6.3.3: `4444 55555 66666` (14 cards) counts as 12, so it still beats a 7-bomb but
    loses to the 4-phase 4-serial of phase 8."""
    assert wins("4444 55555 66666", "2222222")
    assert not wins("4444 55555 66666", "333344445555")
    assert wins("3333 4444 5555 6666", "4444 55555 66666")
    irregular = classify("33333 44444 555555")  # 5x3, 16 cards, phase 8
    assert irregular.phase == 8 and not irregular.is_regular
    assert wins("3333 4444 5555 6666", "33333 44444 555555")  # 16 over 15 (regular form)


def test_R6_3_4_higher_top_wins_at_equal_phase_and_size() -> None:
    """§13: `2222` beats `AAAA`."""
    assert wins("2222", "AAAA")
    assert not wins("AAAA", "2222")
    assert wins("555 SJ", "4444")
    assert wins("5555 6666 7777", "4444 5555 6666")
    assert wins("444455556666 7777", "3333 4444 5555 6666")


def test_R6_3_5_equal_bombs_do_not_beat_each_other() -> None:
    assert not wins("4444", "4444")
    assert not wins("444 SJ", "4444")
    assert not wins("4444", "44 SJ BJ")
    assert not wins("SJ SJ BJ", "SJ BJ BJ") and not wins("SJ BJ BJ", "SJ SJ BJ")
    assert not wins("444455556666", "4444 5555 666 BJ")
    for rules in (SMALLEST, LARGEST):
        assert not wins("SJ SJ BJ BJ", "SJ SJ BJ BJ", rules)


def test_R6_4_irregular_serial_bombs_equal() -> None:
    """R6.4: `7777 88888 99999` does not beat `4444 55555 66666`, nor the other way."""
    assert not wins("7777 88888 99999", "4444 55555 66666")
    assert not wins("4444 55555 66666", "7777 88888 99999")


def test_R6_4_irregular_against_regular_of_same_shape_is_equal() -> None:
    """R6.4: at least one irregular is enough."""
    assert not wins("7777 8888 9999", "4444 55555 66666")
    assert not wins("7777 88888 99999", "4444 5555 6666")
    assert not wins("4444 5555 66666", "7777 8888 9999")
    assert wins("7777 8888 9999", "4444 5555 6666")  # both regular: top decides


def test_R6_4_higher_phase_serial_beats_irregular() -> None:
    """R6.4: `77777 88888 99999` (phase 8) beats `4444 55555 66666`."""
    assert wins("77777 88888 99999", "4444 55555 66666")
    assert not wins("4444 55555 66666", "77777 88888 99999")


def test_R6_4_different_serial_shapes_still_compare() -> None:
    """R6.4 only makes same X and Y equal: an irregular 4x4 beats a regular 5x3 (16 > 15)."""
    assert wins("3333 4444 5555 66666", "JJJJJ QQQQQ KKKKK")


def test_R6_5_phase_6_order() -> None:
    """R6.5 phase 6: three jokers < 6-bomb."""
    order = ["SJ SJ BJ", "333333", "222222"]
    assert_strict_order(order)


def test_R6_5_phase_7_order() -> None:
    """R6.5 phase 7: four jokers < 7-bomb < 4-phase 3-serial."""
    assert_strict_order(["SJ SJ BJ BJ", "3333333", "2222222", "333344445555", "QQQQ KKKK AAAA"])


def test_R6_5_phase_8_order() -> None:
    """R6.5 phase 8: 8-bomb < 5-phase 3-serial < 4-phase 4-serial."""
    assert_strict_order(["33333333", "22222222", "333334444455555", "QQQQQ KKKKK AAAAA",
                         "3333 4444 5555 6666", "JJJJ QQQQ KKKK AAAA"])


def test_R6_5_phase_9_order() -> None:
    """R6.5 phase 9: 9-bomb < 6x3 serial < 5x4 and 4x5 serials (20 cards: top decides)."""
    assert_strict_order(["33333333 SJ", "22222222 SJ", "333333 444444 555555",
                         "33333 44444 55555 66666", "3333 4444 5555 6666 7777",
                         "55555 66666 77777 88888"])


def test_R6_5_phases_follow_each_other() -> None:
    """The strongest bomb of a phase is below the smallest of the next."""
    assert_strict_order(["2222", "33333", "22222", "SJ SJ BJ", "222222", "SJ SJ BJ BJ",
                         "JJJJ QQQQ KKKK AAAA", "33333333 SJ"])


def assert_strict_order(texts: list[str], rules: Rules = DEFAULT_RULES) -> None:
    """Each combination beats every earlier one and none of the later ones."""
    for index, later in enumerate(texts):
        for earlier in texts[:index]:
            assert wins(later, earlier, rules), (later, earlier)
            assert not wins(earlier, later, rules), (earlier, later)


# ---------------------------------------------------------------------------
# §13 worked examples


@pytest.mark.parametrize(
    ("played", "kind", "reading", "phase"),
    [
        ("33445 BJ", Kind.PAIR_RUN, "334455", 0),
        ("BJ 5679", Kind.STRAIGHT, "56789", 0),
        ("5678 SJ", Kind.STRAIGHT, "56789", 0),
        ("444 BJ", Kind.BOMB, "4444", 4),
        ("4444 SJ", Kind.BOMB, "44444", 5),
        ("SJ SJ BJ", Kind.JOKER_BOMB, "SJ SJ BJ", 6),
    ],
)
def test_13_worked_readings(played: str, kind: Kind, reading: str, phase: int) -> None:
    """§13: `33445 BJ` pair run 3-5 (BJ = 5); `BJ 5679` straight 5-9 (BJ = 8); `5678 SJ`
    straight 5-9 (SJ = 9); `444 BJ` 4-bomb of 4s; `4444 SJ` 5-bomb; `SJ SJ BJ` phase 6."""
    combo = classify(played)
    assert (combo.kind, combo.reading, combo.phase) == (kind, parse_counts(reading), phase)


def test_13_3344_sj_is_invalid() -> None:
    """§13: `3344 SJ` is invalid."""
    invalid("3344 SJ")


@pytest.mark.parametrize(
    ("table", "played", "result"),
    [
        ("AAAA", "2222", True),
        ("34567", "45678", True),
        ("34567", "456789", False),
        ("34567", "4444", True),
        ("88888", "444444", True),
        ("7777777", "444455556666", True),
        ("SJ SJ BJ BJ", "444455556666", True),
        ("4444 55555 66666", "7777 88888 99999", False),
        ("4444 55555 66666", "77777 88888 99999", True),
        ("SJ SJ BJ", "666666", True),
    ],
)
def test_13_worked_comparisons(table: str, played: str, result: bool) -> None:
    """§13: the table of worked comparisons, under the default rules."""
    assert wins(played, table) is result


def test_13_phases_of_the_worked_comparisons() -> None:
    """§13 annotations: `88888` phase 5, `444444` phase 6, `7777777` phase 7,
    `444455556666` phase 7 with 12 cards, `77777 88888 99999` phase 8."""
    assert classify("88888").phase == 5
    assert classify("444444").phase == 6
    assert classify("7777777").phase == 7
    assert (classify("444455556666").phase, classify("444455556666").size) == (7, 12)
    assert classify("77777 88888 99999").phase == 8


# ---------------------------------------------------------------------------
# classify: errors, inputs and the documented reading choice


def test_classify_accepts_strings_cards_and_counts() -> None:
    """R3.7: the reading depends only on the ranks, however the cards are given."""
    text = "3 3 4 4 5 BJ"
    by_text = classify(text)
    assert classify(parse_cards(text)) == by_text
    assert classify(parse_counts(text)) == by_text
    assert classify("BJ 5 4 3 4 3") == by_text


def test_classify_empty_set_is_invalid() -> None:
    """§3: a combination has at least one card."""
    assert invalid("") == "no cards"


def test_classify_invalid_reason_names_the_cards_and_rule() -> None:
    """R3.8: the reason names the cards and the rule."""
    reason = invalid("3344 SJ")
    assert reason.startswith("3 3 4 4 SJ is not a combination")
    assert "R3.8" in reason


def test_classify_too_long_run_is_invalid() -> None:
    """R3.4-R3.5: runs stop at the 12 ranks 3..A; a 13th rank from a joker makes no run."""
    invalid("3 4 5 6 7 8 9 10 J Q K A SJ")
    invalid("3 4 5 6 7 8 9 10 J Q K A SJ BJ")
    invalid("33445566778899 10 10 JJQQKKAA SJ BJ")
    assert read("3 4 5 6 7 8 9 10 J Q K SJ") == "straight 3 4 5 6 7 8 9 10 J Q K A"
    assert read("4 5 6 7 8 9 10 J Q K A SJ") == "straight 3 4 5 6 7 8 9 10 J Q K A"


def test_classify_naming_an_impossible_kind_raises() -> None:
    """R5.4: only a reading the cards have may be named."""
    with pytest.raises(InvalidCombination, match="cannot be played as single; it reads as pair") as caught:
        classify("3 3", kind="single")
    assert "3 3" in caught.value.reason
    with pytest.raises(InvalidCombination, match="cannot be played as straight; it reads as bomb"):
        classify("4444", kind="straight")
    with pytest.raises(InvalidCombination, match="cannot be played as serial_bomb"):
        classify("444 SJ", kind=Kind.SERIAL_BOMB)


def test_classify_naming_an_unknown_kind_raises() -> None:
    """R5.4: the named reading must be a kind of combination."""
    with pytest.raises(ValueError, match="not a valid Kind"):
        classify("3 3", kind="two_pair")


def test_classify_naming_the_read_kind_returns_it() -> None:
    """R5.4: naming the only reading changes nothing."""
    assert classify("4444", kind="bomb") == classify("4444")
    assert classify("SJ SJ BJ", kind="joker_bomb") == classify("SJ SJ BJ")


def test_classify_table_given_as_string_or_combo() -> None:
    """R5.3: the table may be given as cards or as a reading."""
    table = classify("33 44 55")
    assert classify("456 SJ SJ SJ", table=table) == classify("456 SJ SJ SJ", table="33 44 55")


def test_playable_readings_strongest_first_and_bomb_alone() -> None:
    """R5.3, R5.4: one reading per ordinary kind, or the bomb alone."""
    assert [str(c) for c in playable_readings(parse_counts("345 SJ SJ SJ"))] == [
        "straight 3 4 5 6 7 8", "pair_run 3 3 4 4 5 5"]
    assert [c.kind for c in playable_readings(parse_counts("444 SJ"))] == [Kind.BOMB]
    assert playable_readings(parse_counts("3344 SJ")) == []


def test_playable_readings_on_a_table_keeps_only_beating_ones() -> None:
    """R5.3 exception, R6.1: only readings that beat the table."""
    table = classify("3 4 5 6 7 8")
    assert playable_readings(parse_counts("345 SJ SJ SJ"), table) == []  # equal top: none beats
    assert [str(c) for c in playable_readings(parse_counts("456 SJ SJ SJ"), table)] == [
        "straight 4 5 6 7 8 9"]


def test_readings_agree_with_the_reference_on_the_examples() -> None:
    """The brute-force reference of RULES §3-§5 reads the rule-book examples the same way."""
    for text in ["33445 BJ", "BJ 5679", "5678 SJ", "444 BJ", "4444 SJ", "SJ SJ BJ", "345 SJ SJ SJ",
                 "Q K A SJ SJ SJ", "4444 55555 66666", "33334444555 BJ", "5 SJ SJ BJ BJ",
                 "44444444 SJ SJ BJ BJ", "3344 SJ", "SJ BJ"]:
        counts = parse_counts(text)
        engine = {(c.kind, c.top, c.length, c.phase) for c in playable_readings(counts)}
        reference = {(c.kind, c.top, c.length, c.phase) for c in ref_playable(counts, None)}
        assert engine == reference, text


# ---------------------------------------------------------------------------
# Combo values


def test_combo_to_dict_shape() -> None:
    """R3.9, R4: kind, length, top, phase, cards and reading."""
    assert classify("33445 BJ").to_dict() == {
        "kind": "pair_run", "length": 3, "top": "5", "phase": 0,
        "cards": "3 3 4 4 5 BJ", "reading": "3 3 4 4 5 5"}
    assert classify("SJ SJ BJ").to_dict()["phase"] == 6
    assert classify("SJ SJ BJ").to_dict()["top"] == "BJ"


def test_combo_str() -> None:
    """R4, R5.2: the reading and the phase of a bomb."""
    assert str(classify("4444 SJ")) == "bomb 4 4 4 4 4 phase 5"
    assert str(classify("5678 BJ")) == "straight 5 6 7 8 9"


def test_combo_properties() -> None:
    """R4, R5: size, jokers, top rank, bomb kinds."""
    combo: Combo = classify("44 SJ BJ")
    assert (combo.size, combo.jokers, combo.top_rank, combo.is_bomb) == (4, 2, Rank.FOUR, True)
    assert not classify("45678").is_bomb
    assert Kind.SERIAL_BOMB.is_bomb and Kind.JOKER_BOMB.is_bomb and not Kind.TRIPLE_RUN.is_bomb


@pytest.mark.parametrize(
    ("rule", "cards", "kind", "stands_for"),
    [
        # the examples of the browser client's jokerStandIns
        ("R5.3", "5H 6S 7C 8D SJ", None, ["9"]),
        ("R5.2", "3H 3S 4C 4D 5S BJ", None, ["5"]),
        ("R5.2", "BJ 5 6 7 9", None, ["8"]),
        ("R5.2", "BJ 2 2 2", None, ["2"]),
        ("R5.5", "Q Q Q Q BJ", None, ["Q"]),
        ("R5.3", "5 SJ SJ BJ BJ", None, ["5", "5", "5", "5"]),
        ("R5.4", "3 4 5 SJ SJ BJ", "straight", ["6", "7", "8"]),
        ("R5.4", "3 4 5 SJ SJ BJ", "pair_run", ["3", "4", "5"]),
        ("R5.5", "3333 4444 555 BJ", None, ["5"]),
        ("R5.1", "SJ SJ BJ", None, []),
        ("R5.1", "BJ", None, []),
        ("R3.4", "4 5 6 7 8", None, []),
    ],
)
def test_jokers_stand_for_the_ranks_they_fill(rule: str, cards: str, kind: str | None, stands_for: list[str]) -> None:
    combo = classify(cards, kind=kind)
    assert combo.view()["stands_for"] == stands_for, rule
    assert [rank.symbol for rank in combo.stands_for] == stands_for, rule


def test_joker_stand_ins_follow_the_jokers_order_small_first() -> None:
    """R5.2: one rank per joker, the small jokers' first, in the order of the cards."""
    combo = classify("6 7 8 BJ SJ")
    assert combo.view()["cards"] == "6 7 8 SJ BJ" and combo.view()["stands_for"] == ["9", "10"]


@pytest.mark.parametrize(
    ("rule", "cards", "bomb", "width"),
    [
        ("R4.4", "55555 66666 77777 88888", True, 5),  # a 4-serial of 5-card bombs
        ("R4.4", "444455556666", True, 4),
        ("R4.5", "4444 55555 66666", True, 4),  # irregular: counts as 4-phase 3-serial
        ("R5.5", "33334444555 BJ", True, 4),
        ("R4.1", "7777777", True, 7),
        ("R5.5", "44444444 SJ", True, 9),
        ("R4.2", "SJ SJ BJ", True, 3),
        ("R4.3", "SJ SJ BJ BJ", True, 4),
        ("R3.5", "445566", False, 0),
        ("R3.1", "BJ", False, 0),
    ],
)
def test_view_width_and_bomb(rule: str, cards: str, bomb: bool, width: int) -> None:
    view = classify(cards).view()
    assert (view["bomb"], view["width"]) == (bomb, width), rule


def test_view_is_to_dict_and_more() -> None:
    combo = classify("4444 55555 66666")
    view = combo.view()
    assert {key: value for key, value in view.items() if key in combo.to_dict()} == combo.to_dict()
    assert set(view) - set(combo.to_dict()) == {"bomb", "width", "stands_for"}
    assert view["phase"] == 7 and view["length"] == 3  # R4.5


def test_kind_names_are_the_json_names_of_the_kinds() -> None:
    assert tuple(kind.value for kind in Kind) == KIND_NAMES
    assert "serial_bomb" in KIND_NAMES and len(KIND_NAMES) == 9


# ---------------------------------------------------------------------------
# Rules variants


def test_rules_defaults() -> None:
    """R6.3 four_joker_bomb="smallest", R4.6 serial_bomb_two=false, R11.2 hosting_bombs=true."""
    assert (DEFAULT_RULES.four_joker_bomb, DEFAULT_RULES.serial_bomb_two, DEFAULT_RULES.hosting_bombs) == (
        "smallest", False, True)


def test_rules_reject_bad_values() -> None:
    """R6.3, R4.6, R11.2: the three rule variants accept only their values."""
    with pytest.raises(RulesError, match="four_joker_bomb"):
        Rules(four_joker_bomb="middle")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="serial_bomb_two must be true or false"):
        Rules(serial_bomb_two="yes")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="hosting_bombs"):
        Rules(hosting_bombs=1)  # type: ignore[arg-type]


def test_rules_from_strings_and_with_settings() -> None:
    """R6.3, R4.6, R11.2: variants from key=value settings."""
    rules = Rules.from_strings(["four_joker_bomb=largest", "serial_bomb_two=true", "hosting_bombs = False"])
    assert rules == Rules("largest", True, False)
    assert DEFAULT_RULES.with_settings({"serial_bomb_two": True}) == TWO_IN_SERIAL
    with pytest.raises(RulesError, match="unknown rule 'wild_twos'"):
        DEFAULT_RULES.with_settings({"wild_twos": True})
    with pytest.raises(RulesError, match="expected key=value"):
        Rules.from_strings(["serial_bomb_two"])


# ---------------------------------------------------------------------------
# Sets with several serial-bomb readings (R5.3, R6.3, R6.4)

FOUR_RANKS_FOUR_JOKERS = "8888 9999 10 10 10 10 JJJJ SJ SJ BJ BJ"
IRREGULAR_FOUR_BY_FIVE = "33334444555566667777 7"  # 4-phase 5-serial 3-7 and a fifth 7 (R4.5)


def test_R5_3_set_with_several_serial_readings_leads_as_the_strongest() -> None:
    """R4.4, R5.3, R6.3: `8888 9999 10101010 JJJJ` and four jokers is the 5-phase 4-serial
    8-J, the 4-phase 5-serial 7-J or the 4-phase 5-serial 8-Q, all phase 9 and 20 cards
    (R6.5); the highest top, Q, is the strongest."""
    combo = classify(FOUR_RANKS_FOUR_JOKERS)
    assert (combo.kind, combo.phase, combo.length, combo.top) == (Kind.SERIAL_BOMB, 9, 5, 12)
    assert combo.reading == parse_counts("8888 9999 10 10 10 10 JJJJ QQQQ")
    assert combo.is_regular


def test_R5_3_R6_4_follow_takes_the_strongest_serial_reading_that_beats() -> None:
    """R5.3 exception, R6.4: on the irregular 4-phase 5-serial 3-7 (21 cards) the strongest
    reading, a 4-phase 5-serial, is equal to it and does not beat; the 5-phase 4-serial 8-J
    (phase 9, 20 cards, top J above 7, R6.5) does, and is the reading taken."""
    table = classify(IRREGULAR_FOUR_BY_FIVE)
    assert (table.kind, table.phase, table.length, table.top, table.size) == (Kind.SERIAL_BOMB, 9, 5, 7, 21)
    assert not table.is_regular
    assert not beats(classify(FOUR_RANKS_FOUR_JOKERS), table)
    follow = classify(FOUR_RANKS_FOUR_JOKERS, table)
    assert (follow.phase, follow.length, follow.top) == (9, 4, 11)
    assert follow.reading == parse_counts("88888 99999 10 10 10 10 10 JJJJJ")
    assert beats(follow, table) and ref_beats(follow, table)
    assert readings(FOUR_RANKS_FOUR_JOKERS, table) == [follow]
    reference = ref_playable(parse_counts(FOUR_RANKS_FOUR_JOKERS), table)
    assert [(c.kind, c.phase, c.length, c.top) for c in reference] == [(Kind.SERIAL_BOMB, 9, 4, 11)]


def test_R5_3_R6_4_follow_on_a_regular_table_keeps_the_strongest_reading() -> None:
    """R6.3: on the regular 4-phase 5-serial 7-J the strongest reading (8-Q, top Q) beats."""
    follow = classify(FOUR_RANKS_FOUR_JOKERS, "7777 8888 9999 10 10 10 10 JJJJ")
    assert (follow.phase, follow.length, follow.top) == (9, 5, 12)


def test_R5_3_no_serial_reading_beats_a_stronger_table() -> None:
    """R6.3: nothing of phase 9 and 20 cards beats the 4-phase 5-serial 10-A; the strongest
    reading is returned, and does not beat."""
    table = classify("10 10 10 10 JJJJ QQQQ KKKK AAAA")
    combo = classify(FOUR_RANKS_FOUR_JOKERS, table)
    assert (combo.length, combo.top) == (5, 12)
    assert not beats(combo, table)
    assert readings(FOUR_RANKS_FOUR_JOKERS, table) == []


def test_R5_3_equally_strong_serial_readings_take_more_cards_per_rank() -> None:
    """R5.3, R6.3, R4.6 variant: `QQQQ KKKK AAAA 2222` and four jokers is the 5-phase 4-serial
    Q-2 or the 4-phase 5-serial J-2: both phase 9, 20 cards, top 2, so equal by R6.3. As
    R5.4 prefers a triple run to a pair run to a straight, the reading with more cards per
    rank is taken: 5-phase 4-serial. The reference agrees."""
    cards = "QQQQ KKKK AAAA 2222 SJ SJ BJ BJ"
    combo = classify(cards, rules=TWO_IN_SERIAL)
    assert (combo.phase, combo.length, combo.top) == (9, 4, 15)
    assert combo.reading == parse_counts("QQQQQ KKKKK AAAAA 22222")
    reference = ref_playable(parse_counts(cards), None, TWO_IN_SERIAL)
    assert [(c.phase, c.length, c.top) for c in reference] == [(9, 4, 15)]


# ---------------------------------------------------------------------------
# C3.1 wild-joker and three-joker-bomb variants

NO_WILD = Rules(wild_jokers="none")
BIG_WILD = Rules(wild_jokers="big")
NO_THREE_JOKERS = Rules(three_joker_bomb=False)
CLASSIC = Rules(wild_jokers="none", three_joker_bomb=False)


def test_C3_1_rush_defaults_all_jokers_wild_and_three_joker_bomb() -> None:
    """R4.2, R5.2: the two-player game keeps every joker wild and the three-joker bomb."""
    assert (DEFAULT_RULES.wild_jokers, DEFAULT_RULES.three_joker_bomb) == ("all", True)
    assert Rules(wild_jokers="all", three_joker_bomb=True) == DEFAULT_RULES


@pytest.mark.parametrize("text", ["444 BJ", "444 SJ", "33445 BJ", "5678 SJ", "4444 SJ", "44 SJ BJ"])
def test_C3_1_wild_jokers_none_jokers_never_join_other_ranks(text: str) -> None:
    """C3.1 `wild_jokers = "none"`: a joker is never wild, so with other ranks it is no
    combination; `444 BJ` reads no bomb. The reason names the setting."""
    reason = invalid(text, NO_WILD)
    assert 'wild_jokers = "none"' in reason and "C3.1" in reason
    assert ref_playable(parse_counts(text), None, NO_WILD) == []


def test_C3_1_wild_jokers_none_keeps_joker_only_sets_at_face_value() -> None:
    """C3.1, R5.1: jokers alone still read at face value, three- and four-joker bombs too."""
    assert read("BJ", NO_WILD) == "single BJ"
    assert read("SJ SJ", NO_WILD) == "pair SJ SJ"
    assert classify("SJ SJ BJ", rules=NO_WILD).phase == 6
    assert classify("SJ SJ BJ BJ", rules=NO_WILD).phase == 7
    assert read("4444", NO_WILD) == "bomb 4 4 4 4 phase 4"


def test_C3_1_wild_jokers_big_only_big_jokers_stand_in() -> None:
    """C3.1 `wild_jokers = "big"`: big jokers are wild (R5.2-R5.5), small jokers are not."""
    assert read("444 BJ", BIG_WILD) == "bomb 4 4 4 4 phase 4"
    assert read("33445 BJ", BIG_WILD) == "pair_run 3 3 4 4 5 5"
    assert read("5678 BJ", BIG_WILD) == "straight 5 6 7 8 9"
    assert classify("4444 BJ BJ", rules=BIG_WILD).phase == 6
    for text in ("444 SJ", "5678 SJ", "444 SJ BJ", "4444 SJ"):
        reason = invalid(text, BIG_WILD)
        assert 'wild_jokers = "big"' in reason and "only big jokers" in reason
    assert classify("SJ SJ BJ", rules=BIG_WILD).kind is Kind.JOKER_BOMB  # R5.1


def test_C3_1_big_wild_jokers_fill_serial_bombs() -> None:
    """C3.1, R5.5: with `wild_jokers = "big"` big jokers fill a serial bomb, small ones cannot."""
    combo = classify("33334444555 BJ", rules=BIG_WILD)
    assert (combo.kind, combo.phase, combo.length) == (Kind.SERIAL_BOMB, 7, 3)
    with pytest.raises(InvalidCombination):
        classify("33334444555 SJ", rules=BIG_WILD)


def test_C3_1_three_joker_bomb_false_three_jokers_are_nothing() -> None:
    """C3.1 `three_joker_bomb = false`: three jokers are no combination (R4.2 off); four
    jokers stay the four-joker bomb (R4.3), and jokers still fill N-bombs (R5.5)."""
    for text in ("SJ SJ BJ", "SJ BJ BJ"):
        reason = invalid(text, NO_THREE_JOKERS)
        assert "three_joker_bomb = false" in reason and "C3.1" in reason
        assert ref_playable(parse_counts(text), None, NO_THREE_JOKERS) == []
    assert classify("SJ SJ BJ BJ", rules=NO_THREE_JOKERS).phase == 7
    assert classify("44 SJ BJ", rules=NO_THREE_JOKERS).phase == 4


def test_C3_1_classic_settings_read_and_compare() -> None:
    """C3.1 classic (`"none"`, false): natural bombs and the four-joker bomb as in R6."""
    assert wins("SJ SJ BJ BJ", "7777777", Rules(wild_jokers="none", three_joker_bomb=False,
                                               four_joker_bomb="largest"))
    assert not wins("SJ SJ BJ BJ", "7777777", CLASSIC)
    assert wins("444455556666", "SJ SJ BJ BJ", CLASSIC)
    assert invalid("SJ SJ BJ", CLASSIC) and invalid("3 SJ", CLASSIC)


def test_C3_1_rules_reject_bad_variant_values() -> None:
    """C3.1: the two variants accept only their values, with the values named."""
    with pytest.raises(RulesError, match="wild_jokers must be 'none', 'big' or 'all', not 'small'"):
        Rules(wild_jokers="small")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="three_joker_bomb must be true or false, not 'no'"):
        Rules(three_joker_bomb="no")  # type: ignore[arg-type]
    assert Rules.from_strings(["wild_jokers=big", "three_joker_bomb=false"]) == Rules(
        wild_jokers="big", three_joker_bomb=False)
