"""The action journal (group commit) on a real SQLite store: actions that wait together
are written by one transaction, each caller gets its own answer, nothing is acknowledged
unless stored."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pg import PG_URL_VARIABLE, pg_admin_url, throwaway_database
from sqlalchemy.exc import OperationalError

from shuangkou.server.journal import ActionJournal
from shuangkou.server.settings import ServerSettings
from shuangkou.server.state import POSTGRESQL_COMMIT_DELAY, AppState
from shuangkou.store import DuplicateActionError, Store, UnknownGameError

CONFIG = json.dumps({"edition": "points"})


def _journal(tmp_path: Path, delay: float = 0.0) -> tuple[Store, ActionJournal, list[int]]:
    """A journal on a fresh store whose database calls are counted (one per transaction)."""
    store = Store(f"sqlite:///{tmp_path / 'journal.db'}")
    calls: list[int] = []

    async def run_db(function: Callable[[], Any]) -> Any:
        calls.append(1)
        await asyncio.sleep(0.01)  # like a database thread: other tables keep acting meanwhile
        return function()

    return store, ActionJournal(store, run_db, delay), calls


def test_actions_that_wait_together_share_one_transaction(tmp_path: Path) -> None:
    store, journal, calls = _journal(tmp_path)
    for table in range(20):
        store.save_game(f"g{table}", "room", CONFIG)

    async def table(index: int) -> None:
        for seq in range(1, 4):
            await journal.append(f"g{index}", seq, json.dumps({"seq": seq}))

    async def scenario() -> None:
        await asyncio.gather(*(table(i) for i in range(20)))

    asyncio.run(scenario())
    games = {g.game_id: [a.seq for a in g.actions] for g in store.running_games()}
    assert games == {f"g{i}": [1, 2, 3] for i in range(20)}
    assert len(calls) == 3  # 60 actions, 3 commits: each round of the 20 tables is one
    store.close()


def test_actions_a_few_turns_of_the_loop_apart_share_one_transaction(tmp_path: Path) -> None:
    """A store in the event loop (SQLite) takes no action while it writes: a batch stays
    open a few turns of the loop, for the actions on their way from the sockets."""
    store = Store(f"sqlite:///{tmp_path / 'journal.db'}")
    calls: list[int] = []

    async def run_db(function: Callable[[], Any]) -> Any:
        calls.append(1)
        return function()

    journal = ActionJournal(store, run_db)
    for table in range(3):
        store.save_game(f"g{table}", "room", CONFIG)

    async def table(index: int) -> None:
        for _ in range(index):
            await asyncio.sleep(0)  # this table acts ``index`` turns after the first
        await journal.append(f"g{index}", 1, "{}")

    async def scenario() -> None:
        await asyncio.gather(*(table(i) for i in range(3)))

    asyncio.run(scenario())
    assert len(calls) == 1
    assert sorted(g.game_id for g in store.running_games() if g.actions) == ["g0", "g1", "g2"]
    store.close()


def test_each_caller_gets_its_own_answer(tmp_path: Path) -> None:
    store, journal, calls = _journal(tmp_path)
    store.save_game("g", "room", CONFIG)
    store.append_action("g", 1, "{}")

    async def scenario() -> list[BaseException | None]:
        results = await asyncio.gather(
            journal.append("g", 2, '{"ok": true}'),
            journal.append("g", 1, '{"again": true}'),
            journal.append("ghost", 1, "{}"),
            return_exceptions=True,
        )
        return list(results)

    ok, duplicate, unknown = asyncio.run(scenario())
    assert ok is None
    assert isinstance(duplicate, DuplicateActionError) and isinstance(unknown, UnknownGameError)
    game = store.get_game("g")
    assert game is not None and [(a.seq, a.action_json) for a in game.actions] == [(1, "{}"), (2, '{"ok": true}')]
    assert len(calls) == 1
    store.close()


def test_a_failed_commit_acknowledges_nothing(tmp_path: Path) -> None:
    store, journal, _ = _journal(tmp_path)
    store.save_game("g", "room", CONFIG)
    with sqlite3.connect(tmp_path / "journal.db") as broken:  # the database breaks under the server
        broken.execute("ALTER TABLE game_actions RENAME TO elsewhere")

    async def scenario() -> list[BaseException | None]:
        return list(await asyncio.gather(*(journal.append("g", s, "{}") for s in (1, 2)), return_exceptions=True))

    results = asyncio.run(scenario())
    assert all(isinstance(result, OperationalError) for result in results), results
    with sqlite3.connect(tmp_path / "journal.db") as check:
        assert check.execute("SELECT count(*) FROM elsewhere").fetchone() == (0,)
    store.close()


def test_a_commit_delay_gathers_actions_that_come_one_after_another(tmp_path: Path) -> None:
    """With a commit delay a batch stays open: actions a few milliseconds apart share it."""
    store, journal, calls = _journal(tmp_path, delay=0.2)
    store.save_game("g", "room", CONFIG)

    async def later(seq: int) -> None:
        await asyncio.sleep(0.02 * seq)
        await journal.append("g", seq, "{}")

    async def scenario() -> None:
        await asyncio.gather(*(later(seq) for seq in range(1, 5)))

    asyncio.run(scenario())
    game = store.get_game("g")
    assert game is not None and [a.seq for a in game.actions] == [1, 2, 3, 4]
    assert len(calls) == 1
    store.close()


@pytest.mark.parametrize("delay", [0.0, 0.005])
def test_no_action_of_a_batch_is_acknowledged_before_its_commit(tmp_path: Path, delay: float) -> None:
    """Several tables' actions share a batch (with or without a commit delay): each caller
    gets its answer only after the batch's transaction is committed, and then another
    connection reads its action."""
    store = Store(f"sqlite:///{tmp_path / 'journal.db'}")
    events: list[str] = []

    async def run_db(function: Callable[[], Any]) -> Any:  # in the event loop, as on SQLite
        events.append("write")
        result = function()
        events.append("committed")
        return result

    journal = ActionJournal(store, run_db, delay)
    for table in range(5):
        store.save_game(f"g{table}", "room", CONFIG)

    async def table(index: int) -> None:
        await journal.append(f"g{index}", 1, json.dumps({"table": index}))
        events.append("acknowledged")
        with sqlite3.connect(tmp_path / "journal.db") as other:
            found = other.execute("SELECT action_json FROM game_actions WHERE game_id = ?", (f"g{index}",))
            assert found.fetchall() == [(json.dumps({"table": index}),)]

    async def scenario() -> None:
        await asyncio.gather(*(table(i) for i in range(5)))

    asyncio.run(scenario())
    assert events == ["write", "committed", *["acknowledged"] * 5]
    store.close()


@pytest.mark.parametrize(("backend", "given", "delay"), [
    ("sqlite", None, 0.0), ("postgresql", None, POSTGRESQL_COMMIT_DELAY), ("postgresql", 0.0, 0.0),
    ("sqlite", 0.003, 0.003),
])
def test_the_commit_delay_by_default_waits_on_postgresql_only(
    backend: str, given: float | None, delay: float, tmp_path: Path
) -> None:
    """Without ``--commit-delay`` a server on PostgreSQL keeps its batches open
    ``POSTGRESQL_COMMIT_DELAY`` (each transaction costs a thread hand-off and round trips
    there), one on SQLite not at all; a given delay holds on either."""

    async def journal_delay(url: str) -> float:
        state = AppState(ServerSettings(database_url=url, data_dir=tmp_path, commit_delay=given))
        await state.start()
        try:
            return state.lobby.services.journal.delay
        finally:
            await state.stop()

    if backend == "sqlite":
        assert asyncio.run(journal_delay(f"sqlite:///{tmp_path / 'shuangkou.db'}")) == delay
        return
    admin_url = pg_admin_url()
    if admin_url is None:
        pytest.skip(f"set {PG_URL_VARIABLE} to run the PostgreSQL variants")
    with throwaway_database(admin_url) as database:
        assert asyncio.run(journal_delay(database.render_as_string(hide_password=False))) == delay
