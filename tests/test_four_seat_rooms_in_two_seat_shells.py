"""The two-seat game and the shells around it refuse a four-seat room (RULES-CLASSIC)
with a clear message: the lobby reports the room file instead of opening it, the game
refuses to start, the referee and the simulate command say why."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from shuangkou.cli import main
from shuangkou.config import load_config
from shuangkou.game import Game, GameError
from shuangkou.referee import ScenarioError, referee
from shuangkou.server.lobby import SHIPPED_ROOMS, Lobby
from shuangkou.store import Store

REFUSAL = (
    "a game seats two players; this room has seats = 4 (RULES-CLASSIC: "
    "its games are settled by shuangkou.scoring.settle_classic)"
)


async def run_db(function: Callable[[], Any]) -> Any:
    return function()


def test_a_four_seat_room_file_is_reported_and_not_opened(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "points.toml").write_text('edition = "points"\n')
    (rooms / "classic.toml").write_text('edition = "points"\n[table]\nseats = 4\n')
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        lobby = Lobby(store, run_db, rooms, bot_delay=0.0)
        report = lobby.reload_rooms()
        assert report["loaded"] == ["points"]
        assert report["errors"] == {
            "classic": f"{rooms / 'classic.toml'}: table.seats: expected 2 (this server seats two), found 4"
        }
        assert list(lobby.rooms) == ["points"]
    finally:
        store.close()


def test_the_server_ships_the_two_seat_rooms_only() -> None:
    assert SHIPPED_ROOMS == ("points", "wealth")
    assert all(load_config(name).seats == 2 for name in SHIPPED_ROOMS)


@pytest.mark.parametrize("name", ["classic", "qianbian"])
def test_a_two_seat_game_refuses_a_four_seat_room(name: str) -> None:
    config = load_config(name)
    for start in (lambda: Game.deal(config, seed=1), lambda: Game.from_hands(config, ["3", "4"])):
        with pytest.raises(GameError) as refused:
            start()
        assert (refused.value.code, refused.value.message) == ("bad_config", REFUSAL)


def test_the_referee_reports_a_four_seat_room() -> None:
    with pytest.raises(ScenarioError) as refused:
        referee({"hands": ["3", "4"], "config": "classic"})
    assert (refused.value.code, refused.value.message) == ("bad_config", REFUSAL)


def test_simulate_refuses_a_four_seat_room(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--config", "qianbian", "--games", "1"]) != 0
    assert "simulated games seat two players; qianbian has seats = 4" in capsys.readouterr().err
