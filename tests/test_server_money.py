"""Money under attack, on real servers over real WebSockets and HTTP, on SQLite and on
PostgreSQL (the PostgreSQL variants run when ``SHUANGKOU_TEST_PG_URL`` is set): a
settlement that races operator deductions is computed on the balances it pays from and
paid exactly once (R9.5, R9.9, R10.3).
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from server_fixtures import (
    OPERATOR_TOKEN,
    Player,
    RunningServer,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    start_server_fixture,  # noqa: F401
)
from sqlalchemy import URL, create_engine

from shuangkou.games.shuangkou.config import MAX_AMOUNT
from shuangkou.server.client import ClientError
from shuangkou.store import Store

StartServer = Callable[..., RunningServer]


@pytest.fixture(params=["sqlite", "postgresql"], name="money_server")
def money_server_fixture(
    request: pytest.FixtureRequest, start_server: StartServer, tmp_path: Path, pg_server_database: URL | None
) -> RunningServer:
    """A server on a SQLite file, or on PostgreSQL (skipped without ``SHUANGKOU_TEST_PG_URL``)."""
    if request.param == "postgresql":
        if pg_server_database is None:
            pytest.skip("set SHUANGKOU_TEST_PG_URL to run the PostgreSQL variant")
        return start_server()
    return start_server(database_url=f"sqlite:///{tmp_path / 'money.db'}")


def _audit(server: RunningServer) -> list[str]:
    with Store(server.settings.database_url) as store:
        return store.audit()


def _deduct_until(server: RunningServer, account: int, stop: threading.Event) -> int:
    """Deduct 1 wealth from ``account`` through the operator API until ``stop`` or until the
    balance is spent; how many went through."""
    done = 0
    while not stop.is_set():
        status, _ = server.http(
            "POST", "/api/admin/grant",
            {"account": account, "edition": "wealth", "delta": -1, "reason": "race"}, token=OPERATOR_TOKEN,
        )
        if status != 200:
            break
        done += 1
    return done


async def _seated_against_a_bot(server: RunningServer, balance: int) -> Player:
    """A guest whose wealth the operator lowered to ``balance``, seated against a bot, the game dealt."""
    player = await server.player("Racer")
    wealth = player.account["balances"]["wealth"]
    if balance != wealth:
        await server.aadmin("POST", "grant", {
            "account": player.id, "edition": "wealth", "delta": balance - wealth, "reason": "lowered",
        })
    await player.join("wealth", "bot")
    await player.until(lambda t: t["you"] is not None)
    await player.ready()
    await player.until(lambda t: t["phase"] == "playing")
    return player


def _refuse_settlements(url: str, refuse: bool) -> None:
    """Make the database itself refuse (``refuse``) or accept again every new settlement, with
    a trigger: a real failure of the settlement's transaction, as a database that cannot
    write would give."""
    engine = create_engine(url)
    with engine.begin() as conn:
        if engine.dialect.name == "sqlite":
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse_settlements BEFORE INSERT ON settlements "
                "BEGIN SELECT RAISE(ABORT, 'settlements refused for the test'); END"
                if refuse else "DROP TRIGGER refuse_settlements"
            )
        elif refuse:
            conn.exec_driver_sql(
                "CREATE FUNCTION refuse_settlement() RETURNS trigger LANGUAGE plpgsql AS "
                "$$ BEGIN RAISE EXCEPTION 'settlements refused for the test'; END $$"
            )
            conn.exec_driver_sql(
                "CREATE TRIGGER refuse_settlements BEFORE INSERT ON settlements "
                "FOR EACH ROW EXECUTE FUNCTION refuse_settlement()"
            )
        else:
            conn.exec_driver_sql("DROP TRIGGER refuse_settlements ON settlements")
            conn.exec_driver_sql("DROP FUNCTION refuse_settlement()")
    engine.dispose()


def test_r9_5_an_escape_racing_deductions_is_paid_from_the_balance_it_is_computed_on(
    money_server: RunningServer,
) -> None:
    """R9.5, R10.3, R9.9: a guest lowered to 150 wealth sits down against a bot, is lowered
    to 20, and escapes while three operator threads deduct 1 at a time from the same
    balance. The escape charge is capped at what the balance holds when it is paid: the
    player is told ``left`` with what was charged, the game is settled in the ledger (the
    escaper pays what is left, the bot receives its share), no balance goes below 0, every
    balance equals its ledger, and the player is free to sit down again."""
    server = money_server
    charges: list[int] = []

    async def trial() -> None:
        player = await _seated_against_a_bot(server, 150)
        assert player.table is not None
        game_id = player.table["game_id"]
        await server.aadmin("POST", "grant", {"account": player.id, "edition": "wealth", "delta": -130, "reason": "x"})
        stop = threading.Event()
        racing = asyncio.gather(*(asyncio.to_thread(_deduct_until, server, player.id, stop) for _ in range(3)))
        try:
            left = await player.leave()
        finally:
            stop.set()
            await racing
        assert left["type"] == "left" and left["escape"] and not left["hosted"]
        entries = (await server.aadmin("GET", f"ledger?game={game_id}"))["entries"]
        escaper = next(e for e in entries if e["account"] == player.id)
        bot = next(e for e in entries if e["account"] != player.id and e["seat"] is not None)
        assert escaper["delta"] <= 0 <= bot["delta"] and escaper["balance_after"] >= 0
        assert left["charged"]["charge"] == -escaper["delta"]
        charges.append(-escaper["delta"])
        assert sum(e["delta"] for e in entries) == 0
        assert (await server.aadmin("GET", f"games/{game_id}"))["status"] == "finished"
        await player.join("points", "bot")  # not stuck at the old table (already_seated)
        await player.until(lambda t: t["you"] is not None and t["id"] != left["table"])
        await player.leave()

    for _ in range(3):
        run(trial())
    assert any(charges), charges  # some escape was paid while deductions ran (not all spent first)
    assert _audit(server) == []


def test_a_settlement_that_fails_is_retried_and_no_game_is_dealt_on_top_of_it(
    money_server: RunningServer,
) -> None:
    """R9.9: a settlement the database refuses is not lost. The escaper is told ``left``
    (nothing charged yet) and stays bound to the table; back at it, they see the phase
    ``settling`` and ``ready`` is refused with ``settling``; once the database accepts
    again the table pays the game, exactly once, by itself, and deals the next game only
    then."""
    server = money_server
    url = server.settings.database_url

    async def scenario() -> None:
        player = await _seated_against_a_bot(server, 100_000)
        assert player.table is not None
        table_id, game_id = player.table["id"], player.table["game_id"]
        await asyncio.to_thread(_refuse_settlements, url, True)
        refused = True
        try:
            left = await player.leave()
            assert left["escape"] and left["charged"] is None  # not paid yet
            await player.join(table=table_id)  # still bound to the game's seat
            view = await player.until(lambda t: t["id"] == table_id and t["phase"] == "settling")
            assert view["settlement"] is None
            await player.ready()
            with pytest.raises(ClientError) as refusal:
                await player.expect("state")
            assert refusal.value.code == "settling"
            assert (await server.aadmin("GET", f"ledger?game={game_id}"))["entries"] == []
            await asyncio.to_thread(_refuse_settlements, url, False)
            refused = False
            settled = await player.until(lambda t: t["phase"] == "settled", timeout=20)
        finally:
            if refused:
                await asyncio.to_thread(_refuse_settlements, url, False)
        entries = (await server.aadmin("GET", f"ledger?game={game_id}"))["entries"]
        assert sum(e["delta"] for e in entries) == 0 and len(entries) >= 2
        assert next(e for e in entries if e["account"] == player.id)["delta"] == settled["settlement"]["deltas"][0]
        await player.ready()
        dealt = await player.until(lambda t: t["phase"] == "playing")
        assert dealt["game_id"] != game_id

    run(scenario())
    assert [error for error in server.errors if "settlement failed" not in error] == []
    server.forget_errors()
    assert _audit(server) == []


def test_r9_8_operator_amounts_beyond_the_ledger_are_refused_and_change_nothing(
    money_server: RunningServer,
) -> None:
    """Grants of -2^63 or 2^63 - 1, or past the bound of a balance, are refused with a clear
    400 and no ledger row; a room file whose match points would overflow a settlement is
    refused on reload with its file and key, and the room keeps its old configuration."""
    server = money_server

    async def scenario() -> None:
        player = await server.player("Rich")
        before = await server.aadmin("GET", f"ledger?account={player.id}")
        for delta, says in (
            (-(2**63), "a grant moves at most"),
            (2**63 - 1, "a grant moves at most"),
            (MAX_AMOUNT, "may not take a balance beyond"),
        ):
            status, body = await server.ahttp(
                "POST", "/api/admin/grant", {"account": player.id, "edition": "points", "delta": delta, "reason": "x"},
                token=OPERATOR_TOKEN,
            )
            assert status == 400 and body["code"] == "refused" and says in body["message"], body
        assert await server.aadmin("GET", f"ledger?account={player.id}") == before
        rooms_dir = server.settings.rooms_dir
        (rooms_dir / "points.toml").write_text(
            'edition = "points"\n[balance]\nlevels = [{level = 0, needed = 0, match_points = 5000000000000000000}]\n'
        )
        reloaded = await server.aadmin("POST", "rooms/reload")
        assert reloaded["errors"]["points"].endswith(
            f"points.toml: balance.levels[0].match_points: expected a value of at most {MAX_AMOUNT}, "
            "found 5000000000000000000 (an integer)"
        )
        await player.join("points", "bot")
        await player.until(lambda t: t["you"] is not None)
        await player.ready()
        table = await player.until(lambda t: t["phase"] == "playing")
        assert table["escape_cost"]["penalty"] == 60 * 12  # the room as it was: X = 60 at 1000 points (R10.3)

    run(scenario())
    assert _audit(server) == []
