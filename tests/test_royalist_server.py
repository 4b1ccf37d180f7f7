"""Royalist at the generic server's five-seat tables, over real WebSockets.

Five persons sit at one invite table of the shipped ``royalist`` room (its timers short)
on a seeded server, a spectator watches, and two whole games are played to their
settlement: the first a guard game (the first holder of BJ* abdicates, Y2.2; the next
ascends, Y2.1; one seat revolts, the others stay hidden, one seat leaves its declaration
to its timer, Y2.6, Y8.1, Y13.4; one seat leaves a turn of play to its timer, R11.3), the
second a secret solo (Y2.5) with the four declarations answered at once against the same
state. Checked: each settlement is paid by the ledger for the five accounts and the house,
summing to zero (Y7); no state before the end showed another seat's hand, the guard's seat
to anyone but the guard, or "solo" to anyone but the emperor until an event made it public,
and the spectator saw no hand and no hidden role (Y2.9, Y2.10); stale, out-of-turn and
wrong-phase messages are refused with the game's codes and change nothing (Y13.3).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any

from royalist_players import SHIPPED, room_text, waits_for
from server_fixtures import (
    Player,
    RunningServer,
    check_settlement,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)

from shuangkou.games.royalist.config import load_room
from shuangkou.games.royalist.deck import EMPEROR_CARD, GUARD_CARD, parse_hand
from shuangkou.games.royalist.game import Pass, Play, RoyalistHand, Timeout, deal_hand
from shuangkou.games.royalist.wire import moves

DECISION_SECONDS = 2.0
TURN_SECONDS = 4.0


def quick_room() -> str:
    """The shipped ``royalist`` room with short decision and turn timers, no bot fill."""
    return room_text(decision_seconds=DECISION_SECONDS, turn_seconds=TURN_SECONDS, bot_fill_seconds=0)


def holders(hand: RoyalistHand) -> tuple[int, int]:
    """The seats holding BJ* and SJ*."""
    return hand.holder_of(EMPEROR_CARD), hand.holder_of(GUARD_CARD)


def pick_seed(room_file: Path) -> int:
    """A server seed whose first deal is a guard game even after one abdication and whose
    second deal (the next first taker, Y1.5) gives both marked cards to one seat."""
    room = load_room(room_file)
    for seed in range(1, 1000):
        first = deal_hand(room, seed)
        emperor, guard = holders(first)
        if guard in (emperor, (emperor + 1) % 5):
            continue
        second = deal_hand(room, seed + 1, (first.first_taker + 1) % 5)
        if len(set(holders(second))) == 1:
            return seed
    raise AssertionError("no seed found")


async def refused(player: Player, message: dict[str, Any], timeout: float = 10.0) -> str:
    """Send ``message``, receive (states of others' actions allowed) until the error; its
    code. The player's own game state must not have changed because of it."""
    await player.send(message)
    while True:
        reply = await player.receive(timeout)
        if reply["type"] == "error":
            return str(reply["code"])
        assert reply["type"] in ("state", "hint"), reply


class Person:
    """One person's part in a game: its decisions by message or left to its timer."""

    def __init__(self, player: Player, plan: dict[str, Any]) -> None:
        self.player = player
        self.plan = plan
        self.sent: list[tuple[str, int]] = []  # (message type, seq) of the game messages sent
        self.refusals: list[str] = []

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append((message["type"], message["seq"]))
        await self.player.send(message)

    async def play_game(self, game_id: str) -> dict[str, Any]:
        """Act whenever the game waits for this seat, until it is over; the last view."""
        p = self.player
        checked_emperor = False
        while True:
            def wakes(t: dict[str, Any], checked: bool = checked_emperor) -> bool:
                return t["game_id"] == game_id and (
                    t["phase"] != "playing" or waits_for(t, t["you"])
                    or (t["game"]["phase"] == "declare" and t["game"]["roles"]["emperor"] == t["you"] and not checked))

            table = await p.until(wakes, timeout=60)
            if table["phase"] != "playing":
                return table
            game, seat, seq = table["game"], table["you"], table["seq"]
            if game["phase"] == "declare" and game["roles"]["emperor"] == seat:
                checked_emperor = True
                if self.plan.get("emperor_declares"):  # Y13.3: only the four others are asked
                    self.refusals.append(await refused(p, {"type": "declaration", "seq": seq, "declare": False}))
                continue
            if game["phase"] == "throne":
                await self.throne(table)
            elif game["phase"] == "declare":
                await self.declare(table)
            else:
                await self.turn(table)

    async def throne(self, table: dict[str, Any]) -> None:
        seq = table["seq"]
        choices = await self.player.hint()
        if self.plan.pop("abdicate", False):
            assert {"type": "abdicate"} in choices
            await self.send({"type": "abdicate", "seq": seq})
            after = await self.player.until(lambda t: t["seq"] > seq)
            # Y13.3: the offer moved on; an answer against the old offer is stale.
            assert after["game"]["candidate"] == (table["you"] + 1) % 5
            self.refusals.append(await refused(self.player, {"type": "ascend", "seq": seq}))
            return
        assert choices[0] == {"type": "ascend"}
        await self.send({"type": "ascend", "seq": seq})
        await self.player.until(lambda t: t["seq"] > seq)

    async def declare(self, table: dict[str, Any]) -> None:
        game, seat = table["game"], table["you"]
        if self.plan.get("declaration") == "timer":  # Y8.1, Y13.4: the default, stay hidden
            await self.player.until(lambda t: t["game"]["answered"][seat] or t["phase"] != "playing",
                                    timeout=DECISION_SECONDS + 10)
            return
        choices = await self.player.hint()
        assert choices == [{"type": "declaration", "declare": False}, {"type": "declaration", "declare": True}]
        revolt = bool(self.plan.get("revolt")) and game["role"] == "revolutionary"
        await self.send({"type": "declaration", "seq": table["seq"], "declare": revolt})
        await self.player.until(lambda t: t["game"]["answered"][seat] or t["game"]["phase"] != "declare")
        if self.plan.pop("declare_twice", False) and self.player.table and self.player.table["game"]["phase"] == (
                "declare"):
            seq = self.player.seq
            self.refusals.append(await refused(self.player, {"type": "declaration", "seq": seq, "declare": True}))

    async def turn(self, table: dict[str, Any]) -> None:
        p, seq = self.player, table["seq"]
        if self.plan.pop("stale_pass", False):  # a message against a state of an earlier turn
            self.refusals.append(await refused(p, {"type": "pass", "seq": 0}))
        if self.plan.pop("wrong_phase", False):  # Y2.6: the declarations are over
            self.refusals.append(await refused(p, {"type": "ascend", "seq": seq}))
        if self.plan.pop("turn_timer", False):  # R11.3, Y8.2: the timer plays the hosting move
            await p.until(lambda t: t["seq"] > seq, timeout=TURN_SECONDS + 10)
            return
        moves = await p.hint()
        assert p.table is not None and p.table["seq"] == seq
        plays = [move for move in moves if move["type"] == "play"]
        # Lead the set with the most cards; follow with the smallest beating set (Y4.7), or pass.
        move = max(plays, key=lambda m: len(m["cards"].split())) if table["game"]["table"] is None else moves[0]
        await self.send({**move, "seq": seq})
        await p.until(lambda t: t["seq"] > seq)


def states_of(log: list[dict[str, Any]], game_id: str) -> list[tuple[dict[str, Any], list[dict[str, Any]]]]:
    """Each state of the game a client received, with every event it had received up to it."""
    seen: list[dict[str, Any]] = []
    found = []
    for message in log:
        if message["type"] != "state":
            continue
        seen = [*seen, *message["events"]]
        if message["table"]["game_id"] == game_id:
            found.append((message["table"], seen))
    return found


def public_guard(events: list[dict[str, Any]]) -> bool:
    """An event has made the guard's seat public (Y2.7, Y2.9)."""
    return any((e["type"] == "declarations" and e.get("guard") is not None)
               or (e["type"] == "reveal" and e.get("role") == "guard") for e in events)


def public_solo(events: list[dict[str, Any]]) -> bool:
    """An event has made the solo public (包, a successful revolt, SJ* played)."""
    return any((e["type"] == "ascend" and e.get("solo") == "open")
               or (e["type"] == "declarations" and e.get("solo") is not None)
               or (e["type"] == "reveal" and e.get("role") == "solo") for e in events)


def check_secrets(log: list[dict[str, Any]], viewer: int | None, final: dict[str, Any]) -> int:
    """Y2.10 over every state of the finished game ``final`` the viewer (None: spectator)
    received before the end; the number of such states."""
    game_id, roles = final["game_id"], final["game"]["roles"]
    emperor, guard, solo = roles["emperor"], roles["guard"], roles["solo"]
    checked = 0
    for table, events in states_of(log, game_id):
        game = table["game"]
        if game["finished"]:
            continue
        checked += 1
        assert table["you"] == viewer
        assert game["revealed"] is None and game["units"] is None
        assert all("hands" not in event for event in events if event["type"] != "end")
        if viewer is None:
            assert "hand" not in game and "role" not in game and "known_roles" not in game
            assert "tributes" not in game and "declared" not in game
        else:
            assert game["seat"] == viewer and len(game["hand"]) == game["cards_left"][viewer]
            assert all(t["seat"] == viewer or t["to"] == viewer for t in game["tributes"])
        shown = game["roles"]
        ascended = shown["emperor"] is not None
        if ascended:
            assert shown["emperor"] == emperor
        if guard is not None:  # a guard game: the guard's seat to the guard, else once public
            public = public_guard(events)
            assert shown["guard"] == (guard if ascended and (viewer == guard or public) else None)
            assert game["public_roles"][guard] == ("guard" if public else None)
            if viewer is not None and viewer != guard:
                assert game["known_roles"][guard] == ("guard" if public else None)
                assert game["role"] in (None, "emperor", "revolutionary")
        if solo is not None:  # a solo: "solo" to the emperor, else once public
            public = public_solo(events)
            assert shown["solo"] == (solo if ascended and (viewer == emperor or public) else None)
            assert shown["guard"] is None
        else:
            assert shown["solo"] is None
    return checked


def test_royalist_games_at_a_five_seat_table(start_server: Callable[..., RunningServer], tmp_path: Path) -> None:
    """Y2.1, Y2.2, Y2.5, Y2.6, Y2.9, Y2.10, Y7, Y8.1, Y13.3, Y13.4: five persons and a
    spectator over WebSockets play a guard game and a secret solo to their settlements."""
    room_text = quick_room()
    room_file = tmp_path / "royalist.toml"
    room_file.write_text(room_text)
    seed = pick_seed(room_file)
    server = start_server(rooms={"royalist": room_text}, seed=seed)

    async def scenario() -> tuple[list[Player], Player, list[dict[str, Any]], list[Person]]:
        players = [await server.player(name) for name in ("Ana", "Bob", "Cai", "Dan", "Eve")]
        await players[0].join("royalist", "invite")
        table = await players[0].until(lambda t: t["seats"][0] is not None)
        assert table["family"] == "royalist" and len(table["seats"]) == 5
        for index, player in enumerate(players[1:], 1):
            await player.join(table=table["id"])
            await player.until(lambda t, index=index: t["you"] == index)
        spectator = await server.player("Wu")
        await spectator.watch(table["id"])
        await spectator.until(lambda t: all(seat is not None for seat in t["seats"]))
        for player in players:
            await player.ready()
        for player in players:
            dealt = await player.until(lambda t: t["phase"] == "playing")

        # The first game: a guard game after one abdication.
        game = dealt["game"]
        holder = game["candidate"]
        assert game["phase"] == "throne" and game["emperor_card"] == holder
        other = players[(holder + 1) % 5]
        seq = other.seq
        assert await refused(other, {"type": "ascend", "seq": seq}) == "not_your_turn"  # Y2.1: not offered
        assert await refused(players[holder], {"type": "pass", "seq": seq}) == "bad_action"  # ascend or abdicate
        assert await refused(players[holder], {"type": "play", "seq": seq, "cards": "6"}) == "bad_action"
        emperor = (holder + 1) % 5
        asked = [seat for seat in range(5) if seat != emperor]
        plans: list[dict[str, Any]] = [{} for _ in range(5)]
        plans[holder]["abdicate"] = True
        plans[emperor].update(emperor_declares=True, stale_pass=True, wrong_phase=True)
        plans[asked[-1]]["declaration"] = "timer"
        for seat in asked[:-1]:
            plans[seat]["revolt"] = seat == asked[0]  # one revolt only: below the quorum of 2 (Y2.7)
        plans[asked[0]]["declare_twice"] = True
        plans[(emperor + 2) % 5]["turn_timer"] = True
        first = [Person(player, plan) for player, plan in zip(players, plans, strict=True)]
        ends = await asyncio.gather(*(person.play_game(dealt["game_id"]) for person in first))
        done = await spectator.until(lambda t: t["game_id"] == dealt["game_id"] and t["settlement"] is not None)
        assert all(end["settlement"] is not None for end in ends)
        finals = [ends[0], done]
        await check_settlement(server, tuple(players), ends[0])
        assert await refused(players[0], {"type": "pass", "seq": players[0].seq}) == "not_playing"

        # The second game: the holder of both marked cards ascends, a secret solo.
        for player in players:
            await player.ready()
        dealt = await players[0].until(lambda t: t["phase"] == "playing" and t["game_id"] != finals[0]["game_id"])
        second = [Person(player, {}) for player in players]
        ends = await asyncio.gather(*(person.play_game(dealt["game_id"]) for person in second))
        await spectator.until(lambda t: t["game_id"] == dealt["game_id"] and t["settlement"] is not None)
        finals.append(ends[0])
        await check_settlement(server, tuple(players), ends[0])
        return players, spectator, finals, first + second

    players, spectator, finals, persons = run(scenario(), timeout=240)
    first, _, second = finals
    first_persons, second_persons = persons[:5], persons[5:]

    # The games went as planned: a guard game with one failed revolt, then a secret solo.
    roles = first["game"]["roles"]
    assert roles["solo"] is None and roles["guard"] is not None
    assert first["game"]["abdications"] == [(roles["emperor"] - 1) % 5]
    assert second["game"]["roles"]["solo"] == "secret" and second["game"]["roles"]["guard"] is None
    assert second["game"]["abdications"] == []
    events = [event for message in players[0].log if message["type"] == "state" for event in message["events"]]
    timeouts = [e for e in events if e["type"] == "timeout"]
    assert len(timeouts) == 1 and timeouts[0]["seat"] == (roles["emperor"] + 2) % 5
    declared_by_timer = [e for e in events if e["type"] == "declared" and e.get("cause") == "timeout"]
    assert [e["seat"] for e in declared_by_timer] == [max(s for s in range(5) if s != roles["emperor"])]
    # The four declarations of the solo were answered at once, against one state (Y2.6).
    answered = {seq for person in second_persons for kind, seq in person.sent if kind == "declaration"}
    assert len(answered) == 1 and sum(kind == "declaration" for p in second_persons for kind, _ in p.sent) == 4

    # Refusals: each with the game's code (Y13.3).
    codes = sorted(code for person in first_persons for code in person.refusals)
    assert codes == sorted(["stale", "not_your_turn", "not_your_turn", "stale", "bad_action"]), codes

    # The ledger pays each settlement: five accounts and the house, summing to zero (Y7).
    for end in (first, second):
        settlement = end["settlement"]
        assert sum(settlement["deltas"]) + settlement["house"] == 0
        entries = server.admin("GET", f"ledger?game={end['game_id']}")["entries"]
        assert sorted(e["account"] for e in entries if e["seat"] is not None) == sorted(p.id for p in players)
        assert sum(e["delta"] for e in entries) == 0

    # Secrets (Y2.10): every state before each end, to every seat and to the spectator.
    for end in (first, second):
        for seat, player in enumerate(players):
            assert check_secrets(player.log, seat, end) > 5
        assert check_secrets(spectator.log, None, end) > 5


def test_Y4_7_every_set_the_hint_offers_is_played_as_written() -> None:
    """Y4.7: the sets of a hint are accepted as their message writes them, a joker the seat
    holds only marked written ``BJ*``/``SJ*`` (a plain ``BJ`` names an unmarked one)."""
    room = load_room(SHIPPED)
    marked = 0
    for seed in range(4):
        hand = deal_hand(room, seed)
        while not hand.finished:
            seat = hand.waiting()[0].seat
            if hand.phase != "play":
                hand.apply(Timeout(seat))
                continue
            offered = moves(hand, seat)
            plays = [Play(seat, tuple(parse_hand(str(move["cards"])))) for move in offered if move["type"] == "play"]
            for play in plays:
                hand.check(play)
            marked += sum(EMPEROR_CARD in play.cards or GUARD_CARD in play.cards for play in plays)
            if hand.table is None:
                hand.apply(max(plays, key=lambda play: len(play.cards)))
            else:
                hand.apply(plays[0] if plays else Pass(seat))
    assert marked > 0
