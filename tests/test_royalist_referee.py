"""Royalist through the referee (docs/referee.md#royalist): the worked examples of Y10.2 and
Y10.3 played as scenarios, the outcome's keys (Y13.1, Y13.17) and the scenario's checks
(Y13.13)."""

from __future__ import annotations

from typing import Any

import pytest

from shuangkou.referee import ScenarioError, referee


def no(*seats: int) -> list[dict[str, Any]]:
    """Seats that stay hidden at the declarations."""
    return [{"seat": seat, "declare": False} for seat in seats]


def play(hands: list[str], actions: list[dict[str, Any]], **more: Any) -> dict[str, Any]:
    """The outcome of a Royalist scenario, all five at 1000 points (level 5, X = 60)."""
    outcome = referee({"config": "royalist", "hands": hands, "actions": actions, **more})
    if outcome["finished"]:
        assert sum(outcome["deltas"]) + outcome["house"] == 0
        assert sum(outcome["units"]) == 0  # Y6.4
    return outcome


def p(seat: int, cards: str) -> dict[str, Any]:
    return {"seat": seat, "play": cards}


def passes(seat: int) -> dict[str, Any]:
    return {"seat": seat, "pass": True}


# (hands, actions, overrides, out, units, nets) for each row of Y10.3
ROWS: dict[str, tuple[list[str], list[dict[str, Any]], dict[str, Any], list[int], list[int], list[int]]] = {
    "1": (["BJ* Q", "6 9", "7 10", "SJ*", "8 J"],
          [{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "BJ* Q"), p(1, "6"), passes(2), p(3, "SJ*")],
          {}, [0, 3], [6, -3, -3, 3, -3], [360, -180, -180, 180, -180]),
    "2": (["9 9", "BJ* Q", "6 6 7 SJ*", "K", "A"],
          [{"seat": 1, "ascend": True}, *no(0, 2, 3, 4), p(1, "BJ* Q"), p(2, "6 6"), p(0, "9 9"), p(2, "7"),
           p(3, "K"), p(4, "A")],
          {}, [1, 0, 3, 4], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
    "3": (["8 8 8", "9 9 9", "7 7 7 6 BJ*", "K", "SJ* 8"],
          [{"seat": 2, "ascend": True}, *no(0, 1, 3, 4), p(2, "7 7 7"), p(0, "8 8 8"), p(1, "9 9 9"), p(2, "6"),
           p(3, "K")],
          {}, [0, 1, 3], [3, 3, -6, 3, -3], [180, 180, -360, 180, -180]),
    "4": (["6 6 8 BJ*", "SJ*", "K", "7 7", "A"],
          [{"seat": 0, "ascend": True}, {"seat": 1, "declare": True}, *no(2, 3, 4), p(0, "6 6"), p(3, "7 7"),
           p(0, "8 BJ*"), p(1, "SJ*")],
          {}, [3, 0, 1], [4, 2, -2, -2, -2], [240, 120, -120, -120, -120]),
    "5": (["SJ* 7 7", "8 8", "6 6 6 K", "BJ* 9", "6 6 Q Q Q"],
          [{"seat": 3, "ascend": True}, {"seat": 0, "declare": False}, {"seat": 1, "declare": True},
           {"seat": 2, "declare": False}, {"seat": 4, "declare": True}, p(3, "BJ* 9"), p(4, "6 6"), passes(0),
           p(1, "8 8"), passes(4), p(2, "6 6 6"), passes(4), p(0, "SJ* 7 7")],
          {}, [3, 1, 0], [4, -4, -4, 8, -4], [240, -240, -240, 480, -240]),
    "6": (["8 8 8", "9 9 A", "SJ* 10", "J Q", "6 6 6 BJ* 7"],
          [{"seat": 4, "ascend": True}, {"seat": 1, "declare": True}, *no(0, 2, 3), p(4, "6 6 6"), p(0, "8 8 8"),
           p(1, "9 9"), p(2, "SJ* 10"), p(3, "J"), passes(4), p(1, "A"), passes(4), p(3, "Q")],
          {}, [0, 2, 1, 3], [1, 1, -1, 1, -2], [60, 60, -60, 60, -120]),
    "7": (["8 8", "BJ* 6 6 6 A", "9", "6 6 K", "SJ* 7 7"],
          [{"seat": 1, "abdicate": True}, {"seat": 2, "ascend": True}, *no(0, 1, 3, 4), p(2, "BJ* 9"), p(3, "6 6"),
           passes(4), p(0, "8 8"), p(1, "6 6 6"), p(4, "SJ* 7 7")],
          {}, [2, 0, 4], [-2, -2, 4, -2, 2], [-120, -120, 240, -120, 120]),
    "8": (["7", "6", "6", "BJ* 6", "SJ* 6 8"],
          [{"seat": 3, "abdicate": True}, {"seat": 4, "ascend": True}, *no(0, 1, 2, 3), p(4, "6"), p(0, "7"),
           p(4, "8"), p(4, "BJ* SJ*")],
          {}, [0, 4], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
    "9": (["6", "7", "BJ* SJ* 9", "8", "10"],
          [{"seat": 2, "ascend": True}, *no(0, 1, 3, 4), p(2, "BJ* SJ* 9")],
          {}, [2], [-3, -3, 12, -3, -3], [-180, -180, 720, -180, -180]),
    "10": (["6 7 BJ* SJ*", "8 8", "6", "9", "6 6 6"],
           [{"seat": 0, "ascend": "open_solo"}, p(0, "6"), passes(1), p(3, "9"), passes(0), p(4, "6 6"), passes(0),
            p(1, "8 8")],
           {}, [3, 1], [-24, 6, 6, 6, 6], [-1440, 360, 360, 360, 360]),
    "11": (["6", "7", "6", "6", "6 BJ* SJ*"],
           [{"seat": 4, "ascend": "open_solo"}, p(4, "6"), p(1, "7"), p(4, "BJ*"), p(4, "SJ*")],
           {}, [1, 4], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]),
    "11b": (["6", "7", "6", "6", "6 BJ* SJ*"],
            [{"seat": 4, "ascend": "open_solo"}, p(4, "6"), p(1, "7")],
            {"open_solo_second": "loss"}, [1], [6, 6, 6, 6, -24], [360, 360, 360, 360, -1440]),
    "12": (["6", "BJ* SJ* 9", "7", "8", "10"],
           [{"seat": 1, "ascend": True}, {"seat": 0, "declare": True}, {"seat": 2, "declare": True},
            {"seat": 3, "declare": True}, {"seat": 4, "declare": False}, p(1, "BJ* SJ* 9")],
           {}, [1], [-6, 24, -6, -6, -6], [-360, 1440, -360, -360, -360]),
    "13": (["SJ* 7", "6", "6", "6", "BJ* 6 6 9"],
           [*({"seat": seat, "abdicate": True} for seat in (4, 0, 1, 2, 3)), {"seat": 4, "ascend": True},
            *no(0, 1, 2, 3), p(4, "6 6"), p(0, "SJ* 7"), p(4, "BJ* 9")],
           {}, [0, 4], [3, -3, -3, -3, 6], [180, -180, -180, -180, 360]),
    "14": (["BJ* Q", "6 9", "7 10", "SJ*", "8 J"],
           [{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), {"seat": 4, "escape": True}, p(0, "BJ* Q"), p(1, "6"),
            passes(2), p(3, "SJ*")],
           {}, [0, 3], [6, -3, -3, 3, -3], [540, 0, 0, 360, -900]),
}


@pytest.mark.parametrize("row", list(ROWS))
def test_Y10_3_worked_games_played_through_the_referee(row: str) -> None:
    """Y10.3: each row's roles, declarations and seats out give its units and nets (Y6.1,
    Y6.2, Y6.3, Y7.2; row 14 an escape of Y8.4)."""
    hands, actions, overrides, out, units, nets = ROWS[row]
    outcome = play(hands, actions, overrides=overrides)
    assert outcome["finished"] and outcome["finish_order"] == out
    assert outcome["units"] == units and outcome["deltas"] == nets and outcome["match_points"] == 60
    assert outcome["balances_after"] == [1000 + net for net in nets]


def test_Y10_3_Y2_8_roles_and_multipliers_of_the_rows() -> None:
    """Y10.3's roles and *m* (Y2.8): 明保 (row 4), a revolt that succeeds (rows 5, 12) or
    not (row 6), open solos (rows 10, 11), secret solos (rows 8, 9, 12)."""
    expected = {
        "1": ({"emperor": 0, "guard": 3, "solo": None}, 1), "4": ({"emperor": 0, "guard": 1, "solo": None}, 2),
        "5": ({"emperor": 3, "guard": 0, "solo": None}, 2), "6": ({"emperor": 4, "guard": 2, "solo": None}, 1),
        "8": ({"emperor": 4, "guard": None, "solo": "secret"}, 1),
        "9": ({"emperor": 2, "guard": None, "solo": "secret"}, 1),
        "10": ({"emperor": 0, "guard": None, "solo": "open"}, 2),
        "12": ({"emperor": 1, "guard": None, "solo": "secret"}, 2),
    }
    for row, (roles, multiplier) in expected.items():
        hands, actions, overrides, *_ = ROWS[row]
        outcome = play(hands, actions, overrides=overrides)
        assert (outcome["roles"], outcome["multiplier"]) == (roles, multiplier), row


def test_Y10_3_Y5_1_Y5_3_Y13_1_the_checks_named_under_the_table() -> None:
    """Y10.3's checks: in row 2 the game ends at the fourth seat out with G unplaced; in rows
    3 and 6 the emperor is unplaced (Y5.3), and unplaced seats have no place (Y13.1); in row 8
    it ends at the second out because the emperor is out (Y5.2); in row 10 at the second
    other out, in 11b at the first."""
    row2 = play(*ROWS["2"][:2])
    assert row2["places"] == [2, 1, None, 3, 4] and row2["cards_left"][2] == 1
    for row, emperor in (("3", 2), ("6", 4)):
        outcome = play(*ROWS[row][:2])
        assert outcome["places"][emperor] is None and emperor not in outcome["finish_order"]
    assert play(*ROWS["8"][:2])["places"] == [1, None, None, None, 2]
    assert len(play(*ROWS["10"][:2])["finish_order"]) == 2
    hands, actions, overrides, *_ = ROWS["11b"]
    assert play(hands, actions, overrides=overrides)["finish_order"] == [1]


def test_Y10_2_play_soft_pass_and_auto_pass_after_a_big_joker() -> None:
    """Y10.2: seat 1 leads 8 8; seat 2 passes; seat 3 plays J J; 4, 0 and 1 pass; seat 2,
    which passed before, plays K K (Y3.3); 3 and 4 pass; seat 0 plays BJ A; seats 1 to 4
    are passed at once (Y3.7, Y4.6) and seat 0 leads (Y3.4)."""
    outcome = play(
        ["BJ A 7", "BJ* 8 8 9", "K K Q", "J J 10 SJ*", "10 10 6"],
        [{"seat": 1, "ascend": True}, *no(0, 2, 3, 4), p(1, "8 8"), passes(2), p(3, "J J"), passes(0),
         p(2, "K K"), p(0, "BJ A")],
    )
    played = [(e["type"], e["seat"], e.get("cause")) for e in outcome["events"] if e["type"] in ("play", "pass")]
    assert played == [
        ("play", 1, "player"), ("pass", 2, "player"), ("play", 3, "player"), ("pass", 4, "auto_pass"),
        ("pass", 0, "player"), ("pass", 1, "auto_pass"), ("play", 2, "player"), ("pass", 3, "auto_pass"),
        ("pass", 4, "auto_pass"), ("play", 0, "player"), ("pass", 1, "auto_pass"), ("pass", 2, "auto_pass"),
        ("pass", 3, "auto_pass"), ("pass", 4, "auto_pass"),
    ]
    assert outcome["to_act"] == 0 and not outcome["finished"]


def test_Y10_2_Y3_6_taking_over_the_lead_after_a_last_card() -> None:
    """Y10.2, Y3.5, Y3.6: seat 2 plays its last cards K K; 3, 4, 0 and 1 pass; seat 2 is out
    (place 1) and seat 3 leads (接风)."""
    outcome = play(
        ["A A 7", "BJ* 9 9 6", "K K", "6 7 SJ*", "8 8 2"],
        [{"seat": 1, "ascend": True}, *no(0, 2, 3, 4), p(1, "9 9"), p(2, "K K"), passes(0)],
    )
    kinds = [(e["type"], e.get("seat")) for e in outcome["events"]][-7:]
    assert kinds == [("play", 2), ("out", 2), ("pass", 3), ("pass", 4), ("pass", 0), ("pass", 1), ("jiefeng", 3)]
    assert outcome["to_act"] == 3 and outcome["places"] == [None, None, 1, None, None]


def test_Y13_17_Y13_1_the_outcome_of_an_unfinished_hand() -> None:
    """Y13.17, Y13.3: the outcome's keys; while the declarations are open ``to_act`` lists the
    seats that owe one; units and money once the game is over."""
    outcome = play(["BJ* Q", "6 9", "7 10", "SJ*", "8 J"], [{"seat": 0, "ascend": True}, *no(3)])
    assert outcome["to_act"] == [1, 2, 4] and outcome["phase"] == "declare"
    assert outcome["cards_left"] == [2, 2, 2, 1, 2] and outcome["places"] == [None] * 5
    assert outcome["units"] is None and outcome["settlement"] is None and outcome["match_points"] == 60
    assert set(outcome) >= {"events", "finished", "to_act", "roles", "multiplier", "finish_order", "places",
                            "cards_left", "units", "match_points", "deltas", "house", "balances_after", "settlement"}


@pytest.mark.parametrize(
    ("hands", "needle"),
    [
        (["BJ* Q", "6 9", "7 10", "9", "8 J"], r"SJ\* must be in exactly one hand, not 0"),
        (["BJ* Q BJ*", "6 9", "7 10", "SJ*", "8 J"], r"BJ\* must be in exactly one hand, not 2"),
        (["BJ* 3", "6 9", "7 10", "SJ*", "8 J"], "one card more than a 168-card deck"),
        (["BJ* QS QS QS", "QS QS", "7 10", "SJ*", "8 J"], "one card more than a 168-card deck"),
        (["BJ* BJ BJ BJ", "BJ", "7 10", "SJ*", "8 J"], "one card more than a 168-card deck"),
        (["BJ* Q", "", "7 10", "SJ*", "8 J"], "hand 1 is empty"),
        (["BJ* Q", "6 9", "7 10", "SJ*"], "give five hands"),
    ],
)
def test_Y13_13_a_hand_built_deal_comes_out_of_one_deck(hands: list[str], needle: str) -> None:
    """Y13.13: at most four of each rank and suit, four BJ (one of them BJ*), no 3-5 in the
    168 deck, BJ* and SJ* exactly once."""
    with pytest.raises(ScenarioError, match=needle):
        referee({"config": "royalist", "hands": hands})


def test_Y13_13_the_216_and_165_decks() -> None:
    """Y13.13: the 216 deck keeps 3s to 5s; the 165 deck holds at most 13 sixes."""
    low = ["BJ* 3 4 5", "6", "7", "SJ*", "8"]
    assert not referee({"config": "royalist216", "hands": low})["finished"]
    sixes = ["BJ* 6 6 6 6", "6 6 6 6", "6 6 6 6", "SJ* 6", "6 6 6"]
    assert not referee({"config": "royalist", "hands": sixes})["finished"]
    with pytest.raises(ScenarioError, match="13 sixes"):
        referee({"config": "royalist", "overrides": {"deck": "165"}, "hands": sixes})


def test_Y1_4_a_seeded_scenario_deals_from_its_first_taker() -> None:
    """Y1.4: with ``seed`` and ``first_taker``, 34 cards to the first three seats from the
    first taker and 33 to the others; the same seed deals the same hands."""
    first = referee({"config": "royalist", "seed": 7, "first_taker": 3})
    deal = first["events"][0]
    assert deal["seat"] == 3 and deal["cards"] == [34, 33, 33, 34, 34]
    assert first == referee({"config": "royalist", "seed": 7, "first_taker": 3})
    with pytest.raises(ScenarioError, match="not both"):
        referee({"config": "royalist", "seed": 7, "hands": ["BJ*", "SJ*", "6", "7", "8"]})


def test_illegal_actions_name_the_action() -> None:
    """A refused action is named by its index and code: a seat out of turn during the offer,
    a forbidden abdication (Y2.3), a pass on a lead (Y3.2), a set that does not beat."""
    hands = ["BJ* Q", "6 9", "7 10", "SJ*", "8 J"]
    cases = [
        ([{"seat": 1, "ascend": True}], 0, "not_your_turn"),
        ([{"seat": 0, "ascend": "open_solo"}], 0, "bad_action"),
        ([{"seat": 0, "ascend": True}, {"seat": 0, "declare": True}], 1, "not_your_turn"),
        ([{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), passes(0)], 5, "pass_on_lead"),
        ([{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), {"seat": 3, "escape": True}, p(0, "Q"), p(3, "SJ*")], 7,
         "not_your_turn"),
        ([{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "Q 9")], 5, "cards_not_held"),
        ([{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "SJ")], 5, "cards_not_held"),
    ]
    with pytest.raises(ScenarioError) as refused:
        referee({"config": "royalist", "hands": ["BJ* 7", "6 9", *hands[2:]],
                 "actions": [{"seat": 0, "ascend": True}, *no(1, 2, 3, 4), p(0, "7"), p(1, "6")]})
    assert (refused.value.action, refused.value.code) == (6, "does_not_beat")
    for actions, index, code in cases:
        with pytest.raises(ScenarioError) as error:
            referee({"config": "royalist", "hands": hands, "actions": actions})
        assert (error.value.action, error.value.code) == (index, code), actions
