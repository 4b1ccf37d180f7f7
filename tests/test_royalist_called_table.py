"""Royalist with a called guard card (Y9, Y13.18) at a five-seat server table over real
WebSockets: the server reaches the game through its messages only, so a person with four
bots plays a called game to the settlement the ledger pays, and no state shows the guard
before its time."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from royalist_players import first_choice, play_until
from server_fixtures import (
    RunningServer,
    check_settlement,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)
from test_royalist_tables import bots_room, check_ledger_entry, with_four_bots

StartServer = Callable[..., RunningServer]


def test_Y9_Y2_10_a_called_game_at_a_table_of_a_person_and_four_bots(start_server: StartServer) -> None:
    """Y9: the candidate (a bot or the person, by the hint's first move: the default call)
    calls a card, and the server carries the ``call`` message and the 保子牌 like any card;
    the game is paid by one ledger entry, and no state the person receives names the guard's
    seat before a reveal or the published declarations make it public, unless the person is
    the guard (Y2.10)."""
    server = start_server(rooms={"royalist": bots_room(guard_card="called", deck="216")}, seed=5)

    async def scenario() -> tuple[dict[str, Any], list[dict[str, Any]]]:
        person = await with_four_bots(server)
        assert person.table is not None
        game_id = person.table["game_id"]
        final = await play_until(person, game_id, first_choice)
        await check_settlement(server, (person,), final)
        await check_ledger_entry(server, game_id, final["settlement"])
        return final, [message for message in person.log
                       if message["type"] == "state" and message["table"]["game_id"] == game_id]

    final, states = run(scenario(), timeout=120)
    roles, revealed = final["game"]["roles"], " ".join(final["game"]["revealed"])
    events = [event for state in states for event in state["events"]]
    (ascent,) = [event for event in events if event["type"] == "ascend"]
    assert final["game"]["called"] == ascent["call"] and "SJ*" not in revealed
    marked = f"{ascent['call']}*"  # the 保子牌: played by its name, or still held at the end
    assert marked in revealed or [event["seat"] for event in events if marked in event.get("cards", "")] == [
        roles["guard"] if roles["solo"] is None else roles["emperor"]]
    public = False
    for state in states:
        public = public or any(event["type"] == "reveal" or event.get("guard") is not None
                               for event in state["events"])
        game = state["table"]["game"]
        if game["phase"] != "over" and roles["guard"] != 0 and not public:
            assert game["roles"]["guard"] is None and game["known_roles"][roles["guard"]] is None
