"""Whole games played through the referee: scenario in, outcome out (docs/referee.md).

Every expected settlement is worked out by hand in the test, in the terms of RULES §9:
X match points (R9.4), a result multiplier (R7.1), b doubling (R9.2/R9.3), c contribution
(R9.1/R9.3); four-seat games (RULES-CLASSIC) in the terms of C5. Shipped rooms at their
starting balances: points, classic and qianbian 1000 (level 5, X = 60), wealth 100000
(level 4, X = 500). Every outcome is checked for the two invariants of a settlement:
sum(deltas) + house == 0 and balances_after == balances + deltas (R9.7, C5.6).
"""

from __future__ import annotations

import doctest
import io
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from shuangkou.cli import main
from shuangkou.games.shuangkou.bots import GreedyBot, HostingBot, RandomBot
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import Action, Escape, Game, HostedTurn, Hosting, action_to_dict
from shuangkou.referee import ScenarioError, referee
from shuangkou.simulate import play_game

STARTING = {"points": 1000, "wealth": 100000, "classic": 1000, "qianbian": 1000}
DOCS = Path(__file__).resolve().parent.parent / "docs"
TWO_SEAT_KEYS = [
    "events", "finished", "to_act", "winner", "result", "cards_left", "scoring_phase",
    "settlement", "deltas", "house", "balances_after",
]
FOUR_SEAT_KEYS = [
    "events", "finished", "to_act", "result", "finish_order", "winners", "cards_left", "scoring_phase",
    "settlement", "deltas", "house", "balances_after",
]


def play(scenario: dict[str, Any]) -> dict[str, Any]:
    """Referee ``scenario`` and check the invariants of its outcome."""
    outcome = referee(scenario)
    json.dumps(outcome)  # the outcome is plain JSON
    seats = len(outcome["cards_left"])
    assert list(outcome) == (TWO_SEAT_KEYS if seats == 2 else FOUR_SEAT_KEYS)
    if outcome["finished"]:
        edition = scenario.get("config", "points")
        balances = scenario.get("balances") or [STARTING[edition]] * seats
        deltas, house, after = outcome["deltas"], outcome["house"], outcome["balances_after"]
        assert len(deltas) == seats
        assert sum(deltas) + house == 0
        assert after == [balance + delta for balance, delta in zip(balances, deltas, strict=True)]
        assert outcome["settlement"]["deltas"] == deltas
        assert outcome["result"] == outcome["settlement"]["result"]
        if seats == 4:
            assert outcome["finish_order"] == outcome["settlement"]["finish_order"]
            assert outcome["winners"] == outcome["settlement"]["winners"]
    else:
        assert outcome["settlement"] is None and outcome["deltas"] is None
    return outcome


def refused(scenario: object) -> dict[str, Any]:
    """The error of a scenario the referee refuses."""
    with pytest.raises(ScenarioError) as caught:
        referee(scenario)
    error: dict[str, Any] = caught.value.outcome()["error"]
    return error


def p(seat: int, cards: str, kind: str | None = None) -> dict[str, Any]:
    """A play action."""
    return {"seat": seat, "play": cards} | ({"as": kind} if kind else {})


def events(outcome: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The events as (type, seat, cause, cards) tuples, the deal left out."""
    return [
        (event["type"], event.get("seat"), event.get("cause"), event.get("combo", {}).get("cards"))
        for event in outcome["events"][1:]
    ]


# ---------------------------------------------------------------------------
# Result levels (R7.1) in both editions


def filler(count: int) -> str:
    """``count`` cards with no bomb and no joker: at most three of a rank."""
    ranks = ["3", "6", "7", "8", "9", "10", "J", "Q", "K"]
    return " ".join(ranks[i % len(ranks)] for i in range(count))


@pytest.mark.parametrize(
    ("edition", "left", "level", "won"),
    [
        ("points", 1, "flat", 60),  # X 60 · a 1 · b 1 + X·c (c = 0 both) = 60
        ("points", 6, "flat", 60),  # 60 · 1 · 1 = 60
        ("points", 7, "single", 120),  # 60 · 2 · 1 = 120
        ("points", 11, "single", 120),  # 60 · 2 · 1 = 120
        ("points", 12, "double", 180),  # 60 · 3 · 1 = 180
        ("points", 24, "double", 180),  # 60 · 3 · 1 = 180
        ("wealth", 1, "flat", 500),  # X 500 · a 1 · b 1 = 500
        ("wealth", 6, "flat", 500),
        ("wealth", 7, "single", 1000),  # 500 · 2 · 1
        ("wealth", 11, "single", 1000),
        ("wealth", 12, "double", 1500),  # 500 · 3 · 1
        ("wealth", 24, "double", 1500),
    ],
)
def test_R7_1_result_levels_by_the_losers_cards_left(edition: str, left: int, level: str, won: int) -> None:
    outcome = play({
        "config": edition,
        "hands": ["3 3 4 5 6 7 8 2", "4 5 5 " + filler(left)],
        "actions": [
            p(0, "3 3"), p(1, "5 5"),  # seat 0 holds no pair: auto-pass (R2.6), seat 1 leads
            p(1, "4"), p(0, "2"),  # seat 1 cannot beat a 2: auto-pass
            p(0, "4 5 6 7 8"),  # seat 0 goes out (R2.5)
        ],
    })
    assert outcome["winner"] == 0 and outcome["result"] == level
    assert outcome["cards_left"] == [0, left]
    settlement = outcome["settlement"]
    assert settlement["match_points"] == (60 if edition == "points" else 500)
    assert settlement["a"] == {"flat": 1, "single": 2, "double": 3}[level]
    assert settlement["b"] == 1 and settlement["contribution_multipliers"] == [0, 0]
    assert outcome["deltas"] == [won, -won] and outcome["house"] == 0


def test_R2_5_an_action_after_the_end_is_refused() -> None:
    scenario = {"hands": ["3", "4 5"], "actions": [p(0, "3"), p(1, "4")]}
    assert refused(scenario) == {"action": 1, "code": "game_over", "message": "the game is over"}


def test_an_unfinished_game_has_no_settlement() -> None:
    outcome = play({"hands": ["3 9", "4 5"], "actions": [p(0, "3")]})
    assert outcome["finished"] is False and outcome["winner"] is None and outcome["result"] is None
    assert outcome["cards_left"] == [1, 2]
    assert outcome["balances_after"] is None and outcome["house"] is None


# ---------------------------------------------------------------------------
# Scoring phases (R8)


@pytest.mark.parametrize(
    ("bomb", "phase", "points", "wealth"),
    [
        ("4444", 4, 60, 500),  # points: 60·1·1 + 60·0; wealth: 500·1·1 + 500·0
        ("444 SJ", 4, 60, 500),  # R5.5: three 4s and a joker are the bomb 4444
        ("33333", 5, 120, 500),  # points b(5) = 2: 60·1·2; wealth b(5) = 1: 500·1·1
        ("4444 SJ", 5, 120, 500),  # R5.5: a joker adds one to the phase
        ("777777", 6, 360, 2000),  # points 60·1·4 + 60·2 = 360; wealth 500·1·2 + 500·2 = 2000
        ("SJ SJ BJ", 6, 360, 2000),  # R4.2 three-joker bomb, phase 6
        ("8888888", 7, 720, 4000),  # points 60·1·8 + 60·4 = 720; wealth 500·1·4 + 500·4 = 4000
    ],
)
def test_R8_1_the_highest_bomb_sets_the_phase(bomb: str, phase: int, points: int, wealth: int) -> None:
    for edition, won in (("points", points), ("wealth", wealth)):
        outcome = play({
            "config": edition,
            "hands": [f"{bomb} 9 2", "10 J J 6"],
            # the bomb is unanswered (auto-pass); 9, 10, 2 and seat 0 is out; seat 1 holds J J 6
            "actions": [p(0, bomb), p(0, "9"), p(1, "10"), p(0, "2")],
        })
        assert outcome["result"] == "flat" and outcome["cards_left"] == [0, 3]
        assert outcome["scoring_phase"] == [phase, 0]
        assert outcome["settlement"]["phases"][0]["source"] == "bomb"
        assert outcome["deltas"] == [won, -won], edition


def bombs_then_out(first: str, *later: str) -> dict[str, Any]:
    """Seat 0 bombs with ``first``, plays a round of singles, then bombs with each of
    ``later`` in separate plays, the last taking it out; seat 1 (10 K K 8) never bombs."""
    hand = " ".join([first, "9", *later, "2"])
    actions = [p(0, first), p(0, "9"), p(1, "10"), p(0, "2"), *(p(0, bomb) for bomb in later)]
    return {"hands": [hand, "10 K K 8"], "actions": actions}


@pytest.mark.parametrize(
    ("bombs", "phase", "source", "won"),
    [
        (("4444", "5555"), 5, "connected", 120),  # 4-phase pair of 4s and 5s: 5; 60·1·b(5)=2
        (("5555", "4444"), 5, "connected", 120),  # the order of the two plays does not matter
        (("4444", "5555", "6666"), 5, "connected", 120),  # a chain of three is no more than a pair
        (("44444", "55555"), 6, "connected", 360),  # 5-phase pair: 6; 60·1·4 + 60·2 = 360
        (("AAAA", "KKKK"), 5, "connected", 120),  # K and A are adjacent within 3..A
        (("4444", "6666"), 4, "bomb", 60),  # not adjacent: 60·1·1
        (("4444", "55555"), 5, "bomb", 120),  # different phases: the 5-bomb alone, 60·1·2
        (("AAAA", "2222"), 4, "bomb", 60),  # 2 is outside 3..A
        (("4444 SJ", "5555 BJ"), 6, "connected", 360),  # jokers allowed inside: two 5-phase bombs
    ],
)
def test_R8_2_connected_pair_in_separate_plays(
    bombs: tuple[str, ...], phase: int, source: str, won: int
) -> None:
    outcome = play(bombs_then_out(bombs[0], *bombs[1:]))
    assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 3] and outcome["result"] == "flat"
    assert outcome["scoring_phase"] == [phase, 0]
    phases = outcome["settlement"]["phases"][0]
    assert phases["source"] == source
    assert len(phases["played"]) == len(bombs)
    assert outcome["deltas"] == [won, -won]


def test_R8_2_a_pair_needs_one_player() -> None:
    # seat 0 bombs 4444, seat 1 answers 5555: one 4-phase bomb each, no connected pair
    outcome = play({
        "hands": ["4444 3 9", "5555 8 J"],
        "actions": [p(0, "4444"), p(1, "5555"), p(1, "8"), p(0, "9"), p(1, "J")],
    })
    assert outcome["winner"] == 1 and outcome["cards_left"] == [1, 0]
    assert outcome["scoring_phase"] == [4, 4]
    assert outcome["deltas"] == [-60, 60]  # 60·1·b(4)=1 + 60·0 − 60·0


def unconnected(bombs: list[str], count_unconnected: bool) -> dict[str, Any]:
    """Seat 0 plays 8, seat 1 answers 10, then seat 0 plays ``bombs`` one by one and goes out."""
    return {
        "hands": [" ".join([*bombs, "8"]), "7 10 K"],
        "overrides": {"count_unconnected": count_unconnected},
        "actions": [p(0, "8"), p(1, "10"), *(p(0, bomb) for bomb in bombs)],
    }


@pytest.mark.parametrize(
    ("bombs", "off", "on"),
    [
        # four unconnected 4-phase bombs: off phase 4 (60·1·1 = 60); on R8.3 → 6 (60·1·4 + 60·2 = 360)
        (["3333", "6666", "9999", "QQQQ"], (4, 60), (6, 360)),
        # three: on → 5 (60·1·2 = 120)
        (["3333", "6666", "9999"], (4, 60), (5, 120)),
        # two 4-phase bombs are not enough
        (["3333", "6666"], (4, 60), (4, 60)),
        # bombs of R8.2 count too: 4444 5555 is connected (5) and, with 9999 QQQQ, four → 6
        (["4444", "5555", "9999", "QQQQ"], (5, 120), (6, 360)),
        # two 5-phase bombs → 6; off: 5 (60·1·2 = 120)
        (["33333", "99999"], (5, 120), (6, 360)),
    ],
)
def test_R8_3_unconnected_bombs_count_only_when_enabled(
    bombs: list[str], off: tuple[int, int], on: tuple[int, int]
) -> None:
    for enabled, (phase, won) in ((False, off), (True, on)):
        outcome = play(unconnected(bombs, enabled))
        assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 2]
        assert outcome["scoring_phase"] == [phase, 0], enabled
        assert outcome["deltas"] == [won, -won], enabled
    if on[0] > off[0]:
        phase = play(unconnected(bombs, True))["settlement"]["phases"][0]
        assert phase["source"] == "unconnected" and len(phase["bombs"]) == len(bombs)


# ---------------------------------------------------------------------------
# Contribution and doubling (R9.1, R9.2)

CONTRIBUTION_GAME = {
    "hands": ["3 666666 7777777 2", "SJ SJ BJ 4 5 9"],
    "actions": [
        p(0, "3"), p(1, "SJ SJ BJ"),  # seat 1's three-joker bomb (phase 6, c 2) on a single
        p(0, "666666"),  # beats it: the three-joker bomb is the smallest of phase 6 (R6.3)
        p(0, "7777777"), p(0, "2"),  # seat 0 leads its 7-bomb and goes out
    ],
}


@pytest.mark.parametrize(
    ("edition", "contribution", "c", "won"),
    [
        # max: c_W = c(7) = 4, c_L = c(6) = 2; X 60, a 1, b(7) 8: 60·1·8 + 60·4 − 60·2 = 600
        ("points", "max", [4, 2], 600),
        # sum: c_W = c(6) + c(7) = 2 + 4 = 6: 480 + 60·6 − 120 = 720
        ("points", "sum", [6, 2], 720),
        # wealth, X 500, b(7) 4: max 500·1·4 + 500·4 − 500·2 = 3000
        ("wealth", "max", [4, 2], 3000),
        # wealth sum: 2000 + 500·6 − 1000 = 4000
        ("wealth", "sum", [6, 2], 4000),
    ],
)
def test_R9_1_contribution_max_or_sum(edition: str, contribution: str, c: list[int], won: int) -> None:
    outcome = play(CONTRIBUTION_GAME | {"config": edition, "overrides": {"contribution": contribution}})
    assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 3]
    assert outcome["scoring_phase"] == [7, 6]
    assert outcome["settlement"]["contribution_multipliers"] == c
    assert outcome["deltas"] == [won, -won]


DOUBLING_GAME = {
    "hands": ["5 8 10 2", "7777777 4 6 9"],
    "actions": [
        p(0, "5"), p(1, "7777777"),  # the loser's 7-bomb (phase 7, c 4); seat 0 auto-passes
        p(1, "4"), p(0, "8"), p(1, "9"), p(0, "10"),  # seat 1 (6 left) cannot beat 10
        p(0, "2"),  # seat 0 goes out with no bomb; seat 1 holds 6
    ],
}


@pytest.mark.parametrize(
    ("edition", "doubling_from", "b", "deltas"),
    [
        # winner: b = b(0) = 1: net(W) = 60·1·1 + 0 − 60·4 = −180: the winner pays (R9.1)
        ("points", "winner", 1, [-180, 180]),
        # game: b = b(max(0, 7)) = 8: 60·1·8 − 60·4 = 240
        ("points", "game", 8, [240, -240]),
        # wealth winner: 500·1·1 − 500·4 = −1500
        ("wealth", "winner", 1, [-1500, 1500]),
        # wealth game: b(7) = 4: 500·1·4 − 500·4 = 0, nothing changes hands
        ("wealth", "game", 4, [0, 0]),
    ],
)
def test_R9_2_doubling_from_winner_or_game(
    edition: str, doubling_from: str, b: int, deltas: list[int]
) -> None:
    outcome = play(DOUBLING_GAME | {"config": edition, "overrides": {"doubling_from": doubling_from}})
    assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 1]
    assert outcome["scoring_phase"] == [0, 7]
    settlement = outcome["settlement"]
    assert settlement["b"] == b and settlement["doubling_phase"] == (0 if doubling_from == "winner" else 7)
    assert outcome["deltas"] == deltas
    assert settlement["payer"] == (None if deltas == [0, 0] else 0 if deltas[0] < 0 else 1)


# ---------------------------------------------------------------------------
# The four-joker bomb among phase 7 (R6.3)

FOUR_JOKERS = {"hands": ["SJ SJ BJ BJ 3", "7777777 9"], "leader": 1}


def test_R6_3_four_jokers_smallest_do_not_beat_a_7_bomb() -> None:
    outcome = play(FOUR_JOKERS | {"actions": [p(1, "7777777"), p(1, "9")]})
    # seat 0 cannot beat the 7-bomb: auto-pass, seat 1 leads 9 and is out
    assert events(outcome)[1] == ("pass", 0, "auto_pass", None)
    assert outcome["winner"] == 1 and outcome["cards_left"] == [5, 0]
    assert outcome["scoring_phase"] == [0, 7]
    assert outcome["deltas"] == [-720, 720]  # 60·1·b(7)=8 + 60·c(7)=4 − 0 = 720
    answer = FOUR_JOKERS | {"actions": [p(1, "7777777"), p(0, "SJ SJ BJ BJ")]}
    assert refused(answer)["code"] == "not_your_turn"  # seat 0 has been passed for
    waiting = answer | {"overrides": {"auto_pass": False}}
    error = refused(waiting)
    assert error["action"] == 1 and error["code"] == "does_not_beat"


def test_R6_3_four_jokers_largest_beat_a_7_bomb() -> None:
    outcome = play(FOUR_JOKERS | {
        "overrides": {"four_joker_bomb": "largest"},
        "actions": [p(1, "7777777"), p(0, "SJ SJ BJ BJ"), p(0, "3")],
    })
    assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 1]
    assert outcome["scoring_phase"] == [7, 7]
    assert outcome["deltas"] == [480, -480]  # 60·1·8 + 60·4 − 60·4 = 480


# ---------------------------------------------------------------------------
# Escape (R10)

ESCAPE_EARLY = {"hands": ["3 3 9 K", "4 4 10 Q 2"], "actions": [p(0, "3 3"), {"seat": 1, "escape": True}]}


def test_R10_1_host_mode_hosts_the_escaper_to_the_end_and_settles_normally() -> None:
    outcome = play(ESCAPE_EARLY | {
        "overrides": {"escape_mode": "host"},
        "actions": [*ESCAPE_EARLY["actions"], p(0, "K")],
    })
    assert events(outcome) == [
        ("play", 0, "player", "3 3"),
        ("escape", 1, "escape", None),
        ("hosting", 1, "escape", None),
        ("play", 1, "hosting", "4 4"),  # R11.2: the weakest move that beats 3 3
        ("pass", 0, "auto_pass", None),
        ("play", 1, "hosting", "10"),  # R11.2: the lowest single on a lead
        ("play", 0, "player", "K"),
        ("play", 1, "hosting", "2"),
        ("pass", 0, "auto_pass", None),
        ("play", 1, "hosting", "Q"),
        ("end", 1, None, None),
    ]
    # the hosted escaper went out: a normal flat win, no penalty
    assert outcome["winner"] == 1 and outcome["result"] == "flat" and outcome["cards_left"] == [1, 0]
    settlement = outcome["settlement"]
    assert settlement["escaper"] is None and settlement["penalty"] == 0
    assert outcome["deltas"] == [-60, 60]  # 60·1·1


def test_R10_1_an_escaped_seat_stays_hosted() -> None:
    scenario = ESCAPE_EARLY | {
        "overrides": {"escape_mode": "host"},
        "actions": [*ESCAPE_EARLY["actions"], {"seat": 1, "hosting": False}],
    }
    assert refused(scenario)["code"] == "escaped"


@pytest.mark.parametrize(
    ("edition", "deltas", "house"),
    [
        # points: P = X 60 · 12 = 720; seat 1 had not played: D = P; share 1.0
        ("points", [720, -720], 0),
        # wealth: P = 500 · 12 = 6000; seat 0 receives 70 % = 4200, the house 1800
        ("wealth", [4200, -6000], 1800),
    ],
)
def test_R10_2_escape_before_playing_pays_the_penalty_only(
    edition: str, deltas: list[int], house: int
) -> None:
    outcome = play(ESCAPE_EARLY | {"config": edition})
    assert [event["type"] for event in outcome["events"]][-2:] == ["escape", "end"]
    assert outcome["finished"] and outcome["result"] == "escape" and outcome["winner"] == 0
    assert outcome["cards_left"] == [2, 5]
    settlement = outcome["settlement"]
    assert settlement["escaper"] == 1 and settlement["escaper_played"] is False
    assert settlement["a"] == 0 and settlement["contributions"] == [0, 0]
    assert outcome["deltas"] == deltas and outcome["house"] == house


@pytest.mark.parametrize(
    ("edition", "deltas", "house"),
    [
        # points: P 60·12 = 720, normal loss X·b(6) = 60·4 = 240, seat 0's contribution
        # 60·c(6) = 120: D = 1080, all to seat 0
        ("points", [1080, -1080], 0),
        # wealth: 500·12 + 500·b(6)=2 + 500·c(6)=2 = 6000 + 1000 + 1000 = 8000; 70 % = 5600
        ("wealth", [5600, -8000], 2400),
    ],
)
def test_R10_3_escape_after_playing_adds_the_loss_and_the_contribution(
    edition: str, deltas: list[int], house: int
) -> None:
    outcome = play({
        "config": edition,
        "hands": ["3 777777 9", "4 J K"],
        "actions": [p(0, "3"), p(1, "4"), p(0, "777777"), {"seat": 1, "escape": True}],
    })
    assert outcome["result"] == "escape" and outcome["winner"] == 0
    settlement = outcome["settlement"]
    assert settlement["escaper_played"] is True and settlement["a"] == 1
    assert settlement["b"] == (4 if edition == "points" else 2)
    assert outcome["deltas"] == deltas and outcome["house"] == house


def test_R10_4_worked_example() -> None:
    # wealth, both at level 5 (X = 1000); A (seat 0) plays a 6-phase bomb, B a 7-phase bomb,
    # then A escapes. D = 1000·12 + 1000·b(7)=4 + 1000·c(7)=4 = 20000; B gets 70 % = 14000.
    outcome = play({
        "config": "wealth",
        "balances": [700000, 900000],
        "hands": ["666666 3 4", "7777777 5 8"],
        "actions": [p(0, "666666"), p(1, "7777777"), {"seat": 0, "escape": True}],
    })
    assert outcome["scoring_phase"] == [6, 7]
    settlement = outcome["settlement"]
    assert settlement["match_points"] == 1000 and settlement["penalty"] == 12000
    assert settlement["due"] == 20000 and settlement["contributions"] == [0, 4000]
    assert outcome["deltas"] == [-20000, 14000] and outcome["house"] == 6000
    assert outcome["balances_after"] == [680000, 914000]


# ---------------------------------------------------------------------------
# Balances and the house (R9.4, R9.5, R9.7)

BIG_DOUBLE = {
    # seat 0 plays an 8-bomb (phase 8) and goes out; seat 1 holds 12 cards: a double win
    "hands": ["88888888 3", "4 4 5 5 6 6 9 9 10 10 J J"],
    "actions": [p(0, "88888888"), p(0, "3")],
}


def test_R9_5_wealth_payer_pays_at_most_what_they_hold() -> None:
    # X from the lower level: 150 coins is level 1, X = 5. Due 5·3·b(8)=8 + 5·c(8)=8 = 160.
    outcome = play(BIG_DOUBLE | {"config": "wealth", "balances": [100000, 150]})
    settlement = outcome["settlement"]
    assert settlement["match_points"] == 5 and settlement["levels"] == [4, 1]
    assert settlement["due"] == 160 and settlement["paid"] == 150 and settlement["capped"] is True
    assert outcome["deltas"] == [150, -150] and outcome["balances_after"] == [100150, 0]


def test_R9_5_points_balances_may_go_negative() -> None:
    # 10 points is level 0, X = 5. Due 5·3·b(8)=16 + 5·c(8)=8 = 280, paid in full.
    outcome = play(BIG_DOUBLE | {"balances": [1000, 10]})
    settlement = outcome["settlement"]
    assert settlement["match_points"] == 5 and settlement["capped"] is False
    assert outcome["deltas"] == [280, -280] and outcome["balances_after"] == [1280, -270]
    # a balance already below zero plays at the first level and keeps falling
    again = play(BIG_DOUBLE | {"balances": [1000, -270]})
    assert again["balances_after"] == [1280, -550]


def test_R9_4_match_points_from_the_lower_level() -> None:
    # 4000 points is level 7 (X 100), 2500 level 6 (X 80): X = 80, flat 80·1·1
    outcome = play({"balances": [4000, 2500], "hands": ["3", "4 5"], "actions": [p(0, "3")]})
    assert outcome["settlement"]["levels"] == [7, 6] and outcome["settlement"]["match_points"] == 80
    assert outcome["deltas"] == [80, -80]


@pytest.mark.parametrize(
    ("edition", "overrides", "deltas", "house"),
    [
        # wealth flat, X 500: fees 100 each; seat 1 pays 500; the house takes 10 % of it (50).
        # seat 0: −100 + 500 − 50 = 350; seat 1: −100 − 500 = −600; house 100 + 100 + 50 = 250
        ("wealth", {"table_fee": 100, "win_fee_share": 0.1}, [350, -600], 250),
        # points, fee only: 60 − 5 = 55; −60 − 5 = −65; house 10
        ("points", {"table_fee": 5}, [55, -65], 10),
        # points, win fee only: 0.25 · 60 = 15; 60 − 15 = 45
        ("points", {"win_fee_share": 0.25}, [45, -60], 15),
        # shares round down: 0.3333333 · 60 = 19.999998 → 19; 60 − 19 = 41
        ("points", {"win_fee_share": 0.3333333}, [41, -60], 19),
    ],
)
def test_R9_7_table_fee_and_win_fee_go_to_the_house(
    edition: str, overrides: dict[str, object], deltas: list[int], house: int
) -> None:
    outcome = play({"config": edition, "overrides": overrides, "hands": ["3", "4 5"], "actions": [p(0, "3")]})
    assert outcome["deltas"] == deltas and outcome["house"] == house


def test_R9_7_escape_remainder_and_fees_together() -> None:
    # wealth, fee 100 each; seat 1 escapes before playing: D = 6000, seat 0 receives 4200
    outcome = play(ESCAPE_EARLY | {"config": "wealth", "overrides": {"table_fee": 100}})
    assert outcome["deltas"] == [4100, -6100] and outcome["house"] == 2000


# ---------------------------------------------------------------------------
# Timeouts, hosting, auto-pass (R11, R2.6)


def test_R11_3_timeouts_are_counted_and_the_third_switches_hosting_on() -> None:
    outcome = play({
        "hands": ["3 5 7 9 J K", "4 6 8 10 Q A 2"],
        "actions": [
            {"seat": 0, "timeout": True}, p(1, "4"),
            {"seat": 0, "timeout": True}, p(1, "6"),
            {"seat": 0, "timeout": True},  # the third: hosting switches on
            p(1, "8"),  # the referee makes seat 0's hosted move
            p(1, "10"),
            {"seat": 0, "hosting": False},  # seat 0 takes the seat back
            p(1, "Q"), p(0, "K"),
        ],
    })
    timeouts = [event for event in outcome["events"] if event["type"] == "timeout"]
    assert [(event["seat"], event["count"]) for event in timeouts] == [(0, 1), (0, 2), (0, 3)]
    assert events(outcome) == [
        ("timeout", 0, None, None), ("play", 0, "timeout", "3"),  # R11.2: lowest single on a lead
        ("play", 1, "player", "4"),
        ("timeout", 0, None, None), ("play", 0, "timeout", "5"),  # weakest that beats
        ("play", 1, "player", "6"),
        ("timeout", 0, None, None), ("play", 0, "timeout", "7"), ("hosting", 0, "timeout", None),
        ("play", 1, "player", "8"), ("play", 0, "hosting", "9"),
        ("play", 1, "player", "10"), ("play", 0, "hosting", "J"),
        ("hosting", 0, "player", None),
        ("play", 1, "player", "Q"), ("play", 0, "player", "K"),
        ("end", 0, None, None),
    ]
    hosting = [event["on"] for event in outcome["events"] if event["type"] == "hosting"]
    assert hosting == [True, False]
    assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 2] and outcome["deltas"] == [60, -60]


def test_R11_3_max_timeouts_is_read_from_the_room() -> None:
    outcome = play({
        "overrides": {"max_timeouts": 1},
        "hands": ["3 5 7", "4 6 8 10"],
        "actions": [{"seat": 0, "timeout": True}, p(1, "4")],
    })
    # hosting is on after one timeout: the referee plays seat 0 (5 on 4) and seat 1 follows
    assert ("hosting", 0, "timeout", None) in events(outcome)
    assert events(outcome)[-1] == ("play", 0, "hosting", "5")


def test_R11_3_a_timeout_that_ends_the_game_switches_nothing_on() -> None:
    # the third timeout's hosting move empties the hand: the game is over, nothing follows
    outcome = play({
        "overrides": {"auto_pass": False},
        "hands": ["3 5 7", "4 6 8 10"],
        "actions": [
            {"seat": 0, "timeout": True}, {"seat": 1, "timeout": True},
            {"seat": 0, "timeout": True}, {"seat": 1, "timeout": True},
            {"seat": 0, "timeout": True},
        ],
    })
    assert outcome["events"][-1]["type"] == "end" and outcome["winner"] == 0
    assert [event for event in outcome["events"] if event["type"] == "hosting"] == []


def test_R11_2_hosting_switched_on_and_off_by_the_player() -> None:
    outcome = play({
        "hands": ["3 3 8 K", "4 4 9 J 5"],
        "actions": [
            {"seat": 1, "hosting": True},  # may be switched on at any time
            p(0, "3 3"),  # the referee plays seat 1: 4 4, seat 0 auto-passes, seat 1 leads 5
            {"seat": 1, "hosting": False},
            p(0, "8"), p(1, "J"),  # seat 1 plays for itself (hosting would play 9)
            p(0, "K"),
        ],
    })
    assert events(outcome) == [
        ("hosting", 1, "player", None),
        ("play", 0, "player", "3 3"),
        ("play", 1, "hosting", "4 4"),
        ("pass", 0, "auto_pass", None),
        ("play", 1, "hosting", "5"),
        ("hosting", 1, "player", None),
        ("play", 0, "player", "8"),
        ("play", 1, "player", "J"),
        ("play", 0, "player", "K"),
        ("end", 0, None, None),
    ]
    assert outcome["winner"] == 0 and outcome["cards_left"] == [0, 1]


def test_R11_2_a_hosted_turn_action_is_never_needed() -> None:
    # the referee makes hosted moves itself; a hosted_turn for a seat that is not hosted fails
    error = refused({"hands": ["3", "4"], "actions": [{"seat": 0, "hosted_turn": True}]})
    assert error == {"action": 0, "code": "not_hosted", "message": "seat 0 is not hosted"}


def test_R11_2_both_seats_hosted_play_a_dealt_game_to_the_end() -> None:
    config = load_config("points")
    for seed in (1, 2, 3):
        outcome = play({
            "seed": seed,
            "actions": [{"seat": 0, "hosting": True}, {"seat": 1, "hosting": True}],
        })
        game = play_game(config, [HostingBot(), HostingBot()], seed)
        assert outcome["winner"] == game.winner
        assert outcome["cards_left"] == [len(hand) for hand in game.hands]
        assert outcome["deltas"] == list(game.settle((1000, 1000)).deltas)
        deal = outcome["events"][0]
        assert deal["type"] == "deal" and deal["seat"] == game.leader and deal["flip_card"] is not None


@pytest.mark.parametrize("auto_pass", [True, False])
def test_R2_6_auto_pass_on_and_off(auto_pass: bool) -> None:
    scenario = {"overrides": {"auto_pass": auto_pass}, "hands": ["2 3", "4 5"]}
    if auto_pass:
        outcome = play(scenario | {"actions": [p(0, "2"), p(0, "3")]})
        assert events(outcome)[1] == ("pass", 1, "auto_pass", None)
        # the pass was made for seat 1: its own pass is not its turn
        error = refused(scenario | {"actions": [p(0, "2"), {"seat": 1, "pass": True}]})
        assert error["action"] == 1 and error["code"] == "not_your_turn"
    else:
        waiting = play(scenario | {"actions": [p(0, "2")]})
        assert waiting["finished"] is False and events(waiting) == [("play", 0, "player", "2")]
        outcome = play(scenario | {"actions": [p(0, "2"), {"seat": 1, "pass": True}, p(0, "3")]})
        assert events(outcome)[1] == ("pass", 1, "player", None)
        # a timeout on a follow that cannot be beaten is a hosting pass (R11.3)
        timed = play(scenario | {"actions": [p(0, "2"), {"seat": 1, "timeout": True}, p(0, "3")]})
        assert events(timed)[1:3] == [("timeout", 1, None, None), ("pass", 1, "timeout", None)]
        assert timed["deltas"] == outcome["deltas"]
    assert outcome["winner"] == 0 and outcome["deltas"] == [60, -60]


# ---------------------------------------------------------------------------
# Named readings (R5.4)


def test_R5_4_the_named_reading_is_played() -> None:
    outcome = play({
        "hands": ["3 4 5 SJ SJ BJ 9", "4 4 5 5 6 6 K"],
        "actions": [p(0, "3 4 5 SJ SJ BJ", "pair_run"), p(1, "4 4 5 5 6 6")],
    })
    first, second = (event for event in outcome["events"] if event["type"] == "play")
    assert first["combo"]["kind"] == "pair_run" and first["combo"]["reading"] == "3 3 4 4 5 5"
    assert second["combo"]["kind"] == "pair_run" and second["combo"]["top"] == "6"


# ---------------------------------------------------------------------------
# Errors


@pytest.mark.parametrize(
    ("actions", "index", "code"),
    [
        ([p(1, "4")], 0, "not_your_turn"),
        ([p(0, "9")], 0, "cards_not_held"),
        ([p(0, "3 3 3")], 0, "cards_not_held"),
        ([p(0, "3 4")], 0, "invalid_combination"),
        ([p(0, "3 3 SJ", "straight")], 0, "invalid_combination"),
        ([p(0, "3 3"), p(1, "5 6")], 1, "invalid_combination"),
        ([p(0, "4"), p(1, "5 5")], 1, "does_not_beat"),
        ([p(0, "4"), p(1, "3")], 1, "cards_not_held"),
        ([p(0, "4"), {"seat": 1, "escape": True}, {"seat": 0, "escape": True}], 2, "game_over"),
        ([{"seat": 0, "pass": True}], 0, "pass_on_lead"),
        ([{"seat": 0, "hosted_turn": True}], 0, "not_hosted"),
        ([p(0, "")], 0, "no_cards"),
        ([p(0, "3 X")], 0, "unknown_card"),
        ([p(0, "3", "quad")], 0, "bad_action"),
        ([{"seat": 0}], 0, "bad_action"),
        ([{"seat": 0, "play": 3}], 0, "bad_action"),
        ([{"play": "3"}], 0, "bad_action"),
        ([{"seat": True, "play": "3"}], 0, "bad_action"),
        ([{"seat": 2, "play": "3"}], 0, "bad_seat"),
        ([{"seat": 0, "hosting": "on"}], 0, "bad_action"),
    ],
)
def test_illegal_actions_name_the_action(actions: list[dict[str, Any]], index: int, code: str) -> None:
    error = refused({"hands": ["3 3 4 SJ", "5 5 6 7 8 BJ"], "actions": actions})
    assert error["action"] == index and error["code"] == code
    assert isinstance(error["message"], str) and error["message"]
    assert list(error) == ["action", "code", "message"]


def test_does_not_beat_names_both_combinations() -> None:
    error = refused({"hands": ["9 3", "8 4"], "actions": [p(0, "9"), p(1, "8")]})
    # seat 1 could not beat 9 and was passed for (R2.6); with auto-pass off the play is checked
    assert error["code"] == "not_your_turn"
    error = refused({
        "overrides": {"auto_pass": False}, "hands": ["9 3", "8 4"], "actions": [p(0, "9"), p(1, "8")],
    })
    assert error == {"action": 1, "code": "does_not_beat", "message": "single 8 does not beat single 9 (R6)"}


@pytest.mark.parametrize(
    ("scenario", "code", "needle"),
    [
        ({"actions": []}, "bad_scenario", "give either 'hands'"),
        ({"hands": ["3", "4"], "seed": 1}, "bad_scenario", "not both"),
        ({"seed": 1, "leader": 1}, "bad_scenario", "'leader' goes with 'hands'"),
        ({"hands": ["3"]}, "bad_scenario", "hands"),
        ({"hands": ["3", "4"], "leader": 2}, "bad_scenario", "leader"),
        ({"hands": ["3", "4"], "balances": [1000]}, "bad_scenario", "balances"),
        ({"hands": ["3", "4"], "balances": [1.5, 1000]}, "bad_scenario", "balances.0"),
        ({"hands": ["3", "4"], "actions": ["pass"]}, "bad_scenario", "actions.0"),
        ({"hands": ["3", "4"], "player": 1}, "bad_scenario", "player"),
        ([1, 2], "bad_scenario", "scenario"),
        ({"hands": ["3", "4"], "config": "casino"}, "bad_config", "casino"),
        ({"hands": ["3", "4"], "overrides": {"jokers": "wild"}}, "bad_config", "unknown key 'jokers'"),
        ({"hands": ["3", "4"], "overrides": {"four_joker_bomb": "middle"}}, "bad_config", "four_joker_bomb"),
        ({"hands": ["SJ SJ SJ", "3"]}, "bad_hands", "one 108-card deck"),
        ({"hands": ["3 3 3 3 3", "3 3 3 3"]}, "bad_hands", "hand 1"),  # nine 3s
        ({"hands": ["", "3"]}, "bad_hands", "hand 0 is empty"),
        ({"hands": ["", ""]}, "bad_hands", "empty"),
        ({"hands": ["3 X", "4"]}, "unknown_card", "'X'"),
        ({"hands": ["3", "SJH"]}, "unknown_card", "hands"),
    ],
)
def test_invalid_scenarios_have_no_action_index(scenario: object, code: str, needle: str) -> None:
    error = refused(scenario)
    assert list(error) == ["code", "message"]
    assert error["code"] == code and needle in error["message"]
    assert "Value error" not in error["message"]


# ---------------------------------------------------------------------------
# The command line: shuangkou referee FILE | -

R10_4 = {
    "config": "wealth",
    "balances": [700000, 900000],
    "hands": ["666666 3 4", "7777777 5 8"],
    "actions": [{"seat": 0, "play": "666666"}, {"seat": 1, "play": "7777777"}, {"seat": 0, "escape": True}],
}


def shuangkou(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "shuangkou", *args], input=stdin, capture_output=True, text=True, check=False
    )


def test_cli_referee_file_and_stdin(tmp_path: Path) -> None:
    path = tmp_path / "escape.json"
    path.write_text(json.dumps(R10_4), encoding="utf-8")
    from_file = shuangkou("referee", str(path))
    from_stdin = shuangkou("referee", "-", stdin=json.dumps(R10_4))
    for run in (from_file, from_stdin):
        assert run.returncode == 0, run.stderr
        assert run.stdout.count("\n") == 1  # one JSON document on one line
        outcome = json.loads(run.stdout)
        assert outcome == json.loads(json.dumps(referee(R10_4)))
        assert outcome["deltas"] == [-20000, 14000] and outcome["house"] == 6000


@pytest.mark.parametrize(
    ("stdin", "expected"),
    [
        # an illegal action: its index, code and message
        (
            json.dumps({"hands": ["3", "4"], "actions": [{"seat": 1, "play": "4"}]}),
            {"action": 0, "code": "not_your_turn", "message": "it is seat 0's turn, not seat 1's"},
        ),
        # an invalid scenario: no action index
        (
            json.dumps({"hands": ["3", "4"], "config": "casino"}),
            {"code": "bad_config"},
        ),
        ('{"hands": ', {"code": "bad_scenario"}),
    ],
)
def test_cli_referee_errors_exit_2(stdin: str, expected: dict[str, object]) -> None:
    run = shuangkou("referee", "-", stdin=stdin)
    assert run.returncode == 2
    error = json.loads(run.stdout)["error"]
    assert error.items() >= expected.items()
    assert ("action" in error) == ("action" in expected)
    assert run.stderr.startswith("shuangkou referee: ")


def test_cli_referee_unreadable_files_exit_2(tmp_path: Path) -> None:
    missing = shuangkou("referee", str(tmp_path / "missing.json"))
    binary = tmp_path / "binary.json"
    binary.write_bytes(b"\xff\xfe{")
    undecodable = shuangkou("referee", str(binary))
    for run in (missing, undecodable):
        assert run.returncode == 2, run.stderr
        assert json.loads(run.stdout)["error"]["code"] == "bad_scenario"
    assert "not UTF-8" in json.loads(undecodable.stdout)["error"]["message"]


# ---------------------------------------------------------------------------
# docs/referee.md: every example is real


def test_referee_doc_console_examples(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    text = (DOCS / "referee.md").read_text(encoding="utf-8")
    examples = four_seat = 0
    status: int | None = None
    for block in re.findall(r"```console\n(.*?)```", text, re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, _, expected = chunk.partition("\n")
            if command == "echo $?":
                assert f"{status}\n" == expected
                continue
            match = re.fullmatch(r"echo '(.*)' \| shuangkou referee -", command)
            assert match, command
            monkeypatch.setattr(sys, "stdin", io.StringIO(match.group(1) + "\n"))
            status = main(["referee", "-"])
            out = capsys.readouterr().out
            assert json.loads(out) == json.loads(expected), command
            if expected.count("\n") == 1:
                assert out == expected  # one-line outputs are shown exactly as printed
            examples += 1
            four_seat += "finish_order" in json.loads(out)
    assert examples >= 20 and four_seat >= 1  # the four-seat game of "Four seats" is run too


def test_referee_doc_python_examples() -> None:
    failures, tried = doctest.testfile(str(DOCS / "referee.md"), module_relative=False)
    assert tried >= 28 and failures == 0  # 13 two-seat examples, 15 four-seat (C6.1, C6.2, C1.4)


def test_R5_3_R6_4_a_serial_bomb_beats_under_its_weaker_reading() -> None:
    """R2.6, R5.3, R6.4: on the irregular 4-phase 5-serial 3-7, `8888 9999 10101010 JJJJ`
    with four jokers beats as the 5-phase 4-serial 8-J (its strongest reading, a 4-phase
    5-serial, would only be equal): no auto-pass, the play is accepted, the table passes."""
    outcome = play({
        "hands": ["33334444555566667777 7 9", "8888 9999 10 10 10 10 JJJJ SJ SJ BJ BJ 3"],
        "actions": [p(0, "33334444555566667777 7"), p(1, "8888 9999 10 10 10 10 JJJJ SJ SJ BJ BJ")],
    })
    assert [event[:3] for event in events(outcome)] == [
        ("play", 0, "player"), ("play", 1, "player"), ("pass", 0, "auto_pass")]
    combo = outcome["events"][2]["combo"]
    assert (combo["kind"], combo["length"], combo["top"], combo["phase"]) == ("serial_bomb", 4, "J", 9)


# ---------------------------------------------------------------------------
# Four seats (RULES-CLASSIC): the classic room unless said otherwise, all four at 1000
# points (level 5, X = 60), seats 0 + 2 against 1 + 3 (C1.1), auto-pass on (C2.4)


def pass_turn(seat: int) -> dict[str, Any]:
    """A pass action."""
    return {"seat": seat, "pass": True}


def classic(hands: list[str], actions: list[dict[str, Any]], **keys: Any) -> dict[str, Any]:
    """A four-seat scenario in the classic room."""
    return {"config": "classic", "hands": hands, "actions": actions, **keys}


C7_ROWS = [
    pytest.param(
        # 0 goes out with Q; seat 1 (3 4) cannot beat it (auto-pass), seat 2 goes out with K
        classic(["Q", "3 4", "K", "5 6"], [p(0, "Q"), p(2, "K")]),
        [0, 2], "double", (3, 1), [180, -180, 180, -180],  # 60·3·1 each way
        id="row 1: 0, 2 double",
    ),
    pytest.param(
        # 1 goes out with 2: nobody beats it and 接风 gives seat 3 the lead (C2.3); seat 0
        # passes on 3, seat 2 goes out with K, seat 3 with A; seat 0 is fourth
        classic(["4 6 6", "2", "K", "3 A"], [p(1, "2"), p(3, "3"), pass_turn(0), p(2, "K"), p(3, "A")], leader=1),
        [1, 2, 3, 0], "single", (2, 1), [-120, 120, -120, 120],  # 60·2·1
        id="row 2: 1, 2, 3 single",
    ),
    pytest.param(
        # each beats the last card of the one before: 0 out with 3, 1 with 5, seat 2 (4 4)
        # cannot beat 5, 3 out with 6; seat 2 is fourth: team 0 + 2 first and fourth
        classic(["3", "5", "4 4", "6"], [p(0, "3"), p(1, "5"), p(3, "6")]),
        [0, 1, 3, 2], "draw", (1, 1), [60, -60, 60, -60],  # 60·1·1
        id="row 3: 0, 1, 3 draw",
    ),
    pytest.param(
        # seat 1 bombs seat 0's 3 with 777777 (nobody answers), leads 4; seat 2 passes,
        # seat 0 goes out with 2, 接风 to seat 2, who goes out with 5. Team 0 + 2: phase 0,
        # b = 1, 60·3·1 = 180; seat 1's phase 6, c = 2: 120 from each of seats 0, 2, 3.
        classic(
            ["3 2", "777777 4 8", "5", "3 3 3"],
            [p(0, "3"), p(1, "777777"), p(1, "4"), pass_turn(2), p(0, "2"), p(2, "5")],
        ),
        [0, 2], "double", (3, 1), [180 - 120, -180 + 360, 180 - 120, -180 - 120],
        id="row 4: 0, 2 double, seat 1's 777777",
    ),
    pytest.param(
        # seat 3 leads 55555 (nobody answers) and 9, out; nobody beats 9, 接风 to seat 1,
        # who goes out with 8. Team 1 + 3's phase 5: b = 2, c = 0: 60·3·2 = 360
        classic(["4 4 6", "8", "7 7", "55555 9"], [p(3, "55555"), p(3, "9"), p(1, "8")], leader=3),
        [3, 1], "double", (3, 2), [-360, 360, -360, 360],
        id="row 5: 3, 1 double, seat 3's 55555",
    ),
]


@pytest.mark.parametrize(("scenario", "order", "result", "ab", "nets"), C7_ROWS)
def test_C7_worked_examples_played_through_the_referee(
    scenario: dict[str, Any], order: list[int], result: str, ab: tuple[int, int], nets: list[int]
) -> None:
    """The five rows of RULES-CLASSIC §C7, each reached by play: the nets per seat exactly."""
    outcome = play(scenario)
    assert outcome["finished"] is True and outcome["to_act"] is None
    assert outcome["finish_order"] == order and outcome["result"] == result
    winners = sorted(seat for seat in range(4) if seat % 2 == order[0] % 2)  # C5.2: the first out's team
    assert outcome["winners"] == winners
    settlement = outcome["settlement"]
    assert settlement["match_points"] == 60 and (settlement["a"], settlement["b"]) == ab
    assert settlement["nets"] == nets and outcome["deltas"] == nets and outcome["house"] == 0
    assert outcome["balances_after"] == [1000 + net for net in nets]
    for seat in order[: 3 if len(order) == 4 else 2]:
        assert outcome["cards_left"][seat] == 0


def test_C7_row_4_contribution_and_phases() -> None:
    outcome = play(C7_ROWS[3].values[0])
    assert outcome["scoring_phase"] == [0, 6, 0, 0]
    settlement = outcome["settlement"]
    assert settlement["team_phases"] == [0, 6] and settlement["doubling_phase"] == 0
    assert settlement["contribution_multipliers"] == [0, 2, 0, 0]
    assert settlement["contributions"] == [0, 120, 0, 0]
    assert settlement["transfers"] == [180, -180, 180, -180]
    assert settlement["phases"][1]["bombs"][0]["cards"] == "7 7 7 7 7 7"


def test_C5_1_match_points_from_the_lowest_of_four_balances() -> None:
    # 4000 is level 7 (X 100), 2500 level 6 (X 80): X = 80; row 1's double win 80·3·1 = 240
    outcome = play(C7_ROWS[0].values[0] | {"balances": [4000, 4000, 2500, 4000]})
    assert outcome["settlement"]["levels"] == [7, 7, 6, 7] and outcome["settlement"]["match_points"] == 80
    assert outcome["deltas"] == [240, -240, 240, -240]
    assert outcome["balances_after"] == [4240, 3760, 2740, 3760]


def test_four_seat_outcome_has_no_winner_and_lists_per_seat() -> None:
    outcome = play(C7_ROWS[0].values[0])
    assert "winner" not in outcome
    for key in ("cards_left", "scoring_phase", "deltas", "balances_after"):
        assert len(outcome[key]) == 4, key
    assert outcome["events"][-1] == {"type": "end", "seat": 0, "cards_left": 4}  # 3 4 and 5 6 still held


def test_C2_1_a_pass_does_not_end_the_round() -> None:
    """Play goes 0, 1, 2, 3; a seat that passed plays again when its turn comes back in the
    same round, and the round ends when the three others have passed since the last play."""
    outcome = play(classic(
        ["3 9 K", "5 8 J", "4 10 Q", "6 7 A"],
        [
            p(0, "3"), pass_turn(1), p(2, "4"), pass_turn(3),
            p(0, "9"), p(1, "J"),  # seat 1 passed on 3 and plays again in the same round
            p(2, "Q"), p(3, "A"),  # nobody beats A (auto-pass): seat 3 leads
        ],
    ))
    assert [event[:3] for event in events(outcome)][-3:] == [
        ("pass", 0, "auto_pass"), ("pass", 1, "auto_pass"), ("pass", 2, "auto_pass"),
    ]
    assert outcome["finished"] is False and outcome["to_act"] == 3
    assert outcome["result"] is None and outcome["finish_order"] == [] and outcome["winners"] is None
    assert outcome["cards_left"] == [1, 2, 1, 2] and outcome["settlement"] is None


@pytest.mark.parametrize(
    ("jiefeng", "actions", "order", "result", "deltas"),
    [
        # on: seat 0 goes out with 2, nobody beats it, its partner seat 2 leads and goes out
        (True, [p(0, "2"), p(2, "5")], [0, 2], "double", [180, -180, 180, -180]),
        # off: the lead goes to the next seat holding cards, seat 1, out with 3; seat 2 beats
        # it with 5 and is third: single win, 60·2·1
        (False, [p(0, "2"), p(1, "3"), p(2, "5")], [0, 1, 2, 3], "single", [120, -120, 120, -120]),
    ],
)
def test_C2_3_jiefeng_on_and_off(
    jiefeng: bool, actions: list[dict[str, Any]], order: list[int], result: str, deltas: list[int]
) -> None:
    scenario = classic(["2", "3", "5", "6 7"], actions, overrides={"jiefeng": jiefeng})
    outcome = play(scenario)
    assert events(outcome)[:4] == [
        ("play", 0, "player", "2"), ("out", 0, None, None),
        ("pass", 1, "auto_pass", None), ("pass", 2, "auto_pass", None),
    ]
    taken_over = [event["seat"] for event in outcome["events"] if event["type"] == "jiefeng"]
    assert taken_over == ([2] if jiefeng else [])
    assert outcome["finish_order"] == order and outcome["result"] == result and outcome["deltas"] == deltas
    # the other seat leading is not its turn
    wrong = scenario | {"actions": [p(0, "2"), p(1, "3") if jiefeng else p(2, "5")]}
    assert refused(wrong) == {
        "action": 1, "code": "not_your_turn",
        "message": "it is seat 2's turn, not seat 1's" if jiefeng else "it is seat 1's turn, not seat 2's",
    }


def test_C2_3_no_jiefeng_when_the_last_card_is_beaten() -> None:
    # row 3: seat 1 beats seat 0's last card, so the round goes on without 接风
    outcome = play(C7_ROWS[2].values[0])
    assert all(event["type"] != "jiefeng" for event in outcome["events"])


def test_C3_2_a_double_win_ends_at_the_second_out() -> None:
    scenario = C7_ROWS[0].values[0]
    outcome = play(scenario)
    # seats 1 and 3 still hold cards, are not placed, and have nothing more to play
    assert outcome["finish_order"] == [0, 2] and outcome["cards_left"] == [0, 2, 0, 2]
    assert [event["type"] for event in outcome["events"]][-2:] == ["out", "end"]
    error = refused(scenario | {"actions": [*scenario["actions"], p(1, "4")]})
    assert error == {"action": 2, "code": "game_over", "message": "the game is over"}


@pytest.mark.parametrize("row", [1, 2])
def test_C3_2_C2_2_at_the_third_out_the_last_seat_is_fourth(row: int) -> None:
    scenario = C7_ROWS[row].values[0]
    outcome = play(scenario)
    *out, fourth = outcome["finish_order"]
    assert len(out) == 3 and all(outcome["cards_left"][seat] == 0 for seat in out)
    assert outcome["cards_left"][fourth] > 0
    assert [event["place"] for event in outcome["events"] if event["type"] == "out"] == [1, 2, 3]
    assert refused(scenario | {"actions": [*scenario["actions"], pass_turn(fourth)]})["code"] == "game_over"


def test_C6_1_host_mode_plays_the_escaper_and_adds_the_penalty() -> None:
    """Seat 1 leaves at once; the referee plays it (R11.2: 4 on 3, out); seats 2 and 3
    play on and seat 3 goes out second: a double win for the escaper's own team, settled
    normally (60·3·1 = 180), and the escaper pays P = 3·60·3 = 540, 270 to each opponent."""
    outcome = play(classic(
        ["3 9", "4", "5 10", "J"],
        [{"seat": 1, "escape": True}, p(0, "3"), p(2, "10"), p(3, "J")],
    ))
    assert events(outcome) == [
        ("escape", 1, "escape", None),
        ("hosting", 1, "escape", None),
        ("play", 0, "player", "3"),
        ("play", 1, "hosting", "4"),
        ("out", 1, None, None),
        ("play", 2, "player", "10"),
        ("play", 3, "player", "J"),
        ("out", 3, None, None),
        ("end", 1, None, None),
    ]
    assert outcome["result"] == "double" and outcome["finish_order"] == [1, 3] and outcome["winners"] == [1, 3]
    settlement = outcome["settlement"]
    assert settlement["escaper"] == 1 and settlement["penalty"] == 540
    assert settlement["escape_payments"] == [270, -540, 270, 0]
    assert outcome["deltas"] == [-180 + 270, 180 - 540, -180 + 270, 180]


def test_C6_2_settle_mode_ends_the_game_at_once() -> None:
    """Seat 0 plays 777777 (phase 6: b 4, c 2), then seat 1 leaves: D = 3·60·3·4 = 2160,
    1080 to each of seats 0 and 2, nothing to or from seat 3; seat 0's contribution 120
    comes from each of the other three, the escaper included."""
    outcome = play(classic(
        ["3 777777 9", "4 J K", "5 Q", "6 10"],
        [p(0, "3"), p(1, "4"), p(2, "5"), p(3, "6"), p(0, "777777"), {"seat": 1, "escape": True}],
        overrides={"escape_mode": "settle"},
    ))
    assert outcome["finished"] is True and outcome["result"] == "escape"
    assert outcome["finish_order"] == [] and outcome["winners"] == [0, 2]
    assert outcome["events"][-2:] == [
        {"type": "escape", "seat": 1, "cause": "escape"}, {"type": "end", "cause": "escape", "cards_left": 5},
    ]
    assert outcome["cards_left"] == [1, 2, 1, 1] and outcome["scoring_phase"] == [6, 0, 0, 0]
    settlement = outcome["settlement"]
    assert settlement["escaper"] == 1 and settlement["penalty"] == 2160 and settlement["b"] == 4
    assert settlement["escape_payments"] == [1080, -2160, 1080, 0]
    assert outcome["deltas"] == [1080 + 3 * 120, -2160 - 120, 1080 - 120, -120] and outcome["house"] == 0
    late = classic(["3 4", "5 6", "7 8", "9 10"], [p(0, "3"), {"seat": 1, "escape": True}, p(2, "7")],
                   overrides={"escape_mode": "settle"})
    assert refused(late) == {"action": 2, "code": "game_over", "message": "the game is over"}


def test_C6_leaving_after_going_out_is_no_escape() -> None:
    scenario = classic(["3", "4 5", "6 7", "8 9"], [p(0, "3"), {"seat": 0, "escape": True}])
    assert refused(scenario) == {
        "action": 1, "code": "escaped", "message": "seat 0 is out: leaving now is no escape (C6)",
    }


THREE_JOKERS = classic(["SJ SJ BJ 3", "5 6", "4", "7 8"], [p(0, "SJ SJ BJ"), p(0, "3"), pass_turn(1), p(2, "4")])


def test_C3_1_three_joker_bomb_only_by_override() -> None:
    error = refused(THREE_JOKERS)
    assert error["action"] == 0 and error["code"] == "invalid_combination" and "three_joker_bomb" in error["message"]
    outcome = play(THREE_JOKERS | {"overrides": {"three_joker_bomb": True}})
    combo = outcome["events"][1]["combo"]
    assert (combo["kind"], combo["phase"]) == ("joker_bomb", 6)
    # team 0 + 2 wins a double with phase 6: 60·3·b(6)=4 = 720; seat 0's c(6) = 2: 120 from each
    assert outcome["finish_order"] == [0, 2] and outcome["scoring_phase"] == [6, 0, 0, 0]
    assert outcome["deltas"] == [720 + 360, -720 - 120, 720 - 120, -720 - 120]


@pytest.mark.parametrize(
    ("wild", "joker", "wild_ok"),
    [("none", "BJ", False), ("none", "SJ", False), ("big", "BJ", True), ("big", "SJ", False),
     ("all", "BJ", True), ("all", "SJ", True)],
)
def test_C3_1_wild_jokers_by_override(wild: str, joker: str, wild_ok: bool) -> None:
    """``4 4 4`` and a joker is the bomb 4444 (R5.5) only where that joker is wild."""
    scenario = classic(
        [f"4 4 4 {joker} 3", "5 6", "4", "7 8"],
        [p(0, f"4 4 4 {joker}"), p(0, "3"), pass_turn(1), p(2, "4")],
        overrides={"wild_jokers": wild},
    )
    if not wild_ok:
        error = refused(scenario)
        assert error["action"] == 0 and error["code"] == "invalid_combination" and wild in error["message"]
        return
    outcome = play(scenario)
    combo = outcome["events"][1]["combo"]
    assert (combo["kind"], combo["reading"]) == ("bomb", "4 4 4 4")
    # phase 4: b 1, c 0; a double win 60·3·1
    assert outcome["scoring_phase"] == [4, 0, 0, 0] and outcome["deltas"] == [180, -180, 180, -180]


@pytest.mark.parametrize(
    ("scenario", "needle"),
    [
        ({"config": "classic", "hands": ["3", "4"]}, "hands: this room has 4 seats: give one per seat, not 2"),
        ({"config": "classic", "hands": ["3", "4", "5"]}, "hands: this room has 4 seats: give one per seat, not 3"),
        ({"config": "qianbian", "hands": ["3", "4", "5", "6", "7"]}, "not 5"),
        ({"hands": ["3", "4", "5", "6"]}, "hands: this room has 2 seats: give one per seat, not 4"),
        ({"config": "classic", "seed": 1, "balances": [1000, 1000]},
         "balances: this room has 4 seats: give one per seat, not 2"),
        ({"config": "classic", "hands": ["3", "4", "5", "6"], "balances": [1000] * 5}, "balances: this room"),
        ({"hands": ["3", "4"], "balances": [1000] * 4}, "balances: this room has 2 seats"),
        ({"config": "classic", "hands": ["3", "4", "5", "6"], "leader": 4}, "leader: must be a seat 0 to 3, not 4"),
        ({"config": "classic", "hands": ["3", "4", "5", "6"], "leader": -1}, "leader"),
        ({"config": "classic", "hands": ["3", "4", "5", "6"], "balances": [1000, 1000, "many", 1000]}, "balances.2"),
    ],
)
def test_four_seat_bad_scenarios_name_the_key(scenario: dict[str, Any], needle: str) -> None:
    error = refused(scenario)
    assert list(error) == ["code", "message"] and error["code"] == "bad_scenario"
    assert needle in error["message"]


def test_four_seat_bad_hands() -> None:
    error = refused({"config": "classic", "hands": ["3 3 3", "3 3 3", "3 3", "3"]})  # nine 3s
    assert error == {
        "code": "bad_hands", "message": "hand 3 cannot be drawn from one 108-card deck with the other hand",
    }
    assert refused({"config": "classic", "hands": ["3", "4", "", "6"]})["code"] == "bad_hands"


@pytest.mark.parametrize(
    ("actions", "overrides", "index", "code"),
    [
        ([p(0, "3"), p(2, "5")], {}, 1, "not_your_turn"),  # play goes 0 → 1 → 2 → 3 (C1.1)
        ([p(0, "3"), pass_turn(1), pass_turn(2), pass_turn(3), pass_turn(0)], {}, 4, "pass_on_lead"),
        ([p(0, "9"), p(1, "8")], {"auto_pass": False}, 1, "does_not_beat"),
        ([p(0, "3"), p(1, "4 5")], {}, 1, "invalid_combination"),
        ([p(0, "3"), p(1, "Q")], {}, 1, "cards_not_held"),
        ([p(0, "3"), {"seat": 4, "play": "3"}], {}, 1, "bad_seat"),
        ([{"seat": 0, "hosted_turn": True}], {}, 0, "not_hosted"),
        ([p(0, "3"), p(1, "SJ SJ BJ")], {}, 1, "invalid_combination"),  # C3.1: classic has no three-joker bomb
    ],
)
def test_four_seat_illegal_actions_name_the_action(
    actions: list[dict[str, Any]], overrides: dict[str, Any], index: int, code: str
) -> None:
    error = refused(classic(["3 9 K", "4 5 8 SJ SJ BJ", "5 6 10", "7 J Q"], actions, overrides=overrides))
    assert error["action"] == index and error["code"] == code
    assert list(error) == ["action", "code", "message"]


def hosted_to_the_end(config: str, seed: int) -> Game:
    """The dealt game of ``seed`` with hosting switched on for seats 0, 1, 2, 3 in turn,
    each hosted seat making its move as soon as it is its turn (R11.2), driven by hand."""
    game = Game.deal(load_config(config), seed)
    for seat in range(game.seats):
        game.apply(Hosting(seat, True))
        while not game.finished and game.hosting[game.to_act]:
            game.apply(HostedTurn(game.to_act))
    return game


@pytest.mark.parametrize(("config", "seed"), [("classic", 1), ("classic", 2), ("qianbian", 3), ("qianbian", 4)])
def test_C2_4_four_hosted_seats_play_a_dealt_game_to_the_end(config: str, seed: int) -> None:
    outcome = play({"config": config, "seed": seed, "actions": [{"seat": s, "hosting": True} for s in range(4)]})
    game = hosted_to_the_end(config, seed)
    assert outcome["events"] == [event.to_dict() for event in game.events]
    assert outcome["finish_order"] == game.finish_order and outcome["winners"] == list(game.winners)
    assert outcome["result"] == game.result in ("double", "single", "draw")
    assert outcome["settlement"] == game.settle_table([1000] * 4).to_dict()
    deal = outcome["events"][0]
    assert deal["type"] == "deal" and deal["seat"] == game.leader and deal["flip_card"] is not None


def test_C1_4_partner_by_flip_shows_the_swap_in_a_dealt_game() -> None:
    """Seed 1 in the qianbian room: seat 2 leads; the other copy of the flip card is in
    seat 3's hand, beside it, so seat 3 changes places with seat 0, the leader's partner."""
    scenario = {"config": "qianbian", "seed": 1, "actions": [{"seat": s, "hosting": True} for s in range(4)]}
    outcome = play(scenario)
    deal, swap = outcome["events"][:2]
    assert deal == {"type": "deal", "seat": 2, "flip_card": "10S"}
    assert swap == {"type": "swap", "seat": 3, "with": 0}
    assert Game.deal(load_config("qianbian"), 1).swap == (3, 0)
    # the same deal without partner_by_flip: no swap
    plain = play(scenario | {"overrides": {"partner_by_flip": False}})
    assert [event["type"] for event in plain["events"][:2]] == ["deal", "hosting"]
    # C1.4 in the classic room by override
    classic_swap = play({"config": "classic", "overrides": {"partner_by_flip": True}, "seed": 8})
    assert classic_swap["events"][1] == {"type": "swap", "seat": 1, "with": 2}


@settings(deadline=None)
@given(
    config=st.sampled_from(["classic", "qianbian"]),
    escape_mode=st.sampled_from(["host", "settle"]),
    seed=st.integers(0, 2**32 - 1),
    timeout_rate=st.sampled_from([0.0, 0.1, 0.3]),
    escape_rate=st.sampled_from([0.0, 0.5]),
)
def test_four_seat_bot_games_replay_through_the_referee(
    config: str, escape_mode: str, seed: int, timeout_rate: float, escape_rate: float
) -> None:
    """A dealt game played by bots (timeouts, hosting, an escape) and its actions given to
    the referee with the seed: the same events, finishing order and settlement (the
    referee makes the hosted moves itself)."""
    room = load_config(config, {"escape_mode": escape_mode})
    bots = [GreedyBot(), RandomBot(seed), HostingBot(), GreedyBot()]
    game = play_game(room, bots, seed, timeout_rate=timeout_rate, escape_rate=escape_rate)
    assume(not _escaped_on_a_hosted_turn(room, seed, game.actions))
    actions = [action_to_dict(action) for action in game.actions if not isinstance(action, HostedTurn)]
    outcome = play({"config": config, "overrides": {"escape_mode": escape_mode}, "seed": seed, "actions": actions})
    assert outcome["events"] == [event.to_dict() for event in game.events]
    assert outcome["finish_order"] == game.finish_order and outcome["result"] == game.result
    assert outcome["settlement"] == game.settle_table([1000] * 4).to_dict()


def _escaped_on_a_hosted_turn(room: RoomConfig, seed: int, actions: list[Action]) -> bool:
    """Whether a seat left on a hosted seat's turn: the referee makes that move before any
    later action, so such a game has no scenario."""
    game = Game.deal(room, seed)
    for action in actions:
        if isinstance(action, Escape) and game.hosting[game.to_act]:
            return True
        game.apply(action)
    return False


@pytest.mark.parametrize("row", [0, 1, 2], ids=["double", "single", "draw"])
def test_cli_referee_four_seats_file_and_stdin(tmp_path: Path, row: int) -> None:
    scenario = C7_ROWS[row].values[0]
    path = tmp_path / "four.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    expected = json.loads(json.dumps(referee(scenario)))
    for run in (shuangkou("referee", str(path)), shuangkou("referee", "-", stdin=json.dumps(scenario))):
        assert run.returncode == 0, run.stderr
        assert run.stdout.count("\n") == 1
        outcome = json.loads(run.stdout)
        assert outcome == expected
        assert outcome["result"] == C7_ROWS[row].values[2] and outcome["deltas"] == C7_ROWS[row].values[4]


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [
        (classic(["3", "4", "5", "6"], [p(0, "3"), p(2, "5")]),
         {"action": 1, "code": "not_your_turn", "message": "it is seat 1's turn, not seat 2's"}),
        ({"config": "classic", "hands": ["3", "4"]},
         {"code": "bad_scenario", "message": "hands: this room has 4 seats: give one per seat, not 2"}),
    ],
)
def test_cli_referee_four_seat_errors_exit_2(scenario: dict[str, Any], expected: dict[str, Any]) -> None:
    run = shuangkou("referee", "-", stdin=json.dumps(scenario))
    assert run.returncode == 2
    assert json.loads(run.stdout) == {"error": expected}
    assert run.stderr == f"shuangkou referee: {expected['message']}\n"
