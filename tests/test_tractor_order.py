"""Tractor's cards, trump order and combinations (docs/RULES-TRACTOR.md T0, T1, T4, T5):
faces and effective suits, the order index ω for both settings of the constant 2 and for
no-trump hands, pairs, tractors across the level tiers and the decomposition."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangkou.cards import CardParseError, parse_cards
from shuangkou.games.tractor.formats import Lead, counted, decompose, profile_of, run_tops
from shuangkou.games.tractor.order import (
    BJ,
    FACES,
    POINTS,
    SJ,
    TRUMP,
    Order,
    card_of_face,
    face_of,
    face_of_text,
    faces_of,
    faces_text,
    points_of,
    rank_index,
)
from shuangkou.games.tractor.scoring import team_of

TEN_SPADES = Order.of(rank_index("10"), 0)


def omega(order: Order, text: str) -> list[int]:
    return [order.omega[face] for face in faces_of(text)]


def shape(text: str, order: Order = TEN_SPADES) -> list[tuple[str, int]]:
    """The decomposition of ``text`` as (kind, pairs) per component."""
    return [(unit.kind, unit.pairs) for unit in decompose(counted(faces_of(text)), order)]


def test_T0_1_faces_of_the_108_cards_with_suits() -> None:
    """T0.1: ranks 2 … A in four suits, two jokers of each kind, every face twice: 54 faces;
    a card string names suits, and a Tractor card without its suit is refused."""
    assert FACES == 54 and {face_of(card_of_face(face)) for face in range(FACES)} == set(range(FACES))
    assert faces_text(faces_of("10H QS SJ BJ 2D")) == "10H QS SJ BJ 2D"
    assert face_of_text("AS") > face_of_text("2S")  # A is the highest plain rank, 2 the lowest
    with pytest.raises(CardParseError, match=r"10 needs its suit \(S, H, C or D\), as in 10H"):
        faces_of("10 10")
    with pytest.raises(CardParseError, match="needs a suit"):
        face_of(parse_cards("Q")[0])
    assert [str(card) for card in parse_cards("qs 10♥ sj", suited=True)] == ["QS", "10H", "SJ"]


def test_T0_2_T1_1_seats_and_teams() -> None:
    """T0.2, T1.1: four seats, 0 and 2 one team, 1 and 3 the other; play passes from seat i
    to i + 1."""
    assert [team_of(seat) for seat in range(4)] == [0, 1, 0, 1]


def test_T1_2_levels_run_from_2_to_A() -> None:
    """T1.2: levels 2 3 … 10 J Q K A, indexes 0 to 12."""
    assert [rank_index(rank) for rank in ("2", "10", "J", "A")] == [0, 8, 9, 12]
    with pytest.raises(ValueError, match="a rank is one of"):
        rank_index("1")


def test_T1_3_card_points_total_200() -> None:
    """T1.3: 5s are 5, 10s and Ks 10, the rest 0; the 108 cards hold 200."""
    assert points_of(faces_of("5H 10S KD AS SJ")) == 25
    assert 2 * sum(POINTS) == 200


def test_T4_1_effective_suits() -> None:
    """T4.1: jokers, level cards, (constant 2s) and the trump suit are trumps; in a no-trump
    hand only jokers, level cards (and constant 2s)."""
    assert [TEN_SPADES.eff[face] for face in faces_of("SJ 10H 3S JH 2H")] == [TRUMP, TRUMP, TRUMP, 1, 1]
    constant = Order.of(rank_index("10"), 0, two_constant=True)
    assert constant.eff[face_of_text("2H")] == TRUMP
    no_trump = Order.of(rank_index("2"), None)
    assert [no_trump.eff[face] for face in faces_of("2C SJ AS 3H")] == [TRUMP, TRUMP, 0, 1]


def test_T4_2_T4_4_side_suits_without_the_level_rank() -> None:
    """T4.2, T4.4: a side suit runs A K Q J 9 … 2 at level 10 (the 10 is a trump), numbered
    from the lowest; with the constant 2 it stops at 3."""
    assert omega(TEN_SPADES, "2H 3H 9H JH QH KH AH") == [1, 2, 8, 9, 10, 11, 12]
    constant = Order.of(rank_index("10"), 0, two_constant=True)
    assert omega(constant, "3H AH") == [1, 11]


def test_T4_3_trump_order_both_settings_and_no_trump() -> None:
    """T4.3: BJ > SJ > main level > side levels (equal) > trump A … 2; with the constant 2:
    … side levels > main 2 > side 2s > trump A … 3; at level 2 both coincide; no trump:
    BJ > SJ > the four level cards (equal) [> the four 2s]."""
    assert omega(TEN_SPADES, "BJ SJ 10S 10H 10C 10D AS KS 9S 2S") == [16, 15, 14, 13, 13, 13, 12, 11, 8, 1]
    constant = Order.of(rank_index("10"), 0, two_constant=True)
    assert omega(constant, "BJ SJ 10S 10H 2S 2H 2D AS 3S") == [17, 16, 15, 14, 13, 12, 12, 11, 1]
    assert Order.of(0, 1, True).omega == Order.of(0, 1, False).omega
    no_trump = Order.of(rank_index("10"), None, two_constant=True)
    assert omega(no_trump, "BJ SJ 10S 10D 2S 2C") == [4, 3, 2, 2, 1, 1]
    assert not any(no_trump.eff[face] == TRUMP for face in faces_of("AS AH AC AD"))


def test_T4_5_equal_cards_share_an_index() -> None:
    """T4.5: the two copies of a card, the side-level cards and a no-trump hand's level
    cards have one ω (which of them was played first decides, tests of T8.3)."""
    assert len(set(omega(TEN_SPADES, "10H 10C 10D"))) == 1
    assert len(set(omega(Order.of(0, None), "2S 2H 2C 2D"))) == 1


def test_T5_1_T5_2_singles_and_pairs() -> None:
    """T5.1, T5.2: any card is a single; a pair is two identical cards — not 10H 10C (both
    side-level trumps), not SJ BJ."""
    assert shape("7H") == [("single", 0)]
    assert shape("KH KH") == [("pair", 1)] and shape("SJ SJ") == [("pair", 1)]
    assert shape("10H 10C") == [("single", 0), ("single", 0)]
    assert shape("SJ BJ") == [("single", 0), ("single", 0)]


@pytest.mark.parametrize("text", [
    "KH KH QH QH", "JH JH 9H 9H", "5H 5H 4H 4H 3H 3H", "BJ BJ SJ SJ", "SJ SJ 10S 10S", "10S 10S 10H 10H",
    "10H 10H AS AS", "10S 10S 10H 10H AS AS",
])
def test_T5_3_tractors_across_the_level_tiers(text: str) -> None:
    """T5.3 (S's examples, level 10, ♠ trump): consecutive ω, through the level tiers."""
    assert shape(text) == [("tractor", len(faces_of(text)) // 2)]


@pytest.mark.parametrize("text", [
    "5H 5H 4H", "5H 4H 4H", "5H 5H 3H 3H", "JH JH QH", "10H 10H 10C 10C", "AH AH 2H 2H", "AS AS 10S 10S",
])
def test_T5_3_not_tractors(text: str) -> None:
    """T5.3: not all pairs, a gap, one tier twice, no wrap-around, the side-level tier
    between; (JH JH 10H 10H are two suits: a trump pair and a heart pair)."""
    assert all(kind != "tractor" for kind, _ in shape(text))
    assert Lead.of(counted(faces_of("JH JH")), TEN_SPADES).suit != Lead.of(counted(faces_of("10H 10H")),
                                                                           TEN_SPADES).suit


def test_T5_3_constant_two_and_no_trump_tractors() -> None:
    """T5.3: with the constant 2, side level + main 2, main 2 + side 2, side 2 + trump A
    are tractors; no trump: SJ SJ with any level pair is one, two level pairs never."""
    constant = Order.of(rank_index("10"), 0, two_constant=True)
    for text in ("10H 10H 2S 2S", "2S 2S 2H 2H", "2H 2H AS AS"):
        assert shape(text, constant) == [("tractor", 2)], text
    no_trump = Order.of(rank_index("10"), None)
    assert shape("SJ SJ 10D 10D", no_trump) == [("tractor", 2)]
    assert shape("10D 10D 10C 10C", no_trump) == [("pair", 1), ("pair", 1)]


def test_T5_4_no_triples() -> None:
    """T5.4: three cards of one rank in different suits are a pair and a single at most."""
    assert shape("9H 9H 9S") == [("pair", 1), ("single", 0)]
    assert sorted(shape("9H 9C 9D")) == [("single", 0)] * 3


def test_T5_5_T16_3_decomposition_prefers_long_tractors() -> None:
    """T5.5: longest tractors first (lexicographically), then pairs, then singles; which of
    two pairs of one tier joins never changes the shape (T16.3: the first in suit order
    S H C D joins)."""
    assert shape("QH QH JH JH 9H 9H 8H 8H 7H 3H") == [("tractor", 4), ("single", 0), ("single", 0)]
    units = decompose(counted(faces_of("10S 10S 10H 10H 10C 10C AS AS")), TEN_SPADES)
    assert [(unit.kind, faces_text(unit.faces)) for unit in units] == [
        ("tractor", "10S 10S 10H 10H AS AS"), ("pair", "10C 10C")]
    assert shape("KH KH QH QH QH JH JH") == [("tractor", 3), ("single", 0)]


@given(st.lists(st.sampled_from(faces_of("QH JH 9H 8H 7H 10S 10H 10C SJ BJ AS KS")), max_size=24))
def test_T5_5_a_decomposition_keeps_every_card(faces: list[int]) -> None:
    """T5.5: the components hold exactly the cards (at most two of a face, T5.4), each
    tractor's pairs consecutive."""
    counts = {face: min(count, 2) for face, count in counted(faces).items()}
    for suit in range(5):
        cards = {face: count for face, count in counts.items() if TEN_SPADES.eff[face] == suit}
        units = decompose(cards, TEN_SPADES)
        assert counted(face for unit in units for face in unit.faces) == cards
        for unit in units:
            if unit.pairs >= 2:
                tops = run_tops(profile_of(counted(unit.faces), TEN_SPADES), unit.pairs)
                assert tops == [unit.top]


def test_jokers_are_the_highest_trumps() -> None:
    """T4.3 with every trump suit: BJ highest, SJ next."""
    for suit in (None, 0, 1, 2, 3):
        order = Order.of(5, suit)
        top = max(order.omega[face] for face in range(FACES) if order.eff[face] == TRUMP)
        assert order.omega[BJ] == top and order.omega[SJ] == top - 1
