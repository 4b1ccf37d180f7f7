"""Reloading and closing rooms on a running server process: a changed configuration applies
to new games only, and a closed room finishes its games but deals no new one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from server_players import finish_by_hosting, seat_pair
from server_processes import server_process

ROOM = 'edition = "points"\n[timers]\nturn_seconds = {seconds}\nready_seconds = 60\n'


def test_reload_applies_to_new_games_and_close_stops_new_games(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "points.toml").write_text(ROOM.format(seconds=60))
    server = server_process(tmp_path / "data", None, rooms)

    async def scenario() -> None:
        pair = await seat_pair(server)
        first = pair[0].table
        assert first is not None and first["turn_seconds"] == 60

        (rooms / "points.toml").write_text(ROOM.format(seconds=45))
        (rooms / "broken.toml").write_text(ROOM.format(seconds=-1))
        reloaded = server.post("/api/admin/rooms/reload", {})
        assert reloaded["loaded"] == ["points"] and "turn_seconds" in reloaded["errors"]["broken"]
        rooms_now = {room["name"]: room for room in server.get("/api/rooms")["rooms"]}
        assert rooms_now["points"]["turn_seconds"] == 45

        # The running game keeps the configuration it was dealt under.
        await pair[0].hosting(True)
        view = await pair[0].until(lambda table: table["seq"] > first["seq"])
        assert view["turn_seconds"] == 60
        settled = await finish_by_hosting(pair)
        stored = server.get(f"/api/admin/games/{settled['game_id']}")
        assert stored["config"]["timers"]["turn_seconds"] == 60

        # The next game at the same table is dealt under the new one.
        for client in pair:
            await client.ready()
        second = await pair[0].until(
            lambda table: table["phase"] == "playing" and table["game_id"] != settled["game_id"]
        )
        assert second["turn_seconds"] == 45
        assert server.get(f"/api/admin/games/{second['game_id']}")["config"]["timers"]["turn_seconds"] == 45

        # Closing the room: the game in progress ends normally, no new one starts.
        assert server.post("/api/admin/rooms/points/close", {}) == {"closed": "points"}
        done = await finish_by_hosting(pair)
        assert done["game_id"] == second["game_id"] and done["settlement"] is not None
        await pair[0].ready()
        assert (await pair[0].expect("error"))["code"] == "room_closed"
        for client in pair:
            await client.close()

    server.start()
    try:
        asyncio.run(scenario())
    finally:
        assert server.terminate() in (0, -15)
