"""Legal moves, hint order and the hosting choice (RULES R2.2-R2.6, §3-§6, R11.2)."""

from __future__ import annotations

from itertools import pairwise

import pytest
from reference import comparable, ref_legal_moves

from shuangkou.cards import format_counts, parse_cards, parse_counts
from shuangkou.games.shuangkou.combos import Combo, Kind, beats, classify
from shuangkou.games.shuangkou.moves import hint_key, hosting_move, legal_moves
from shuangkou.games.shuangkou.rules import DEFAULT_RULES, Rules

NO_HOSTING_BOMBS = Rules(hosting_bombs=False)
LARGEST = Rules(four_joker_bomb="largest")
TWO_IN_SERIAL = Rules(serial_bomb_two=True)


def shown(moves: list[Combo]) -> list[str]:
    """Each move as ``reading [cards]``."""
    return [f"{move} [{format_counts(move.cards)}]" for move in moves]


def host(hand: str, table: str | None = None, rules: Rules = DEFAULT_RULES) -> str | None:
    """The hosting move as ``reading [cards]``, or None for a pass."""
    move = hosting_move(hand, table, rules)
    return None if move is None else shown([move])[0]


def same_as_reference(hand: str, table: str | None = None, rules: Rules = DEFAULT_RULES) -> list[Combo]:
    """The engine's moves, after checking them against the brute-force reference."""
    moves = legal_moves(hand, table, rules)
    table_combo = None if table is None else classify(table, rules=rules)
    engine = [comparable(move) for move in moves]
    assert len(engine) == len(set(engine)), "duplicate moves"
    assert set(engine) == ref_legal_moves(parse_counts(hand), table_combo, rules)
    return moves


# ---------------------------------------------------------------------------
# R2.2 - R2.6 what may be played


def test_R2_2_lead_lists_every_combination_of_the_hand() -> None:
    """R2.2: on a lead any valid combination, in hint order."""
    assert shown(same_as_reference("5 6 7 8 SJ")) == [
        "single 5 [5]", "pair 5 5 [5 SJ]", "single 6 [6]", "pair 6 6 [6 SJ]", "single 7 [7]",
        "pair 7 7 [7 SJ]", "single 8 [8]", "pair 8 8 [8 SJ]", "straight 5 6 7 8 9 [5 6 7 8 SJ]",
        "single SJ [SJ]"]


def test_R2_2_lead_of_a_small_hand() -> None:
    assert shown(same_as_reference("3 3 4")) == [
        "single 3 [3]", "pair 3 3 [3 3]", "single 4 [4]"]
    assert shown(same_as_reference("SJ BJ")) == ["single SJ [SJ]", "single BJ [BJ]"]


def test_R2_3_follow_lists_only_moves_that_beat() -> None:
    """R2.3: a play must beat the table (R6)."""
    assert shown(same_as_reference("3 3 4", "3")) == ["single 4 [4]"]
    assert shown(same_as_reference("4 4 9 9 SJ", "3 3")) == [
        "pair 4 4 [4 4]", "pair 4 4 [4 SJ]", "pair 9 9 [9 9]", "pair 9 9 [9 SJ]"]
    moves = same_as_reference("3 4 5 6 7 8 9 5555", "3 4 5 6 7")
    assert all(beats(move, classify("34567")) for move in moves)
    assert {move.kind for move in moves} == {Kind.STRAIGHT, Kind.BOMB}
    assert all(move.length == 5 for move in moves if move.kind is Kind.STRAIGHT)


def test_R2_3_follow_on_a_bomb_lists_only_stronger_bombs() -> None:
    assert shown(same_as_reference("5555 SJ 6 7 8 9 10", "4444")) == [
        "bomb 5 5 5 5 phase 4 [5 5 5 5]", "bomb 5 5 5 5 phase 4 [5 5 5 SJ]",
        "bomb 5 5 5 5 5 phase 5 [5 5 5 5 SJ]"]


def test_R2_4_a_lead_always_has_a_move() -> None:
    """R2.4: no pass on a lead: any non-empty hand has at least its singles."""
    for hand in ["3", "BJ", "SJ BJ", "2 2 2 2", "3 5 7 9 J K 2"]:
        moves = legal_moves(hand)
        assert moves
        singles = {move.top for move in moves if move.kind is Kind.SINGLE}
        assert singles == {card.rank.value for card in parse_cards(hand)}


def test_R2_4_empty_hand_has_no_move() -> None:
    assert legal_moves("") == []
    assert hosting_move("") is None


def test_R2_6_nothing_beats_means_no_moves() -> None:
    """R2.6: the system passes when the hand holds nothing that beats the table."""
    assert legal_moves("3 4 5 6 7 8", "BJ") == []
    assert legal_moves("3 3 4 4 5 5", "22") == []
    assert legal_moves("2222 SJ BJ", "SJ SJ BJ BJ 33333333") == []
    assert legal_moves("7 8 9 10 J", "9 10 J Q K") == []


# ---------------------------------------------------------------------------
# moves are distinct by (cards, reading)


def test_moves_differ_by_cards_5678_sj_and_5678_bj() -> None:
    """R5.2: `5678 SJ` and `5678 BJ` are two moves, SJ first (fewer big jokers)."""
    moves = same_as_reference("5 6 7 8 SJ BJ")
    straights = [move for move in moves if move.kind is Kind.STRAIGHT and move.top == 9]
    assert [format_counts(move.cards) for move in straights][:2] == ["5 6 7 8 SJ", "5 6 7 8 BJ"]
    assert len({move.cards for move in straights}) == len(straights) == 5
    assert all(move.reading == parse_counts("56789") for move in straights)


def test_moves_differ_by_reading_of_the_same_cards() -> None:
    """R5.4: `345 SJ SJ SJ` gives both the straight `345678` and the pair run `334455`."""
    moves = same_as_reference("345 SJ SJ SJ")
    cards = parse_counts("345 SJ SJ SJ")
    assert sorted(str(move) for move in moves if move.cards == cards) == [
        "pair_run 3 3 4 4 5 5", "straight 3 4 5 6 7 8"]


def test_moves_use_each_set_of_cards_at_its_strongest_reading() -> None:
    """R5.3: `444 SJ` is only the bomb, never a triple with a spare card; `5678 SJ` only 56789."""
    moves = same_as_reference("4 4 4 SJ")
    four_cards = [move for move in moves if move.size == 4]
    assert shown(four_cards) == ["bomb 4 4 4 4 phase 4 [4 4 4 SJ]"]
    moves = same_as_reference("5 6 7 8 SJ")
    assert [str(move) for move in moves if move.size == 5] == ["straight 5 6 7 8 9"]


def test_moves_of_jokers_alone() -> None:
    """R5.1: joker-only moves read at face value; SJ+BJ is no pair."""
    assert shown(same_as_reference("SJ SJ BJ BJ")) == [
        "single SJ [SJ]", "pair SJ SJ [SJ SJ]", "single BJ [BJ]",
        "pair BJ BJ [BJ BJ]", "joker_bomb SJ SJ BJ phase 6 [SJ SJ BJ]",
        "joker_bomb SJ BJ BJ phase 6 [SJ BJ BJ]", "joker_bomb SJ SJ BJ BJ phase 7 [SJ SJ BJ BJ]"]


def test_moves_run_through_two_is_never_offered() -> None:
    """R3.4-R3.6, R3.8: no straight or run reaches 2, even with jokers."""
    moves = same_as_reference("J Q K A 2 SJ")
    assert {move.top for move in moves if move.kind is Kind.STRAIGHT} == {14}
    assert not any(move.kind is Kind.STRAIGHT and move.cards[12] for move in moves)


# ---------------------------------------------------------------------------
# hint order


def test_hint_order_ordinary_before_bombs() -> None:
    """R11.2 hint order: ordinary combinations before bombs."""
    moves = legal_moves("2222 3")
    kinds = [move.is_bomb for move in moves]
    assert kinds == sorted(kinds)
    assert shown(legal_moves("2222 SJ", "3")) == [
        "single 2 [2]", "single SJ [SJ]", "bomb 2 2 2 2 phase 4 [2 2 2 2]",
        "bomb 2 2 2 2 phase 4 [2 2 2 SJ]", "bomb 2 2 2 2 2 phase 5 [2 2 2 2 SJ]"]


def test_hint_order_top_rank_then_fewer_jokers_then_fewer_big_jokers() -> None:
    """R11.2 hint order: top rank, then fewer jokers, then SJ before BJ."""
    assert shown(legal_moves("9 9 10 SJ BJ", "88")) == [
        "pair 9 9 [9 9]", "pair 9 9 [9 SJ]", "pair 9 9 [9 BJ]",
        "pair 10 10 [10 SJ]", "pair 10 10 [10 BJ]", "bomb 9 9 9 9 phase 4 [9 9 SJ BJ]"]


def test_hint_order_small_jokers_before_big_jokers_across_card_sets() -> None:
    """R11.2 hint order: with two jokers in play, every `SJ SJ` version comes before any
    `SJ BJ` one, and those before `BJ BJ`, whichever natural cards they go with."""
    moves = same_as_reference("5 6 7 8 SJ SJ BJ BJ")
    two_jokers = [move for move in moves if move.kind is Kind.STRAIGHT and move.top == 9 and move.jokers == 2]
    assert len(two_jokers) == 9
    assert [move.cards[14] for move in two_jokers] == [0, 0, 0, 1, 1, 1, 2, 2, 2]


def test_hint_order_bombs_by_strength() -> None:
    """Bombs in R6.3 order: phase, joker bombs smallest, cards, top rank."""
    moves = legal_moves("3333333 2222 SJ SJ BJ BJ", "AAAA")
    bombs = [move for move in moves if move.jokers == 0 or move.kind is Kind.JOKER_BOMB]
    assert [str(move) for move in bombs] == [
        "bomb 2 2 2 2 phase 4", "bomb 3 3 3 3 3 phase 5", "joker_bomb SJ SJ BJ phase 6",
        "joker_bomb SJ BJ BJ phase 6", "bomb 3 3 3 3 3 3 phase 6", "joker_bomb SJ SJ BJ BJ phase 7",
        "bomb 3 3 3 3 3 3 3 phase 7"]
    for weaker, stronger in pairwise(moves):
        assert not beats(weaker, stronger)


def test_hint_order_four_jokers_largest_variant() -> None:
    """R6.3.2 variant: the four-joker bomb sorts after every other phase-7 bomb."""
    moves = legal_moves("3333333 SJ SJ BJ BJ", "2222222", LARGEST)
    assert shown(moves)[:2] == ["joker_bomb SJ SJ BJ BJ phase 7 [SJ SJ BJ BJ]",
                                "bomb 3 3 3 3 3 3 3 3 phase 8 [3 3 3 3 3 3 3 SJ]"]
    assert legal_moves("3333333 SJ SJ BJ BJ", "2222222", DEFAULT_RULES) == moves[1:]
    moves = legal_moves("3333 4444 5555 SJ SJ BJ BJ", "2222222", LARGEST)
    phase_7 = [move for move in moves if move.phase == 7]
    assert len(phase_7) > 2
    assert all(move.kind is Kind.SERIAL_BOMB for move in phase_7[:-1])
    assert str(phase_7[-1]) == "joker_bomb SJ SJ BJ BJ phase 7"
    moves = legal_moves("3333 4444 5555 SJ SJ BJ BJ", "2222222", DEFAULT_RULES)
    assert {move.kind for move in moves if move.phase == 7} == {Kind.SERIAL_BOMB}


def test_hint_key_is_the_sort_key_of_legal_moves() -> None:
    """R11.2: legal_moves is sorted by hint_key."""
    cases = [("5 6 7 8 SJ BJ", None), ("3333 4444 5555 6 7 SJ", "3"), ("99 10 10 JJ SJ", "334455")]
    for hand, table in cases:
        moves = legal_moves(hand, table)
        keys = [hint_key(move) for move in moves]
        assert keys == sorted(keys)
        assert len(set(keys)) > 1


# ---------------------------------------------------------------------------
# R11.2 hosting choice


def test_R11_2_lead_plays_the_lowest_single() -> None:
    assert host("9 3 K 3") == "single 3 [3]"
    assert host("2 A K") == "single K [K]"


def test_R11_2_lead_prefers_a_non_joker() -> None:
    """R11.2: the lowest single, a non-joker when the hand has one."""
    assert host("SJ BJ 2") == "single 2 [2]"
    assert host("BJ 10 SJ") == "single 10 [10]"


def test_R11_2_lead_with_only_jokers() -> None:
    assert host("BJ SJ") == "single SJ [SJ]"
    assert host("BJ BJ") == "single BJ [BJ]"


def test_R11_2_follow_plays_the_weakest_beating_move() -> None:
    assert host("4 4 9 9 SJ", "3 3") == "pair 4 4 [4 4]"
    assert host("3 9 9 SJ", "8 8") == "pair 9 9 [9 9]"
    assert host("5 6 7 8 9 10 J", "3 4 5 6 7") == "straight 5 6 7 8 9 [5 6 7 8 9]"
    assert host("Q Q K K A A J J", "9 9 10 10 J J") == "pair_run J J Q Q K K [J J Q Q K K]"


def test_R11_2_follow_lowest_top_before_fewer_jokers() -> None:
    """Hint order: the top rank first, then fewer jokers, then SJ before BJ."""
    assert host("4 BJ 9 9", "3 3") == "pair 4 4 [4 BJ]"
    assert host("4 SJ BJ 9 9", "3 3") == "pair 4 4 [4 SJ]"
    assert host("5 6 7 8 SJ BJ", "3 4 5 6 7") == "straight 5 6 7 8 9 [5 6 7 8 SJ]"


def test_R11_2_follow_ordinary_before_bombs() -> None:
    """R11.2: ordinary combinations before bombs, even a weak bomb before a high pair."""
    assert host("5555 99", "3 3") == "pair 5 5 [5 5]"
    assert host("5555 2 2", "AA") == "pair 2 2 [2 2]"
    assert host("5555 BJ BJ", "22") == "pair BJ BJ [BJ BJ]"


def test_R11_2_follow_bomb_when_nothing_ordinary_beats() -> None:
    """R11.2 [config hosting_bombs = true]: the weakest beating bomb."""
    assert host("7777 8", "9 9") == "bomb 7 7 7 7 phase 4 [7 7 7 7]"
    assert host("333333 5555 6", "4444") == "bomb 5 5 5 5 phase 4 [5 5 5 5]"
    assert host("555 SJ 33333", "4444") == "bomb 5 5 5 5 phase 4 [5 5 5 SJ]"
    assert host("SJ SJ BJ 222222", "22222") == "joker_bomb SJ SJ BJ phase 6 [SJ SJ BJ]"


def test_R11_2_hosting_bombs_false_never_bombs() -> None:
    """R11.2 [config hosting_bombs = false]: pass rather than bomb."""
    assert host("7777 8", "9 9", NO_HOSTING_BOMBS) is None
    assert host("333333 5555 6", "4444", NO_HOSTING_BOMBS) is None
    assert host("5555 99", "3 3", NO_HOSTING_BOMBS) == "pair 5 5 [5 5]"
    assert host("7777 8", None, NO_HOSTING_BOMBS) == "single 7 [7]"


def test_R11_2_pass_when_nothing_beats() -> None:
    assert host("3 4 5 6 7", "BJ") is None
    assert host("2222", "SJ SJ BJ") is None
    assert host("SJ SJ BJ BJ 3333333", "2222222") is not None
    assert host("SJ SJ BJ BJ", "2222222") is None
    assert host("SJ SJ BJ BJ", "2222222", LARGEST) == "joker_bomb SJ SJ BJ BJ phase 7 [SJ SJ BJ BJ]"


@pytest.mark.parametrize(
    ("hand", "table"),
    [
        ("4 4 9 9 SJ", "3 3"),
        ("5 6 7 8 SJ BJ 2222", "3 4 5 6 7"),
        ("3333 4444 5555 66 SJ", "3 3 4 4 5 5"),
        ("3333 4444 5555 66 SJ", "2222"),
        ("JJ QQ KK AA SJ BJ 7777", "9 9 10 10 J J Q Q"),
        ("SJ SJ BJ BJ 888", "77777"),
        ("9 9 9 SJ", "888"),
        ("Q K A SJ SJ", "9 10 J Q K"),
    ],
)
def test_R11_2_hosting_is_the_first_legal_move(hand: str, table: str) -> None:
    """R11.2: hosting plays legal_moves()[0], bombs only when hosting_bombs."""
    for rules in (DEFAULT_RULES, NO_HOSTING_BOMBS, LARGEST):
        moves = [move for move in legal_moves(hand, table, rules) if rules.hosting_bombs or not move.is_bomb]
        assert hosting_move(hand, table, rules) == (moves[0] if moves else None)


# ---------------------------------------------------------------------------
# rule variants in the move list


def test_R4_6_serial_bomb_two_variant_moves() -> None:
    """R4.6: `KKKK AAAA 2222` is a serial bomb only when serial_bomb_two is on."""
    default = same_as_reference("KKKK AAAA 2222")
    assert not any(move.kind is Kind.SERIAL_BOMB for move in default)
    with_two = same_as_reference("KKKK AAAA 2222", rules=TWO_IN_SERIAL)
    serials = [str(move) for move in with_two if move.kind is Kind.SERIAL_BOMB]
    assert serials == ["serial_bomb K K K K A A A A 2 2 2 2 phase 7"]
    wrapped = legal_moves("AAAA 2222 3333", rules=TWO_IN_SERIAL)
    assert not any(move.kind is Kind.SERIAL_BOMB for move in wrapped)


def test_R4_4_serial_bombs_among_the_moves() -> None:
    """R4.4, R5.5: every set of three consecutive ranks of at least 4 (jokers filling)."""
    moves = same_as_reference("3333 4444 555 SJ")
    serials = shown([move for move in moves if move.kind is Kind.SERIAL_BOMB])
    assert serials == ["serial_bomb 3 3 3 3 4 4 4 4 5 5 5 5 phase 7 [3 3 3 3 4 4 4 4 5 5 5 SJ]"]


def test_R6_4_irregular_serial_bomb_cannot_follow_an_equal_one() -> None:
    """R6.4: no move of `7777 88888 99999` beats `4444 55555 66666`, except larger ones."""
    moves = legal_moves("7777 88888 99999", "4444 55555 66666")
    assert moves == []
    moves = legal_moves("77777 88888 99999", "4444 55555 66666")
    assert [str(move) for move in moves] == ["serial_bomb 7 7 7 7 7 8 8 8 8 8 9 9 9 9 9 phase 8"]


def test_R6_3_phase_7_follow_by_variant() -> None:
    """§13: `444455556666` beats four jokers by default; with "largest" it does not."""
    hand = "444455556666"
    assert [move.kind for move in legal_moves(hand, "SJ SJ BJ BJ")] == [Kind.SERIAL_BOMB]
    assert legal_moves(hand, "SJ SJ BJ BJ", LARGEST) == []


def test_R5_3_triple_run_that_is_also_a_serial_bomb_is_only_the_bomb() -> None:
    """R5.3: `333444555 SJ SJ BJ` could be the triple run 3-6, but the serial bomb
    `3333 4444 5555` is stronger, so the 12 cards are offered only as the bomb."""
    moves = same_as_reference("333444555 SJ SJ BJ")
    whole = [str(move) for move in moves if move.size == 12]
    assert whole == ["serial_bomb 3 3 3 3 4 4 4 4 5 5 5 5 phase 7"]
    on_run = legal_moves("333444555 SJ SJ BJ", "444555666777")
    assert [str(move) for move in on_run if move.size == 12] == whole
    assert not any(move.kind is Kind.TRIPLE_RUN for move in on_run)
    assert str(classify("333444555 SJ SJ BJ")) == whole[0]
    runs = [move for move in moves if move.kind is Kind.TRIPLE_RUN]
    assert runs and all(move.size == 9 for move in runs)


# ---------------------------------------------------------------------------
# R5.3, R6.4: a serial bomb that beats only under a weaker reading

FOUR_RANKS_FOUR_JOKERS = "8888 9999 10 10 10 10 JJJJ SJ SJ BJ BJ"
IRREGULAR_FOUR_BY_FIVE = "33334444555566667777 7"  # 4-phase 5-serial 3-7, irregular (R4.5)


def test_R5_3_R6_4_follow_offers_the_serial_reading_that_beats() -> None:
    """R5.3, R6.4, R6.5: the strongest reading of the 20 cards (4-phase 5-serial 8-Q) is
    equal to the irregular 4-phase 5-serial on the table; their 5-phase 4-serial 8-J beats
    it, and is the one move (and the hosting move, so no auto-pass, R2.6, R11.2)."""
    hand = FOUR_RANKS_FOUR_JOKERS + " 3"
    expected = ["serial_bomb 8 8 8 8 8 9 9 9 9 9 10 10 10 10 10 J J J J J phase 9 "
                "[8 8 8 8 9 9 9 9 10 10 10 10 J J J J SJ SJ BJ BJ]"]
    assert shown(legal_moves(hand, IRREGULAR_FOUR_BY_FIVE)) == expected
    assert host(hand, IRREGULAR_FOUR_BY_FIVE) == expected[0]
    assert host(hand, IRREGULAR_FOUR_BY_FIVE, NO_HOSTING_BOMBS) is None
    lead = [move for move in legal_moves(hand) if move.size == 20]
    assert [(move.length, move.top) for move in lead] == [(5, 12)]


def test_R5_3_R6_4_serial_follows_equal_the_reference() -> None:
    """R5.3, R6.4: a smaller hand with two readings (`4444 5555 6666 SJ SJ BJ BJ`: 4x4 4-7,
    or 5x3 4-6 with a spare joker) on the irregular 4-phase 4-serial 3-6: the 4x4 reading is
    equal to it (R6.4), the 5x3 is smaller (15 cards against 16), so no move beats;
    on the regular 4x4 3-6, the 4x4 4-7 beats."""
    hand = "4444 5555 6666 SJ SJ BJ BJ"
    assert same_as_reference(hand, "3333 4444 5555 66666") == []
    moves = same_as_reference(hand, "3333 4444 5555 6666")
    assert [(move.phase, move.length, move.top) for move in moves if move.size == 16] == [(8, 4, 7)]


# ---------------------------------------------------------------------------
# C3.1 wild-joker and three-joker-bomb variants

NO_WILD = Rules(wild_jokers="none")
BIG_WILD = Rules(wild_jokers="big")
NO_THREE_JOKERS = Rules(three_joker_bomb=False)


def test_C3_1_wild_jokers_none_moves() -> None:
    """C3.1 `"none"`: jokers play only alone at face value (R5.1); no joker joins a set."""
    moves = same_as_reference("444 5 SJ BJ", rules=NO_WILD)
    assert all(not move.jokers or move.size == move.jokers for move in moves)
    assert not any(move.is_bomb for move in moves)
    assert same_as_reference("SJ SJ BJ 4", rules=NO_WILD)[-1].kind is Kind.JOKER_BOMB


def test_C3_1_wild_jokers_big_moves() -> None:
    """C3.1 `"big"`: big jokers are wild, small jokers are not."""
    moves = same_as_reference("444 5 SJ BJ", rules=BIG_WILD)
    assert all(move.cards[13] == 0 or move.size == move.jokers for move in moves)
    assert "bomb 4 4 4 4 phase 4 [4 4 4 BJ]" in shown(moves)


def test_C3_1_three_joker_bomb_false_moves() -> None:
    """C3.1: without the three-joker bomb, four jokers are still a bomb (R4.3)."""
    moves = same_as_reference("SJ SJ BJ BJ 3", rules=NO_THREE_JOKERS)
    joker_bombs = [move for move in moves if move.kind is Kind.JOKER_BOMB]
    assert [move.size for move in joker_bombs] == [4]


def test_C3_1_hosting_honours_the_wild_jokers_setting() -> None:
    """R11.2, C3.1: hosting spends only jokers that are wild."""
    assert host("3 9 SJ", "8 8") == "pair 9 9 [9 SJ]"
    assert host("3 9 SJ", "8 8", NO_WILD) is None
    assert host("3 9 SJ", "8 8", BIG_WILD) is None
    assert host("4567 SJ BJ", "34567") == "straight 4 5 6 7 8 [4 5 6 7 SJ]"
    assert host("4567 SJ BJ", "34567", BIG_WILD) == "straight 4 5 6 7 8 [4 5 6 7 BJ]"
    assert host("4567 SJ BJ", "34567", NO_WILD) is None
    assert host("444 SJ BJ", "3333", NO_WILD) is None
    assert host("SJ SJ BJ 5", "3333", NO_THREE_JOKERS) == "bomb 5 5 5 5 phase 4 [5 SJ SJ BJ]"
    assert host("SJ SJ BJ 5", "3333", NO_WILD) == "joker_bomb SJ SJ BJ phase 6 [SJ SJ BJ]"
    assert host("SJ SJ BJ 5", "3333", Rules(wild_jokers="none", three_joker_bomb=False)) is None
