"""Scoring phases (R8) and settlement (R7, R9, R10), with property tests for the ledger."""

from __future__ import annotations

import doctest
import json
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangkou.games.shuangkou.combos import classify
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.scoring import (
    BombPlay,
    ScoringError,
    Settlement,
    connected_pair_phase,
    scoring_phase,
    settle,
    settle_escape,
    settle_game,
)

POINTS = load_config("points")
WEALTH = load_config("wealth")
UNCONNECTED = load_config("points", {"count_unconnected": True})


def bombs(*texts: str, start: int = 1) -> list[BombPlay]:
    """Bombs played on plays start, start+2, ... (players alternate)."""
    return [BombPlay(start + 2 * i, classify(text)) for i, text in enumerate(texts)]


def phase_of(*texts: str, config: RoomConfig = POINTS) -> int:
    return scoring_phase(bombs(*texts), config).phase


def check_ledger(s: Settlement) -> None:
    assert s.deltas[0] + s.deltas[1] + s.house == 0
    assert s.balances_after == (s.balances_before[0] + s.deltas[0], s.balances_before[1] + s.deltas[1])


# ---------------------------------------------------------------------------
# R8: scoring phase


def test_r8_1_highest_bomb_or_zero() -> None:
    assert scoring_phase([], POINTS).phase == 0
    assert scoring_phase([], POINTS).source == "none"
    score = scoring_phase(bombs("4444", "777777", "55555"), POINTS)
    assert (score.phase, score.source) == (6, "bomb")
    assert [b.combo.phase for b in score.bombs] == [6]
    assert len(score.played) == 3
    assert phase_of("SJ SJ BJ BJ") == 7  # R4.3
    assert phase_of("444455556666") == 7  # R4.4
    assert phase_of("44444444 SJ SJ BJ BJ") == 12  # R4.7


def test_r8_2_connected_pair_example() -> None:
    # `4444` on the 5th play and `5555` on the 7th give phase 5
    score = scoring_phase([BombPlay(5, classify("4444")), BombPlay(7, classify("5555"))], POINTS)
    assert (score.phase, score.source) == (5, "connected")
    assert [b.play_index for b in score.bombs] == [5, 7]


@pytest.mark.parametrize(
    ("texts", "phase"),
    [
        (("444 SJ", "5555"), 5),  # jokers allowed inside
        (("5555", "4444"), 5),  # either order
        (("4444", "5555", "6666"), 5),  # longer chains count no higher than a pair
        (("4444", "6666"), 4),  # not adjacent
        (("4444", "4444"), 4),  # same rank
        (("4444", "55555"), 5),  # different phases: R8.1 only
        (("KKKK", "AAAA"), 5),  # A is inside 3..A
        (("AAAA", "2222"), 4),  # 2 is outside 3..A
        (("666666", "777777"), 7),  # X = 6
        (("SJ SJ BJ", "666666"), 6),  # joker bombs are not single-rank bombs
        (("444455556666", "777788889999"), 7),  # serial bombs are not single-rank bombs
    ],
)
def test_r8_2_connected_pairs(texts: tuple[str, ...], phase: int) -> None:
    assert phase_of(*texts) == phase


def test_r8_2_connected_pair_phase_helper() -> None:
    assert connected_pair_phase(classify("9999"), classify("10 10 10 10")) == 5
    assert connected_pair_phase(classify("9999"), classify("JJJJ")) == 0


def test_r8_3_disabled_by_default() -> None:
    assert phase_of("4444", "7777", "JJJJ") == 4


@pytest.mark.parametrize(
    ("texts", "phase"),
    [
        (("4444", "7777", "JJJJ"), 5),  # three 4-phase -> 5
        (("4444", "7777", "JJJJ", "KKKK"), 6),  # four 4-phase -> 6
        (("55555", "99999"), 6),  # two 5-phase -> 6
        (("4444", "6666", "8888", "10 10 10 10", "QQQQ"), 7),  # five 4-phase -> 7
        (("3333", "5555", "7777", "9999", "JJJJ", "KKKK"), 8),  # six 4-phase -> 8
        (("3333", "5555", "7777", "9999", "JJJJ", "KKKK", "AAAA"), 8),  # beyond the table: largest row
        (("55555", "88888", "QQQQQ"), 6),  # three 5-phase: the two-bomb row
        (("4444", "7777"), 4),  # below every row
    ],
)
def test_r8_3_unconnected_bombs(texts: tuple[str, ...], phase: int) -> None:
    score = scoring_phase(bombs(*texts), UNCONNECTED)
    assert score.phase == phase
    if phase > 5:
        assert score.source == "unconnected"


def test_r8_3_connected_bombs_count_too() -> None:
    # 4444+5555 connect (phase 5), and with 9999 and KKKK they are four 4-phase bombs -> 6
    score = scoring_phase(bombs("4444", "5555", "9999", "KKKK"), UNCONNECTED)
    assert (score.phase, score.source, len(score.bombs)) == (6, "unconnected", 4)
    # at equal phase R8.2 is named before R8.3
    assert scoring_phase(bombs("4444", "5555", "9999"), UNCONNECTED).source == "connected"


def test_bomb_play_checks() -> None:
    with pytest.raises(ValueError, match="not a bomb"):
        BombPlay(1, classify("34567"))
    with pytest.raises(ValueError, match="separate play"):
        scoring_phase([BombPlay(3, classify("4444")), BombPlay(3, classify("5555"))], POINTS)


def test_game_bomb_plays_are_accepted() -> None:
    from shuangkou.games.shuangkou.game import BombPlay as GameBombPlay

    score = scoring_phase([GameBombPlay(2, classify("4444")), GameBombPlay(4, classify("5555"))], POINTS)
    assert score.phase == 5
    assert all(isinstance(bomb, BombPlay) for bomb in score.bombs)


# ---------------------------------------------------------------------------
# R9.4: match points, sitting down


def test_r9_4_match_points_from_the_lower_level() -> None:
    assert POINTS.match_points_for(1000, 2_000_000) == 60
    assert POINTS.match_points_for(2_000_000, 999) == 40
    assert POINTS.match_points_for(-50, 5000) == 5
    assert WEALTH.match_points_for(600_000, 1_000_000) == 1000
    assert WEALTH.match_points_for(50_000_000, 50_000_000) == 4000


def test_r9_4_can_sit() -> None:
    assert WEALTH.can_sit(100) and not WEALTH.can_sit(99)
    assert POINTS.can_sit(-10)


# ---------------------------------------------------------------------------
# R7.1, R9.1, R9.2: a normal game


def test_r9_1_formula_points_edition() -> None:
    # X = 60 (level 5); loser holds 8 cards: single, a = 2; winner's 666666: c = 2, b = 4
    s = settle_game(
        POINTS, winner=0, loser_cards_left=8, bombs=(bombs("666666"), bombs("4444")), balances=(1000, 1500)
    )
    assert (s.result, s.match_points, s.a, s.b, s.doubling_phase) == ("single", 60, 2, 4, 6)
    assert s.contribution_multipliers == (2, 0)
    assert s.contributions == (120, 0)
    assert s.result_points == 480
    assert (s.payer, s.due, s.paid) == (1, 600, 600)
    assert s.deltas == (600, -600)
    assert s.house == 0
    assert s.balances_after == (1600, 900)
    assert s.levels == (5, 5)
    check_ledger(s)


@pytest.mark.parametrize(
    ("cards_left", "result", "a"),
    [
        (1, "flat", 1),
        (6, "flat", 1),
        (7, "single", 2),
        (11, "single", 2),
        (12, "double", 3),
        (27, "double", 3),
    ],
)
def test_r7_1_result_level(cards_left: int, result: str, a: int) -> None:
    s = settle_game(POINTS, winner=1, loser_cards_left=cards_left, bombs=([], []), balances=(1000, 1000))
    assert (s.result, s.a, s.b) == (result, a, 1)
    assert s.deltas == (-60 * a, 60 * a)
    assert s.loser_cards_left == cards_left


def test_r9_1_contribution_is_paid_win_or_lose() -> None:
    # loser played a 7-phase bomb (c = 4), winner nothing, flat: net(W) = 60 - 240 = -180
    s = settle_game(POINTS, winner=0, loser_cards_left=3, bombs=([], bombs("7777777")), balances=(1000, 1000))
    assert s.contributions == (0, 240)
    assert s.b == 1  # R9.2 "winner": the winner's scoring phase (0)
    assert (s.payer, s.due) == (0, 180)
    assert s.deltas == (-180, 180)
    check_ledger(s)


def test_r9_1_zero_net() -> None:
    # W: flat, a = 1, b = 1 -> 60; L's 666666 c = 2 -> 120; W's 6-phase three jokers c = 2 -> 120
    s = settle_game(
        POINTS,
        winner=0,
        loser_cards_left=2,
        bombs=(bombs("SJ SJ BJ"), bombs("666666")),
        balances=(1000, 1000),
    )
    assert s.b == 4  # W's phase 6 in the points edition
    assert s.due == 240 and s.deltas == (240, -240)
    s = settle_game(POINTS, winner=0, loser_cards_left=2, bombs=([], bombs("55555")), balances=(1000, 1000))
    assert s.due == 60


def test_r9_1_sum_variant() -> None:
    config = load_config("points", {"contribution": "sum"})
    played = (bombs("666666", "7777777"), [])
    s_max = settle_game(POINTS, winner=0, loser_cards_left=1, bombs=played, balances=(1000, 1000))
    s_sum = settle_game(config, winner=0, loser_cards_left=1, bombs=played, balances=(1000, 1000))
    assert s_max.contribution_multipliers == (4, 0)  # c(7)
    assert s_sum.contribution_multipliers == (6, 0)  # c(6) + c(7)
    assert s_sum.b == s_max.b == 8  # doubling still from the scoring phase 7
    assert s_sum.deltas[0] - s_max.deltas[0] == 2 * 60


def test_r9_2_doubling_from_winner_or_game() -> None:
    played = (bombs("55555"), bombs("SJ SJ BJ BJ"))  # W phase 5, L phase 7
    s = settle_game(POINTS, winner=0, loser_cards_left=1, bombs=played, balances=(1000, 1000))
    assert (s.doubling_phase, s.b) == (5, 2)
    game = load_config("points", {"doubling_from": "game"})
    s = settle_game(game, winner=0, loser_cards_left=1, bombs=played, balances=(1000, 1000))
    assert (s.doubling_phase, s.b) == (7, 8)
    # repeated doubling conditions count once: only the largest phase
    s = settle_game(
        POINTS,
        winner=0,
        loser_cards_left=1,
        bombs=(bombs("55555", "666666", "88888"), []),
        balances=(1000, 1000),
    )
    assert s.b == 4


def test_r9_3_wealth_doubling_at_phase_5_is_one() -> None:
    s = settle_game(
        WEALTH, winner=0, loser_cards_left=12, bombs=(bombs("55555"), []), balances=(200_000, 200_000)
    )
    assert (s.match_points, s.a, s.b) == (500, 3, 1)
    assert s.deltas == (1500, -1500)


def test_r8_2_connected_pair_sets_doubling_and_contribution() -> None:
    s = settle_game(
        POINTS, winner=0, loser_cards_left=1, bombs=(bombs("666666", "777777"), []), balances=(1000, 1000)
    )
    assert s.phases[0].phase == 7 and s.phases[0].source == "connected"
    assert (s.b, s.contribution_multipliers) == (8, (4, 0))


# ---------------------------------------------------------------------------
# R9.5: caps and negative balances


def test_r9_5_points_may_go_negative() -> None:
    s = settle_game(
        POINTS, winner=0, loser_cards_left=15, bombs=(bombs("44444444 SJ SJ BJ BJ"), []), balances=(10, 10)
    )
    # X = 5, a = 3, b = 256, c = 128: 5*3*256 + 5*128 = 4480
    assert s.due == s.paid == 4480
    assert s.balances_after == (4490, -4470)
    assert not s.capped


def test_r9_5_wealth_payer_pays_at_most_what_they_hold() -> None:
    s = settle_game(
        WEALTH,
        winner=0,
        loser_cards_left=15,
        bombs=(bombs("44444444 SJ SJ BJ BJ"), []),
        balances=(5_000_000, 150),
    )
    # X = 5 (level 1), a = 3, b = 128, c = 128: due 5*3*128 + 5*128 = 2560
    assert s.due == 2560
    assert s.paid == 150 and s.capped
    assert s.deltas == (150, -150)
    assert s.balances_after == (5_000_150, 0)
    check_ledger(s)


def test_r9_5_netting_before_the_cap() -> None:
    # L's own contribution is netted against what L owes before the cap applies
    played = (bombs("SJ SJ BJ BJ"), bombs("7777777"))  # both phase 7: c = 4 each
    s = settle_game(WEALTH, winner=0, loser_cards_left=12, bombs=played, balances=(150, 150))
    assert s.due == 5 * 3 * 4  # 60: the contributions cancel
    assert s.paid == 60 and not s.capped


# ---------------------------------------------------------------------------
# R9.7: house


def test_r9_7_table_fee_and_win_fee() -> None:
    config = load_config("points", {"table_fee": 7, "win_fee_share": 0.1})
    s = settle_game(config, winner=0, loser_cards_left=8, bombs=(bombs("666666"), []), balances=(1000, 1000))
    assert s.table_fees == (7, 7)
    assert s.paid == 600
    assert s.win_fee == 60
    assert s.house == 74
    assert s.deltas == (600 - 60 - 7, -600 - 7)
    check_ledger(s)


def test_r9_7_no_win_fee_when_the_winner_pays() -> None:
    config = load_config("points", {"win_fee_share": 0.5})
    s = settle_game(config, winner=0, loser_cards_left=3, bombs=([], bombs("7777777")), balances=(1000, 1000))
    assert s.payer == 0 and s.win_fee == 0 and s.house == 0


def test_r9_7_win_fee_rounds_down() -> None:
    config = load_config("points", {"win_fee_share": 0.15})
    s = settle_game(config, winner=0, loser_cards_left=1, bombs=([], []), balances=(0, 0))
    assert s.paid == 5 and s.win_fee == 0  # 0.75 rounds down


def test_r9_7_table_fee_capped_in_wealth() -> None:
    config = load_config("wealth", {"table_fee": 100})
    s = settle_game(config, winner=0, loser_cards_left=1, bombs=([], []), balances=(1000, 60))
    assert s.table_fees == (100, 60)
    assert s.paid == 0 and s.capped  # nothing left to pay the X·a·b = 5 with
    assert s.balances_after == (900, 0)
    check_ledger(s)


# ---------------------------------------------------------------------------
# R10: escape


def test_r10_4_worked_example() -> None:
    # X = 1000; A played a 6-phase bomb, B a 7-phase bomb; A escapes
    s = settle_escape(
        WEALTH,
        escaper=0,
        escaper_played=True,
        bombs=(bombs("666666"), bombs("7777777", start=2)),
        balances=(700_000, 900_000),
    )
    assert s.match_points == 1000
    assert s.penalty == 12_000
    assert s.result_points == 4000  # normal loss X·b, b of phase 7, a = 1
    assert s.contributions == (0, 4000)  # B's contribution; the escaper's own is 0
    assert s.due == 20_000
    assert s.deltas == (-20_000, 14_000)
    assert s.house == 6_000
    assert (s.result, s.winner, s.escaper, s.a, s.b) == ("escape", 1, 0, 1, 4)
    check_ledger(s)


def test_r10_3_escape_before_playing_a_card() -> None:
    s = settle_escape(
        WEALTH, escaper=1, escaper_played=False, bombs=(bombs("7777777"), []), balances=(700_000, 900_000)
    )
    assert (s.a, s.contribution_multipliers, s.result_points) == (0, (0, 0), 0)
    assert s.due == 12_000
    assert s.deltas == (8400, -12_000) and s.house == 3600


def test_r10_3_points_edition_share_is_whole() -> None:
    s = settle_escape(POINTS, escaper=0, escaper_played=True, bombs=([], []), balances=(1000, 1000))
    assert s.due == 60 * 12 + 60  # penalty + X·b with b = 1
    assert s.deltas == (-780, 780) and s.house == 0


def test_r10_3_escape_doubling_uses_the_opponent_as_winner() -> None:
    played = (bombs("7777777"), [])  # the escaper played the bomb
    s = settle_escape(POINTS, escaper=0, escaper_played=True, bombs=played, balances=(1000, 1000))
    assert s.b == 1 and s.due == 60 * 13
    game = load_config("points", {"doubling_from": "game"})
    s = settle_escape(game, escaper=0, escaper_played=True, bombs=played, balances=(1000, 1000))
    assert s.b == 8 and s.due == 60 * 12 + 60 * 8


def test_r10_3_escape_capped_and_share_rounded() -> None:
    s = settle_escape(WEALTH, escaper=0, escaper_played=False, bombs=([], []), balances=(101, 500))
    assert s.due == 60 and s.paid == 60
    assert s.deltas == (-60, 42) and s.house == 18
    s = settle_escape(WEALTH, escaper=0, escaper_played=False, bombs=([], []), balances=(33, 500))
    assert s.paid == 33 and s.received == 23 and s.house == 10  # 23.1 rounds down
    assert s.balances_after[0] == 0


def test_settle_dispatches() -> None:
    normal = settle(POINTS, winner=0, loser_cards_left=3, bombs=([], []), balances=(1000, 1000))
    assert normal.result == "flat"
    escape = settle(POINTS, winner=0, loser_cards_left=3, bombs=([], []), balances=(1000, 1000), escaper=1)
    assert escape.result == "escape" and escape.escaper == 1
    with pytest.raises(ValueError):
        settle(POINTS, winner=1, loser_cards_left=3, bombs=([], []), balances=(1000, 1000), escaper=1)


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        settle_game(POINTS, winner=2, loser_cards_left=3, bombs=([], []), balances=(0, 0))
    with pytest.raises(ValueError):
        settle_game(POINTS, winner=0, loser_cards_left=0, bombs=([], []), balances=(0, 0))
    with pytest.raises(ValueError):
        settle_game(POINTS, winner=0, loser_cards_left=3, bombs=([],), balances=(0, 0))


def test_bad_input_is_a_scoring_error_with_a_code() -> None:
    cases = [
        (lambda: settle_game(POINTS, winner=2, loser_cards_left=3, bombs=([], []), balances=(0, 0)), "bad_seat"),
        (lambda: settle_game(POINTS, winner=0, loser_cards_left=0, bombs=([], []), balances=(0, 0)), "bad_settlement"),
        (lambda: settle_game(POINTS, winner=0, loser_cards_left=3, bombs=([],), balances=(0, 0)), "bad_settlement"),
        (lambda: settle_game(POINTS, winner=0, loser_cards_left=3, bombs=([], []), balances=(0,)), "bad_settlement"),
        (lambda: settle(POINTS, winner=1, loser_cards_left=3, bombs=([], []), balances=(0, 0), escaper=1),
         "bad_settlement"),
        (lambda: settle_escape(POINTS, escaper=-1, escaper_played=False, bombs=([], []), balances=(0, 0)), "bad_seat"),
        (lambda: BombPlay(1, classify("34567")), "bad_settlement"),
        (lambda: scoring_phase([BombPlay(3, classify("4444")), BombPlay(3, classify("5555"))], POINTS),
         "bad_settlement"),
    ]
    for call, code in cases:
        with pytest.raises(ScoringError) as refused:
            call()
        assert refused.value.code == code and isinstance(refused.value, ValueError)


@pytest.mark.parametrize("played", [False, True])
def test_r10_3_the_escape_penalty_is_the_one_the_table_shows(played: bool) -> None:
    for config, balances in [(POINTS, (1000, 40)), (WEALTH, (600_000, 2_000_000))]:
        s = settle_escape(config, escaper=1, escaper_played=played, bombs=([], []), balances=balances)
        assert s.penalty == config.escape_penalty(*balances)
        assert s.penalty == s.match_points * config.escape_multiplier


HOUSE_RULES = """\
name = "House rules"
edition = "points"

[results]
flat = { min_cards = 1, max_cards = 3, multiplier = 2 }
single = { min_cards = 4, max_cards = 9, multiplier = 5 }
double = { min_cards = 10, multiplier = 7 }

[scoring]
phases = [
  { phase = 4, contribution = 1, doubling = 1 },
  { phase = 5, contribution = 3, doubling = 10 },
]

[balance]
levels = [
  { level = 0, needed = 0, match_points = 7 },
  { level = 1, needed = 500, match_points = 11 },
]

[house]
table_fee = 2
win_fee_share = 0.5

[escape]
escape_multiplier = 5
escape_share = 0.5
"""


def test_r9_8_every_multiplier_threshold_and_table_comes_from_the_room_file(tmp_path: Path) -> None:
    """R9.8: the same game settles by the tables of the room's file: a room file with other
    result bands, phase table, levels, fees and escape keys settles it otherwise."""
    room = tmp_path / "house.toml"
    room.write_text(HOUSE_RULES, encoding="utf-8")
    house = load_config(room)
    played = (bombs("55555"), bombs("4444", start=2))  # phases 5 and 4
    balances = (1000, 600)

    for cards_left, shipped_band, house_band in [(2, ("flat", 1), ("flat", 2)), (10, ("single", 2), ("double", 7))]:
        for config, band in [(POINTS, shipped_band), (house, house_band)]:
            s = settle_game(config, winner=0, loser_cards_left=cards_left, bombs=played, balances=balances)
            assert (s.result, s.a) == band

    shipped = settle_game(POINTS, winner=0, loser_cards_left=8, bombs=played, balances=balances)
    assert (shipped.match_points, shipped.a, shipped.b, shipped.contribution_multipliers) == (40, 2, 2, (0, 0))
    assert shipped.deltas == (160, -160) and shipped.house == 0
    s = settle_game(house, winner=0, loser_cards_left=8, bombs=played, balances=balances)
    assert (s.match_points, s.levels, s.a, s.b, s.contribution_multipliers) == (11, (1, 1), 5, 10, (3, 1))
    assert s.due == 11 * 5 * 10 + 11 * 3 - 11 * 1 == 572
    assert (s.table_fees, s.win_fee) == ((2, 2), 286)
    assert s.deltas == (572 - 2 - 286, -572 - 2) and s.house == 2 + 2 + 286
    check_ledger(s)

    shipped = settle_escape(POINTS, escaper=1, escaper_played=True, bombs=played, balances=balances)
    assert shipped.due == 40 * 12 + 40 * 2 and shipped.deltas == (560, -560)
    s = settle_escape(house, escaper=1, escaper_played=True, bombs=played, balances=balances)
    assert s.penalty == 11 * 5 and s.due == 55 + 11 * 10 + 11 * 3 == 198  # P, X·b, X·c of the opponent
    assert s.received == 99 and s.deltas == (99 - 2, -198 - 2) and s.house == 2 + 2 + 99
    check_ledger(s)


# ---------------------------------------------------------------------------
# R9.6: breakdown


def test_r9_6_breakdown_to_dict() -> None:
    s = settle_escape(
        WEALTH,
        escaper=0,
        escaper_played=True,
        bombs=(bombs("666666"), bombs("7777777")),
        balances=(700_000, 900_000),
    )
    data = json.loads(json.dumps(s.to_dict()))
    assert data["match_points"] == 1000 and data["a"] == 1 and data["b"] == 4
    assert data["phases"][1]["phase"] == 7
    assert data["phases"][1]["bombs"][0]["reading"] == "7 7 7 7 7 7 7"
    assert data["phases"][0]["bombs"][0]["play_index"] == 1
    assert data["penalty"] == 12_000
    assert data["contributions"] == [0, 4000]
    assert data["balances_before"] == [700_000, 900_000]
    assert data["balances_after"] == [680_000, 914_000]
    assert data["house"] == 6000


# ---------------------------------------------------------------------------
# Properties: zero-sum (R9.1, R9.7) and caps (R9.5)

BOMB_TEXTS = [
    "4444",
    "5555",
    "444 SJ",
    "99999",
    "TTTTT",
    "666666",
    "777777",
    "SJ SJ BJ",
    "SJ SJ BJ BJ",
    "7777777",
    "88888888",
    "444455556666",
    "QQQQ KKKK AAAA",
    "33333333 SJ",
    "55555555 SJ SJ BJ BJ",
]
COMBOS = {text: classify(text) for text in BOMB_TEXTS}
CONFIGS = [
    load_config(
        edition,
        {
            "contribution": contribution,
            "doubling_from": doubling,
            "count_unconnected": unconnected,
            "table_fee": fee,
            "win_fee_share": share,
        },
    )
    for edition in ("points", "wealth")
    for contribution, doubling, unconnected, fee, share in [
        ("max", "winner", False, 0, 0.0),
        ("sum", "game", True, 10, 0.05),
        ("max", "game", True, 3, 0.5),
        ("sum", "winner", False, 1000, 1.0),
    ]
]

bomb_lists = st.lists(st.sampled_from(BOMB_TEXTS), max_size=6)
balances_st = st.integers(min_value=-10_000, max_value=60_000_000)


def to_plays(texts: Sequence[str], start: int) -> list[BombPlay]:
    return [BombPlay(start + 2 * i, COMBOS[text]) for i, text in enumerate(texts)]


@given(
    config=st.sampled_from(CONFIGS),
    winner=st.sampled_from([0, 1]),
    cards_left=st.integers(min_value=1, max_value=27),
    played=st.tuples(bomb_lists, bomb_lists),
    balances=st.tuples(balances_st, balances_st),
    escape=st.sampled_from([None, (False,), (True,)]),
)
def test_property_zero_sum_and_caps(
    config: RoomConfig,
    winner: int,
    cards_left: int,
    played: tuple[list[str], list[str]],
    balances: tuple[int, int],
    escape: tuple[bool] | None,
) -> None:
    if not config.allow_negative:
        balances = (max(0, balances[0]), max(0, balances[1]))
    plays = (to_plays(played[0], 1), to_plays(played[1], 2))
    if escape is None:
        s = settle_game(config, winner=winner, loser_cards_left=cards_left, bombs=plays, balances=balances)
    else:
        s = settle_escape(
            config, escaper=1 - winner, escaper_played=escape[0], bombs=plays, balances=balances
        )
    check_ledger(s)
    assert s.house >= 0
    assert 0 <= s.paid <= s.due
    assert 0 <= s.received <= s.paid
    assert s.win_fee <= s.received
    if config.allow_negative:
        assert s.paid == s.due
        assert s.table_fees == (config.table_fee, config.table_fee)
    else:
        assert min(s.balances_after) >= 0  # R9.5: coins never go negative
    if escape is not None:
        escaper = 1 - winner
        assert s.deltas[escaper] == -s.table_fees[escaper] - s.paid
        assert s.deltas[winner] == s.received - s.table_fees[winner]


@given(played=st.tuples(bomb_lists, bomb_lists), cards_left=st.integers(min_value=1, max_value=27))
def test_property_uncapped_game_is_zero_sum_between_players(
    played: tuple[list[str], list[str]], cards_left: int
) -> None:
    plays = (to_plays(played[0], 1), to_plays(played[1], 2))
    s = settle_game(POINTS, winner=0, loser_cards_left=cards_left, bombs=plays, balances=(1000, 1000))
    x, a, b = s.match_points, s.a, s.b
    c = s.contribution_multipliers
    assert s.deltas[0] == x * a * b + x * c[0] - x * c[1] == -s.deltas[1]  # R9.1
    assert s.house == 0


def test_docs_scoring_examples() -> None:
    docs = Path(__file__).resolve().parent.parent / "docs" / "scoring.md"
    failures, tried = doctest.testfile(str(docs), module_relative=False)
    assert tried >= 10
    assert failures == 0
