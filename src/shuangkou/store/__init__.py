"""Persistence for the game server: accounts, balances, the ledger, settlements and games.

One :class:`Store` wraps one database, SQLite (the default, a file in WAL mode with foreign
keys on) or PostgreSQL (``postgresql+psycopg://user@host/db``); the code and the tests are
the same for both. Opening a store creates or upgrades the schema with the Alembic
revisions shipped in :mod:`shuangkou.store.migrations`.

Money rules enforced here (RULES §9):

- every balance change is a row of the ledger, with the balance after it;
- a deduction never takes a balance below the floor, 0, unless the caller says the edition
  allows negative balances (R9.5);
- a house account per edition exists from the start (R9.7); a settlement's deltas plus the
  house's sum to zero, so the sum of all balances of an edition (:meth:`Store.total`)
  changes only by grants (:meth:`Store.granted`);
- a settlement is applied at most once per game id, atomically (R9.9): the ``settlements``
  table's primary key and the ledger's unique (game id, account) make a second payment
  impossible even for concurrent duplicate calls.

Methods are synchronous, and each runs in its own transaction on its own pooled
connection, so threads may share a store. Every request the store refuses raises a
:class:`StoreError`.

The parts: :mod:`~shuangkou.store.database` (engine and transactions),
:mod:`~shuangkou.store.schema` (tables), :mod:`~shuangkou.store.money` (accounts, ledger,
settlements), :mod:`~shuangkou.store.journal` (games), :mod:`~shuangkou.store.errors`.

>>> store = Store("sqlite://")
>>> alice = store.create_guest("Alice", {"points": 100, "wealth": 5000})
>>> bob = store.create_guest("Bob", {"points": 100})
>>> store.apply_settlement("g1", "points", {alice.id: 30, bob.id: -30}, 0, True, "game")
True
>>> store.apply_settlement("g1", "points", {alice.id: 30, bob.id: -30}, 0, True, "game")
False
>>> store.get_account(bob.id).balances
{'points': 70, 'wealth': 0}
>>> store.total("points") == store.granted("points") == 200
True
>>> store.close()
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from alembic import command
from alembic.config import Config
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from .checks import check_page
from .database import DEFAULT_DATABASE_URL
from .errors import (
    BalanceFloorError,
    BalanceRangeError,
    DuplicateActionError,
    FencedError,
    GameStateError,
    InvalidNameError,
    InvalidTypeError,
    InvalidValueError,
    StoreError,
    UnknownAccountError,
    UnknownGameError,
    ZeroSumError,
)
from .fences import Fence, RunningGame
from .journal import GAME_STATUSES, GameAction, Journal, StoredGame, _finished, _games
from .money import EDITIONS, NAME_MAX_LENGTH, Account, LedgerEntry, Money, _ledger_entry, validate_name
from .schema import games_table, ledger_table, metadata

__all__ = [
    "DEFAULT_DATABASE_URL",
    "EDITIONS",
    "GAME_STATUSES",
    "NAME_MAX_LENGTH",
    "Account",
    "BalanceFloorError",
    "BalanceRangeError",
    "DuplicateActionError",
    "Fence",
    "FencedError",
    "GameAction",
    "GameStateError",
    "InvalidNameError",
    "InvalidTypeError",
    "InvalidValueError",
    "LedgerEntry",
    "RunningGame",
    "Store",
    "StoreError",
    "StoredGame",
    "UnknownAccountError",
    "UnknownGameError",
    "ZeroSumError",
    "metadata",
    "validate_name",
]

_MIGRATIONS: Final = Path(__file__).parent / "migrations"
_PG_MIGRATION_LOCK: Final = 0x5348_4B30  # pg_advisory_xact_lock key while migrating ("SHK0")
# Alembic keeps its running migration context in module globals: one migration at a time per process.
_MIGRATION_LOCK: Final = threading.Lock()


class Store(Money, Journal):
    """A database holding accounts, the ledger and games; safe to share between threads.

    ``url`` is a SQLAlchemy URL (see :class:`~shuangkou.store.database.Database`). Opening
    creates or upgrades the schema.
    """

    def __init__(self, url: str = DEFAULT_DATABASE_URL) -> None:
        super().__init__(url)
        try:
            self._migrate()
            self._load_houses()
        except BaseException:
            self.close()
            raise

    def settle_game(
        self,
        game_id: str,
        edition: str,
        deltas: Mapping[int, int],
        house_delta: int,
        allow_negative: bool,
        reason: str,
        record_json: str,
        settlement_json: str,
        seats: Mapping[int, int] | None = None,
        fence: Fence | None = None,
    ) -> dict[int, int]:
        """Pay a game (:meth:`apply_settlement`) and mark it finished (:meth:`finish_game`)
        in one transaction, under one fence check; return the balances after it of the
        accounts in ``deltas``, read in the same transaction. A game paid before (a retry)
        is not paid again, and still finished; on any error nothing changes."""
        payment = self._payment(game_id, edition, deltas, house_delta, allow_negative, reason, seats)
        finished = _finished(record_json, settlement_json)
        try:
            with self._driver_transaction() as cursor:
                self._check_fences(cursor, [fence] if fence is not None else [])
                self._pay(cursor, payment)
                self._end_game_on(cursor, payment.game_id, "finished", finished)
                return self._balances(cursor, deltas, payment.edition)
        except IntegrityError:
            # A concurrent call paid the game first and has committed: finish it alone.
            if not self.is_settled(payment.game_id):
                raise
        self.finish_game(game_id, record_json, settlement_json, fence)
        with self._driver_transaction(write=False) as cursor:
            return self._balances(cursor, deltas, payment.edition)

    def game_history(self, account_id: int, limit: int = 20, offset: int = 0) -> list[tuple[LedgerEntry, StoredGame]]:
        """The account's settled games, newest first: its ledger row of each (the change and
        the balance after), with the stored game (record and settlement, no actions)."""
        check_page(limit, offset)
        query = (
            select(ledger_table)
            .where(ledger_table.c.account_id == account_id, ledger_table.c.game_id.is_not(None))
            .order_by(ledger_table.c.id.desc())
            .limit(limit)
            .offset(offset)
        )
        with self._transaction() as conn:
            entries = [_ledger_entry(row) for row in conn.execute(query).all()]
            ids = [entry.game_id for entry in entries if entry.game_id is not None]
            stored = _games(conn, select(games_table).where(games_table.c.game_id.in_(ids)), with_actions=False)
        games = {game.game_id: game for game in stored}
        return [(entry, games[entry.game_id]) for entry in entries if entry.game_id in games]

    def _migrate(self) -> None:
        """Upgrade the schema to the newest revision, in one transaction, one process at a time."""
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        with _MIGRATION_LOCK, self._transaction(write=True) as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
            config.attributes["connection"] = conn
            command.upgrade(config, "head")
