"""战绩: a player's own settled games from the server, newest first, paged (GET /api/me/games)."""

from __future__ import annotations

from server_fixtures import (
    RunningServer,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    play_out,
    run,
    server_fixture,  # noqa: F401
    start_game,
    start_server_fixture,  # noqa: F401
    weakest,
)


def test_a_players_history_lists_their_own_games_newest_first(server: RunningServer) -> None:
    async def scenario() -> None:
        ana, bo = await start_game(server)
        first, _ = await play_out((ana, bo), (weakest, weakest))
        for player in (ana, bo):
            await player.ready()
        await ana.until(lambda t: t["phase"] == "playing")
        second, _ = await play_out((ana, bo), (weakest, weakest))
        status, page = await server.ahttp("GET", "/api/me/games", token=ana.token)
        assert status == 200 and [game["game_id"] for game in page["games"]] == [second["game_id"], first["game_id"]]
        newest = page["games"][0]
        settlement = second["settlement"]
        assert newest["room"] == "points" and newest["edition"] == "points" and newest["seat"] == 0
        assert [seat["name"] for seat in newest["seats"]] == ["Ana", "Bo"]
        assert newest["result"] == settlement["result"]
        assert newest["delta"] == settlement["deltas"][0]
        assert newest["balance_after"] == settlement["balances_after"][0]
        assert newest["won"] == (settlement["winner"] == 0)
        assert newest["finished_at"] >= page["games"][1]["finished_at"]
        status, bos = await server.ahttp("GET", "/api/me/games", token=bo.token)
        assert [game["seat"] for game in bos["games"]] == [1, 1]
        assert [game["won"] for game in bos["games"]] == [not game["won"] for game in page["games"]]
        status, paged = await server.ahttp("GET", "/api/me/games?limit=1&offset=1", token=ana.token)
        assert [game["game_id"] for game in paged["games"]] == [first["game_id"]]
        stranger = await server.player("Cy")
        status, none = await server.ahttp("GET", "/api/me/games", token=stranger.token)
        assert status == 200 and none["games"] == []  # only the account's own games
        status, refused = await server.ahttp("GET", "/api/me/games", token="not-a-token")
        assert status == 401 and refused["code"] == "invalid_token"

    run(scenario(), timeout=90)
