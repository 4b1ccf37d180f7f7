"""Crash, restart and graceful stop of a real ``shuangkou serve`` process.

Each test starts the server as a child process (:class:`shuangkou.server.process.ServerProcess`)
on a temporary data directory with SQLite, and with PostgreSQL too when
``SHUANGKOU_TEST_PG_URL`` is set (a throwaway database per test, dropped afterwards).
Two players play over real WebSockets; the process is killed (SIGKILL) or stopped (SIGTERM)
mid-game, started again on the same database, and the players reconnect with their tokens
and finish. The ledger is then checked through the store: ``audit()`` is empty, every
edition's total equals its grants, the game is settled exactly once.
"""

from __future__ import annotations

import asyncio
import json
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from server_players import close_all, finish_by_hosting, play_turns, reconnect, seat_group, seat_pair
from server_processes import (
    CLASSIC,
    DEAL_GAMES,
    DEAL_MIN_ACTIONS,
    DEAL_SEED,
    ROOM,
    check_ledger,
    database_url_fixture,  # noqa: F401 - a fixture
    replay,
    run,
    server_process,
    write_rooms,
)
from sqlalchemy import create_engine, text

from shuangkou.cli import main
from shuangkou.games.shuangkou.bots import HintBot
from shuangkou.games.shuangkou.config import config_from_dict
from shuangkou.server.client import Client
from shuangkou.server.process import ServerProcess
from shuangkou.simulate import play_game
from shuangkou.store import Store


@pytest.fixture
def server(tmp_path: Path, database_url: str) -> Iterator[ServerProcess]:
    """A server process (not yet started) with the test rooms and a tiny hosting delay."""
    process = server_process(tmp_path / "data", database_url, write_rooms(tmp_path / "rooms"))
    try:
        yield process
    finally:
        process.kill()


# -- checks -----------------------------------------------------------------------------


def sql(url: str, statement: str, **params: Any) -> None:
    """Change the database behind the server's back (it is not running)."""
    engine = create_engine(url)
    with engine.begin() as conn:
        conn.execute(text(statement), params)
    engine.dispose()


# -- tests ------------------------------------------------------------------------------


def test_kill_mid_game_restart_reconnect_finish(
    server: ServerProcess, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> None:
        server.start()
        pair = await seat_pair(server)
        await play_turns(pair, 6)
        before = [client.table for client in pair]
        assert before[0] is not None and before[1] is not None
        game_id = before[0]["game_id"]
        server.kill()
        await close_all(*pair)

        server.start()
        health = server.get("/healthz")
        assert health["tables"] == 1
        a = await reconnect(server, pair[0])
        view = await a.until(lambda table: table["game_id"] == game_id)
        assert view["phase"] == "playing"
        assert view["game"]["hand"] == before[0]["game"]["hand"]
        assert view["game"]["cards_left"] == before[0]["game"]["cards_left"]
        assert view["game"]["seq"] == before[0]["game"]["seq"]
        assert view["game"]["flip_card"] == before[0]["game"]["flip_card"]
        assert view["seq"] > before[0]["seq"]  # state numbers from before the crash are stale
        assert view["seats"][1]["connected"] is False  # Bob has not reconnected yet
        assert view["game"]["hosting"] == [False, False]  # restored seats are not hosted
        b = await reconnect(server, pair[1])
        await b.until(lambda table: table["game_id"] == game_id)

        # A message built against a state from before the crash is refused as stale.
        await a.send({"type": "pass", "seq": before[0]["seq"]})
        assert (await a.expect("error"))["code"] == "stale"

        await play_turns((a, b), 4)
        final = await finish_by_hosting((a, b))
        assert final["game_id"] == game_id and final["settlement"] is not None
        await close_all(a, b)
        assert server.terminate() in (0, -15)

        accounts = [a.account["id"], b.account["id"]]
        paid = check_ledger(database_url, game_id, accounts)
        assert [paid[account] for account in accounts] == final["settlement"]["deltas"]
        status, report = replay(database_url, game_id, capsys)
        assert status == 0 and report["matches"] is True, report
        assert report["status"] == "finished" and report["settlement"] == final["settlement"]
        records = server.log_records()
        assert any(r["message"] == "server started" and r.get("restored") == 1 for r in records)
        assert not [r for r in records if r["level"] == "ERROR"]

    run(scenario())


def test_kill_mid_game_of_four_restart_all_reconnect_finish_paid_once(
    server: ServerProcess, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """C5.8, R9.9: a four-seat game survives kill -9; the four reconnect, finish, and the
    game is settled once for four accounts; `shuangkou replay` agrees."""

    async def scenario() -> None:
        server.start()
        group = await seat_group(server, "classic", ("Ann", "Bob", "Cat", "Dan"))
        await play_turns(group, 8)
        before = [client.table for client in group]
        assert all(view is not None for view in before)
        game_id = before[0]["game_id"] if before[0] else None
        server.kill()
        await close_all(*group)

        server.start()
        again = tuple([await reconnect(server, client) for client in group])
        for client, old in zip(again, before, strict=True):
            view = await client.until(lambda table: table["game_id"] == game_id)
            assert old is not None and view["phase"] == "playing" and view["you"] == old["you"]
            assert view["game"]["hand"] == old["game"]["hand"]
            assert view["game"]["cards_left"] == old["game"]["cards_left"]
        await play_turns(again, 4)
        final = await finish_by_hosting(again)
        assert final["game_id"] == game_id and len(final["settlement"]["deltas"]) == 4
        await close_all(*again)
        assert server.terminate() in (0, -15)

        accounts = [client.account["id"] for client in again]
        paid = check_ledger(database_url, str(game_id), accounts)
        assert [paid[account] for account in accounts] == final["settlement"]["deltas"]
        status, report = replay(database_url, str(game_id), capsys)
        assert status == 0 and report["matches"] is True, report

    run(scenario())


def test_kill_after_settlement_pays_once(
    server: ServerProcess, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> None:
        server.start()
        pair = await seat_pair(server)
        final = await finish_by_hosting(pair)
        game_id, settlement = final["game_id"], final["settlement"]
        accounts = [client.account["id"] for client in pair]
        paid = check_ledger(database_url, game_id, accounts)
        server.kill()  # right after the settlement
        await close_all(*pair)

        # A plain restart: nothing to restore, nothing paid again.
        server.start()
        assert server.get("/healthz")["tables"] == 0
        server.kill()
        assert check_ledger(database_url, game_id, accounts) == paid

        # A crash between paying and marking the game finished: the game is running again.
        sql(database_url, "UPDATE games SET status = 'running', settlement_json = NULL WHERE game_id = :g",
            g=game_id)
        server.start()
        a = await reconnect(server, pair[0])
        view = await a.until(lambda table: table["game_id"] == game_id)
        assert view["phase"] == "settled"
        assert view["settlement"] == settlement
        assert view["seats"][0]["balance"] == settlement["balances_after"][0]
        await a.close()
        assert server.terminate() in (0, -15)
        assert check_ledger(database_url, game_id, accounts) == paid
        with Store(database_url) as store:
            stored = store.get_game(game_id)
            assert stored is not None and stored.settlement_json is not None
            assert json.loads(stored.settlement_json) == settlement
            assert [store.balance(account, "points") for account in accounts] == settlement["balances_after"]

        status, report = replay(database_url, game_id, capsys)
        assert status == 0 and report["matches"], report
        assert sorted(row["delta"] for row in report["ledger"]) == sorted(settlement["deltas"])
        # A ledger that does not match the game is reported (exit 1); an unknown game is exit 2.
        sql(database_url, "UPDATE ledger SET delta = delta + 1 WHERE game_id = :g AND seat = 0", g=game_id)
        status, report = replay(database_url, game_id, capsys)
        assert status == 1 and report["matches"] is False
        assert any("ledger pays" in problem for problem in report["problems"])
        capsys.readouterr()
        assert main(["replay", "no-such-game", "--database-url", database_url]) == 2

    run(scenario())


def test_sigterm_closes_cleanly_and_the_game_resumes(server: ServerProcess, database_url: str) -> None:
    async def scenario() -> None:
        server.start()
        pair = await seat_pair(server)
        await play_turns(pair, 4)
        assert pair[0].table is not None
        game_id, game_seq = pair[0].table["game_id"], pair[0].table["game"]["seq"]

        stopping = asyncio.get_running_loop().run_in_executor(None, server.terminate)
        for client in pair:
            closed = await client.expect("closed")
            assert closed["reason"] == "shutdown"
        assert await stopping in (0, -15)
        records = server.log_records()
        assert [r["message"] for r in records][-2:] == ["drained", "server stopped"]
        with Store(database_url) as store:
            stored = store.get_game(game_id)
            assert stored is not None and stored.status == "running"
            # Nothing was added by the stop: no hosting for the dropped connections.
            assert len(stored.actions) == game_seq

        server.start()
        a, b = [await reconnect(server, client) for client in pair]
        for client in (a, b):
            view = await client.until(lambda table: table["game_id"] == game_id)
            assert view["game"]["seq"] == game_seq and view["phase"] == "playing"
        await play_turns((a, b), 2)
        final = await finish_by_hosting((a, b))
        await close_all(a, b)
        assert server.terminate() in (0, -15)
        check_ledger(database_url, final["game_id"], [a.account["id"], b.account["id"]])

    run(scenario())


def test_a_game_that_cannot_be_restored_is_voided(
    server: ServerProcess, database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async def scenario() -> None:
        server.start()
        broken = await seat_pair(server)
        await play_turns(broken, 3)
        fine = await seat_pair(server)
        await play_turns(fine, 3)
        broken_id = broken[0].table["game_id"] if broken[0].table else ""
        fine_id = fine[0].table["game_id"] if fine[0].table else ""
        server.kill()
        await close_all(*broken, *fine)
        # The second action of one game now plays cards its player never held.
        sql(database_url, "UPDATE game_actions SET action_json = :a WHERE game_id = :g AND seq = 2",
            a='{"seat": 0, "play": "BJ BJ BJ BJ BJ"}', g=broken_id)

        server.start()
        games = {g["id"]: g for g in server.get("/api/admin/games")["games"]}
        assert games[broken_id]["status"] == "void"
        assert games[broken_id]["void_reason"].startswith("not restorable")
        assert games[fine_id]["status"] == "running"
        assert server.get("/healthz")["tables"] == 1
        ledger = server.get(f"/api/admin/ledger?game={broken_id}")
        assert ledger["entries"] == []

        # The players of the void game are free: no table on reconnect, and they may sit again.
        ann = await reconnect(server, broken[0])
        await ann.join("points")
        view = await ann.until(lambda table: True)
        assert view["phase"] == "waiting" and view["game_id"] is None
        # The other game goes on.
        a, b = [await reconnect(server, client) for client in fine]
        for client in (a, b):
            await client.until(lambda table: table["game_id"] == fine_id)
        final = await finish_by_hosting((a, b))
        await close_all(ann, a, b)
        assert server.terminate() in (0, -15)

        check_ledger(database_url, final["game_id"], [a.account["id"], b.account["id"]])
        status, report = replay(database_url, broken_id, capsys)
        assert status == 0 and report["status"] == "void" and report["ledger"] == []
        assert report["replayed"] is False
        records = server.log_records()
        voided = [r for r in records if r["message"] == "game voided"]
        assert [r["game"] for r in voided] == [broken_id]

    run(scenario())


def test_an_invite_table_stays_private_after_a_restart(server: ServerProcess) -> None:
    async def scenario() -> None:
        server.start()
        ann, bob = await Client.guest(server.url, "Ann"), await Client.guest(server.url, "Bob")
        for client in (ann, bob):
            await client.connect()
        await ann.join("points", opponent="invite")
        invite = await ann.until(lambda table: True)
        await bob.join(table=invite["id"])
        await ann.until(lambda table: table["seats"][1] is not None)
        for client in (ann, bob):
            await client.ready()
        for client in (ann, bob):
            await client.until(lambda table: table["phase"] == "playing")
        server.kill()
        await close_all(ann, bob)

        server.start()
        ann, bob = [await reconnect(server, client) for client in (ann, bob)]
        await finish_by_hosting((ann, bob))
        await bob.leave()  # a seat is free at the restored table
        await ann.until(lambda table: table["seats"][1] is None)
        cy = await Client.guest(server.url, "Cy")
        await cy.connect()
        await cy.join("points")
        view = await cy.until(lambda table: True)
        assert ann.table is not None and view["id"] != ann.table["id"]  # quick match never seats a stranger there
        assert view["you"] == 0 and view["seats"][1] is None
        await close_all(ann, cy)
        assert server.terminate() in (0, -15)

    run(scenario())


@pytest.mark.parametrize("room", [ROOM, CLASSIC], ids=["two seats", "four seats"])
def test_the_test_servers_games_outlast_the_scenarios(room: str) -> None:
    """The games the test servers deal (``--seed``) last, played from hints as the
    scenarios play them, long enough that no scenario meets a game's end by chance."""
    config = config_from_dict(tomllib.loads(room))
    for seed in range(DEAL_SEED, DEAL_SEED + DEAL_GAMES):
        game = play_game(config, [HintBot()] * config.seats, seed)
        actions = len(game.actions)
        assert actions >= DEAL_MIN_ACTIONS, f"seed {seed}: the game ended after {actions} actions"


def test_a_match_between_hands_survives_a_kill_and_the_winner_leads_on(
    server: ServerProcess, database_url: str, tmp_path: Path
) -> None:
    """R2.1 with ``first_player = "winner"``: what a paid hand hands to the next (its winner
    leads) is stored with the payment, so after a kill -9 between hands the players of the
    last hand sit at its table again, not ready and disconnected until they come back; the
    next game is led by the last game's winner. A table whose players all leave forgets
    its match."""
    (tmp_path / "rooms" / "winner.toml").write_text(ROOM + '[play]\nfirst_player = "winner"\n')

    async def scenario() -> None:
        server.start()
        pair = await seat_group(server, "winner", ("Ann", "Bob"))
        final = await finish_by_hosting(pair)
        winner, table_id = final["game"]["winner"], final["id"]
        assert winner in (0, 1)
        server.kill()
        await close_all(*pair)

        server.start()
        assert server.get("/healthz")["tables"] == 1
        a = await reconnect(server, pair[0])
        view = await a.until(lambda table: table["id"] == table_id)
        assert view["phase"] != "playing" and view["game_id"] is None
        assert [seat["account"] for seat in view["seats"]] == [client.account["id"] for client in pair]
        assert [seat["ready"] for seat in view["seats"]] == [False, False]
        assert view["seats"][1]["connected"] is False
        b = await reconnect(server, pair[1])
        await b.until(lambda table: table["id"] == table_id)
        for client in (a, b):
            await client.ready()
        playing = await a.until(lambda table: table["phase"] == "playing")
        assert playing["game"]["leader"] == winner and playing["game"]["to_act"] == winner
        for client in (a, b):
            await client.leave()
        await close_all(a, b)
        for _ in range(100):  # both left: the game is settled, the table closes, its match is forgotten
            with Store(database_url) as store:
                if server.get("/healthz")["tables"] == 0 and not store.open_matches():
                    break
            await asyncio.sleep(0.1)
        else:
            raise AssertionError("the table's match outlived the table")
        server.kill()

    run(scenario())
