"""Tractor rooms (docs/RULES-TRACTOR.md T12, docs/configuration.md#tractor-rooms): the
shipped room with every setting's default, overrides, the edition's levels, and errors
naming the file and the key."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shuangkou.games import check_config_main, load_room
from shuangkou.games.tractor.config import TABLES, TractorRoom, load_tractor_room
from shuangkou.games.tractor.family import TRACTOR
from shuangkou.roomfiles import ConfigError

T12_DEFAULTS = {
    "start_level": "2", "deal_interval_ms": 200, "declare_window_seconds": 5, "equal_pair_by_suit": False,
    "self_override": False, "first_dealer": "first_declarer", "first_hand_no_bid": "redeal", "max_redeals": 3,
    "no_bid_trump": "third_bottom", "bury_seconds": 30, "two_is_constant_trump": False,
    "failed_throw_forced": "lowest", "reveal_throw_blocker": False, "throw_penalty_per_card": 0,
    "partial_tractor_follow": True, "auto_play_forced": True, "bottom_multiplier": "doubling",
    "attacker_levels": "cap", "must_play_levels": ["A"], "turn_seconds": 20, "max_timeouts": 3,
    "hand_units": [-3, -2, -1, 1, 2, 3, 4], "escape_mode": "host", "escape_units": 12,
}

T12_ALTERNATIVES = {
    "start_level": "J", "deal_interval_ms": 0, "declare_window_seconds": 1, "equal_pair_by_suit": True,
    "self_override": True, "first_dealer": "final_declarer", "first_hand_no_bid": "third_bottom", "max_redeals": 0,
    "no_bid_trump": "no_trump", "bury_seconds": 5, "two_is_constant_trump": True, "failed_throw_forced": "smallest",
    "reveal_throw_blocker": True, "throw_penalty_per_card": 10, "partial_tractor_follow": False,
    "auto_play_forced": False, "bottom_multiplier": "per_card", "attacker_levels": "every_40",
    "must_play_levels": ["5", "10", "K", "A"], "turn_seconds": 7.5, "max_timeouts": 1,
    "hand_units": [-6, -4, -2, 2, 4, 6, 8], "escape_mode": "settle", "escape_units": 20,
}


def test_the_shipped_room_holds_every_setting_of_T12_with_its_default() -> None:
    """T12: every key, its default; the room round-trips through its stored JSON."""
    family, room = load_room("tractor")
    assert family is TRACTOR and isinstance(room, TractorRoom)
    flat = {key: value for table in json.loads(room.to_json()).values() if isinstance(table, dict)
            for key, value in table.items()}
    assert {key: flat[key] for key in T12_DEFAULTS} == T12_DEFAULTS
    assert room.seats == 4 and room.edition == "points" and room.match_points_for(1000, 1000, 1000, 1000) == 60
    assert TRACTOR.room_from_json(room.to_json(), "stored") == room


def test_every_setting_of_T12_takes_its_alternative() -> None:
    """T12: each key set by its plain name or its dotted path."""
    room = load_tractor_room("tractor", T12_ALTERNATIVES)
    for key, value in T12_ALTERNATIVES.items():
        got = getattr(room, key)
        assert (list(got) if isinstance(got, tuple) else got) == value, key
    table = next(name for name, keys in TABLES.items() if "bury_seconds" in keys)
    assert load_tractor_room("tractor", {f"{table}.bury_seconds": 9}).bury_seconds == 9


@pytest.mark.parametrize(("key", "value", "message"), [
    ("start_level", "1", "deal.start_level: expected a rank: '2', '3'"),
    ("declare_window_seconds", 0.5, "deal.declare_window_seconds: expected a value of at least 1"),
    ("bury_seconds", 2, "deal.bury_seconds: expected a value of at least 5"),
    ("first_dealer", "loudest", "deal.first_dealer: expected 'first_declarer' or 'final_declarer'"),
    ("bottom_multiplier", "triple", "scoring.bottom_multiplier: expected 'doubling', 'linear' or 'per_card'"),
    ("must_play_levels", ["5"], 'scoring.must_play_levels: expected must-play levels including "A"'),
    ("must_play_levels", ["5", "Z", "A"], "scoring.must_play_levels[1]: expected"),
    ("hand_units", [1, 2], "scoring.hand_units: expected an array of 7 integers"),
    ("escape_mode", "flee", "escape.escape_mode: expected 'host' or 'settle'"),
    ("turn_seconds", 0, "timers.turn_seconds: expected a value above 0"),
    ("auto_play_forced", "yes", "play.auto_play_forced: expected true or false"),
])
def test_bad_settings_name_the_file_and_the_key(key: str, value: object, message: str) -> None:
    """T12: a bad value is refused naming the file and the key."""
    with pytest.raises(ConfigError) as error:
        load_tractor_room("tractor", {key: value})
    assert f"overrides (on configs/tractor.toml): {message}" in str(error.value)


def test_room_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A room file names its game and only what it changes; the edition's levels and
    balance keys come from its shipped file; misplaced and unknown keys are named;
    ``check-config`` validates it."""
    good = tmp_path / "wealthy.toml"
    good.write_text('game = "tractor"\nname = "Big tractor"\nedition = "wealth"\n[deal]\nstart_level = "5"\n')
    room = load_room(good)[1]
    assert isinstance(room, TractorRoom) and room.start_level == "5" and not room.allow_negative
    assert room.entry_balance == 100 and room.can_sit(100) and not room.can_sit(99)
    assert check_config_main(str(good)) == 0 and json.loads(capsys.readouterr().out)["deal"]["start_level"] == "5"
    bad = tmp_path / "bad.toml"
    bad.write_text('game = "tractor"\nstart_level = "3"\n[deal]\nbury_second = 10\n[scoring]\nbottom_multiplier = 2\n')
    with pytest.raises(ConfigError) as error:
        load_room(bad)
    lines = str(error.value).splitlines()
    assert f"{bad}: start_level: expected start_level inside the table [deal], found it at the top level" in lines
    assert any(line.startswith(f"{bad}: deal.bury_second: expected one of") and "did you mean 'bury_seconds'" in line
               for line in lines)
    assert f"{bad}: scoring.bottom_multiplier: expected 'doubling', 'linear' or 'per_card', found 2 (an integer)" \
        in lines
    assert check_config_main(str(bad)) == 2
