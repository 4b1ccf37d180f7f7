"""Four-seat classic tables through real WebSockets (RULES-CLASSIC; shared rules by their R
id): quick match for four, bots in the empty seats, one settlement for four accounts, escape
with the other three playing on, no hand (the partner's included) in any other seat's
messages."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from server_fixtures import (
    ROOMS,
    Chooser,
    Player,
    RunningServer,
    act,
    check_settlement,
    my_turn,
    passive,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    shedding,
    start_server_fixture,  # noqa: F401
    take_turns,
    weakest,
)

from shuangkou.games.shuangkou.bots import Seen, hint_moves
from shuangkou.games.shuangkou.config import RoomConfig, load_config
from shuangkou.games.shuangkou.game import Game, Pass, Play
from shuangkou.server.client import ClientError
from shuangkou.server.lobby import SHIPPED_ROOMS, Lobby
from shuangkou.store import Store

StartServer = Callable[..., RunningServer]


async def run_db(function: Callable[[], Any]) -> Any:
    return function()


def test_the_lobby_opens_rooms_of_both_kinds(tmp_path: Path) -> None:
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "points.toml").write_text('edition = "points"\n')
    (rooms / "classic.toml").write_text('edition = "points"\n[table]\nseats = 4\n')
    store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
    try:
        lobby = Lobby(store, run_db, rooms, bot_delay=0.0)
        assert lobby.reload_rooms() == {"loaded": ["classic", "points"], "errors": {}}
        seats = {summary["name"]: summary["seats"] for summary in lobby.summary()}
        assert seats == {"classic": 4, "points": 2}
    finally:
        store.close()


def test_the_server_ships_two_rush_rooms_and_two_classic_rooms() -> None:
    assert SHIPPED_ROOMS == ("points", "wealth", "classic", "qianbian")
    assert [load_config(name).seats for name in SHIPPED_ROOMS] == [2, 2, 4, 4]

CLASSIC_ROOM = (
    'edition = "points"\nname = "Classic"\n'
    '[rules]\nwild_jokers = "none"\nthree_joker_bomb = false\n'
    '[timers]\nturn_seconds = 30\nready_seconds = 30\n'
    '[escape]\nescape_mode = "host"\n'
    "[table]\nseats = 4\n"
)
FOUR_ROOMS = {**ROOMS, "classic": CLASSIC_ROOM}


async def seat_four(server: RunningServer, names: tuple[str, ...] = ("Ana", "Bo", "Cy", "Di")) -> list[Player]:
    """Four new players at one table by quick match, in seats 0–3 in the order they came."""
    players = []
    for index, name in enumerate(names):
        player = await server.player(name)
        await player.join("classic")
        await player.until(lambda t, index=index: t["you"] == index)
        players.append(player)
    ids = {player.table["id"] for player in players if player.table is not None}
    assert len(ids) == 1, "quick match seats four at one table"
    return players


async def start_four(server: RunningServer) -> list[Player]:
    players = await seat_four(server)
    for player in players:
        await player.ready()
    for player in players:
        await player.until(lambda t: t["phase"] == "playing")
    return players


def _walk(value: Any, path: str = "") -> list[tuple[str, str, Any]]:
    found = []
    if isinstance(value, dict):
        for key, item in value.items():
            found.append((path, key, item))
            found.extend(_walk(item, f"{path}.{key}"))
    elif isinstance(value, list):
        for item in value:
            found.extend(_walk(item, path))
    return found


def test_four_players_by_quick_match_play_a_game_to_the_end_and_are_settled_once(
    start_server: StartServer,
) -> None:
    """C1.1, C2.1–C2.2, C3.2, C5.8: four strangers, teams 0+2 and 1+3, each seat's view; one
    settlement of four accounts and the house, equal to the ledger."""
    server = start_server(rooms=FOUR_ROOMS, seed=7)

    async def scenario() -> None:
        players = await start_four(server)
        first = players[0].table
        assert first is not None
        game_id = first["game_id"]
        for seat, player in enumerate(players):
            view = player.table
            assert view is not None and view["you"] == seat and len(view["seats"]) == 4
            assert view["game"]["teams"] == [0, 1, 0, 1] and view["game"]["cards_left"] == [27] * 4
            assert len(view["game"]["hand"]) == 27
        choosers = [shedding, weakest, shedding, weakest]
        pairs = zip(players, choosers, strict=True)
        turns = [take_turns(player, chooser, game_id, timeout=30) for player, chooser in pairs]
        finals = await asyncio.gather(*turns)
        table = await players[0].until(lambda t: t["phase"] == "settled")
        settlement = table["settlement"]
        assert settlement["result"] in ("double", "single", "draw")
        assert settlement["finish_order"] == table["game"]["finish_order"]
        assert sorted(settlement["winners"]) == table["game"]["winners"]
        assert sum(settlement["deltas"]) + settlement["house"] == 0
        await check_settlement(server, tuple(players), table)
        assert all(final["game_id"] == game_id for final in finals)

    run(scenario(), timeout=120)


def test_no_hand_reaches_another_seat_partner_included(start_server: StartServer) -> None:
    """Per-seat views: every message each of the four receives holds its own hand only,
    until the game is over and ``revealed`` shows every hand still held (C5.8)."""
    server = start_server(rooms=FOUR_ROOMS, seed=11)

    async def scenario() -> None:
        players = await start_four(server)
        game_id = players[0].table["game_id"] if players[0].table else None
        hands = [set(player.table["game"]["hand"]) if player.table else set() for player in players]
        await asyncio.gather(*(take_turns(p, weakest, game_id, timeout=30) for p in players))
        for seat, player in enumerate(players):
            for message in player.log:
                for path, key, value in _walk(message):
                    assert key not in ("hands", "unseen"), (path, key)
                    if key == "hand":
                        assert path.endswith(".game") and message["table"]["you"] == seat
                        assert set(value) <= hands[seat]
                    if key == "revealed" and value is not None:  # 亮牌 only once the game is over
                        assert message["table"]["game"]["finished"]
                        assert all(set(shown) <= hands[other] for other, shown in enumerate(value))
                        assert [len(shown) for shown in value] == message["table"]["game"]["cards_left"]

    run(scenario(), timeout=120)


def test_one_player_with_three_bots(start_server: StartServer) -> None:
    """'Play with bots' seats three bots at once; the game runs to its settlement."""
    server = start_server(rooms=FOUR_ROOMS)

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("classic", "bot")
        table = await ana.until(lambda t: all(seat is not None for seat in t["seats"]))
        assert [seat["bot"] for seat in table["seats"]] == [False, True, True, True]
        await ana.ready()
        await ana.until(lambda t: t["phase"] == "playing")
        final = await take_turns(ana, weakest, timeout=30)
        assert final["phase"] == "settled" and final["settlement"]["result"] in ("double", "single", "draw")
        await check_settlement(server, (ana,), final)

    run(scenario(), timeout=120)


def test_an_invite_table_fills_its_remaining_seats_with_bots_on_request(start_server: StartServer) -> None:
    server = start_server(rooms=FOUR_ROOMS)

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("classic", "invite")
        table = await ana.until(lambda t: t["you"] == 0)
        bo = await server.player("Bo")
        await bo.join(table=table["id"])
        await bo.until(lambda t: t["you"] == 1)
        await bo.send({"type": "bots"})
        full = await ana.until(lambda t: all(seat is not None for seat in t["seats"]))
        assert [seat["bot"] for seat in full["seats"]] == [False, False, True, True]
        for player in (ana, bo):
            await player.ready()
        await ana.until(lambda t: t["phase"] == "playing")
        await bo.send({"type": "bots"})
        try:
            await bo.expect("pong", timeout=5)
            raise AssertionError("bots during a game must be refused")
        except ClientError as refused:
            assert refused.code == "in_game"

    run(scenario(), timeout=60)


def test_escape_in_host_mode_the_other_three_play_on(start_server: StartServer) -> None:
    """C6.1: the escaper's seat is hosted to the end; the game is settled with its penalty."""
    server = start_server(rooms=FOUR_ROOMS, seed=5)

    async def scenario() -> None:
        players = await start_four(server)
        game_id = players[0].table["game_id"] if players[0].table else None
        cost = players[1].table["escape_cost"] if players[1].table else None
        left = await players[1].leave()
        assert left["escape"] and left["hosted"]
        assert cost is not None and cost == left["charged"] and cost["charge"] is None  # settled at the end
        others = [players[0], players[2], players[3]]
        await others[0].until(lambda t: t["game"]["hosting"][1] and t["game"]["escaped"] == 1)
        await asyncio.gather(*(take_turns(p, weakest, game_id, timeout=30) for p in others))
        final = await others[0].until(lambda t: t["phase"] == "settled")
        settlement = final["settlement"]
        assert settlement["escaper"] == 1 and settlement["penalty"] == cost["penalty"] > 0  # C6.1
        assert settlement["escape_payments"][1] == -settlement["penalty"]
        await check_settlement(server, tuple(others), final)

    run(scenario(), timeout=120)


def test_a_passive_seat_still_lets_the_game_end(start_server: StartServer) -> None:
    """C2.1: passes never end a round early; a seat that only passes when it may still
    lets the others finish."""
    server = start_server(rooms=FOUR_ROOMS, seed=2)

    async def scenario() -> None:
        players = await start_four(server)
        game_id = players[0].table["game_id"] if players[0].table else None
        choosers = [weakest, passive, shedding, passive]
        await asyncio.gather(
            *(take_turns(p, c, game_id, timeout=30) for p, c in zip(players, choosers, strict=True))
        )
        final = await players[0].until(lambda t: t["phase"] == "settled")
        assert len(final["settlement"]["deltas"]) == 4
        assert not my_turn(final)

    run(scenario(), timeout=120)


async def turns_until(
    players: list[Player], choose: Chooser, done: Callable[[dict[str, Any]], bool]
) -> dict[str, Any]:
    """The players take their turns with ``choose`` until ``done`` holds for the first
    player's view (or the game is over); returns that view."""
    while True:
        for player in players:
            await player.settle_quietly()
        view = players[0].table
        assert view is not None
        if view["phase"] != "playing" or done(view):
            return view
        mover = next((player for player in players if player.table and my_turn(player.table)), None)
        if mover is None:
            await asyncio.sleep(0.02)  # a hosted seat is to act: the server moves it
            continue
        await act(mover, choose)


def test_C6_a_player_who_is_out_leaves_without_escaping(start_server: StartServer) -> None:
    server = start_server(rooms=FOUR_ROOMS, seed=4)

    async def scenario() -> None:
        players = await start_four(server)
        view = await turns_until(players, shedding, lambda v: bool(v["game"]["finish_order"]))
        assert view["phase"] == "playing", "the game went on after the first player out"
        out = view["game"]["finish_order"][0]
        costs = [player.table["escape_cost"] if player.table else None for player in players]
        assert costs[out] is None  # leaving costs nothing once out
        assert all(cost and cost["penalty"] for seat, cost in enumerate(costs) if seat != out)
        left = await players[out].leave()
        assert left == {"type": "left", "table": view["id"], "escape": False, "hosted": False, "charged": None}
        others = [player for seat, player in enumerate(players) if seat != out]
        final = await turns_until(others, shedding, lambda v: False)
        final = await others[0].until(lambda t: t["phase"] == "settled")
        assert final["settlement"]["escaper"] is None and final["settlement"]["result"] != "escape"
        assert final["seats"][out] is None  # freed once settled
        await check_settlement(server, tuple(others), final)

    run(scenario(), timeout=120)


def test_C6_only_the_first_escape_of_a_game_is_charged(start_server: StartServer) -> None:
    server = start_server(rooms=FOUR_ROOMS, seed=6)

    async def scenario() -> None:
        players = await start_four(server)
        first = await players[1].leave()
        second = await players[3].leave()
        assert (first["escape"], first["hosted"]) == (True, True)
        assert (second["escape"], second["hosted"]) == (False, True)  # hosted as if disconnected
        staying = [players[0], players[2]]
        view = await staying[0].until(lambda t: t["game"]["hosting"] == [False, True, False, True])
        assert view["game"]["escaped"] == 1
        await turns_until(staying, weakest, lambda v: False)
        final = await staying[0].until(lambda t: t["phase"] == "settled")
        assert final["settlement"]["escaper"] == 1
        assert final["settlement"]["escape_payments"][3] == 0

    run(scenario(), timeout=120)


def test_C1_4_the_two_players_change_places_by_the_flip_card(start_server: StartServer, tmp_path: Path) -> None:
    room = CLASSIC_ROOM + "partner_by_flip = true\n"
    path = tmp_path / "flip.toml"
    path.write_text(room)
    config = load_config(str(path))
    seed = next(seed for seed in range(200) if Game.deal(config, seed).swap is not None)
    dealt = Game.deal(config, seed)
    assert dealt.swap is not None
    server = start_server(rooms={**ROOMS, "classic": room}, seed=seed)

    async def scenario() -> None:
        players = await start_four(server)
        moved, partner = dealt.swap or (0, 0)
        seats = {player.id: player.table["you"] for player in players if player.table}
        assert seats[players[moved].id] == partner and seats[players[partner].id] == moved
        for player in players:
            view = player.table
            assert view is not None and view["game"]["swap"] == [moved, partner]
            you = view["you"]
            assert view["seats"][you]["account"] == player.id
            assert view["game"]["hand"] == [str(card) for card in dealt.hands[you]]
        assert {"type": "swap", "seat": moved, "with": partner} in players[0].events

    run(scenario(), timeout=60)


def patient_server(start_server: StartServer, play: str = "") -> RunningServer:
    """A server whose classic room fills its free seats with bots after a wait of 0.3 s
    (``bot_fill_seconds``); ``play``: more keys of its ``[play]`` table."""
    room = CLASSIC_ROOM.replace("[timers]\n", "[timers]\nbot_fill_seconds = 0.3\n")
    room = room.replace('name = "Classic"\n', f'name = "Classic"\n[play]\n{play}')
    return start_server(rooms={**ROOMS, "classic": room})


async def accept_bots(player: Player) -> dict[str, Any]:
    """The player accepts the offer of bots: the two free seats take bots."""
    await player.send({"type": "bots"})
    table = await player.until(lambda t: all(seat is not None for seat in t["seats"]))
    assert [seat["bot"] for seat in table["seats"]] == [False, False, True, True]
    assert [seat["bot_level"] for seat in table["seats"]] == [None, None, "normal", "normal"]
    return table


def test_a_player_waiting_longer_than_bot_fill_seconds_is_offered_bots(start_server: StartServer) -> None:
    server = patient_server(start_server)

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("classic")
        await ana.until(lambda t: t["you"] == 0)
        bo = await server.player("Bo")
        await bo.join("classic")
        await bo.until(lambda t: t["you"] == 1)
        offer = await ana.expect("notice", timeout=5)
        if offer["count"] == 3:  # offered before Bo sat down (a short wait): the next wait's offer
            offer = await ana.expect("notice", timeout=5)
        assert (offer["code"], offer["count"]) == ("bots_offered", 2)
        assert (await bo.expect("notice", timeout=5))["code"] == "bots_offered"
        status, rooms = await server.ahttp("GET", "/api/rooms")
        assert status == 200
        lobby = {room["name"]: room for room in rooms["rooms"]}
        assert lobby["classic"]["free_seats"] == 2 and lobby["classic"]["seats"] == 4
        await accept_bots(ana)
        table = await bo.until(lambda t: all(seat is not None for seat in t["seats"]))
        assert [seat["bot"] for seat in table["seats"]] == [False, False, True, True]

    run(scenario(), timeout=60)


def test_the_offer_of_bots_is_sent_again_to_a_player_who_reconnects_while_it_stands(
    start_server: StartServer,
) -> None:
    """A page reloaded after the ``bots_offered`` notice is told again (the offer stands
    until someone sits down); once someone has, a reconnect brings no offer until the new
    wait is over."""
    server = patient_server(start_server)

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("classic")
        await ana.until(lambda t: t["you"] == 0)
        assert (await ana.expect("notice", timeout=5))["code"] == "bots_offered"
        await ana.close()  # the page reloads: a new connection with the same session
        again = await server.again(ana)
        table = await again.until(lambda t: t["you"] == 0)
        assert table["phase"] == "waiting"
        offer = await again.expect("notice", timeout=1)
        assert (offer["code"], offer["count"]) == ("bots_offered", 3)
        # Bo sits down: a new wait begins, and the old offer no longer stands.
        bo = await server.player("Bo")
        await bo.join("classic")
        await again.until(lambda t: t["seats"][1] is not None)
        await again.close()
        third = await server.again(ana)
        await third.until(lambda t: t["you"] == 0)
        await third.settle_quietly()
        assert not [m for m in third.log if m["type"] == "notice"], "no offer before the new wait is over"
        offer = await third.expect("notice", timeout=5)  # the new wait ends: offered again, for 2 seats
        assert (offer["code"], offer["count"]) == ("bots_offered", 2)
        await accept_bots(third)

    run(scenario(), timeout=60)


def test_bot_fill_auto_seats_bots_once_the_wait_is_over(start_server: StartServer) -> None:
    """The bots play at the room's level; the server stops while they play (expert
    searches pending or running in its worker processes)."""
    server = patient_server(start_server, 'bot_fill = "auto"\nbot_level = "expert"\n')

    async def scenario() -> None:
        ana = await server.player("Ana")
        await ana.join("classic")
        table = await ana.until(lambda t: all(seat is not None for seat in t["seats"]), timeout=5)
        assert [seat["bot"] for seat in table["seats"]] == [False, True, True, True]
        assert [seat["bot_level"] for seat in table["seats"]] == [None, "expert", "expert", "expert"]
        await ana.ready()
        await ana.until(lambda t: t["phase"] == "playing")

    run(scenario(), timeout=60)


def _predicted_result(config: RoomConfig, seed: int, choosers: list[Chooser]) -> str | None:
    """The result of the game a server seeded with ``seed`` deals first, when each seat plays
    its chooser from the moves the server pushes (each legal move once, as a play's body)."""
    game = Game.deal(config, seed)
    while not game.finished:
        seat = game.to_act
        bodies = dict.fromkeys((move.view()["cards"], move.kind) for move in hint_moves(Seen.of(game, seat)))
        moves = [{"cards": cards, "as": kind} for cards, kind in bodies]
        move = choosers[seat](dict(game.view(seat)), moves)
        game.apply(Pass(seat) if move is None else Play.of(seat, move["cards"], move["as"]))
    return game.result


@pytest.mark.parametrize("result", ["double", "single", "draw"])
def test_C3_2_four_players_reach_each_result(start_server: StartServer, tmp_path: Path, result: str) -> None:
    """Four clients over real WebSockets play whole games to a double, a single and a draw
    (the seed whose first deal ends that way, found by playing it in the core first)."""
    path = tmp_path / "classic.toml"
    path.write_text(CLASSIC_ROOM)
    choosers: list[Chooser] = [shedding, weakest, passive, shedding]
    seed = next(seed for seed in range(300) if _predicted_result(load_config(str(path)), seed, choosers) == result)
    server = start_server(rooms=FOUR_ROOMS, seed=seed)

    async def scenario() -> None:
        players = await start_four(server)
        game_id = players[0].table["game_id"] if players[0].table else None
        turns = [take_turns(p, c, game_id, timeout=30) for p, c in zip(players, choosers, strict=True)]
        await asyncio.gather(*turns)
        final = await players[0].until(lambda t: t["phase"] == "settled")
        assert final["settlement"]["result"] == final["game"]["result"] == result
        await check_settlement(server, tuple(players), final)

    run(scenario(), timeout=120)


def test_C6_2_escape_in_settle_mode_ends_the_game_for_all_four(start_server: StartServer) -> None:
    room = CLASSIC_ROOM.replace('escape_mode = "host"', 'escape_mode = "settle"')
    server = start_server(rooms={**ROOMS, "classic": room}, seed=3)

    async def scenario() -> None:
        players = await start_four(server)
        await turns_until(players, weakest, lambda v: v["game"]["seq"] >= 6)
        for player in players:
            await player.settle_quietly()
        announced = players[2].table["escape_cost"] if players[2].table else None
        left = await players[2].leave()
        assert left["escape"] and not left["hosted"]
        final = await players[0].until(lambda t: t["phase"] == "settled")
        settlement = final["settlement"]
        assert settlement["result"] == "escape" and settlement["escaper"] == 2
        # C6.2: what the state announced is what the settlement and the ledger charged.
        assert announced is not None and announced == left["charged"]
        assert announced["charge"] == -settlement["deltas"][2] and announced["penalty"] == settlement["penalty"]
        assert sorted(settlement["winners"]) == [1, 3]
        assert settlement["escape_payments"][0] == 0  # the partner neither pays nor receives D
        assert final["game"]["revealed"] is not None  # every hand still held is shown (C5.8)
        await check_settlement(server, (players[0], players[1], players[3]), final)

    run(scenario(), timeout=60)


def test_C1_1_friends_at_an_invite_table_choose_their_seats(start_server: StartServer) -> None:
    """Joining an invite table by its id may name a free seat: two friends sit opposite,
    as partners (C1.1), whoever joined between them; a seat held, a seat the table does not
    have, and a seat without an invite table are refused, with nothing changed."""
    server = start_server(rooms=FOUR_ROOMS)

    async def scenario() -> None:
        host = await server.player("Host")
        await host.join("classic", opponent="invite")
        table = await host.until(lambda t: t["you"] == 0)
        stranger = await server.player("Stranger")
        await stranger.join(table=table["id"])  # no seat named: the first free one
        await stranger.until(lambda t: t["you"] == 1)
        partner = await server.player("Partner")
        await partner.join(table=table["id"], seat=2)
        view = await partner.until(lambda t: t["you"] == 2)
        assert [seat["name"] if seat else None for seat in view["seats"]] == ["Host", "Stranger", "Partner", None]
        late = await server.player("Late")
        await late.join(table=table["id"], seat=0)
        refused = await late.next_error()
        assert refused["code"] == "seat_taken" and "free: 3" in refused["message"]
        await late.join(table=table["id"], seat=4)
        refused = await late.next_error()
        assert refused["code"] == "bad_seat" and "seats 0 to 3" in refused["message"]
        await late.join("classic", seat=3)
        assert (await late.next_error())["code"] == "bad_message"  # no table named
        quick = await server.player("Quick")
        await quick.join("classic")
        quick_table = await quick.until(lambda t: t["you"] is not None)
        await late.join(table=quick_table["id"], seat=3)
        assert (await late.next_error())["code"] == "bad_message"  # not an invite table
        assert late.table is None
        await late.join(table=table["id"], seat=3)
        view = await late.until(lambda t: t["you"] == 3)
        assert [seat["name"] for seat in view["seats"]] == ["Host", "Stranger", "Partner", "Late"]
        assert server.errors == [], "a refused seat is no server error"

    run(scenario(), timeout=60)
