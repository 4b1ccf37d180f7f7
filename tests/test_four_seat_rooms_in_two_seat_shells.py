"""The two-seat server refuses a four-seat room (RULES-CLASSIC) with a clear message until
it seats four: the lobby reports the room file instead of opening it. (The simulate
command plays four-seat rooms: tests/test_simulate.py.)"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from shuangkou.config import load_config
from shuangkou.server.lobby import SHIPPED_ROOMS, Lobby
from shuangkou.store import Store


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

