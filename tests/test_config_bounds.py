"""Operator configuration within what the ledger can hold: every amount and multiplier of a
room file is bounded, and so is the most one game can move (R9.8, R9.5, C5.7): a room whose
worst game would not fit is refused with the file and key named, and the bound
``most_at_stake`` holds for every settlement the rules can compute."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest
from hypothesis import assume, given, settings, target
from hypothesis import strategies as st

from shuangkou.cards import HAND_SIZE
from shuangkou.games.shuangkou.combos import classify
from shuangkou.games.shuangkou.config import MAX_AMOUNT, MAX_MULTIPLIER, ConfigError, RoomConfig, load_config
from shuangkou.games.shuangkou.scoring import (
    BombPlay,
    ScoringError,
    decided_result,
    settle_classic,
    settle_escape,
    settle_game,
)

BOMBS = [classify(text) for text in (
    "4444", "44444", "444444", "4444444", "44444444", "SJ SJ BJ", "SJ SJ BJ BJ",
    "444455556666", "444445555566666", "444444445555555566666666",
)]  # phases 4 to 11: a connected pair of the last two reaches beyond the tables' last row


def _refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "room.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as error:
        load_config(path)
    return str(error.value)


def test_r9_8_an_amount_beyond_the_ledger_is_refused_naming_file_and_key(tmp_path: Path) -> None:
    """The room of the attack (match points 5·10^18: the state could not be encoded and the
    settlements failed) and every other amount or multiplier out of range are refused."""
    message = _refused(
        tmp_path,
        'edition = "points"\n[balance]\nlevels = [{level = 0, needed = 0, match_points = 5000000000000000000}]\n',
    )
    assert message == (
        f"{tmp_path / 'room.toml'}: balance.levels[0].match_points: expected a value of at most {MAX_AMOUNT}, "
        "found 5000000000000000000 (an integer)"
    )
    for key, value, where in (
        ("[balance]\nstarting_balance", MAX_AMOUNT + 1, "balance.starting_balance"),
        ("[balance]\nstarting_balance", -MAX_AMOUNT - 1, "balance.starting_balance"),
        ("[house]\ntable_fee", MAX_AMOUNT + 1, "house.table_fee"),
        ("[escape]\nescape_multiplier", MAX_MULTIPLIER + 1, "escape.escape_multiplier"),
        ("[results]\nflat", f"{{ min_cards = 1, max_cards = 6, multiplier = {MAX_MULTIPLIER + 1} }}",
         "results.flat.multiplier"),
    ):
        message = _refused(tmp_path, f'edition = "points"\n{key} = {value}\n')
        assert f"room.toml: {where}: expected a value of " in message, message


def test_r9_8_a_room_whose_largest_game_would_not_fit_is_refused(tmp_path: Path) -> None:
    """Each value in range, their product out of it: the top level's match points are named,
    with the most they may be under the room's multipliers."""
    message = _refused(
        tmp_path,
        'edition = "points"\n[balance]\nlevels = [{level = 0, needed = 0, match_points = 10000000000000}]\n',
    )
    per_point = load_config("points")._stake_per_match_point
    assert message == (
        f"{tmp_path / 'room.toml'}: balance.levels[0].match_points: expected match points of at most "
        f"{MAX_AMOUNT // per_point}: with this room's multipliers one game could move up to {per_point} × the "
        f"match points (+ the table fee) for one seat, and no game may move more than {MAX_AMOUNT}, "
        "found 10000000000000 (an integer)"
    )
    fitting = load_config("points", {"levels": [{"level": 0, "needed": 0, "match_points": MAX_AMOUNT // per_point}]})
    assert fitting.most_at_stake <= MAX_AMOUNT


_TOP = classify("444444445555555566666666")  # phase 11: the last row of the tables below
_TOPPED = {  # every multiplier at its largest from phase 11, no fee, no cap
    "phases": [{"phase": p, "contribution": 2 * (p - 4), "doubling": 2 ** (p - 4)} for p in range(4, 12)],
    "allow_negative": True, "table_fee": 0, "win_fee_share": 0.0,
    "levels": [{"level": 0, "needed": 0, "match_points": 60}], "starting_balance": 0,
}


def test_most_at_stake_is_reached_by_the_worst_games() -> None:
    """The bound is exact where RULES and RULES-CLASSIC reach it: a double win with the
    top phase (R9.1: X·(a·b + c)); an escape after playing, against the top phase with a
    large escape multiplier (R10.3: X·(m + b + c)); a four-seat escape settled at once
    with every other seat at the top phase (C6.2 and C5.5: X·(e·a·b + 3c))."""
    room = load_config("points", _TOPPED)
    won = settle_game(room, winner=0, loser_cards_left=27, bombs=[[BombPlay(1, _TOP)], []], balances=[0, 0])
    assert max(won.deltas) == room.most_at_stake == 60 * (3 * 128 + 14)
    room = load_config("points", {**_TOPPED, "escape_multiplier": 1000})
    escaped = settle_escape(room, escaper=0, escaper_played=True, bombs=[[], [BombPlay(1, _TOP)]], balances=[0, 0])
    assert -escaped.deltas[0] == room.most_at_stake == 60 * (1000 + 128 + 14)
    room = load_config("classic", {**_TOPPED, "escape_mode": "settle"})
    bombs = [[]] + [[BombPlay(seat, _TOP)] for seat in (1, 2, 3)]
    table = settle_classic(room, (), bombs, [0] * 4, escaper=0)
    assert -table.deltas[0] == room.most_at_stake == 60 * (3 * 3 * 128 + 3 * 14)


def test_the_shipped_rooms_are_far_within_the_bound() -> None:
    for name in ("points", "wealth", "classic", "qianbian"):
        assert load_config(name).most_at_stake < MAX_AMOUNT // 10**6


_MULTIPLIER = st.integers(0, 50)


@st.composite
def _rooms(draw: st.DrawFn) -> RoomConfig:
    """A room of either size with random multipliers, modes and fees."""
    base = draw(st.sampled_from(["points", "wealth", "classic"]))
    contributions = sorted(draw(st.lists(_MULTIPLIER, min_size=9, max_size=9)))
    doublings = sorted(draw(st.lists(_MULTIPLIER, min_size=9, max_size=9)))
    overrides: dict[str, object] = {
        "phases": [
            {"phase": phase, "contribution": c, "doubling": b}
            for phase, c, b in zip(range(4, 13), contributions, doublings, strict=True)
        ],
        "contribution": draw(st.sampled_from(["max", "sum"])),
        "doubling_from": draw(st.sampled_from(["winner", "game"])),
        "escape_mode": draw(st.sampled_from(["host", "settle"])),
        "table_fee": draw(st.integers(0, 100)),
        "win_fee_share": draw(st.sampled_from([0.0, 0.1, 0.5])),
        "levels": [{"level": 0, "needed": 0, "match_points": draw(st.integers(1, 1000))}],
        "allow_negative": draw(st.booleans()),
        "starting_balance": 0,
    }
    if base == "classic":
        for key in ("double_win", "single_win", "draw", "escape_double_wins"):
            overrides[key] = draw(_MULTIPLIER)
    else:
        overrides["escape_multiplier"] = draw(_MULTIPLIER)
        for key, low, high in (("flat", 1, 6), ("single", 7, 11)):
            overrides[key] = {"min_cards": low, "max_cards": high, "multiplier": draw(_MULTIPLIER)}
        overrides["double"] = {"min_cards": 12, "multiplier": draw(_MULTIPLIER)}
    return load_config(base, overrides)


_HANDS_OF_BOMBS = st.lists(
    st.lists(st.sampled_from(BOMBS), max_size=HAND_SIZE // 4 + 1), min_size=4, max_size=4
)
def _decided(order: tuple[int, ...]) -> tuple[int, ...]:
    """The shortest start of a finishing order that decides the four-seat game (C3.2)."""
    return next(order[:end] for end in range(2, 5) if decided_result(order[:end]) is not None)


_ORDERS = sorted({_decided(order) for order in itertools.permutations(range(4))})


@settings(max_examples=300, deadline=None)
@given(
    config=_rooms(),
    hands=_HANDS_OF_BOMBS,
    balances=st.lists(st.integers(0, 10**7), min_size=4, max_size=4),
    seat=st.integers(0, 3),
    cards_left=st.integers(1, HAND_SIZE),
    order=st.sampled_from(_ORDERS),
    escape=st.booleans(),
    played=st.booleans(),
)
def test_no_settlement_moves_more_than_most_at_stake(
    config: RoomConfig,
    hands: list[list[object]],
    balances: list[int],
    seat: int,
    cards_left: int,
    order: tuple[int, ...],
    escape: bool,
    played: bool,
) -> None:
    """R9.1–R9.7, R10.3, C5–C6: whatever the result, the bombs, the escape and the caps,
    no seat pays or receives more than the room's ``most_at_stake``."""
    bombs = [[BombPlay(100 * owner + i, combo) for i, combo in enumerate(hand)] for owner, hand in enumerate(hands)]  # type: ignore[arg-type]
    if config.seats == 2:
        two = bombs[:2]
        if escape:
            settlement = settle_escape(
                config, escaper=seat % 2, escaper_played=played, bombs=two, balances=balances[:2]
            )
        else:
            settlement = settle_game(config, winner=seat % 2, loser_cards_left=cards_left, bombs=two,
                                     balances=balances[:2])
        deltas = list(settlement.deltas)
    else:
        escaper = seat if escape else None
        try:
            settled_at_once = escaper is not None and config.escape_mode == "settle"
            settlement4 = settle_classic(config, () if settled_at_once else order, bombs, balances, escaper)
        except ScoringError:
            assume(False)  # an escaper the order cannot have (out before leaving, C6)
            raise
        deltas = list(settlement4.deltas)
    largest = max(abs(delta) for delta in deltas)
    target(largest / max(config.most_at_stake, 1))  # toward the worst games
    assert largest <= config.most_at_stake
