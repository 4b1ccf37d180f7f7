"""Royalist at five-seat server tables with bots, over real WebSockets.

A person alone at a quick-match table of a ``royalist`` room is offered bots once the
room's ``bot_fill_seconds`` are over and, accepting, plays with four of them: the bots
answer the throne offer and the declarations themselves (Y2.1, Y2.6), the game is played
to its settlement and paid by one ledger entry for the five accounts and the house
(Y7.3), and the history and replay endpoints then show the roles and the places — and
nothing of a game still running. Further games check the decision timer and its defaults
(Y8.1, Y13.4), a reveal as an event (Y2.9), hosting (Y8.2), a dropped connection
(Y8.3) and the escape arithmetic of both modes (Y8.4, Y13.12) against the ledger.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest
from royalist_players import first_choice, play_until, room_text, waits_for
from server_fixtures import (
    Player,
    RunningServer,
    check_settlement,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)

from shuangkou.games.royalist.bots import make_bot
from shuangkou.games.royalist.config import room_from_data
from shuangkou.games.royalist.deck import EMPEROR_CARD, GUARD_CARD
from shuangkou.games.royalist.game import Timeout, deal_hand
from shuangkou.roomfiles import parse_toml

StartServer = Callable[..., RunningServer]
FILL_SECONDS = 0.3


def bots_room(**keys: object) -> str:
    """The shipped ``royalist`` room offering bots after a short wait, its timers long
    unless ``keys`` set them."""
    return room_text(**{"bot_fill_seconds": FILL_SECONDS, "decision_seconds": 60, "turn_seconds": 60, **keys})


async def with_four_bots(server: RunningServer, name: str = "Ana") -> Player:
    """A person alone at a quick-match table of ``royalist``, offered bots for the four free
    seats after the wait, accepting them, ready, the game dealt."""
    person = await server.player(name)
    await person.join("royalist")
    table = await person.until(lambda t: t["you"] == 0)
    assert table["family"] == "royalist" and len(table["seats"]) == 5
    offer = await person.expect("notice", timeout=10)
    assert (offer["code"], offer["count"]) == ("bots_offered", 4)
    await person.send({"type": "bots"})
    table = await person.until(lambda t: all(seat is not None for seat in t["seats"]))
    assert [seat["bot"] for seat in table["seats"]] == [False, True, True, True, True]
    assert [seat["bot_level"] for seat in table["seats"]] == [None, "normal", "normal", "normal", "normal"]
    await person.ready()
    await person.until(lambda t: t["phase"] == "playing")
    return person


def events_of(player: Player, game_id: str) -> list[dict[str, Any]]:
    """Every event of game ``game_id`` the player received."""
    return [event for message in player.log if message["type"] == "state" and message["table"]["game_id"] == game_id
            for event in message["events"]]


async def check_ledger_entry(server: RunningServer, game_id: str, settlement: dict[str, Any]) -> None:
    """Y7.3: the settlement is the ledger's one entry for the game — one row for each of the
    five seats and the house's when it takes part — summing to zero."""
    entries = (await server.aadmin("GET", f"ledger?game={game_id}"))["entries"]
    seats = sorted((entry for entry in entries if entry["seat"] is not None), key=lambda entry: entry["seat"])
    assert [entry["seat"] for entry in seats] == [0, 1, 2, 3, 4]
    assert [entry["delta"] for entry in seats] == settlement["deltas"]
    assert [entry["balance_after"] for entry in seats] == settlement["balances_after"]
    assert [entry["delta"] for entry in entries if entry["seat"] is None] == (
        [settlement["house"]] if settlement["house"] else [])
    assert sum(entry["delta"] for entry in entries) == 0 == sum(settlement["deltas"]) + settlement["house"]


async def finished_replay(server: RunningServer, game_id: str) -> dict[str, Any]:
    """The replay of game ``game_id`` once it is over (409 ``not_finished`` until then)."""
    for _ in range(600):
        status, replay = await server.ahttp("GET", f"/api/games/{game_id}")
        if status == 200:
            return dict(replay)
        assert status == 409 and replay["code"] == "not_finished"
        await asyncio.sleep(0.1)
    raise AssertionError(f"game {game_id} did not finish")


def test_Y2_1_Y2_6_Y7_3_a_person_with_four_bots_plays_to_a_settlement_the_ledger_pays(
    start_server: StartServer,
) -> None:
    """Quick match for five with bot fill: the bots answer the throne offer and their
    declarations within a long decision timer; the settlement is one ledger entry; the
    history and the replay show roles and places once the game is over, nothing before."""
    server = start_server(rooms={"royalist": bots_room()}, seed=3)

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
        person = await with_four_bots(server)
        assert person.table is not None
        game_id = person.table["game_id"]
        status, running = await server.ahttp("GET", f"/api/games/{game_id}")
        assert status == 409 and running["code"] == "not_finished" and "hands" not in running
        status, listed = await server.ahttp("GET", "/api/me/games", token=person.token)
        assert status == 200 and listed["games"] == []
        final = await play_until(person, game_id, first_choice)
        await check_settlement(server, (person,), final)
        await check_ledger_entry(server, game_id, final["settlement"])
        status, history = await server.ahttp("GET", "/api/me/games", token=person.token)
        assert status == 200
        status, replay = await server.ahttp("GET", f"/api/games/{game_id}")
        assert status == 200
        return final, events_of(person, game_id), history, replay

    final, events, history, replay = run(scenario(), timeout=120)
    settlement, roles = final["settlement"], final["game"]["roles"]
    emperor = roles["emperor"]
    assert settlement["roles"] == roles and settlement["result"] in ("royals", "draw", "revolutionaries")

    # The bots answered the throne offer and their declarations, none left to a timer.
    decisions = [e for e in events if e["type"] in ("ascend", "abdicate", "declared")]
    assert [e for e in decisions if e["type"] == "ascend"] and all(e["cause"] == "player" for e in decisions)
    if roles["solo"] != "open":
        assert sorted(e["seat"] for e in decisions if e["type"] == "declared") == [s for s in range(5) if s != emperor]

    # 战绩: the game, its five seats, its teams as the cards formed them (royals 0).
    (item,) = history["games"]
    assert item["game_id"] == final["game_id"] and [seat["bot"] for seat in item["seats"]] == [False] + [True] * 4
    royals = {emperor, roles["guard"]}
    assert item["teams"] == [0 if seat in royals else 1 for seat in range(5)]
    assert item["delta"] == settlement["deltas"][0] and item["won"] == (settlement["units"][0] > 0)

    # The replay: roles, abdications, declarations, m, the hands at the throne offer, the places.
    assert replay["family"] == "royalist" and replay["roles"] == roles
    assert replay["multiplier"] == settlement["multiplier"] and replay["settlement"] == settlement
    assert len(replay["hands"]) == 5 and sum(len(hand.split()) for hand in replay["hands"]) == 168
    end = replay["events"][-1]
    assert end["type"] == "end" and end["places"] == settlement["places"] == final["game"]["places"]
    assert end["roles"] == roles and end["units"] == settlement["units"]
    assert "seed" not in replay and "account" not in str(replay)


def hidden_guard_seed(text: str) -> int:
    """A server seed whose first game makes seat 0 a guard still hidden once the
    declarations are published, seat 0 leaving its decisions to the timer (Y8.1) and the
    bots at their level deciding theirs (the server asks them one at a time)."""
    room = room_from_data(parse_toml(text, "royalist.toml"))
    bot = make_bot("greedy")
    for seed in range(1, 200):
        hand = deal_hand(room, seed)
        while hand.phase in ("throne", "declare"):
            seat = hand.waiting()[-1].seat  # the person, seat 0, answers last
            hand.apply(Timeout(seat) if seat == 0 else bot.act(hand, seat))
        if hand.role(0) == "guard" and not hand.guard_shown:
            return seed
    raise AssertionError("no seed found")


def guard_card_first(game: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Play SJ* alone as soon as it may be: on a lead, or over a single natural card (Y4.4)."""
    table = game["table"]
    single = table is not None and table["set"]["naturals"] == 1 and len(table["set"]["cards"].split()) == 1
    if game["phase"] == "play" and "SJ*" in game["hand"] and (table is None or single):
        return {"type": "play", "cards": "SJ*"}
    return first_choice(game, moves)


def test_Y8_1_Y13_5_Y2_9_Y8_2_decision_timer_defaults_a_reveal_event_and_hosting_at_five_seats(
    start_server: StartServer,
) -> None:
    """The person holds SJ* in a room without revolts (the four seats are still asked,
    Y13.5): its declaration is left to the decision timer and takes the default, stay
    hidden (Y8.1, Y13.4); it plays SJ*, which shows its role in a ``reveal`` event (Y2.9);
    then it switches hosting on and hosting plays its seat to the end (Y8.2)."""
    text = bots_room(decision_seconds=1, revolt=False)
    server = start_server(rooms={"royalist": text}, seed=hidden_guard_seed(text))

    async def scenario() -> tuple[Player, dict[str, Any], dict[str, Any], dict[str, Any]]:
        person = await with_four_bots(server)
        assert person.table is not None
        game_id = person.table["game_id"]
        # The bots answer first; then the decision timer runs for the person alone (Y8.1).
        asked = await person.until(lambda t: t["game"]["phase"] == "declare" and t["turn_deadline"] is not None)
        assert asked["game"]["to_act"] == [0]
        await person.until(lambda t: t["game"]["answered"][0], timeout=20)  # left to the timer
        before = await play_until(person, game_id, guard_card_first, stop=lambda t: "SJ*" not in t["game"]["hand"])
        await person.settle_quietly()
        await person.hosting(True)
        hosted = await person.until(lambda t: t["game"]["hosting"][0])
        final = await person.until(lambda t: t["phase"] == "settled", timeout=60)
        await check_settlement(server, (person,), final)
        await check_ledger_entry(server, game_id, final["settlement"])
        return person, before, hosted, final

    person, before, hosted, final = run(scenario(), timeout=120)
    events = events_of(person, final["game_id"])
    roles = final["game"]["roles"]
    assert roles["guard"] == 0 and roles["solo"] is None  # asked to declare: not the emperor

    # Y8.1, Y13.4: the timer answered the person's declaration with the default.
    (declared,) = [e for e in events if e["type"] == "declared" and e["seat"] == 0]
    assert declared["cause"] == "timeout"
    (published,) = [e for e in events if e["type"] == "declarations"]
    assert published["open_guard"] is None and 0 not in published["revolts"]

    # Y2.9: SJ* played shows its holder's role at once, in an event, unless already public.
    played = next(i for i, e in enumerate(events) if e["type"] == "play" and "SJ*" in e["cards"].split())
    assert events[played]["seat"] == 0
    assert published["guard"] is None and before["game"]["public_roles"][0] == "guard"
    assert events[played + 1] == {"type": "reveal", "seat": 0, "role": "guard"}

    # Y8.2: once hosting is on, hosting acts for the seat; no timer does.
    switched = next(i for i, e in enumerate(events) if e["type"] == "hosting" and e["seat"] == 0)
    assert events[switched]["cause"] == "player" and events[switched]["on"] is True
    after = [e for e in events[switched:] if e.get("seat") == 0 and e["type"] in ("play", "pass", "timeout")]
    assert all(e["cause"] in ("hosting", "auto_pass") for e in after), after
    assert hosted["game"]["hosting"] == [True, False, False, False, False]


def emperor_card_seed(text: str) -> int:
    """A server seed whose first deal gives BJ* to seat 0, SJ* to another seat."""
    room = room_from_data(parse_toml(text, "royalist.toml"))
    return next(seed for seed in range(1, 200)
                if (hand := deal_hand(room, seed)).holder_of(EMPEROR_CARD) == 0 != hand.holder_of(GUARD_CARD))


def test_Y8_1_Y13_2_the_throne_offer_left_to_its_timer_ascends_and_hosting_finishes(
    start_server: StartServer,
) -> None:
    """The person holds BJ* and leaves the throne offer to the decision timer: it ascends
    (Y8.1, Y13.2), the bots declare, the person then hands its seat to hosting (Y8.2),
    which plays it to the settlement the ledger pays."""
    text = bots_room(decision_seconds=1)
    server = start_server(rooms={"royalist": text}, seed=emperor_card_seed(text))

    async def scenario() -> tuple[Player, dict[str, Any], dict[str, Any]]:
        person = await with_four_bots(server)
        assert person.table is not None
        game_id = person.table["game_id"]
        offered = await person.until(lambda t: t["turn_deadline"] is not None)
        assert offered["game"]["phase"] == "throne" and offered["game"]["to_act"] == 0
        assert offered["turn_seconds"] == 1  # the decision's timer, not the room's turn time (60)
        ascended = await person.until(lambda t: t["game"]["phase"] != "throne", timeout=20)
        await person.hosting(True)
        final = await person.until(lambda t: t["phase"] == "settled", timeout=60)
        await check_settlement(server, (person,), final)
        await check_ledger_entry(server, game_id, final["settlement"])
        return person, ascended, final

    person, ascended, final = run(scenario(), timeout=120)
    events = events_of(person, final["game_id"])
    (ascend,) = [e for e in events if e["type"] == "ascend"]
    assert ascend == {"type": "ascend", "seat": 0, "cause": "timeout"}  # no solo announced
    assert ascended["game"]["abdications"] == [] and ascended["game"]["roles"]["emperor"] == 0
    assert final["settlement"]["roles"]["emperor"] == 0 and final["settlement"]["roles"]["solo"] is None
    assert not [e for e in events if e["type"] == "timeout"]  # a decision's timeout is no timeout of play (Y13.4)
    plays = [e for e in events if e["type"] == "play" and e["seat"] == 0]
    assert plays and all(e["cause"] == "hosting" for e in plays)


@pytest.mark.parametrize("mode", ["host", "settle"])
def test_Y8_3_Y8_4_Y13_12_a_dropped_connection_is_hosted_and_an_escape_pays_by_the_rule(
    start_server: StartServer, mode: str
) -> None:
    """The person's connection drops during play: hosting takes over at once (Y8.3); it
    reconnects, switches hosting off and plays, then leaves holding cards — an escape
    (Y8.4). ``host``: the seat is hosted to the end and the escaper pays P = 12 × X on top,
    ⌊P / 4⌋ to each other seat; ``settle``: the game ends at once with no role scores, the
    escaper pays D = 12 × X × m, ⌊D / 4⌋ to each other seat (escape_share 1.0 in points
    rooms), the rest to the house (Y13.12). The ledger pays exactly that."""
    server = start_server(rooms={"royalist": bots_room(escape_mode=mode)}, seed=7)

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        person = await with_four_bots(server)
        assert person.table is not None
        game_id = person.table["game_id"]
        await play_until(person, game_id, stop=lambda t: len(t["game"]["plays"]) >= 10)
        await person.close()  # the connection drops
        again = await server.again(person)
        dropped = await again.until(lambda t: t["game_id"] == game_id)
        assert dropped["game"]["hosting"][0]
        await again.hosting(False)  # back from hosting (Y8.3)
        await again.until(lambda t: not t["game"]["hosting"][0])
        view = await play_until(again, game_id, stop=lambda t: waits_for(t, 0) and t["game"]["table"] is None)
        cost = view["escape_cost"]
        assert cost is not None and cost["mode"] == mode
        left = await again.leave()
        assert left["escape"] is True and left["hosted"] == (mode == "host")
        replay = await finished_replay(server, game_id)
        await check_ledger_entry(server, game_id, replay["settlement"])
        return cost, replay

    cost, replay = run(scenario(), timeout=120)
    settlement = replay["settlement"]
    x, m = settlement["match_points"], settlement["multiplier"]
    owed = 12 * x * (m if mode == "settle" else 1)
    assert cost["penalty"] == owed
    assert settlement["escapers"] == [0]
    assert settlement["escape_payments"] == [-owed] + [owed // 4] * 4
    assert settlement["house_claim"] == owed - 4 * (owed // 4)
    units = settlement["units"]
    if mode == "settle":  # the game ended at the escape, no role scores
        assert settlement["result"] == "escape" and units == [0] * 5
    else:  # played to the end by hosting, the role scores on top
        assert settlement["result"] != "escape" and sum(units) == 0
    assert settlement["nets"] == [units[seat] * x + settlement["escape_payments"][seat] for seat in range(5)]
    causes = [(e["type"], e.get("cause")) for e in replay["events"] if e.get("seat") == 0 and e["type"] in (
        "hosting", "escape")]
    assert causes[:2] == [("hosting", "disconnect"), ("hosting", "player")]
    assert ("escape", "escape") in causes

