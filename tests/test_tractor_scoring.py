"""Scoring a hand of Tractor (docs/RULES-TRACTOR.md T9–T11.5, T16.4–T16.6; worked
examples X16 and X19): the attackers' points with the bottom bonus and penalties, results
and level changes with must-play levels, the next dealer, the end of the match, and the
money per hand with its escape penalty."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tractor_support import p, tractor

from shuangkou.games.tractor.config import load_tractor_room
from shuangkou.games.tractor.family import TRACTOR
from shuangkou.games.tractor.formats import Lead, counted
from shuangkou.games.tractor.order import Order, faces_of, rank_index, rank_text
from shuangkou.games.tractor.scoring import HandScore, bottom_multiplier, result_of, rise, settle_hand, units_of

ROOM = load_tractor_room("tractor")
TEN_SPADES = Order.of(rank_index("10"), 0)
LEVELS = (rank_index("5"), rank_index("3"))  # X16: team 0+2 at 5, team 1+3 at 3


def multiplier(lead: str, rule: str = "doubling") -> int:
    return bottom_multiplier(Lead.of(counted(faces_of(lead)), TEN_SPADES), rule)


def scored(trick_points: int, lead: str, attackers_last: bool, penalties: int = 0, **room: object) -> HandScore:
    """X16: dealer seat 0, 25 points buried."""
    settings = load_tractor_room("tractor", room) if room else ROOM
    m = multiplier(lead, settings.bottom_multiplier)
    return HandScore.of(settings, 0, LEVELS, trick_points, 25, m, attackers_last, penalties)


def test_T9_2_the_bottom_multiplier_in_three_settings() -> None:
    """T9.2: doubling 2, 4, 8, 16; linear 2 × cards of the largest component; per card 2 × n;
    AH KH KH led last gives 4, 4 and 6."""
    leads = ["AS", "7H 7H", "7H 7H 8H 8H", "QH QH JH JH 9H 9H"]
    assert [multiplier(lead) for lead in leads] == [2, 4, 8, 16]
    assert [multiplier(lead, "linear") for lead in leads] == [2, 4, 8, 12]
    assert [multiplier(lead, "per_card") for lead in leads] == [2, 4, 8, 12]
    assert [multiplier("AH KH KH", rule) for rule in ("doubling", "linear", "per_card")] == [4, 4, 6]


@pytest.mark.parametrize(("points", "cap", "every_40"), [
    (0, ("dealer", 3), ("dealer", 3)), (35, ("dealer", 2), ("dealer", 2)), (75, ("dealer", 1), ("dealer", 1)),
    (80, ("attackers", 0), ("attackers", 0)), (155, ("attackers", 1), ("attackers", 1)),
    (195, ("attackers", 2), ("attackers", 2)), (200, ("attackers", 3), ("attackers", 3)),
    (255, ("attackers", 3), ("attackers", 4)), (455, ("attackers", 3), ("attackers", 9)),
])
def test_T9_3_result_bands(points: int, cap: tuple[str, int], every_40: tuple[str, int]) -> None:
    """T9.3: the bands of A, attackers capped at +3 or rising one per 40 above 80."""
    assert result_of(points, "cap") == cap and result_of(points, "every_40") == every_40


def test_T9_1_T9_2_T9_3_T10_1_T10_2_X16() -> None:
    """T9.1–T9.3, T10.1, T10.2 (X16): dealer seat 0, team 0+2 at 5 and 1+3 at 3, 25 points
    buried, all balances 1000 (X = 60): each row's A, result, levels and next dealer, and
    each attacker's units."""
    rows = [
        (scored(55, "7H 7H", True), 155, "3", "4", 1, 2),
        (scored(55, "7H 7H 8H 8H", True), 255, "3", "6", 1, 4),
        (scored(55, "7H 7H 8H 8H", True, attacker_levels="every_40"), 255, "3", "7", 1, 4),
        (scored(55, "QH QH JH JH 9H 9H", True), 455, "3", "6", 1, 4),
        (scored(55, "QH QH JH JH 9H 9H", True, bottom_multiplier="linear"), 355, "3", "6", 1, 4),
        (scored(60, "AS", True), 110, "3", "3", 1, 1),
        (scored(35, "7H", False), 35, "5", "7", 2, -2),
        (scored(0, "7H", False), 0, "5", "8", 2, -3),
        (scored(70, "7H", False, 40, throw_penalty_per_card=10), 110, "3", "3", 1, 1),
        (scored(70, "7H", False), 70, "5", "6", 2, -1),
    ]
    for score, points, before, after, dealer, units in rows:
        team = 0 if score.side == "dealer" else 1
        assert score.attackers_points == points
        assert (rank_text(score.levels_before[team]), rank_text(score.levels_after[team])) == (before, after)
        assert score.next_dealer == dealer and not score.match_over
        settlement = settle_hand(ROOM, score, [1000] * 4)
        assert settlement.match_points == 60 and settlement.units == units
        assert settlement.deltas == (-60 * units, 60 * units, -60 * units, 60 * units)


def test_T10_3_T16_6_must_play_levels() -> None:
    """T10.3, T16.6 (X19): a rise stops at a must-play level; attackers there take the deal
    and stay; a dealer team there rises from it, to the next must-play level at most."""
    must = load_tractor_room("tractor", {"must_play_levels": ["5", "10", "K", "A"]}).must_play
    three, five, ten, king, ace = (rank_index(rank) for rank in ("3", "5", "10", "K", "A"))
    assert rise(three, 3, True, must) == five
    assert rise(five, 1, False, must) == five
    assert rise(five, 3, True, must) == rank_index("8")
    assert rise(rank_index("8"), 3, True, must) == ten
    assert rise(ten, 3, False, must) == ten
    assert rise(rank_index("Q"), 3, True, (ace,)) == ace and rise(king, 2, True, must) == ace


def test_T10_4_T16_6_X19_the_end_of_the_match() -> None:
    """T10.4, T16.6 (X19): team 0+2 at Q winning +3 stops at A; at A, winning as dealer team
    ends the match (levels_after with the winners at A, no next dealer); had the
    attackers scored 130 they would take the deal with +1."""
    queen, ace = rank_index("Q"), rank_index("A")
    first = HandScore.of(ROOM, 0, (queen, 1), 0, 0, 2, False, 0)
    assert first.levels_after == (ace, 1) and first.next_dealer == 2 and not first.match_over
    won = HandScore.of(ROOM, 2, (ace, 1), 75, 0, 2, False, 0)
    assert won.match_over and won.next_dealer is None and won.levels_after == (ace, 1)
    lost = HandScore.of(ROOM, 2, (ace, 1), 130, 0, 2, False, 0)
    assert not lost.match_over and lost.next_dealer == 3 and lost.levels_after == (ace, 2)


def test_T10_5_the_next_hand_plays_the_new_dealer_team_s_level() -> None:
    """T10.5: the next hand's level rank is the dealer team's level, declaring afresh; a
    new player at the table starts a new match."""
    carried = {"levels": ["5", "3"], "dealer": 1}
    hand = TRACTOR.deal(ROOM, seed=3, carried=carried, continuing=[True] * 4)
    assert hand.dealer == 1 and rank_text(hand.level) == "3" and not hand.declarations
    fresh = TRACTOR.deal(ROOM, seed=3, carried=carried, continuing=[True, False, True, True])
    assert fresh.dealer is None and fresh.levels == (0, 0)


def test_T11_4_T16_5_units_and_money() -> None:
    """T11.4, T16.5: u by the band of A whatever attacker_levels says; each attacker
    receives u·X, each dealer-team player pays it; X from the lowest balance level; caps
    without negative balances; fees to the house."""
    assert [units_of(points, ROOM.hand_units) for points in (-10, 0, 5, 40, 80, 120, 160, 200, 400)] == [
        -3, -3, -2, -1, 1, 2, 3, 4, 4]
    score = HandScore.of(ROOM, 1, (0, 0), 120, 0, 2, False, 0)
    settlement = settle_hand(ROOM, score, [1000, 1000, 200, 5000])
    assert settlement.match_points == 20 and settlement.units == 2
    assert settlement.deltas == (40, -40, 40, -40) and settlement.house == 0
    capped_room = load_tractor_room("tractor", {"allow_negative": False, "table_fee": 5})
    capped = settle_hand(capped_room, score, [1000, 8, 1000, 1000])  # X = 5: 10 each
    assert capped.table_fees == (5, 5, 5, 5) and capped.paid == (0, 3, 0, 10)
    assert capped.deltas == (1, -8, 1, -15) and capped.house == 21 and capped.balances_after[1] == 0


def test_T11_5_escape_penalties() -> None:
    """T11.5: an escaper pays escape_units × X more, half to each opponent (rounded down,
    the rest to the house); with "settle" the hand stops with no level change and the
    partner neither pays nor receives."""
    score = HandScore.of(ROOM, 0, (0, 0), 120, 0, 2, False, 0)
    hosted = settle_hand(ROOM, score, [1000] * 4, escaper=1)
    assert hosted.penalty == 720 and hosted.deltas == (-120 + 360, 120 - 720, -120 + 360, 120)
    odd = load_tractor_room("tractor", {"escape_units": 3, "levels": [{"level": 0, "needed": 0,
                                                                       "match_points": 5}]})
    stopped = settle_hand(odd, HandScore.escaped(0, (0, 0), 0, 0), [1000] * 4, escaper=2)
    assert stopped.deltas == (0, 7, -15, 7) and stopped.house == 1
    assert stopped.score.levels_after == stopped.score.levels_before


@given(st.lists(st.integers(-10**6, 10**6), min_size=4, max_size=4), st.integers(0, 400), st.integers(0, 3),
       st.booleans(), st.integers(0, 20), st.sampled_from([None, 0, 1, 2, 3]))
def test_T11_4_money_sums_to_zero(
    balances: list[int], points: int, dealer: int, negative: bool, fee: int, escaper: int | None
) -> None:
    """T11.4: whatever the balances, the deltas and the house sum to zero."""
    room = load_tractor_room("tractor", {"allow_negative": negative, "table_fee": fee})
    score = HandScore.of(room, dealer, (3, 4), points, 0, 2, False, 0)
    settlement = settle_hand(room, score, balances, escaper)
    assert sum(settlement.deltas) + settlement.house == 0
    if not negative:
        assert all(after >= min(before, 0) for before, after in zip(balances, settlement.balances_after,
                                                                   strict=True))


def test_T9_2_T16_4_the_bottom_bonus_end_to_end() -> None:
    """T9.2, T16.4, T16.9: seat 0 deals at 5 (team 1+3 at 3), ♥ trump, takes the 3-card
    bottom and buries KD 10C 5D (25 points); seat 1 wins the last trick with a pair lead:
    A = 25 × 4 = 100, the attackers take the deal, u = 1. Forced plays are the
    referee's."""
    hands = ["4C 2D 3D", "AC QS QS", "7C 6D 7D", "6C 8D 9D"]
    outcome = tractor(hands, [{"seat": 0, "bury": "KD 10C 5D"}, p(0, "4C"), p(1, "QS QS")],
                      trump="H", level=["5", "3"], bottom="KD 10C 5D", auto=True)
    assert outcome["finished"] and [trick["winner"] for trick in outcome["tricks"]] == [1, 1]
    assert (outcome["bottom_points"], outcome["bottom_multiplier"], outcome["attackers_points"]) == (25, 4, 100)
    assert (outcome["result"], outcome["levels_after"], outcome["next_dealer"]) == ("attackers", ["5", "3"], 1)
    assert outcome["units"] == 1 and outcome["deltas"] == [-60, 60, -60, 60] and outcome["house"] == 0
    causes = [event["cause"] for event in outcome["events"] if event["type"] == "play"]
    assert causes == ["player", "auto_play", "auto_play", "auto_play", "player", "auto_play", "auto_play", "auto_play"]
    kept = tractor(hands, [{"seat": 0, "bury": "KD 10C 5D"}, p(0, "4C"), p(1, "QS QS")],
                   trump="H", level=["5", "3"], bottom="KD 10C 5D", auto=True,
                   overrides={"bottom_multiplier": "linear"})
    assert kept["bottom_multiplier"] == 4
    dealer_last = tractor(["AC QS QS", "4C 2D 3D", "7C 6D 7D", "6C 8D 9D"],
                          [{"seat": 0, "bury": "KD 10C 5D"}, p(0, "AC"), p(0, "QS QS")],
                          trump="H", level=["5", "3"], bottom="KD 10C 5D", auto=True)
    assert dealer_last["bottom_points"] == 25 and dealer_last["bottom_multiplier"] == 4
    assert dealer_last["attackers_points"] == 0  # T16.4: the bonus is 0, the bottom still reported


def test_T10_4_T16_6_X19_through_the_referee() -> None:
    """T10.4, T16.6 (X19) played: team 0+2 at Q wins every trick as dealer team (+3, stopped
    at A); then, dealing at A, it keeps the attackers at 75 (the last trick and the bottom:
    5 + 35 × 2) and wins the match; had they scored 130 (10 + 30 × 4 after a pair lead),
    team 1+3 would take the deal with +1."""
    first = tractor(["AH", "2H", "3H", "4H"], trump="S", level=["Q", "3"], auto=True)  # all plays forced
    assert (first["attackers_points"], first["levels_after"], first["next_dealer"], first["match_over"]) == (
        0, ["A", "3"], 2, False)
    won = tractor(["2H", "4H", "3H", "5H"], [{"seat": 2, "bury": "KD 10D 10C 5D"}], trump="S",
                  level=["A", "3"], dealer=2, bottom="KD 10D 10C 5D", auto=True)
    assert (won["attackers_points"], won["result"], won["levels_after"], won["next_dealer"], won["match_over"]) == (
        75, "dealer", ["A", "3"], None, True)
    lost = tractor(["2H 6C", "4H 7C", "3H 3H", "5H 5H"], [{"seat": 2, "bury": "KD 10D 10C"}, p(2, "3H 3H")],
                   trump="S", level=["A", "3"], dealer=2, bottom="KD 10D 10C", auto=True)
    assert (lost["attackers_points"], lost["result"], lost["levels_after"], lost["next_dealer"]) == (
        130, "attackers", ["A", "4"], 3)
