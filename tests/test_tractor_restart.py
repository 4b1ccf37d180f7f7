"""A Tractor match survives kill -9 of a real ``shuangkou serve`` process, on SQLite and on
PostgreSQL: killed while declaring (a declaration standing), while the dealer buries, in
the middle of a trick, and between two hands of the match. Each time the server starts
again on the same database, the four reconnect and see the game as before (the bottom to
the dealer alone); the hand finishes and is paid exactly once (``shuangkou replay``
agrees), and the next hand starts with the levels and the dealer the paid hand produced."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_players import close_all, finish_by_hosting, reconnect, seat_group
from server_processes import check_ledger, database_url_fixture, replay_matches, run, server_process  # noqa: F401
from tractor_support import play_until, send_move

from shuangkou.server.client import Client
from shuangkou.server.process import ServerProcess

NAMES = ("Ann", "Bob", "Cat", "Dan")
# The cards arrive at once; every other timer is long: the test waits for none.
ROOM = ('game = "tractor"\nname = "Tractor"\n[deal]\ndeal_interval_ms = 0\ndeclare_window_seconds = 120\n'
        "bury_seconds = 120\n[timers]\nturn_seconds = 120\nready_seconds = 120\nbot_fill_seconds = 0\n")


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    """A server process (not yet started) with the ``tractor`` room."""
    rooms = tmp_path / "rooms"
    rooms.mkdir()
    (rooms / "tractor.toml").write_text(ROOM)
    process = server_process(tmp_path / "data", database_url, rooms)
    try:
        yield process
    finally:
        process.kill()


async def crash_and_reconnect(server: ServerProcess, clients: tuple[Client, ...]) -> tuple[Client, ...]:
    """Kill the server, start it again, reconnect the four; each sees its game as before
    the crash (a new state number aside), the bottom only if it deals (T3.1, T11.3)."""
    before = [client.table for client in clients]
    server.kill()
    await close_all(*clients)
    server.start()
    again = tuple([await reconnect(server, client) for client in clients])
    for client, old in zip(again, before, strict=True):
        assert old is not None
        view = await client.until(lambda table, old=old: table["game_id"] == old["game_id"])
        assert view["phase"] == "playing" and view["you"] == old["you"] and view["seq"] > old["seq"]
        assert view["game"] == old["game"]
        game = view["game"]
        assert (game["bottom"] is not None) == (game["dealer"] == view["you"] and game["phase"] in ("bury", "play"))
    return again


async def declare_first(clients: tuple[Client, ...]) -> None:
    """The first seat (in seat order) with a declaration among its moves makes it."""
    for client in clients:
        await client.until(lambda table: table["game"]["phase"] == "declare")
    for client in clients:
        declarations = [move for move in await client.hint() if move["type"] == "declare"]
        if declarations:
            await send_move(client, declarations[0])
            for other in clients:
                await other.until(lambda table: len(table["game"]["declarations"]) == 1)
            return
    raise AssertionError("nobody could declare in the test server's first deal")


def test_T2_T3_T10_kill_while_declaring_burying_mid_trick_and_between_hands(
    server: ServerProcess, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """T2.6, T3.1, T8, T10, T11.4: four kills, one hand paid once, the match kept."""

    async def scenario() -> None:
        server.start()
        clients = await seat_group(server, "tractor", NAMES)
        accounts = [int(client.account["id"]) for client in clients]
        await declare_first(clients)
        clients = await crash_and_reconnect(server, clients)  # declaring, a declaration standing

        for client in clients:
            await client.send({"type": "declare_done", "seq": client.seq})
        burying = [await client.until(lambda table: table["game"]["phase"] == "bury") for client in clients]
        dealer = clients[burying[0]["game"]["dealer"]]
        assert dealer.table is not None and len(dealer.table["game"]["hand"]) == 33
        clients = await crash_and_reconnect(server, clients)  # the dealer burying
        dealer = clients[burying[0]["game"]["dealer"]]
        await send_move(dealer, (await dealer.hint())[0])
        for client in clients:
            await client.until(lambda table: table["game"]["phase"] == "play")

        await play_until(clients, lambda game: game["tricks"] >= 1 and len(game["trick"]) == 2)
        clients = await crash_and_reconnect(server, clients)  # mid-trick
        final = await finish_by_hosting(clients)
        game_id, settlement = final["game_id"], final["settlement"]
        paid = check_ledger(database_url, game_id, accounts)
        assert [paid[account] for account in accounts] == settlement["deltas"]
        report = replay_matches(database_url, game_id, capsys)
        assert report["settlement"] == settlement

        score: dict[str, Any] = final["game"]["score"]
        table_id = final["id"]
        server.kill()  # between hands
        await close_all(*clients)
        server.start()
        clients = tuple([await reconnect(server, client) for client in clients])
        for client in clients:
            view = await client.until(lambda table: table["id"] == table_id)
            assert view["game_id"] is None and [seat["account"] for seat in view["seats"]] == accounts
        for client in clients:
            await client.ready()
        views = [await client.until(lambda table: table["phase"] == "playing") for client in clients]
        assert views[0]["game"]["levels"] == score["levels_after"]
        assert views[0]["game"]["dealer"] == score["next_dealer"]
        second = await finish_by_hosting(clients)
        await close_all(*clients)
        assert server.terminate() in (0, -15)
        assert check_ledger(database_url, game_id, accounts) == paid  # paid once, not again
        check_ledger(database_url, second["game_id"], accounts)
        replay_matches(database_url, second["game_id"], capsys)

    run(scenario())
