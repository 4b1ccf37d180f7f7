"""Crash and restore of a Royalist game: kill -9 of a real ``shuangkou serve`` process.

Five persons play a game of the ``royalist`` room over real WebSockets against a server
child process, on SQLite and, with ``SHUANGKOU_TEST_PG_URL`` set, on PostgreSQL. The
process is killed (SIGKILL) while the declarations are open — two of the four answered,
their answers not yet published (Y2.6) — and again during play; each time it is started
on the same database and the five reconnect. The restored game shows every seat exactly
what it showed before the crash: the same hand, the same role, the guard's seat to the
guard alone (Y2.10). The declarations made before the crash count when the last ones
are given (Y2.7, Y2.8), the game is finished by hosting (Y8.2) and paid exactly once, the
ledger exact (Y7.3, R9.9), and ``shuangkou replay`` agrees.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from royalist_players import first_choice, room_text, take_actions
from server_players import close_all, finish_by_hosting, reconnect, seat_group
from server_processes import check_ledger, database_url_fixture, replay_matches, run, server_process  # noqa: F401

from shuangkou.server.client import Client
from shuangkou.server.process import ServerProcess

NAMES = ("Ann", "Bob", "Cat", "Dan", "Eve")


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    """A server process (not yet started) with the ``royalist`` room, its timers long (the
    test waits for none) and no bot fill."""
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "royalist.toml").write_text(
        room_text(decision_seconds=120, turn_seconds=120, ready_seconds=120, bot_fill_seconds=0))
    process = server_process(tmp_path / "data", database_url, rooms)
    try:
        yield process
    finally:
        process.kill()


def declaring(game: dict[str, Any], moves: list[dict[str, Any]]) -> dict[str, Any]:
    """Declare (明保 or a revolt, Y2.6); otherwise the hint's choice."""
    return {"type": "declaration", "declare": True} if game["phase"] == "declare" else first_choice(game, moves)


async def crash_and_reconnect(server: ServerProcess, clients: tuple[Client, ...]) -> tuple[Client, ...]:
    """Kill the server, start it again, reconnect the five; each sees the game as before
    the crash (a new state number aside) and no hidden role but its own (Y2.10)."""
    before = [client.table for client in clients]
    server.kill()
    await close_all(*clients)
    server.start()
    again = tuple([await reconnect(server, client) for client in clients])
    guards = 0
    for client, old in zip(again, before, strict=True):
        assert old is not None
        view = await client.until(lambda table, old=old: table["game_id"] == old["game_id"])
        assert view["phase"] == "playing" and view["you"] == old["you"] and view["seq"] > old["seq"]
        assert view["game"] == old["game"]
        game = view["game"]
        guards += game["role"] == "guard"
        if game["role"] != "guard" and game["public_roles"].count("guard") == 0:
            assert game["roles"]["guard"] is None and "guard" not in game["known_roles"]
        assert game["revealed"] is None and len(game["hand"]) == game["cards_left"][view["you"]]
    assert guards <= 1
    return again


def test_Y2_6_Y2_10_Y7_3_kill_during_declarations_and_play_restore_roles_finish_paid_once(
    server: ServerProcess, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> None:
        server.start()
        clients = await seat_group(server, "royalist", NAMES)
        await take_actions(clients, 1)  # the throne offer: the candidate ascends (Y2.1)
        await take_actions(clients, 2, declaring)  # two of the four declare; nothing is published
        view = clients[0].table
        assert view is not None and view["game"]["phase"] == "declare"
        game_id, emperor = view["game_id"], view["game"]["roles"]["emperor"]
        declared = [seat for seat in range(5) if seat != emperor][:2]  # the seats asked first (Y13.3)
        assert [seat for seat, answered in enumerate(view["game"]["answered"]) if answered] == declared
        assert view["game"]["declarations"] is None

        clients = await crash_and_reconnect(server, clients)
        await take_actions(clients, 2)  # the last two stay hidden: the answers are published
        published = [e for client in clients[:1] for e in client.events if e["type"] == "declarations"]
        assert len(published) == 1
        await take_actions(clients, 8)
        assert clients[0].table is not None and clients[0].table["game"]["phase"] == "play"

        clients = await crash_and_reconnect(server, clients)
        final = await finish_by_hosting(clients)
        await close_all(*clients)
        assert server.terminate() in (0, -15)

        # The declarations made before the first crash counted (Y2.7, Y2.8, Y13.6).
        roles, settlement = final["game"]["roles"], final["settlement"]
        (event,) = published
        if roles["solo"] is None:
            assert event["open_guard"] == (roles["guard"] if roles["guard"] in declared else None)
            assert event["revolts"] == [seat for seat in declared if seat != roles["guard"]]
        else:
            assert event["revolts"] == declared
        assert settlement["multiplier"] == event["multiplier"] == 2 and final["game_id"] == game_id

        accounts = [client.account["id"] for client in clients]
        paid = check_ledger(database_url, game_id, accounts)
        assert [paid[account] for account in accounts] == settlement["deltas"]
        report = replay_matches(database_url, game_id, capsys)
        assert report["settlement"] == settlement
        records = server.log_records()
        assert [r.get("restored") for r in records if r["message"] == "server started"] == [0, 1, 1]
        assert not [r for r in records if r["level"] == "ERROR"]

    run(scenario())
