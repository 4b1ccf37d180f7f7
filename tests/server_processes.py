"""Real ``shuangkou serve`` processes for the restart and cluster tests (``test_server_restart``,
``test_cluster``): the rooms they run, how one is made, and the checks made afterwards on
the database (the ledger, ``shuangkou replay``)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest
from pg import PG_URL_VARIABLE, pg_admin_url, throwaway_database

from shuangkou.cli import main
from shuangkou.server.process import ServerProcess
from shuangkou.store import EDITIONS, Store

__all__ = [
    "CLASSIC",
    "DEAL_GAMES",
    "DEAL_MIN_ACTIONS",
    "DEAL_SEED",
    "ROOM",
    "check_ledger",
    "database_url_fixture",
    "replay",
    "replay_matches",
    "run",
    "server_process",
    "write_rooms",
]

T = TypeVar("T")
# Long timers: the tests wait for no timer.
ROOM = 'edition = "points"\n[timers]\nturn_seconds = 60\nready_seconds = 60\n'
CLASSIC = ROOM + '[rules]\nwild_jokers = "none"\nthree_joker_bomb = false\n[table]\nseats = 4\n'
# The servers deal game n with DEAL_SEED + n (``serve --seed``), so every run plays the same
# games. With a secure shuffle a two-seat game played from hints ends after as few as 10
# actions, sometimes within a scenario's turns; the first DEAL_GAMES games from this seed
# last at least DEAL_MIN_ACTIONS when each is a table's first game, led by the flip card's
# holder (tests/test_server_restart.py checks it; a rematch, led by the last winner, may differ).
DEAL_SEED = 260
DEAL_GAMES = 20
DEAL_MIN_ACTIONS = 16


@pytest.fixture(params=["sqlite", "postgresql"], name="database_url")
def database_url_fixture(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A SQLite file, or a throwaway PostgreSQL database (skipped unless ``SHUANGKOU_TEST_PG_URL``
    is set); a test module gets it by importing this function."""
    if request.param == "sqlite":
        yield f"sqlite:///{tmp_path / 'data' / 'shuangkou.db'}"
        return
    admin_url = pg_admin_url()
    if admin_url is None:
        pytest.skip(f"set {PG_URL_VARIABLE} to run the PostgreSQL variant")
    with throwaway_database(admin_url) as database:
        yield database.render_as_string(hide_password=False)


def run(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a test scenario in a fresh event loop."""
    return asyncio.run(coroutine)


def write_rooms(directory: Path) -> Path:
    """A rooms directory with ``points`` (two seats) and ``classic`` (four seats)."""
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "points.toml").write_text(ROOM)
    (directory / "classic.toml").write_text(CLASSIC)
    return directory


def server_process(
    data_dir: Path, database_url: str | None, rooms: Path, bot_delay: float = 0.01, extra_args: tuple[str, ...] = ()
) -> ServerProcess:
    """A server process (not yet started) on ``rooms``, with a small hosting delay, dealing
    from :data:`DEAL_SEED` (``database_url`` None: a SQLite file in ``data_dir``)."""
    arguments = ["--rooms", str(rooms), "--bot-delay", str(bot_delay), "--seed", str(DEAL_SEED), *extra_args]
    return ServerProcess(data_dir, database_url, extra_args=arguments)


def check_ledger(url: str, game_id: str, accounts: list[int]) -> dict[int, int]:
    """The money invariants hold and the game was paid exactly once, to ``accounts`` among
    others; returns its deltas by account."""
    with Store(url) as store:
        assert store.audit() == []
        for edition in EDITIONS:
            assert store.total(edition) == store.granted(edition)
        assert store.is_settled(game_id)
        rows = store.ledger(game_id=game_id)
        stored = store.get_game(game_id)
    assert stored is not None and stored.status == "finished"
    paid = {entry.account_id: entry.delta for entry in rows}
    assert len(paid) == len(rows), "one ledger row per account and game"
    assert set(accounts) <= set(paid)
    return paid


def replay(url: str, game_id: str, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    """``shuangkou replay`` in this process: exit status and its JSON."""
    capsys.readouterr()
    status = main(["replay", game_id, "--database-url", url])
    return status, json.loads(capsys.readouterr().out)


def replay_matches(url: str, game_id: str, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    """The stored game replays to its stored outcome; returns the replay's report."""
    status, report = replay(url, game_id, capsys)
    assert status == 0 and report["matches"] is True, report
    return report
