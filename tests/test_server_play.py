"""The game server end to end over real WebSockets: complete games to the result screen,
settlements against the ledger, bots, timers, hosting, disconnection, escapes, invites,
spectators and what each connection may see. Rule ids refer to RULES.md."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from server_fixtures import (
    OPERATOR_TOKEN,
    Move,
    Player,
    RunningServer,
    act,
    check_settlement,
    loser_to,
    my_turn,
    passive,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    play_out,
    run,
    seat_two,
    server_fixture,  # noqa: F401
    size,
    start_game,
    start_server_fixture,  # noqa: F401
    take_turns,
    weakest,
)
from websockets.exceptions import ConnectionClosed

from shuangkou.server.client import ClientError
from shuangkou.server.tables import REPLAY_READY_SECONDS

StartServer = Callable[..., RunningServer]

RESULT_RANGES = {"flat": (3, 6), "single": (8, 11), "double": (20, 27)}


def events_of(player: Player, kind: str) -> list[dict[str, Any]]:
    return [event for event in player.events if event["type"] == kind]


async def closed_reason(player: Player) -> str:
    """Receive until the server's ``closed`` message; then the socket must close."""
    message = await player.expect("closed")
    with pytest.raises(ConnectionClosed):
        await player.receive()
    return str(message["reason"])


# ---------------------------------------------------------------------------
# Complete games


@pytest.mark.parametrize("result", ["flat", "single", "double"])
def test_quick_match_game_to_each_result_level(start_server: StartServer, result: str) -> None:
    """R7.1, R9: two humans play a whole game; the loser keeps as many cards as the strategy
    aims at, and the result screen's settlement is exactly what the ledger holds."""
    server = start_server(seed=11)

    async def scenario() -> None:
        ana, bo = await start_game(server)
        assert ana.table is not None and bo.table is not None
        assert ana.table["id"] == bo.table["id"] and ana.table["game_id"] == bo.table["game_id"]
        loser, winner = loser_to(*RESULT_RANGES[result])
        final_ana, final_bo = await play_out((ana, bo), (loser, winner))
        for view in (final_ana, final_bo):
            assert view["phase"] == "settled"
            assert view["game"]["finished"] and view["game"]["winner"] == 1
            assert view["game"]["result"] == result
            assert view["settlement"]["result"] == result
            assert view["settlement"]["loser_cards_left"] == view["game"]["cards_left"][0]
        assert final_ana["settlement"] == final_bo["settlement"]
        assert final_ana["settlement"]["deltas"][1] > 0 > final_ana["settlement"]["deltas"][0]
        await check_settlement(server, (ana, bo), final_ana)
        # The game record holds every action, with the deal of seed 11 (the server's first game).
        stored = await server.aadmin("GET", f"games/{final_ana['game_id']}")
        assert stored["status"] == "finished"
        assert stored["record"]["seed"] == 11
        assert len(stored["actions"]) == final_ana["game"]["seq"]

    run(scenario())


def test_games_in_a_row_at_one_table(start_server: StartServer) -> None:
    """After the result screen both get ready again and the next game is dealt at the same
    table (seed + 1); in a room with first_player = "winner" the previous winner leads (R2.1);
    balances carry over from the first settlement."""
    server = start_server(seed=7)

    async def scenario() -> None:
        ana, bo = await start_game(server, "winner")
        first, _ = await play_out((ana, bo), loser_to(*RESULT_RANGES["flat"]))
        assert first["game"]["winner"] == 1
        for player in (ana, bo):
            await player.ready()
        second = await ana.until(lambda t: t["phase"] == "playing" and t["game_id"] != first["game_id"])
        assert second["settlement"] is None and second["seq"] > first["seq"]
        assert second["game"]["leader"] == 1 == second["game"]["to_act"]
        assert [seat["balance"] for seat in second["seats"]] == first["settlement"]["balances_after"]
        stored = await server.aadmin("GET", f"games/{second['game_id']}")
        assert stored["record"]["seed"] == 8
        final, _ = await play_out((ana, bo), (passive, weakest))
        assert final["game_id"] == second["game_id"] and final["game"]["winner"] == 1
        await check_settlement(server, (ana, bo), final)
        assert final["settlement"]["balances_before"] == first["settlement"]["balances_after"]

    run(scenario())


def test_r9_9_a_game_is_settled_on_the_balances_at_its_end(server: RunningServer) -> None:
    """R9.4, R9.9: both players' balances are read again when the game ends (together): an
    operator's grants to each during the game are what the settlement counts from, and the
    ledger holds both after it."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        assert ana.table is not None
        dealt = [seat["balance"] for seat in ana.table["seats"]]
        for player, delta in ((ana, 700), (bo, 40_000)):
            await server.aadmin("POST", "grant", {
                "account": player.id, "edition": "points", "delta": delta, "reason": "test",
            })
        final, _ = await play_out((ana, bo), (passive, weakest))
        settlement = final["settlement"]
        assert settlement["balances_before"] == [dealt[0] + 700, dealt[1] + 40_000]
        await check_settlement(server, (ana, bo), final)

    run(scenario())


def test_seeded_servers_deal_the_same_games(start_server: StartServer) -> None:
    """R1.4: with a seed (tests and demos) the n-th game is dealt from seed + n."""
    first, second = start_server(seed=5), start_server(seed=5)

    async def hands(server: RunningServer) -> list[list[str]]:
        ana, bo = await start_game(server)
        assert ana.table is not None and bo.table is not None
        return [ana.table["game"]["hand"], bo.table["game"]["hand"]]

    async def scenario() -> None:
        assert await hands(first) == await hands(second)

    run(scenario())


def test_game_against_a_bot(server: RunningServer) -> None:
    """A game against the server's bot, played to the result screen and settled."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("points", opponent="bot")
        table = await ana.until(lambda t: t["seats"][1] is not None)
        assert table["seats"][1]["bot"] and table["seats"][1]["ready"]
        await ana.ready()
        await ana.until(lambda t: t["phase"] == "playing")
        final = await take_turns(ana, weakest)
        assert final["phase"] == "settled" and final["game"]["finished"]
        await check_settlement(server, (ana,), final)
        # A second game at the same table: the bot is ready again at once.
        assert final["seats"][1]["ready"] and not final["seats"][0]["ready"]
        await ana.ready()
        await ana.until(lambda t: t["phase"] == "playing" and t["game_id"] != final["game_id"])

    run(scenario())


def test_a_bot_never_waits_alone_at_a_table(server: RunningServer) -> None:
    """When the human leaves a bot table, the table closes: quick match never seats a
    stranger who asked for a human opponent with a left-over bot."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("points", opponent="bot")
        table = await ana.until(lambda t: t["seats"][1] is not None)
        left = await ana.leave()
        assert left == {"type": "left", "table": table["id"], "escape": False, "hosted": False, "charged": None}
        bo = await server.player("Bo")
        await bo.join("points")
        view = await bo.until(lambda t: t["you"] is not None)
        assert view["id"] != table["id"] and view["seats"][1 - view["you"]] is None
        _, health = await server.ahttp("GET", "/healthz")
        assert health["tables"] == 1

    run(scenario())


# ---------------------------------------------------------------------------
# What each connection sees


def _walk(value: Any, path: str = "") -> Any:
    """Every (path, key, value) of a JSON document."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield path, key, item
            yield from _walk(item, f"{path}.{key}")
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _walk(item, f"{path}[{index}]")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [text for item in value.values() for text in _strings(item)]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    return []


def test_no_hidden_card_ever_leaves_the_server(start_server: StartServer) -> None:
    """R1.3: every message both players and a spectator receive in a whole game: a hand only
    in the own seat's view, no opponent's hand, no unseen cards, no card string of a card the
    opponent still holds (played cards and the flip card are public)."""
    server = start_server(seed=3)

    async def scenario() -> None:
        ana, bo = await seat_two(server)
        assert ana.table is not None
        watcher = await server.player("Watcher")
        await watcher.send({"type": "watch", "table": ana.table["id"]})
        await watcher.until(lambda t: t["id"] == ana.table["id"] if ana.table else False)
        await ana.ready()
        await bo.ready()
        for player in (ana, bo):
            await player.until(lambda t: t["phase"] == "playing")
        final_ana, _ = await play_out((ana, bo), loser_to(*RESULT_RANGES["double"]))
        await watcher.until(lambda t: t["phase"] == "settled")
        stored = await server.aadmin("GET", f"games/{final_ana['game_id']}")
        record = stored["record"]
        hands = [hand.split() for hand in record["hands"]]
        played = {card for event in record["events"] if event["type"] == "play" for card in event["cards"].split()}
        public = played | {record["flip_card"]}
        loser_left = final_ana["game"]["cards_left"][0]
        assert loser_left >= 12  # plenty of cards that must stay hidden

        for player, seat in ((ana, 0), (bo, 1), (watcher, None)):
            own = set(hands[seat]) if seat is not None else set()
            hidden = {card for i, hand in enumerate(hands) if i != seat for card in hand} - own - public
            assert player.log, "nothing received"
            for message in player.log:
                game = (message.get("table") or {}).get("game") or {}
                revealed = game.get("revealed")
                if revealed is not None:  # once the game is over every hand still held is shown
                    assert game["finished"] and [len(hand) for hand in revealed] == game["cards_left"]
                    assert all(set(shown) <= set(hands[i]) for i, shown in enumerate(revealed))
                    game = {key: value for key, value in game.items() if key != "revealed"}
                    message = {**message, "table": {**message["table"], "game": game}}
                for path, key, value in _walk(message):
                    assert key not in ("hands", "unseen"), (path, key)
                    if key == "hand":
                        assert seat is not None and path.endswith(".game"), path
                        assert message["table"]["you"] == seat and message["table"]["game"]["seat"] == seat
                        assert set(value) <= own
                leaked = {token for text in _strings(message) for token in text.split()} & hidden
                assert not leaked, (seat, leaked, message)
        assert all(m["table"]["you"] is None for m in watcher.log if m["type"] == "state")

    run(scenario())


# ---------------------------------------------------------------------------
# Timers and hosting


def test_turn_timeouts_make_the_hosting_move_and_switch_hosting_on(start_server: StartServer) -> None:
    """R11.3: a turn timer running out makes the hosting move and tells the player "You have
    timed out N time(s)"; the 3rd timeout switches hosting on; the player switches it off."""
    server = start_server(bot_delay=1.0)  # hosted moves are slow: the game cannot end before the switch

    async def scenario() -> None:
        ana, bo = await start_game(server, "fast")
        stop = asyncio.Event()
        bo_plays = asyncio.create_task(take_turns(bo, weakest, stop=stop))  # Bo answers at once: no timeouts
        for count in (1, 2, 3):
            notice = await ana.expect("notice")
            assert notice["code"] == "timed_out" and notice["count"] == count
            assert notice["message"] == f"You have timed out {count} {'time' if count == 1 else 'times'}"
        stop.set()  # from Bo's next turn on, Bo waits for its turn timer
        await bo_plays
        await ana.until(lambda t: t["game"]["timeouts"][0] == 3 and t["game"]["hosting"][0])
        await ana.hosting(False)
        table = await ana.until(lambda t: not t["game"]["hosting"][0])
        assert table["phase"] == "playing"
        assert {"type": "hosting", "seat": 0, "cause": "timeout", "on": True} in ana.events
        assert {"type": "hosting", "seat": 0, "cause": "player", "on": False} in ana.events
        timeouts = events_of(ana, "timeout")
        assert [(e["seat"], e["count"]) for e in timeouts][:3] == [(0, 1), (0, 2), (0, 3)]
        moves = [e for e in ana.events if e["type"] in ("play", "pass") and e.get("cause") == "timeout"]
        assert [e["seat"] for e in moves][:3] == [0, 0, 0]  # the hosting move was made for the player

    run(scenario())


def test_hosting_switched_on_and_off_by_the_player(server: RunningServer) -> None:
    """R11.2: hosting plays the player's turns until the player switches it off."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        await ana.hosting(True)
        await ana.until(lambda t: t["game"]["hosting"][0])
        # Hosting moves for Ana until it is Bo's turn (Bo does not act).
        table = await bo.until(lambda t: my_turn(t))
        hosted = [e for e in bo.events if e["type"] in ("play", "pass") and e["seat"] == 0]
        if table["game"]["leader"] == 0:
            assert hosted and hosted[0]["cause"] == "hosting"
        await ana.hosting(False)
        await ana.until(lambda t: not t["game"]["hosting"][0])
        while not my_turn(ana.table or {}):  # Bo plays until it is Ana's turn
            await act(bo, weakest)
            await ana.until(lambda t: t["seq"] == bo.seq)
        # Nothing plays for Ana any more (many times the bot delay later).
        await asyncio.sleep(0.3)
        await ana.settle_quietly()
        assert my_turn(ana.table or {}) and ana.seq == bo.seq

    run(scenario())


def test_R2_4_a_new_connection_gets_every_play_of_the_game_and_the_pass_of_the_round(
    start_server: StartServer,
) -> None:
    """R2.3, R2.4: a page opened again (a second connection with the session) gets every
    play of the game, not the last eight, and the pass that ended the round."""
    server = start_server(seed=5)

    def fewest(game: dict[str, Any], moves: list[Move]) -> Move | None:
        return min(moves, key=size)  # Ana sheds one card at a time: many plays

    async def scenario() -> None:
        ana, bo = await start_game(server)
        while True:
            for player in (ana, bo):
                await player.settle_quietly()
            table = ana.table
            assert table is not None and table["phase"] == "playing", "the game ended before nine plays"
            game = table["game"]
            if len(game["plays"]) >= 9 and my_turn(table) and game["passed"]:
                break
            mover = ana if my_turn(table) else bo
            await act(mover, fewest if mover is ana else passive)  # Bo passes whenever he may
        again = await server.again(ana)  # the newer connection takes the seat
        view = await again.until(lambda t: t["you"] == 0)
        assert view["seq"] == table["seq"]
        assert [play["index"] for play in view["game"]["plays"]] == list(range(1, len(game["plays"]) + 1))
        assert view["game"]["plays"] == game["plays"]
        assert view["game"]["passed"] == game["passed"]
        assert [(entry["seat"], entry["cause"] in ("player", "auto_pass")) for entry in game["passed"]] == [(1, True)]
        assert view["game"]["round_start"] == len(game["plays"])  # Ana led, Bo passed: the round is over

    run(scenario())


def test_disconnect_hosts_at_once_and_reconnect_restores_the_view(server: RunningServer) -> None:
    """R11.5: a dropped connection is hosted at once; the player reconnects with the session,
    sees the full state of the own seat, and may switch hosting off."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        await ana.close()
        table = await bo.until(lambda t: t["game"]["hosting"][0] and not t["seats"][0]["connected"])
        assert {"type": "hosting", "seat": 0, "cause": "disconnect", "on": True} in bo.events
        # Bo does not act: hosting plays Ana's turns at most until it is Bo's turn.
        table = await bo.until(lambda t: my_turn(t))
        again = await server.again(ana)
        view = await again.until(lambda t: t["you"] == 0)
        assert view["phase"] == "playing" and view["game"]["seat"] == 0
        assert len(view["game"]["hand"]) == view["game"]["cards_left"][0] == table["game"]["cards_left"][0]
        assert view["game"]["hosting"][0] and view["game_id"] == table["game_id"]
        await again.hosting(False)
        await again.until(lambda t: not t["game"]["hosting"][0])
        await bo.until(lambda t: t["seats"][0]["connected"] and not t["game"]["hosting"][0])

    run(scenario())


def test_a_newer_connection_replaces_the_older(server: RunningServer) -> None:
    """Two connections for one seat: the newer wins, the older is told ``replaced``."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        newer = await server.again(ana)
        view = await newer.until(lambda t: t["you"] == 0)
        assert view["game"]["hand"] == (ana.table or {})["game"]["hand"]
        assert await closed_reason(ana) == "replaced"
        await newer.settle_quietly()
        await bo.settle_quietly()
        # The replaced connection's end is not a disconnection: no hosting.
        assert not (newer.table or {})["game"]["hosting"][0] and not (bo.table or {})["game"]["hosting"][0]
        final = await play_out((newer, bo), (weakest, weakest))
        assert final[0]["phase"] == "settled"

    run(scenario())


def test_watching_the_replay_gives_the_ready_timer_more_time_once_per_game(server: RunningServer) -> None:
    """R11.4: between games a player who watches the last game's replay (``replaying``) has
    REPLAY_READY_SECONDS more to get ready, once per game; the other seats keep their own
    deadline. During a game, or before any, there is nothing to replay."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        await ana.send({"type": "replaying"})
        assert (await ana.next_error())["code"] == "in_game"
        await play_out((ana, bo), (weakest, weakest))
        settled = await ana.until(lambda t: t["phase"] == "settled" and t["seats"][0]["ready_deadline"] is not None)
        before = [seat["ready_deadline"] for seat in settled["seats"]]
        await ana.send({"type": "replaying"})
        table = await bo.until(lambda t: t["seats"][0]["ready_deadline"] != before[0])
        assert table["seats"][0]["ready_deadline"] >= before[0] + REPLAY_READY_SECONDS * 1000 - 50
        assert table["seats"][1]["ready_deadline"] == before[1]
        extended = table["seats"][0]["ready_deadline"]
        await ana.send({"type": "replaying"})  # once per game: the state again, unchanged
        again = await ana.expect("state")
        assert again["table"]["seats"][0]["ready_deadline"] == extended
        await ana.ready()
        await bo.ready()
        await ana.until(lambda t: t["phase"] == "playing")
        newcomer = await server.player("Cy")
        await newcomer.join("wealth")
        await newcomer.until(lambda t: t["you"] == 0)
        await newcomer.send({"type": "replaying"})
        assert (await newcomer.next_error())["code"] == "not_playing"

    run(scenario())


def test_ready_timer_removes_a_player_who_is_not_ready(server: RunningServer) -> None:
    """R11.4: a seated player who is not ready in time is removed from the table."""

    async def scenario() -> None:
        bo = await server.player("Bo")
        await bo.join("brief")
        await bo.until(lambda t: t["you"] == 0)
        await bo.ready()  # Bo readies in time, Ana does not
        await bo.until(lambda t: t["seats"][0]["ready"])
        ana = await server.player("Ana")
        await ana.join("brief")
        await ana.until(lambda t: t["you"] == 1 and t["seats"][1]["ready_deadline"] is not None)
        assert await closed_reason(ana) == "not_ready"
        table = await bo.until(lambda t: t["seats"][1] is None)
        assert table["phase"] == "waiting" and table["seats"][0]["ready"]
        # Ana may sit down again.
        again = await server.again(ana)
        await again.join("points")
        await again.until(lambda t: t["room"] == "points")

    run(scenario())


def test_a_ready_player_who_drops_before_the_game_is_not_dealt_in(server: RunningServer) -> None:
    """R11.4, R11.5: a player who was ready and disconnects before the game starts is no
    longer ready, so no game starts against an absent player; the ready timer then frees the seat."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("brief")
        await ana.until(lambda t: t["you"] == 0)
        await ana.ready()
        await ana.until(lambda t: t["seats"][0]["ready"])
        await ana.close()
        bo = await server.player("Bo")
        await bo.join("brief")
        await bo.until(lambda t: t["you"] == 1)
        await bo.ready()
        table = await bo.until(lambda t: t["seats"][0] is None or t["phase"] == "playing")
        assert table["phase"] == "waiting" and table["seats"][1]["ready"]

    run(scenario())


# ---------------------------------------------------------------------------
# Escapes


def test_escape_in_settle_mode_ends_and_settles_the_game(server: RunningServer) -> None:
    """R10.2, R10.3: leaving mid-game ends the game at once with the escape settlement."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        # Turns are played until the escaper has played a card (R10.3's normal loss applies).
        # A seat that cannot beat is passed at once (R2.6), so a seat on turn can play cards:
        # the first hint that does is taken (a hint may also be to pass).
        ana_played = False
        while not ana_played:
            player = ana if my_turn(ana.table or {}) else bo
            assert my_turn(player.table or {})
            seq = player.seq
            moves = await player.hint()
            move = next(m for m in moves if "cards" in m)
            await player.play(move["cards"], move["as"])
            await player.until(lambda t, seq=seq: t["seq"] > seq)
            await (bo if player is ana else ana).until(lambda t, seq=seq: t["seq"] > seq)
            ana_played = player is ana
        assert ana.table is not None
        announced = ana.table["escape_cost"]
        left = await ana.leave()
        assert left["escape"] and not left["hosted"]
        final = await bo.until(lambda t: t["phase"] == "settled" and t["seats"][0] is None)
        settlement = final["settlement"]
        assert final["game"]["result"] == "escape" and settlement["result"] == "escape"
        assert settlement["escaper"] == 0 and settlement["winner"] == 1 and settlement["escaper_played"]
        assert settlement["penalty"] == settlement["match_points"] * 12
        assert settlement["deltas"][0] < 0 < settlement["deltas"][1]
        assert {"type": "escape", "seat": 0, "cause": "escape"} in bo.events
        await check_settlement(server, (ana, bo), final)
        # R10.3: the cost announced before leaving, and the one reported after, is what the
        # ledger charged: the penalty, the normal loss and Bo's contribution.
        assert announced == left["charged"]
        assert announced["charge"] == -settlement["deltas"][0] == announced["owed"] > announced["penalty"]
        assert announced["penalty"] == settlement["penalty"]
        entries = (await server.aadmin("GET", f"ledger?game={final['game_id']}"))["entries"]
        assert next(e["delta"] for e in entries if e["account"] == ana.id) == -announced["charge"]
        # The escaper's connection stayed open: free to sit down again at once (quick match
        # finds Bo's table, where a seat is free).
        assert ana.table is None
        await ana.join("points")
        await ana.until(lambda t: t["you"] == 0 and t["seats"][1]["account"] == bo.account["id"])

    run(scenario())


@pytest.mark.parametrize(("room", "penalty", "house"), [("points", 720, 0), ("wealth", 6000, 1800)])
def test_escape_before_playing_a_card_pays_the_penalty_only(
    server: RunningServer, room: str, penalty: int, house: int
) -> None:
    """R10.3, R9.7: an escaper who has not played pays P = X x 12 and nothing more; the
    opponent receives escape_share of it (points 1.0: X = 60 at 1000 points; wealth 0.7: X = 500
    at 100000 coins) and the house the rest, in the ledger too."""

    async def scenario() -> None:
        players = await start_game(server, room)
        escaper = next(p for p in players if not my_turn(p.table or {}))
        other = players[0] if escaper is players[1] else players[1]
        seat = escaper.seat
        assert seat is not None and escaper.table is not None
        cost = {"mode": "settle", "penalty": penalty, "owed": penalty, "fee": 0, "charge": penalty}
        assert escaper.table["escape_cost"] == cost  # R10.3: exact before leaving
        left = await escaper.leave()
        assert left["charged"] == cost
        final = await other.until(lambda t: t["phase"] == "settled")
        settlement = final["settlement"]
        assert settlement["escaper"] == seat and not settlement["escaper_played"]
        assert settlement["penalty"] == penalty == -settlement["deltas"][seat]
        assert settlement["deltas"][1 - seat] == penalty - house and settlement["house"] == house
        await check_settlement(server, players, final)

    run(scenario())


def test_escape_in_host_mode_is_hosted_to_the_end_then_settled(server: RunningServer) -> None:
    """R10.1: in a room with escape_mode = "host" the escaper's seat is played by hosting to
    the end, then the game is settled normally."""

    async def scenario() -> None:
        ana, bo = await start_game(server, "hosted")
        table = ana.table
        assert table is not None
        # R10.1: no penalty; the game is settled normally at its end.
        hosted = {"mode": "host", "penalty": 0, "owed": None, "fee": None, "charge": None}
        assert table["escape_cost"] == hosted
        left = await ana.leave()
        assert left == {"type": "left", "table": table["id"], "escape": True, "hosted": True, "charged": hosted}
        await bo.until(lambda t: t["game"]["hosting"][0])
        assert {"type": "hosting", "seat": 0, "cause": "escape", "on": True} in bo.events
        # Still bound to the hosted seat: no second table meanwhile.
        await ana.join("points")
        assert (await ana.next_error())["code"] == "already_seated"
        final = await take_turns(bo, weakest)
        assert final["phase"] == "settled"
        assert final["settlement"]["result"] in ("flat", "single", "double")
        assert final["settlement"]["escaper"] is None and final["settlement"]["penalty"] == 0
        assert final["seats"][0] is None  # freed after the settlement
        await check_settlement(server, (ana, bo), final)
        # Once it is settled the escaper, still connected, sits down again.
        await ana.join("points")
        await ana.until(lambda t: t["you"] is not None)

    run(scenario())


@pytest.mark.parametrize("how", ["join", "reconnect"])
def test_an_escaper_in_host_mode_takes_the_seat_back(server: RunningServer, how: str) -> None:
    """R10.1: after leaving a hosted game the player may come back to the seat (``join`` naming
    the table, or a new connection) and watch hosting play it to the end (it stays on), then
    keeps the seat after the settlement like any player and plays the next game."""

    async def scenario() -> None:
        ana, bo = await start_game(server, "hosted")
        table = ana.table
        assert table is not None
        await ana.leave()
        await bo.until(lambda t: t["game"]["hosting"][0])
        if how == "join":
            await ana.join(table=table["id"])
            back = ana
        else:
            await ana.close()
            back = await server.again(ana)
        # Bo's turn: hosting has made seat 0's move, if it had one, and nothing moves until Bo does.
        view = await back.until(lambda t: t["id"] == table["id"] and t["you"] == 0 and t["game"]["to_act"] == 1)
        assert view["game"]["hosting"][0]
        await back.send({"type": "hosting", "on": False})
        assert (await back.next_error())["code"] == "escaped"  # the escaped seat stays hosted
        final, _ = await asyncio.gather(
            back.until(lambda t: t["phase"] == "settled", timeout=30), take_turns(bo, weakest)
        )
        assert final["settlement"]["escaper"] is None
        assert final["seats"][0] is not None and final["seats"][0]["account"] == back.account["id"]
        await check_settlement(server, (back, bo), final)
        await back.ready()
        await bo.ready()
        again = await back.until(lambda t: t["phase"] == "playing" and t["game_id"] != final["game_id"])
        assert not again["game"]["hosting"][0]

    run(scenario())


# ---------------------------------------------------------------------------
# Lobby: wealth entry, invites, spectators


def test_wealth_room_refuses_a_player_below_its_entry_level(server: RunningServer) -> None:
    """R9.4: a player below the first level of a wealth room may not sit down (nor get ready)."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        balance = ana.account["balances"]["wealth"]
        await server.aadmin(
            "POST", "grant", {"account": ana.id, "edition": "wealth", "delta": 50 - balance, "reason": "test"}
        )
        await ana.join("wealth")
        error = await ana.next_error()
        assert error["code"] == "below_entry"
        assert ana.table is None
        # Nor at an invite table of the room.
        cy = await server.player("Cy")
        await cy.join("wealth", opponent="invite")
        invite = await cy.until(lambda t: t["you"] == 0)
        await ana.join(table=invite["id"])
        assert (await ana.next_error())["code"] == "below_entry"
        await cy.settle_quietly()
        assert (cy.table or {})["seats"][1] is None
        # Seated with enough coins, then below the entry level: ready is refused.
        bo = await server.player("Bo")
        await bo.join("wealth")
        await bo.until(lambda t: t["you"] == 0)
        balance = bo.account["balances"]["wealth"]
        await server.aadmin(
            "POST", "grant", {"account": bo.id, "edition": "wealth", "delta": 99 - balance, "reason": "test"}
        )
        await bo.ready()
        assert (await bo.next_error())["code"] == "below_entry"
        await bo.settle_quietly()
        assert not (bo.table or {})["seats"][0]["ready"]

    run(scenario())


def test_invite_tables_are_private(server: RunningServer) -> None:
    """``join`` with opponent "invite" makes a private table: joined by its id, never by quick match."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("points", opponent="invite")
        table = await ana.until(lambda t: t["you"] == 0)
        stranger = await server.player("Stranger")
        await stranger.join("points")
        other = await stranger.until(lambda t: t["you"] is not None)
        assert other["id"] != table["id"] and other["you"] == 0
        bo = await server.player("Bo")
        await bo.join(table=table["id"])
        await bo.until(lambda t: t["you"] == 1 and t["id"] == table["id"])
        await ana.ready()
        await bo.ready()
        await ana.until(lambda t: t["phase"] == "playing")
        # A third player cannot take a seat at the full table.
        await stranger.leave()
        await stranger.join(table=table["id"])
        assert (await stranger.next_error())["code"] == "table_full"

    run(scenario())


def test_spectators_see_the_public_view(server: RunningServer) -> None:
    """A spectator sees the table without any hand and may not act."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        assert ana.table is not None
        watcher = await server.player("Watcher")
        await watcher.send({"type": "watch", "table": ana.table["id"]})
        view = await watcher.until(lambda t: t["phase"] == "playing")
        assert view["you"] is None and "hand" not in view["game"] and view["game"]["cards_left"] == [27, 27]
        await watcher.send({"type": "hint"})
        assert (await watcher.next_error())["code"] == "not_seated"
        await watcher.send({"type": "watch", "table": "nope"})
        assert (await watcher.next_error())["code"] == "unknown_table"
        await watcher.close()
        final = await play_out((ana, bo), (weakest, weakest))
        assert final[0]["phase"] == "settled"

    run(scenario())


def test_a_spectator_watches_one_table_at_a_time(server: RunningServer) -> None:
    """Watching another table stops watching the first: the first, once empty, closes
    instead of lingering for a spectator who left it."""

    async def scenario() -> None:
        ana, bo = await server.player("Ana"), await server.player("Bo")
        await ana.join("points", opponent="invite")
        first = await ana.until(lambda t: t["you"] == 0)
        await bo.join("points", opponent="invite")
        second = await bo.until(lambda t: t["you"] == 0)
        watcher = await server.player("Watcher")
        for table in (first, second):
            await watcher.send({"type": "watch", "table": table["id"]})
            await watcher.until(lambda t, table=table: t["id"] == table["id"])
        await ana.leave()
        await ana.close()
        deadline = asyncio.get_running_loop().time() + 5
        while (await server.ahttp("GET", "/healthz"))[1]["tables"] != 1:
            assert asyncio.get_running_loop().time() < deadline, "the abandoned table is still open"
            await asyncio.sleep(0.02)
        # The watcher still sees the second table.
        await bo.ready()
        await watcher.until(lambda t: t["seats"][0]["ready"])
        assert watcher.table is not None and watcher.table["id"] == second["id"]

    run(scenario())


# ---------------------------------------------------------------------------
# Operations


def test_health_and_metrics_after_a_game(server: RunningServer) -> None:
    """/healthz answers; /metrics counts actions, settlements and connections."""

    async def scenario() -> None:
        status, health = await server.ahttp("GET", "/healthz")
        assert status == 200 and health["status"] == "ok" and health["accepting"]
        ana, bo = await start_game(server)
        await play_out((ana, bo), (weakest, passive))
        status, text = await server.ahttp("GET", "/metrics")
        assert status == 200
        values = {
            line.split()[0]: float(line.split()[1])
            for line in text.splitlines()
            if line and not line.startswith("#")
        }
        assert values["shuangkou_actions_total"] > 0
        assert values["shuangkou_settlements_total"] >= 1
        assert values["shuangkou_games_total"] >= 1
        assert values["shuangkou_connections"] >= 2
        assert "shuangkou_action_seconds_count" in values
        status, health = await server.ahttp("GET", "/healthz")
        assert health["tables"] >= 1

    run(scenario())


def test_operator_lists_accounts_games_and_rooms(server: RunningServer) -> None:
    """The operator API with the operator token."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        accounts = (await server.aadmin("GET", "accounts"))["accounts"]
        assert any(a["id"] == ana.id and a["name"] == "Ana" for a in accounts)
        status, rooms = await server.ahttp("GET", "/api/rooms")
        assert status == 200 and {r["name"] for r in rooms["rooms"]} >= {"points", "wealth", "fast"}
        assert (await server.aadmin("GET", "games"))["games"] == []
        reloaded = await server.aadmin("POST", "rooms/reload")
        assert "points" in reloaded["loaded"]
        await server.aadmin("POST", "rooms/brief/close")
        await ana.join("brief")
        assert (await ana.next_error())["code"] == "room_closed"
        status, _ = await server.ahttp("GET", "/api/admin/accounts", token=OPERATOR_TOKEN + "x")
        assert status == 401

    run(scenario())


def test_quick_match_seats_two_waiting_players_together(server: RunningServer) -> None:
    """Quick match pairs the next two players of a room; a third gets a new table."""

    async def scenario() -> None:
        ana, _ = await seat_two(server)
        cy = await server.player("Cy")
        await cy.join("points")
        view = await cy.until(lambda t: t["you"] is not None)
        assert view["id"] != (ana.table or {})["id"] and view["you"] == 0
        await cy.join("points")
        assert (await cy.next_error())["code"] == "already_seated"
        # Six players joining at once make three full tables.
        crowd = [await server.player(f"P{i}") for i in range(6)]
        await asyncio.gather(*(player.join("wealth") for player in crowd))
        views = await asyncio.gather(*(player.until(lambda t: None not in t["seats"]) for player in crowd))
        tables: dict[str, set[int]] = {}
        for player, view in zip(crowd, views, strict=True):
            tables.setdefault(view["id"], set()).add(player.id)
        assert sorted(len(ids) for ids in tables.values()) == [2, 2, 2]

    run(scenario())


def test_a_waiting_client_can_be_cancelled(server: RunningServer) -> None:
    """A task waiting in the client is cancelled at once, even while messages keep coming."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        for player in (ana, bo):
            await player.hosting(True)  # the game plays itself: a stream of states
        waiting = asyncio.create_task(bo.until(lambda t: t["phase"] == "never"))
        await ana.until(lambda t: len(t["game"]["plays"]) >= 3)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await asyncio.wait_for(waiting, 2)

    run(scenario())


def test_client_error_is_raised_for_refusals(server: RunningServer) -> None:
    """The client's ``until`` raises the server's refusals and the end of the connection."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("nowhere")
        with pytest.raises(ClientError) as caught:
            await ana.until(lambda t: True)
        assert caught.value.code == "unknown_room"
        # A connection closed by the server ends the wait with the reason.
        await ana.join("points")
        await ana.until(lambda t: t["you"] == 0)
        await server.again(ana)
        with pytest.raises(ClientError) as caught:
            await ana.until(lambda t: False)
        assert (caught.value.code, caught.value.message) == ("closed", "replaced")

    run(scenario())
