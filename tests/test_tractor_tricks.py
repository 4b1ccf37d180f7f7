"""Tricks of Tractor through the referee (docs/RULES-TRACTOR.md T6, T7.7–T7.8, T8, T14's
worked examples X1–X14, T16.2, T16.9–T16.10): leads and throws, failed throws and their
forced component, matching, keys, trumping and over-trumping. Unless said: level 10, ♠
trump, seat 0 deals and leads."""

from __future__ import annotations

import pytest
from tractor_support import kinds, p, tractor, trick

from shuangkou.referee import ScenarioError


def winner_points(hands: list[str], plays: list[str], **options: object) -> tuple[int, int]:
    """The first trick's winner and points when seat k plays plays[k]."""
    outcome = tractor(hands, [p(seat, cards) for seat, cards in enumerate(plays)], **options)  # type: ignore[arg-type]
    first = trick(outcome)
    return first["winner"], first["points"]


def test_T4_5_X1_the_first_of_equal_cards_wins() -> None:
    """T4.5 (X1): 9H, KH, AH, AH: the first AH holds."""
    assert winner_points(["9H", "KH", "AH", "AH"], ["9H", "KH", "AH", "AH"]) == (2, 10)


def test_T4_3_T8_3_X2_a_side_level_card_trumps_higher_than_trump_3() -> None:
    """T4.3, T8.3 (X2): AH led, 3S (void) trumps, 5H follows, 10D (void, a side-level trump)
    over-trumps."""
    assert winner_points(["AH", "3S", "5H", "10D"], ["AH", "3S", "5H", "10D"]) == (3, 15)


def test_T7_4_T8_1_X3_two_singles_do_not_cover_a_pair() -> None:
    """T7.4, T8.1 (X3, X3b): QH QH led; the pair 4H 4H must follow; KH 3H has no pair; two
    trump singles do not match, a trump pair does."""
    hands = ["QH QH 2C", "4H 4H 8H", "KH 3H 2D", "6S 7S 6S"]
    assert winner_points(hands, ["QH QH", "4H 4H", "KH 3H", "6S 7S"]) == (0, 10)
    assert winner_points(hands, ["QH QH", "4H 4H", "KH 3H", "6S 6S"]) == (3, 10)
    with pytest.raises(ScenarioError) as refused:
        tractor(hands, [p(0, "QH QH"), p(1, "4H 8H")])
    assert (refused.value.code, refused.value.action) == ("illegal_follow", 1)


def test_T5_3_T7_3_X4_a_tractor_answers_a_tractor_and_trumps_take_it() -> None:
    """T5.3, T7.3 (X4): JH JH 9H 9H is a tractor (the 10 is a trump); KH KH QH QH must
    follow; 8H 8H 6H 3H are the seat's only hearts; AS AS KS KS trumps it."""
    hands = ["JH JH 9H 9H 2C", "KH KH QH QH 3H", "8H 8H 6H 3H 2D", "AS AS KS KS 3C"]
    outcome = tractor(hands, [p(0, "JH JH 9H 9H"), p(1, "KH KH QH QH"), p(2, "8H 8H 6H 3H"),
                              p(3, "AS AS KS KS")])
    assert (trick(outcome)["winner"], trick(outcome)["points"]) == (3, 40)
    with pytest.raises(ScenarioError, match="tractors of the led suit must be played"):
        tractor(hands, [p(0, "JH JH 9H 9H"), p(1, "KH KH QH 3H")])


def test_T7_3_T7_4_T8_2_X5_trump_tractors_and_a_forced_pair() -> None:
    """T7.3, T7.4, T8.2 (X5): SJ SJ 10S 10S led; 10H 10H AS AS is a lower tractor; a seat
    whose trumps are BJ BJ 3S 4S 6S must play its pair; two side-level pairs are one tier,
    no tractor. Seat 0 keeps the trick, 80 points."""
    hands = ["SJ SJ 10S 10S 3H", "10H 10H AS AS 4H", "BJ BJ 3S 4S 6S", "10C 10C 10D 10D 5H"]
    plays = ["SJ SJ 10S 10S", "10H 10H AS AS", "BJ BJ 3S 4S", "10C 10C 10D 10D"]
    assert winner_points(hands, plays) == (0, 80)
    with pytest.raises(ScenarioError, match="a pair of the led suit must be played"):
        tractor(hands, [p(0, plays[0]), p(1, plays[1]), p(2, "BJ 3S 4S 6S")])


def test_T6_3_T8_1_T8_3_X6_a_throw_that_stands_is_trumped_by_its_key() -> None:
    """T6.3, T8.1, T8.3 (X6): AH AH KH stands; 3S 3S 4S and 7S 7S AS match it (a pair and a
    single); the key is the pair: 77 over 33."""
    hands = ["AH AH KH", "5H 5H 2H", "3S 3S 4S", "7S 7S AS"]
    outcome = tractor(hands, [p(0, "AH AH KH"), p(1, "5H 5H 2H"), p(2, "3S 3S 4S"), p(3, "7S 7S AS")])
    assert "throw_failed" not in kinds(outcome)
    assert (trick(outcome)["winner"], trick(outcome)["points"]) == (3, 20)


def test_T8_2_X7_X8_the_key_shape_decides_an_over_trump() -> None:
    """T8.2 (X7, X8, S's 977 / 884): on AH KH KH the key is the pair (88 over 77 over-trumps);
    on AH KH the key is a single (9 keeps it against the pair 88, which covers two singles
    but has no higher card)."""
    hands = ["AH KH KH", "7S 7S 9S", "QH 6H 3H", "8S 8S 4S"]
    assert winner_points(hands, ["AH KH KH", "7S 7S 9S", "QH 6H 3H", "8S 8S 4S"]) == (3, 20)
    hands = ["AH KH", "9S 7S", "QH 3H", "8S 8S"]
    assert winner_points(hands, ["AH KH", "9S 7S", "QH 3H", "8S 8S"]) == (1, 10)


def test_T8_1_X9_a_trump_throw_must_cover_every_component() -> None:
    """T8.1 (X9, X9b): 998872 trumps AK5544 (a run for the tractor, singles for singles) and
    QQJJ34 over-trumps it; it cannot trump AA5544 (no second pair beside its run)."""
    hands = ["AH KH 5H 5H 4H 4H", "9S 9S 8S 8S 7S 2S", "QH 7H 6H 3C 3D 6C", "QS QS JS JS 3S 4S"]
    plays = ["AH KH 5H 5H 4H 4H", "9S 9S 8S 8S 7S 2S", "QH 7H 6H 3C 3D 6C", "QS QS JS JS 3S 4S"]
    assert winner_points(hands, plays) == (3, 20)
    hands[0] = plays[0] = "AH AH 5H 5H 4H 4H"
    hands[3] = plays[3] = "3C 4C 5C 6C 7C 8C"
    assert winner_points(hands, plays)[0] == 0


def test_T16_2_pair_components_not_the_pairs_inside_tractors() -> None:
    """T16.2: a led tractor is covered by a run, its pairs need nothing more: a trump
    tractor alone matches a lead of one tractor."""
    hands = ["KH KH QH QH", "3S 3S 4S 4S", "2C 3C 4C 5C", "6C 7C 8C 9C"]
    assert winner_points(hands, ["KH KH QH QH", "3S 3S 4S 4S", "2C 3C 4C 5C", "6C 7C 8C 9C"]) == (1, 25)


def test_T8_1_X10_a_joker_and_a_small_trump_are_no_pair() -> None:
    """T8.1 (X10): QH QH led; BJ 3S is no pair, so no trump; seat 0 keeps it."""
    assert winner_points(["QH QH", "BJ 3S", "2H 7H", "JH JH"], ["QH QH", "BJ 3S", "2H 7H", "JH JH"]) == (0, 0)


def test_T4_1_T4_3_X11_X12_no_trump_hands() -> None:
    """T4.1, T4.3 (X11, X12): no trump at level 2: 2S equals 2H (the earlier stays) and SJ
    takes it; a level card trumps a side suit."""
    options = {"trump": "none", "level": "2"}
    assert winner_points(["2H", "2S", "SJ", "AD"], ["2H", "2S", "SJ", "AD"], **options) == (2, 0)
    assert winner_points(["AH", "2C", "KH", "3H"], ["AH", "2C", "KH", "3H"], **options) == (1, 10)


def test_T4_3_T5_3_X13_tractors_with_the_constant_2() -> None:
    """T4.3, T5.3 (X13): with the constant 2, side level + main 2 is a tractor; side 2 +
    trump A a lower one; main + side level the higher."""
    hands = ["10D 10D 2S 2S", "2H 2H AS AS", "KS QS 7S 6S", "10S 10S 10C 10C"]
    plays = list(hands)
    assert winner_points(hands, plays, overrides={"two_is_constant_trump": True}) == (3, 70)


X14 = ["9H 8H 8H 4H 4H", "2C 3C 4C 5C 6C", "7C 8C 9C 10C JC", "3D 4D 5D 6D 7D"]


@pytest.mark.parametrize(("holder", "cards", "forced", "smallest", "returned", "penalty"), [
    (2, "JH", "9H", "9H", 4, 40),
    (1, "QH QH", "4H 4H", "9H", 3, 30),
    (3, "5H 5H", "4H 4H", "4H 4H", 3, 30),
])
def test_T6_3_T6_4_T6_5_T16_10_X14_failed_throws(
    holder: int, cards: str, forced: str, smallest: str, returned: int, penalty: int
) -> None:
    """T6.3–T6.5, T16.10 (X14): 9H 8H 8H 4H 4H fails against any other seat — the partner
    too — holding a higher heart, pair or run; the lowest beaten component is played
    (``"smallest"``: the fewest cards first), the rest returns to the hand, and with a
    penalty of 10 per card returned the dealer team's failure raises the attackers' points.
    The trick records the forced component, an event the attempt."""
    hands = list(X14)
    filler = hands[holder].split()
    hands[holder] = " ".join([*cards.split(), *filler[len(cards.split()):]])
    for rule, played, back in (("lowest", forced, returned), ("smallest", smallest, 5 - len(smallest.split()))):
        outcome = tractor(hands, [p(0, X14[0])], overrides={"failed_throw_forced": rule,
                                                             "throw_penalty_per_card": 10})
        failed = next(event for event in outcome["events"] if event["type"] == "throw_failed")
        assert failed == {"type": "throw_failed", "seat": 0, "attempted": "9H 8H 8H 4H 4H", "forced": played,
                          "returned": back}
        play = next(event for event in outcome["events"] if event["type"] == "play")
        assert play["cards"] == played
        assert outcome["attackers_points"] == 10 * back
        if rule == "lowest":
            assert (back, outcome["attackers_points"]) == (returned, penalty)


def test_T6_1_T6_2_leads_of_one_suit_and_structures_that_always_stand() -> None:
    """T6.1, T6.2: cards of two effective suits are no lead; a single, a pair or a tractor
    stands whatever the others hold; a throw nobody beats stands whole."""
    hands = ["8H 8H 7H 7H 2C", "AH AH KH KH 3C", "2D 3D 4D 5D 6D", "7D 8D 9D JD QD"]
    outcome = tractor(hands, [p(0, "8H 8H 7H 7H")])
    assert "throw_failed" not in kinds(outcome)
    with pytest.raises(ScenarioError) as refused:
        tractor(hands, [p(0, "8H 2C")])
    assert refused.value.code == "invalid_combination"
    stands = tractor(["AH AH KH", "2C 3C 4C", "2D 3D 4D", "5D 6D 7D"], [p(0, "AH AH KH")])
    assert [event["cards"] for event in stands["events"] if event["type"] == "play"] == ["AH AH KH"]


def test_T6_5_an_attacker_s_failed_throw_lowers_the_attackers_points() -> None:
    """T6.5: seat 1, an attacker (seat 0 deals), wins a trick and throws 9H 4H 4H; seat 2
    beats both components; the pair is forced and the card returned costs the attackers
    the penalty (their points may run below 0 during the hand, T9.3 counts them as 0)."""
    hands = ["2C 5D 6D 7D", "AC 9H 4H 4H", "3C QH QH 5S", "4C 8D 9D JD"]
    actions = [p(0, "2C"), p(1, "AC"), p(2, "3C"), p(3, "4C"), p(1, "9H 4H 4H")]
    outcome = tractor(hands, actions, overrides={"throw_penalty_per_card": 10})
    failed = next(event for event in outcome["events"] if event["type"] == "throw_failed")
    assert (failed["forced"], failed["returned"]) == ("4H 4H", 1)
    assert outcome["attackers_points"] == -10


def test_T6_4_the_blocker_is_named_only_when_the_room_says_so() -> None:
    """T6.4: all seats see the attempted cards and the forced component; the blocking seats
    are named with reveal_throw_blocker = true only."""
    hands = ["9H 8H 8H 4H 4H", "QH QH 3C 4C 5C", "5H 5H 7C 8C 9C", "3D 4D 5D 6D 7D"]
    hidden = tractor(hands, [p(0, "9H 8H 8H 4H 4H")])
    failed = next(event for event in hidden["events"] if event["type"] == "throw_failed")
    assert "blockers" not in failed and failed["forced"] == "4H 4H"
    shown = tractor(hands, [p(0, "9H 8H 8H 4H 4H")], overrides={"reveal_throw_blocker": True})
    failed = next(event for event in shown["events"] if event["type"] == "throw_failed")
    assert failed["blockers"] == [1, 2]
