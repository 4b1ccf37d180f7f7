"""The table's game record and the one restore path (shuangkou.server.record), on a real
SQLite store: what a table saves, the lobby and ``shuangkou replay`` read back."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shuangkou.errors import Refusal
from shuangkou.games.shuangkou.bots import RandomBot, bot_action
from shuangkou.games.shuangkou.config import load_config
from shuangkou.games.shuangkou.game import Game, GameError, Play, action_to_dict
from shuangkou.server.record import SeatRecord, TableRecord, restore_game, stored_bot_level
from shuangkou.store import Store

POINTS = load_config("points")


def _stored(tmp_path: Path, actions: int) -> tuple[Store, Game, TableRecord]:
    """A game saved as a table saves it at the deal, with its first ``actions`` appended."""
    store = Store(f"sqlite:///{tmp_path / 'record.db'}")
    game = Game.deal(POINTS, 5)
    record = TableRecord("T1", (SeatRecord(3, "Ann", False), SeatRecord(4, "Bot", True)), True, game.to_record())
    store.save_game("g1", "points", POINTS.to_json(), json.dumps(record.to_dict()))
    for seq in range(1, actions + 1):
        action = Play.move(game.to_act, game.legal_moves()[0])
        game.apply(action)
        store.append_action("g1", seq, json.dumps(action_to_dict(action)))
    return store, game, record


def test_a_table_record_reads_back_as_written() -> None:
    game = Game.deal(POINTS, 5)
    record = TableRecord("T1", (SeatRecord(3, "Ann", False), None), False, game.to_record())
    data = json.loads(json.dumps(record.to_dict()))
    assert data["seats"] == [[3, "Ann", False], None] and data["private"] is False
    assert data["leader"] == game.leader and data["table"] == "T1"
    assert TableRecord.from_dict(data) == record
    assert TableRecord.from_dict(data, POINTS) == record


@settings(max_examples=30, deadline=None)
@given(room=st.sampled_from(["points", "wealth", "classic", "qianbian"]), seed=st.integers(0, 10_000),
       turns=st.integers(0, 120), private=st.booleans())
def test_a_table_record_as_text_is_its_json_form_encoded(room: str, seed: int, turns: int, private: bool) -> None:
    """What the table stores (:meth:`TableRecord.to_json`, the configuration's text made once
    per room) is byte for byte its JSON form encoded, at the deal, mid-game and at the end,
    seats swapped (C1.4) or not."""
    config = load_config(room)
    game = Game.deal(config, seed)
    bots = [RandomBot(seed + seat) for seat in range(config.seats)]
    seats = tuple(SeatRecord(seat, f"P{seat}", seat % 2 == 1) for seat in range(config.seats))
    for turn in range(turns + 1):
        record = TableRecord("T1", seats, private, game.to_record())
        assert record.to_json() == orjson.dumps(record.to_dict()).decode()
        if game.finished or turn == turns:
            break
        game.apply(bot_action(game, bots[game.to_act]))
    assert TableRecord.from_dict(json.loads(record.to_json()), config) == record


@pytest.mark.parametrize("seats", [None, [[3, "Ann", False]], [[3, "Ann"], None], [["3", "Ann", False], None]])
def test_a_record_without_two_readable_seats_is_refused(seats: object) -> None:
    with pytest.raises(GameError) as refused:
        TableRecord.from_dict({"table": "T1", "seats": seats, "leader": 0})
    assert refused.value.code == "bad_record"


def test_a_stored_game_restores_to_where_it_was(tmp_path: Path) -> None:
    store, game, record = _stored(tmp_path, 3)
    stored = store.get_game("g1")
    assert stored is not None
    restored_record, restored = restore_game(stored)
    assert restored_record == record
    assert restored.seq == 3 and restored.to_act == game.to_act
    assert [[str(card) for card in hand] for hand in restored.hands] == [[str(c) for c in hand] for hand in game.hands]
    assert restored.settings == POINTS
    store.close()


def test_actions_not_numbered_from_one_do_not_restore(tmp_path: Path) -> None:
    store, game, _ = _stored(tmp_path, 1)
    store.append_action("g1", 3, json.dumps(action_to_dict(Play.move(game.to_act, game.legal_moves()[0]))))
    stored = store.get_game("g1")
    assert stored is not None
    with pytest.raises(Refusal) as refused:  # the platform's record, not Shuangkou's: any game's
        restore_game(stored)
    assert refused.value.code == "bad_record" and "[1, 3]" in refused.value.message
    store.close()


@pytest.mark.parametrize("level", ["easy", "normal", "expert"])
def test_a_stored_games_bot_level_is_read_from_its_configuration(level: str) -> None:
    config = load_config("points", {"bot_level": level})
    assert stored_bot_level(config.to_json()) == level


@pytest.mark.parametrize(
    "config_json",
    ['{"play": {}}', "{}", '{"play": []}', '{"play": {"bot_level": "grandmaster"}}', '{"play": {"bot_level": 3}}'],
)
def test_a_stored_game_without_a_known_bot_level_played_at_the_default_level(config_json: str) -> None:
    """Games stored before rooms had a ``bot_level`` (or with one this code does not know)."""
    assert stored_bot_level(config_json) == load_config("points").bot_level == "normal"
