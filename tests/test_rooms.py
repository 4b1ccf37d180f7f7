"""R9.4 in every game's room: one level table, checked and read the same way by Shuangkou,
Royalist (Y7.1) and Tractor (T11.4) rooms, whose money keys come from the edition's file."""

from __future__ import annotations

import pytest

from shuangkou.games import load_room
from shuangkou.roomfiles import ConfigError

ROOMS = ("points", "classic", "royalist", "tractor")
LEVELS = [
    {"level": 0, "needed": 0, "match_points": 5},
    {"level": 1, "needed": 100, "match_points": 10},
    {"level": 2, "needed": 1000, "match_points": 40},
]


@pytest.mark.parametrize("name", ROOMS)
def test_R9_4_every_game_reads_the_level_table_alike(name: str) -> None:
    """X is the match points of the lowest level among the players; a balance below the
    first threshold plays at the first level; a wealth room admits from the first one."""
    _, room = load_room(name, {"edition": "wealth", "balance.levels": LEVELS})
    assert room.match_points_for(5000, 150) == 10
    assert room.match_points_for(5000, 1000, 2000) == 40
    assert room.match_points_for(-50, 5000) == 5
    assert [room.stake_level(balance) for balance in (-50, 0, 99, 100, 999, 1000, 10**6)] == [0, 0, 0, 1, 1, 2, 2]
    assert room.stakes == (5, 40)
    assert room.entry_balance == 0 and room.can_sit(0) and not room.can_sit(-1)
    _, points = load_room(name, {"balance.levels": LEVELS})
    assert points.entry_balance is None and points.can_sit(-10**6)
    with pytest.raises(ValueError, match="at least one balance"):
        room.match_points_for()


@pytest.mark.parametrize("name", ROOMS)
@pytest.mark.parametrize(("row", "change", "message"), [
    (1, {"match_points": 4}, "balance.levels[1].match_points: expected at least 5 (match points never fall as the "
                             "level rises), found 4 (an integer)"),
    (2, {"needed": 100}, "balance.levels[2].needed: expected thresholds strictly increasing: more than 100, found 100"),
    (2, {"level": 3}, "balance.levels[2].level: expected 2 (missing level row 2), found 3 (an integer)"),
])
def test_R9_4_a_wrong_level_table_names_its_row_in_every_game(
    name: str, row: int, change: dict[str, int], message: str
) -> None:
    """R9.4: levels consecutive, thresholds strictly increasing, match points never falling;
    the error names the file, the row and the key, whichever game the room plays."""
    levels = [dict(level) for level in LEVELS]
    levels[row].update(change)
    with pytest.raises(ConfigError) as error:
        load_room(name, {"balance.levels": levels})
    assert message in str(error.value) and str(error.value).startswith("overrides (on configs/")


@pytest.mark.parametrize("name", ROOMS)
@pytest.mark.parametrize(("overrides", "message"), [
    ({"balance.levels": [{"level": 0, "needed": 0, "match_point": 5}]},
     "balance.levels[0].match_point: expected one of level, needed, match_points, found unknown key 'match_point'"),
    ({"house.win_fee_share": 1.5}, "house.win_fee_share: expected a share between 0 and 1, found 1.5"),
    ({"house.table_fee": "5"}, 'house.table_fee: expected an integer, found "5" (a string)'),
    ({"balance.starting_balance": 10**16}, "balance.starting_balance: expected a value of at most 10000000000000"),
])
def test_every_game_names_a_wrong_money_key_alike(name: str, overrides: dict[str, object], message: str) -> None:
    """R9.4, R9.7: the keys every room shares are refused in the same words in every game."""
    with pytest.raises(ConfigError) as error:
        load_room(name, overrides)
    assert message in str(error.value)
