"""Room configuration (R9.8): shipped files, overrides, and every ConfigError case."""

from __future__ import annotations

import json
from pathlib import Path
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from shuangkou.cards import HAND_SIZE
from shuangkou.games import check_config_main
from shuangkou.games.shuangkou.config import (
    EDITIONS,
    FIELD_TABLE,
    MAX_CARDS_LEFT,
    SHIPPED,
    TABLES,
    ConfigError,
    Edition,
    RoomConfig,
    config_from_dict,
    load_config,
)
from shuangkou.games.shuangkou.rules import Rules
from shuangkou.roomfiles import parse_override

POINTS_LEVELS = [
    (0, 0, 5), (1, 50, 5), (2, 100, 10), (3, 200, 20), (4, 500, 40), (5, 1000, 60),
    (6, 2000, 80), (7, 4000, 100), (8, 8000, 150), (9, 16000, 200), (10, 32000, 260),
    (11, 64000, 300), (12, 128000, 400), (13, 262000, 500), (14, 500000, 600),
    (15, 1000000, 700), (16, 2000000, 800),
]  # fmt: skip
WEALTH_LEVELS = [
    (1, 100, 5), (2, 1000, 10), (3, 10000, 100), (4, 100000, 500), (5, 500000, 1000),
    (6, 1000000, 1500), (7, 2500000, 2000), (8, 5000000, 2500), (9, 10000000, 3000),
    (10, 25000000, 3500), (11, 50000000, 4000),
]  # fmt: skip
CONTRIBUTION = [0, 0, 2, 4, 8, 16, 32, 64, 128]  # R9.3, phases <=4..12, both editions
POINTS_DOUBLING = [1, 2, 4, 8, 16, 32, 64, 128, 256]
WEALTH_DOUBLING = [1, 1, 2, 4, 8, 16, 32, 64, 128]


@pytest.fixture(scope="module")
def points() -> RoomConfig:
    return load_config("points")


@pytest.fixture(scope="module")
def wealth() -> RoomConfig:
    return load_config("wealth")


def write(tmp_path: Path, text: str, name: str = "room.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def error_of(target: str, overrides: dict[str, object] | None = None) -> ConfigError:
    with pytest.raises(ConfigError) as caught:
        load_config(target, overrides)
    return caught.value


# ---------------------------------------------------------------------------
# The shipped files reproduce RULES.md


@pytest.mark.parametrize("name", ["points", "wealth"])
def test_shipped_defaults_of_every_config_item(name: str) -> None:
    config = load_config(name)
    assert config.edition == name
    assert config.first_player == "flip"  # R2.1
    assert config.auto_pass is True  # R2.6
    assert config.rules == Rules()  # R4.6 serial_bomb_two false, R6.3 smallest, R11.2 true
    assert config.count_unconnected is False  # R8.3
    assert config.contribution == "max"  # R9.1
    assert config.doubling_from == "winner"  # R9.2
    assert (config.table_fee, config.win_fee_share) == (0, 0)  # R9.7
    assert config.escape_mode == "settle"  # R10.2
    assert config.escape_multiplier == 12  # R10.3
    assert (config.turn_seconds, config.max_timeouts, config.ready_seconds) == (20, 3, 30)  # R11.3, R11.4
    assert (config.bot_level, config.expert_rollouts) == ("normal", 60)  # the greedy planner, as before the key


def test_r7_1_result_thresholds_and_multipliers(points: RoomConfig, wealth: RoomConfig) -> None:
    for config in (points, wealth):
        assert [config.result_for(n) for n in (1, 6, 7, 11, 12, 27)] == [
            ("flat", 1),
            ("flat", 1),
            ("single", 2),
            ("single", 2),
            ("double", 3),
            ("double", 3),
        ]
        assert config.result_level(9) == "single"
        with pytest.raises(ValueError):
            config.result_for(0)


def test_r9_3_tables_per_edition(points: RoomConfig, wealth: RoomConfig) -> None:
    phases = range(4, 13)
    assert [points.contribution_for(p) for p in phases] == CONTRIBUTION
    assert [wealth.contribution_for(p) for p in phases] == CONTRIBUTION
    assert [points.doubling_for(p) for p in phases] == POINTS_DOUBLING
    assert [wealth.doubling_for(p) for p in phases] == WEALTH_DOUBLING
    # phase 0 (no bomb) uses the "<=4" column; above the last column uses the last
    assert (points.contribution_for(0), points.doubling_for(0)) == (0, 1)
    assert (points.contribution_for(15), points.doubling_for(15)) == (128, 256)
    assert (wealth.contribution_for(13), wealth.doubling_for(13)) == (128, 128)


@given(room=st.sampled_from(["points", "wealth", "classic", "qianbian"]), balance=st.integers(-(2**63), 2**63 - 1),
       near=st.integers(-2, 2), row=st.integers(0, 16))
def test_r9_4_a_balance_is_the_level_of_the_highest_threshold_it_reaches(
    room: str, balance: int, near: int, row: int
) -> None:
    """R9.4: the level of a balance is the highest row whose ``needed`` it reaches, the first
    row below them all; read as the table words it, at random balances and next to every
    threshold."""
    config = load_config(room)
    for each in (balance, config.levels[row % len(config.levels)].needed + near):
        reached = [level for level in config.levels if each >= level.needed]
        assert config.level_for(each) == (reached[-1] if reached else config.levels[0])


def test_r9_4_level_tables(points: RoomConfig, wealth: RoomConfig) -> None:
    assert [(r.level, r.needed, r.match_points) for r in points.levels] == POINTS_LEVELS
    assert [(r.level, r.needed, r.match_points) for r in wealth.levels] == WEALTH_LEVELS
    assert points.level_for(999).level == 4
    assert points.level_for(1000).level == 5
    assert points.level_for(-300).level == 0  # below the first row: the first level
    assert points.level_for(10**9).level == 16
    assert wealth.level_for(100).level == 1
    assert wealth.match_points_for(600_000, 50_000_000) == 1000  # the lower level decides
    assert points.match_points_for(5_000_000, 1000) == 60


def test_r8_3_unconnected_table(points: RoomConfig) -> None:
    rows = {(r.phase, r.count): r.counts_as for r in points.unconnected}
    assert rows == {(4, 3): 5, (4, 4): 6, (5, 2): 6, (4, 5): 7, (4, 6): 8}


def test_r9_5_and_r10_3_edition_differences(points: RoomConfig, wealth: RoomConfig) -> None:
    assert points.allow_negative is True and wealth.allow_negative is False
    assert points.escape_share == 1.0 and wealth.escape_share == 0.7
    assert points.starting_balance == 1000 and wealth.starting_balance == 100_000


def test_r9_4_can_sit(points: RoomConfig, wealth: RoomConfig) -> None:
    assert not wealth.can_sit(99)
    assert wealth.can_sit(100)
    assert points.can_sit(-500)


def test_r9_4_entry_balance_is_the_first_wealth_level(points: RoomConfig, wealth: RoomConfig) -> None:
    assert wealth.entry_balance == 100 and points.entry_balance is None
    one_level = [{"level": 1, "needed": 500, "match_points": 5}]
    raised = load_config("wealth", {"levels": one_level, "starting_balance": 500})
    assert raised.entry_balance == 500 and raised.can_sit(500) and not raised.can_sit(499)


def test_r9_4_a_wealth_room_starts_players_at_its_entry_balance_or_above() -> None:
    with pytest.raises(ConfigError, match="starting_balance: expected at least 100 "):
        load_config("wealth", {"starting_balance": 99})


def test_r10_3_escape_penalty_is_match_points_times_the_multiplier(
    points: RoomConfig, wealth: RoomConfig
) -> None:
    assert points.escape_penalty(1000, 1000) == 60 * 12  # both at level 5 (R9.4)
    assert points.escape_penalty(1000, 0) == 5 * 12  # the lower level counts
    assert wealth.escape_penalty(600_000, 600_000) == 1000 * 12  # the worked example of R10.4
    assert load_config("wealth", {"escape_multiplier": 3}).escape_penalty(600_000, 600_000) == 3000


def test_editions_and_the_hand_size_have_one_source() -> None:
    assert EDITIONS == get_args(Edition) == ("points", "wealth") == SHIPPED
    assert MAX_CARDS_LEFT == HAND_SIZE == 27  # R1.3


def test_layout_names_every_field_once() -> None:
    keys = [key for keys in TABLES.values() for key in keys]
    assert sorted(keys) == sorted(RoomConfig.model_fields)
    assert len(FIELD_TABLE) == len(keys)


def test_config_is_frozen_and_hashable(points: RoomConfig) -> None:
    with pytest.raises(ValueError):
        points.table_fee = 5  # type: ignore[misc]
    assert hash(points) == hash(load_config("points"))


def test_round_trip_through_the_file_layout(wealth: RoomConfig) -> None:
    assert config_from_dict(wealth.to_toml_dict()) == wealth
    assert json.loads(wealth.to_json())["escape"]["escape_share"] == 0.7
    assert json.loads(wealth.to_json())["timers"]["turn_seconds"] == 20


# ---------------------------------------------------------------------------
# Partial files, overrides


def test_partial_file_takes_the_rest_from_its_edition(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "wealth"\nname = "High rollers"\n[escape]\nescape_mode = "host"\n')
    config = load_config(path)
    assert config.name == "High rollers"
    assert config.escape_mode == "host"  # R10.1
    assert config.escape_share == 0.7
    assert config.levels == load_config("wealth").levels


def test_table_rows_merge_key_by_key(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[results]\nsingle = { multiplier = 4 }\n')
    config = load_config(path)
    assert config.result_for(8) == ("single", 4)
    assert config.single.min_cards == 7


def test_overrides_by_plain_name_and_dotted_path() -> None:
    config = load_config(
        "points",
        {
            "four_joker_bomb": "largest",  # R6.3
            "rules.serial_bomb_two": True,  # R4.6
            "count_unconnected": True,  # R8.3
            "results.double.multiplier": 4,  # R7.1
            "single.multiplier": 3,
            "turn_seconds": 0.5,
            "escape": {"escape_mode": "host"},
        },
    )
    assert config.rules == Rules(four_joker_bomb="largest", serial_bomb_two=True)
    assert config.count_unconnected
    assert config.result_for(20) == ("double", 4)
    assert config.result_for(8) == ("single", 3)
    assert config.turn_seconds == 0.5
    assert config.escape_mode == "host"


def test_table_override_merges_into_the_files_table(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "wealth"\n[escape]\nescape_share = 0.5\n')
    config = load_config(path, {"escape": {"escape_mode": "host"}})
    assert (config.escape_mode, config.escape_share) == ("host", 0.5)


def test_override_of_a_whole_table() -> None:
    rows = [{"phase": 4, "contribution": 1, "doubling": 1}, {"phase": 5, "contribution": 2, "doubling": 3}]
    config = load_config("points", {"phases": rows})
    assert [config.contribution_for(p) for p in (0, 4, 5, 12)] == [1, 1, 2, 2]


def test_override_of_edition_acts_like_editing_the_file(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[house]\ntable_fee = 5\n')
    config = load_config(path, {"edition": "wealth"})
    assert config.edition == "wealth"
    assert config.escape_share == 0.7  # keys the file leaves out come from wealth.toml
    assert config.levels[0].needed == 100
    assert config.table_fee == 5


def test_with_overrides(points: RoomConfig) -> None:
    changed = points.with_overrides({"table_fee": 10})
    assert changed.table_fee == 10 and points.table_fee == 0
    with pytest.raises(ConfigError) as caught:
        points.with_overrides({"table_fee": -1})
    assert "house.table_fee" in str(caught.value)


def test_parse_override() -> None:
    assert parse_override("auto_pass=false") == ("auto_pass", False)
    assert parse_override("escape_share = 0.5") == ("escape_share", 0.5)
    assert parse_override("name=My room") == ("name", "My room")
    with pytest.raises(ConfigError):
        parse_override("auto_pass")


# ---------------------------------------------------------------------------
# ConfigError: file, key, expected, found


def assert_problem(error: ConfigError, file: str, key: str, *fragments: str) -> None:
    message = str(error)
    line = next((line for line in message.splitlines() if f": {key}: " in line), None)
    assert line is not None, f"no problem for {key!r} in:\n{message}"
    assert line.startswith(f"{file}: {key}: expected "), line
    assert ", found " in line
    for fragment in fragments:
        assert fragment in line, (fragment, line)


def test_unknown_key_in_a_table(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[rules]\nfour_jokers_bomb = "largest"\n')
    assert_problem(error_of(path), path, "rules.four_jokers_bomb", "unknown key", "four_joker_bomb")


def test_unknown_top_level_key_and_table(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\ncolour = "red"\n[timer]\nturn_seconds = 5\n')
    error = error_of(path)
    assert_problem(error, path, "colour", "unknown key 'colour'")
    assert_problem(error, path, "timer", "did you mean 'timers'")
    assert len(error.problems) == 2


def test_key_in_the_wrong_table(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\nturn_seconds = 5\n[rules]\nauto_pass = false\n')
    error = error_of(path)
    assert_problem(error, path, "turn_seconds", "[timers]")
    assert_problem(error, path, "rules.auto_pass", "[play]")


def test_unknown_key_in_a_row(tmp_path: Path) -> None:
    path = write(
        tmp_path, 'edition = "points"\n[scoring]\nphases = [{ phase = 4, contribution = 0, double = 1 }]\n'
    )
    error = error_of(path)
    assert_problem(error, path, "scoring.phases[0].double", "unknown key", "doubling")


@pytest.mark.parametrize(
    ("text", "key", "expected", "found"),
    [
        ("[rules]\nserial_bomb_two = 1\n", "rules.serial_bomb_two", "true or false", "1 (an integer)"),
        ('[rules]\nfour_joker_bomb = "huge"\n', "rules.four_joker_bomb", "'smallest' or 'largest'", '"huge"'),
        ('[timers]\nturn_seconds = "20"\n', "timers.turn_seconds", "a number", '"20" (a string)'),
        ("[timers]\nmax_timeouts = 2.5\n", "timers.max_timeouts", "an integer", "2.5"),
        ("[timers]\nready_seconds = 0\n", "timers.ready_seconds", "above 0", "0"),
        ("[balance]\nstarting_balance = true\n", "balance.starting_balance", "an integer", "true"),
        ('[play]\nfirst_player = "loser"\n', "play.first_player", "'flip' or 'winner'", '"loser"'),
        ('[play]\nbot_level = "hard"\n', "play.bot_level", "'easy', 'normal' or 'expert'", '"hard" (a string)'),
        ("[play]\nexpert_rollouts = 0\n", "play.expert_rollouts", "a value of at least 1", "0 (an integer)"),
        ("[play]\nexpert_rollouts = 5000\n", "play.expert_rollouts", "a value of at most 1000", "5000"),
        ("[play]\nexpert_rollouts = 80.5\n", "play.expert_rollouts", "an integer", "80.5"),
        ('[scoring]\ncontribution = "all"\n', "scoring.contribution", "'max' or 'sum'", '"all"'),
        ('[scoring]\ndoubling_from = "x"\n', "scoring.doubling_from", "'winner' or 'game'", '"x"'),
        ('[escape]\nescape_mode = "run"\n', "escape.escape_mode", "'host' or 'settle'", '"run"'),
        ("[scoring]\nphases = 3\n", "scoring.phases", "an array", "3 (an integer)"),
        ("[results]\nflat = 1\n", "results.flat", "a table", "1 (an integer)"),
        ("rules = 5\n", "rules", "a table [rules]", "5 (an integer)"),
    ],
)
def test_wrong_type(tmp_path: Path, text: str, key: str, expected: str, found: str) -> None:
    path = write(tmp_path, 'edition = "points"\n' + text)
    assert_problem(error_of(path), path, key, expected, found)


def test_wrong_edition_and_missing_edition(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "gold"\n')
    assert_problem(error_of(path), path, "edition", "'points' or 'wealth'", '"gold"')
    path = write(tmp_path, 'name = "no edition"\n', "none.toml")
    assert_problem(error_of(path), path, "edition", "required")


def test_toml_syntax_error_names_the_line(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[rules\nfour_joker_bomb = "largest"\n')
    error = error_of(path)
    assert str(error).startswith(f"{path}: line 2, column ")
    assert "expected valid TOML, found a syntax error" in str(error)
    assert error.problems[0].line == 2


def test_unreadable_file(tmp_path: Path) -> None:
    path = str(tmp_path / "missing.toml")
    error = error_of(path)
    assert str(error).startswith(f"{path}: expected a readable")
    assert "No such file" in str(error)


def test_r9_4_levels_not_strictly_increasing(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'edition = "points"\n[balance]\nlevels = [\n'
        "  { level = 0, needed = 0, match_points = 5 },\n"
        "  { level = 1, needed = 100, match_points = 10 },\n"
        "  { level = 2, needed = 100, match_points = 20 },\n]\n",
    )
    assert_problem(error_of(path), path, "balance.levels[2].needed", "strictly increasing", "100")


def test_r9_4_missing_level_row_and_falling_match_points(tmp_path: Path) -> None:
    levels = [{"level": 0, "needed": 0, "match_points": 5}, {"level": 2, "needed": 10, "match_points": 5}]
    error = error_of("points", {"levels": levels})
    assert_problem(
        error, "overrides (on configs/points.toml)", "balance.levels[1].level", "missing level row 1"
    )
    levels = [{"level": 0, "needed": 0, "match_points": 5}, {"level": 1, "needed": 10, "match_points": 4}]
    assert_problem(
        error_of("points", {"levels": levels}),
        "overrides (on configs/points.toml)",
        "balance.levels[1].match_points",
        "at least 5",
    )


def test_r9_3_missing_phase_row(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'edition = "wealth"\n[scoring]\nphases = [\n'
        "  { phase = 4, contribution = 0, doubling = 1 },\n"
        "  { phase = 5, contribution = 0, doubling = 1 },\n"
        "  { phase = 7, contribution = 4, doubling = 4 },\n]\n",
    )
    assert_problem(error_of(path), path, "scoring.phases[2].phase", "missing phase row 6", "found 7")


def test_r9_3_phases_not_strictly_increasing(tmp_path: Path) -> None:
    rows = [{"phase": 4, "contribution": 0, "doubling": 1}, {"phase": 4, "contribution": 0, "doubling": 1}]
    error = error_of("wealth", {"phases": rows})
    assert_problem(
        error, "overrides (on configs/wealth.toml)", "scoring.phases[1].phase", "strictly increasing"
    )


def test_r9_3_first_phase_row_and_empty_table() -> None:
    error = error_of("points", {"phases": [{"phase": 6, "contribution": 0, "doubling": 1}]})
    assert_problem(error, "overrides (on configs/points.toml)", "scoring.phases[0].phase", "4 or less")
    error = error_of("points", {"phases": []})
    assert_problem(error, "overrides (on configs/points.toml)", "scoring.phases", "at least one")


@pytest.mark.parametrize(
    "key",
    [
        "results.single.multiplier",  # R7.1 a
        "scoring.phases[3].doubling",  # R9.3 b
        "scoring.phases[3].contribution",  # R9.3 c
        "escape.escape_multiplier",  # R10.3
    ],
)
def test_negative_multiplier(tmp_path: Path, key: str) -> None:
    rows = "\n".join(
        f"  {{ phase = {p}, contribution = {c}, doubling = {b} }},"
        for p, c, b in zip(range(4, 13), CONTRIBUTION, POINTS_DOUBLING, strict=True)
    )
    texts = {
        "results.single.multiplier": "[results]\nsingle = { multiplier = -2 }\n",
        "scoring.phases[3].doubling": "[scoring]\nphases = [\n"
        + rows.replace("doubling = 8", "doubling = -8")
        + "\n]\n",
        "scoring.phases[3].contribution": "[scoring]\nphases = [\n"
        + rows.replace("contribution = 4,", "contribution = -4,")
        + "\n]\n",
        "escape.escape_multiplier": "[escape]\nescape_multiplier = -12\n",
    }
    path = write(tmp_path, 'edition = "points"\n' + texts[key])
    assert_problem(error_of(path), path, key, "at least 0", "never negative", "found -")


@pytest.mark.parametrize(
    ("key", "value"), [("win_fee_share", 1.5), ("escape_share", -0.1), ("escape_share", 2)]
)
def test_share_outside_0_1(tmp_path: Path, key: str, value: float) -> None:
    table = FIELD_TABLE[key]
    path = write(tmp_path, f'edition = "wealth"\n[{table}]\n{key} = {value}\n')
    assert_problem(error_of(path), path, f"{table}.{key}", "a share between 0 and 1", f"found {value}")


def test_r7_1_thresholds_overlap(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'edition = "points"\n[results]\nsingle = { min_cards = 6, max_cards = 11, multiplier = 2 }\n',
    )
    assert_problem(error_of(path), path, "results.single.min_cards", "7", "overlap", "found 6")


def test_r7_1_thresholds_leave_a_gap(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[results]\ndouble = { min_cards = 13, multiplier = 3 }\n')
    assert_problem(error_of(path), path, "results.double.min_cards", "12", "gap", "found 13")


def test_r7_1_thresholds_gap_at_either_end(tmp_path: Path) -> None:
    error = error_of("points", {"results.flat.min_cards": 2})
    assert_problem(error, "overrides (on configs/points.toml)", "results.flat.min_cards", "1", "gap")
    error = error_of("points", {"results.double.max_cards": 20})
    assert_problem(error, "overrides (on configs/points.toml)", "results.double.max_cards", "27", "gap")
    assert load_config("points", {"results.double.max_cards": 27}).result_for(27) == ("double", 3)


def test_r7_1_only_the_last_result_is_open_ended() -> None:
    data = load_config("points").model_dump()
    data["single"] = {"min_cards": 7, "max_cards": None, "multiplier": 2}
    with pytest.raises(ValueError, match="only double is open-ended"):
        RoomConfig.model_validate(data)
    error = error_of("points", {"results.flat.max_cards": 0})
    assert "results.flat.max_cards: expected a value of at least 1" in str(error)


def test_r8_3_unconnected_rows(tmp_path: Path) -> None:
    rows = [{"phase": 4, "count": 3, "counts_as": 5}, {"phase": 4, "count": 3, "counts_as": 6}]
    label = "overrides (on configs/points.toml)"
    assert_problem(
        error_of("points", {"unconnected": rows}), label, "scoring.unconnected[1].count", "more than 3"
    )
    rows = [{"phase": 4, "count": 3, "counts_as": 6}, {"phase": 4, "count": 4, "counts_as": 6}]
    assert_problem(
        error_of("points", {"unconnected": rows}), label, "scoring.unconnected[1].counts_as", "more than 6"
    )
    rows = [{"phase": 5, "count": 2, "counts_as": 5}]
    assert_problem(
        error_of("points", {"unconnected": rows}), label, "scoring.unconnected[0].counts_as", "above 5"
    )
    rows = [{"phase": 3, "count": 2, "counts_as": 5}]
    assert_problem(
        error_of("points", {"unconnected": rows}), label, "scoring.unconnected[0].phase", "at least 4"
    )


def test_r9_4_wealth_starting_balance_below_the_first_level(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "wealth"\n[balance]\nstarting_balance = 50\n')
    assert_problem(error_of(path), path, "balance.starting_balance", "at least 100", "found 50")


def test_every_problem_is_reported_and_nothing_loads(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        'edition = "points"\n[house]\ntable_fee = -1\nwin_fee_share = 3\n[play]\nauto_pass = "yes"\n',
    )
    error = error_of(path)
    keys = {problem.key for problem in error.problems}
    assert keys == {"house.table_fee", "house.win_fee_share", "play.auto_pass"}
    assert all(problem.file == path for problem in error.problems)


def test_override_errors_name_overrides_and_key() -> None:
    error = error_of("wealth", {"four_joker_bomb": "huge"})
    assert str(error) == (
        "overrides (on configs/wealth.toml): rules.four_joker_bomb: expected 'smallest' or 'largest', "
        'found "huge" (a string)'
    )
    error = error_of("wealth", {"four_jokers": "largest"})
    assert_problem(
        error, "overrides (on configs/wealth.toml)", "four_jokers", "unknown key", "four_joker_bomb"
    )
    error = error_of("wealth", {"turn_seconds.x": 1})
    assert "timers.turn_seconds" in str(error) and "a table" in str(error)


# ---------------------------------------------------------------------------
# check-config


def test_check_config_main_prints_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert check_config_main("points") == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"]["four_joker_bomb"] == "smallest"
    assert data["scoring"]["phases"][-1] == {"phase": 12, "contribution": 128, "doubling": 256}
    assert config_from_dict(data) == load_config("points")


def test_check_config_main_reports_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'edition = "points"\n[timers]\nmax_timeouts = 0\n')
    assert check_config_main(path) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith(f"{path}: timers.max_timeouts: expected a value of at least 1, found 0")


def test_docs_error_examples_are_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every example line of docs/configuration.md's error section is what the loader says."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    rows = "\n".join(
        f"  {{ phase = {p}, contribution = {c}, doubling = {b} }},"
        for p, c, b in zip(range(4, 13), CONTRIBUTION, POINTS_DOUBLING, strict=True)
    )
    bodies = [
        'edition = "points"\n[rules]\nfour_jokers_bomb = "largest"\n',
        'edition = "points"\n[timers]\nturn_seconds = "20"\n',
        'edition = "points"\n[rules\nx = 1\n',
        'edition = "points"\n[balance]\nlevels = [{ level = 0, needed = 0, match_points = 5 },'
        " { level = 1, needed = 100, match_points = 5 }, { level = 2, needed = 100, match_points = 5 }]\n",
        'edition = "points"\n[scoring]\nphases = [\n'
        + rows.replace("  { phase = 6, contribution = 2, doubling = 4 },\n", "")
        + "\n]\n",
        'edition = "points"\n[scoring]\nphases = [\n'
        + rows.replace("doubling = 8", "doubling = -8")
        + "\n]\n",
        'edition = "points"\n[escape]\nescape_share = 1.5\n',
        'edition = "points"\n[results]\nsingle = { min_cards = 5 }\n',
        'edition = "points"\n[results]\ndouble = { min_cards = 13 }\n',
        'name = "x"\n',
    ]
    for body in bodies:
        Path("room.toml").write_text(body, encoding="utf-8")
        message = str(error_of("room.toml"))
        assert message in docs, message
    message = str(error_of("wealth", {"four_joker_bomb": "huge"}))
    assert message in docs


# ---------------------------------------------------------------------------
# C3.1 rule variants under [rules]


def test_C3_1_joker_variants_default_to_rush_and_load_from_a_room_file(
    tmp_path: Path, points: RoomConfig, wealth: RoomConfig
) -> None:
    """C3.1: `wild_jokers` and `three_joker_bomb` live under [rules]; the shipped Rush files
    keep every joker wild and the three-joker bomb (R4.2, R5.2)."""
    for config in (points, wealth):
        assert (config.wild_jokers, config.three_joker_bomb) == ("all", True)
        assert config.rules == Rules()
    path = write(tmp_path, 'edition = "points"\n[rules]\nwild_jokers = "none"\nthree_joker_bomb = false\n')
    assert load_config(path).rules == Rules(wild_jokers="none", three_joker_bomb=False)
    assert load_config("wealth", {"rules.wild_jokers": "big"}).rules == Rules(wild_jokers="big")


def test_C3_1_joker_variant_errors_name_the_file_and_key(tmp_path: Path) -> None:
    """C3.1: a bad value names the file and the key, as docs/configuration.md shows."""
    docs = (Path(__file__).resolve().parent.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    path = write(tmp_path, 'edition = "points"\n[rules]\nwild_jokers = "small"\nthree_joker_bomb = "no"\n')
    error = error_of(path)
    assert_problem(error, path, "rules.wild_jokers", "'none', 'big' or 'all'", '"small" (a string)')
    assert_problem(error, path, "rules.three_joker_bomb", "true or false", '"no" (a string)')
    for line in str(error).splitlines():
        assert line.replace(path, "room.toml") in docs, line
    overridden = error_of("points", {"three_joker_bomb": 3})
    assert_problem(overridden, "overrides (on configs/points.toml)", "rules.three_joker_bomb", "true or false")
    misplaced = write(tmp_path, 'edition = "points"\n[play]\nwild_jokers = "big"\n', "misplaced.toml")
    assert_problem(error_of(misplaced), misplaced, "play.wild_jokers", "[rules]")
