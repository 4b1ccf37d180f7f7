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
        assert newest["teams"] == [0, 1]  # with two seats each seat is its own side
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


def test_the_replay_of_a_finished_game_shows_what_its_players_may_see(server: RunningServer) -> None:
    async def scenario() -> None:
        ana, bo = await start_game(server)
        assert ana.table is not None
        running = ana.table["game_id"]
        status, refused = await server.ahttp("GET", f"/api/games/{running}")
        assert status == 409 and refused["code"] == "not_finished"  # nothing of a game in progress
        final, _ = await play_out((ana, bo), (weakest, weakest))
        game_id = final["game_id"]
        status, replay = await server.ahttp("GET", f"/api/games/{game_id[:8]}", token=ana.token)  # a player's short id
        assert status == 200 and replay["game_id"] == game_id
        assert [seat["name"] for seat in replay["seats"]] == ["Ana", "Bo"]
        assert [len(hand.split()) for hand in replay["hands"]] == [27, 27]
        assert replay["result"] == final["settlement"]["result"] and replay["settlement"] == final["settlement"]
        plays = [event for event in replay["events"] if event["type"] == "play"]
        assert plays and all("bomb" in event["combo"] for event in plays)  # combinations as views show them
        dealt = [sorted(hand.split()) for hand in replay["hands"]]
        for seat in (0, 1):
            shown = sorted(card for event in plays if event["seat"] == seat for card in event["cards"].split())
            left = final["game"]["revealed"][seat]
            assert sorted(shown + left) == dealt[seat]  # every card dealt to the seat: played or revealed
        text = str(replay)
        assert "seed" not in replay and "account" not in text and "unseen" not in text
        status, unknown = await server.ahttp("GET", "/api/games/ffffffffffff")
        assert status == 404 and unknown["code"] == "unknown_game"

    run(scenario(), timeout=90)
