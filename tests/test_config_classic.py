"""Four-seat room settings (RULES-CLASSIC C1–C6): the [table] keys, the shipped classic
and qianbian rooms, and the refusal of four-seat keys in two-seat rooms."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from shuangkou.games import check_config_main
from shuangkou.games.shuangkou.config import (
    CLASSIC_ROOMS,
    EDITIONS,
    FOUR_SEAT_KEYS,
    SHIPPED,
    SHIPPED_NAMES,
    TABLES,
    ConfigError,
    config_from_dict,
    load_config,
)

R8_3_ROWS = [(4, 3, 5), (4, 4, 6), (4, 5, 7), (4, 6, 8), (5, 2, 6)]
C8_EXTRA_ROWS = [(5, 3, 7), (5, 4, 8), (6, 2, 7), (6, 3, 8), (7, 2, 8)]
REFUSED = "expected no four-seat key in a two-seat room (table.seats = 2): set seats = 4 or remove the key"


def write(tmp_path: Path, text: str) -> str:
    path = tmp_path / "room.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def message_of(target: str, overrides: dict[str, object] | None = None) -> str:
    with pytest.raises(ConfigError) as caught:
        load_config(target, overrides)
    return str(caught.value)


def test_shipped_names_add_the_four_seat_rooms_to_the_edition_files() -> None:
    assert CLASSIC_ROOMS == ("classic", "qianbian")
    assert SHIPPED == EDITIONS
    assert SHIPPED_NAMES == ("points", "wealth", "classic", "qianbian")
    assert TABLES["table"] == ("seats", *FOUR_SEAT_KEYS)


def test_c_defaults_of_the_classic_room() -> None:
    classic = load_config("classic")
    assert (classic.edition, classic.seats) == ("points", 4)  # C5.1, C1.1
    assert classic.first_player == "flip"  # C1.3
    assert classic.partner_by_flip is False  # C1.4
    assert classic.jiefeng is True  # C2.3
    assert classic.connected_pairs is False and classic.count_unconnected is False  # C4.1
    assert (classic.double_win, classic.single_win, classic.draw) == (3, 2, 1)  # C5.2
    assert classic.doubling_from == "winner"  # C5.3
    assert classic.contribution == "max"  # C5.5
    assert classic.escape_mode == "host"  # C6.1
    assert (classic.escape_double_wins, classic.escape_share) == (3, 1.0)  # C6, C6.2
    points = load_config("points")
    assert (classic.levels, classic.phases) == (points.levels, points.phases)  # C5.1: R9.3, R9.4


def test_c8_the_qianbian_room() -> None:
    qianbian = load_config("qianbian")
    assert qianbian.seats == 4 and qianbian.partner_by_flip is True  # C1.4
    assert qianbian.count_unconnected is True  # C4.1
    assert [(r.phase, r.count, r.counts_as) for r in qianbian.unconnected] == R8_3_ROWS + C8_EXTRA_ROWS
    assert qianbian.escape_mode == "host" and qianbian.jiefeng is True


@pytest.mark.parametrize("name", CLASSIC_ROOMS)
def test_check_config_validates_the_four_seat_rooms(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert check_config_main(name) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["table"]["seats"] == 4
    assert set(data["table"]) == set(TABLES["table"])
    assert config_from_dict(data) == load_config(name)


def test_two_seat_rooms_have_seats_2_and_show_no_four_seat_key() -> None:
    for edition in EDITIONS:
        config = load_config(edition)
        assert config.seats == 2
        assert config.to_toml_dict()["table"] == {"seats": 2}
        assert config.scores_connected_pairs  # R8.2 always applies with two seats


def test_a_four_seat_key_in_a_two_seat_file_is_refused_with_file_and_key(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[table]\nconnected_pairs = true\n')
    assert message_of(path) == f"{path}: table.connected_pairs: {REFUSED}, found true (a boolean)"


@pytest.mark.parametrize("key", FOUR_SEAT_KEYS)
def test_every_four_seat_key_is_refused_as_an_override_of_a_two_seat_room(key: str) -> None:
    value = load_config("classic").model_dump()[key]
    message = message_of("wealth", {key: value})
    assert message.startswith(f"overrides (on configs/wealth.toml): table.{key}: {REFUSED}, found ")


def test_seats_2_or_4_only(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "points"\n[table]\nseats = 3\n')
    assert message_of(path) == f"{path}: table.seats: expected 2 or 4, found 3 (an integer)"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("jiefeng = 1", "table.jiefeng: expected true or false, found 1 (an integer)"),
        (
            "double_win = -3",
            "table.double_win: expected a value of at least 0 (multipliers are never negative), "
            "found -3 (an integer)",
        ),
        (
            "escape_double_wins = -1",
            "table.escape_double_wins: expected a value of at least 0 (multipliers are never negative), "
            "found -1 (an integer)",
        ),
    ],
)
def test_wrong_four_seat_values(tmp_path: Path, text: str, message: str) -> None:
    path = write(tmp_path, f'edition = "points"\n[table]\nseats = 4\n{text}\n')
    assert message_of(path) == f"{path}: {message}"


def test_a_four_seat_file_takes_the_rest_from_its_edition_and_rules_classic(tmp_path: Path) -> None:
    path = write(tmp_path, 'edition = "wealth"\n[table]\nseats = 4\ndraw = 0\n')
    config = load_config(path)
    assert config.draw == 0
    assert (config.double_win, config.single_win, config.escape_double_wins) == (3, 2, 3)  # C5.2, C6
    assert config.jiefeng and not config.partner_by_flip and not config.connected_pairs
    assert config.escape_share == 0.7  # C6.2: wealth rooms
    assert config.escape_mode == "settle"  # from wealth.toml: only the classic rooms set "host"
    assert config_from_dict(config.to_toml_dict()) == config


def test_overrides_switch_a_room_to_four_seats() -> None:
    config = load_config("points", {"seats": 4, "table.connected_pairs": True, "double_win": 4})
    assert (config.seats, config.connected_pairs, config.double_win) == (4, True, 4)
    assert config.scores_connected_pairs
    assert not load_config("classic").scores_connected_pairs  # C4.1
    assert config.with_overrides({"jiefeng": False}).jiefeng is False


def test_c5_1_match_points_from_the_lowest_of_four_levels() -> None:
    classic = load_config("classic")
    assert classic.match_points_for(1000, 2000, 4000, 8000) == 60
    assert classic.match_points_for(8000, 4000, 2000, 100) == 10
    assert classic.match_points_for(1000, 1000) == 60  # two seats read the same way (R9.4)
    with pytest.raises(ValueError):
        classic.match_points_for()


def test_c5_2_result_multipliers() -> None:
    config = load_config("classic", {"double_win": 5, "single_win": 4, "draw": 2})
    assert [config.team_result_multiplier(r) for r in ("double", "single", "draw")] == [5, 4, 2]


def test_documented_four_seat_error_is_real(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = (Path(__file__).resolve().parent.parent / "docs" / "configuration.md").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    Path("room.toml").write_text('edition = "points"\n[table]\njiefeng = false\n', encoding="utf-8")
    message = message_of("room.toml")
    assert message == f"room.toml: table.jiefeng: {REFUSED}, found false (a boolean)"
    assert message in docs


def test_every_table_key_is_documented_with_the_classic_rule_it_sets() -> None:
    """docs/configuration.md has one row per key of [table], naming a RULES-CLASSIC rule of
    the section the key's comment in classic.toml names."""
    root = Path(__file__).resolve().parent.parent
    docs = (root / "docs" / "configuration.md").read_text(encoding="utf-8")
    docs = docs[docs.index("### `[table]`") : docs.index("Every key but `seats`")]
    shipped = (root / "src" / "shuangkou" / "configs" / "classic.toml").read_text(encoding="utf-8")
    assert set(TABLES["table"]) == {"seats", *FOUR_SEAT_KEYS}
    for key in TABLES["table"]:
        rows = re.findall(rf"^\| `{key}` \|.*\| ([^|]*) \|$", docs, re.MULTILINE)
        assert len(rows) == 1, f"{key}: {len(rows)} rows in the [table] section of docs/configuration.md"
        documented = set(re.findall(r"\b(C\d+)(?:\.\d+)?", rows[0]))
        commented = set(re.findall(r"\b(C\d+)(?:\.\d+)?", re.findall(rf"^{key} *=.*#(.*)$", shipped, re.MULTILINE)[0]))
        assert documented & commented, f"{key}: sections {documented} documented, {commented} in classic.toml"
