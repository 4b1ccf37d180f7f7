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
:mod:`~shuangkou.store.schema` (tables), :mod:`~shuangkou.store.accounts` (accounts and
their names), :mod:`~shuangkou.store.ledger` (balances, grants, the ledger),
:mod:`~shuangkou.store.settlements` (games' payments), :mod:`~shuangkou.store.audit` (sums
and invariants), :mod:`~shuangkou.store.journal` (games), :mod:`~shuangkou.store.fences`
(claims on tables), :mod:`~shuangkou.store.errors`.

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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Final, TypeVar

from alembic import command
from alembic.config import Config
from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError

from ..editions import EDITIONS
from .accounts import NAME_MAX_LENGTH, Account, validate_name
from .audit import Audit
from .checks import check_edition, check_int, check_page, check_text
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
from .journal import GAME_STATUSES, GameAction, StoredGame, _finished, _games
from .ledger import LedgerEntry, _ledger_entry
from .matches import Matches
from .schema import ID_MAX_LENGTH, games_table, ledger_table, metadata
from .settlements import Payout, Settlements

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
    "Payout",
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
Settled = TypeVar("Settled")


class Store(Settlements, Audit, Matches):
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
        accounts: Sequence[int],
        settle: Callable[[list[int]], tuple[Settled, Payout]],
        allow_negative: bool,
        reason: str,
        record_json: str,
        fence: Fence | None = None,
        match_table: str | None = None,
    ) -> tuple[Settled, dict[int, int]]:
        """Settle a game, pay it and mark it finished, in one transaction under one fence
        check: ``settle(balances)`` computes the settlement from the balances of the seats'
        ``accounts`` (one per seat) as they stand in that transaction, their rows locked
        until it commits, so that no grant or other game can move a balance between the
        reading and the paying: caps on what a balance can pay (R9.5, C5.7) hold for the
        balance paid from, and the payment never fails for a balance that moved.

        Returns what ``settle`` returned beside the payout, and the accounts' balances after
        the payment. A game paid before (a retry, a restart) is settled on the balances its
        ledger rows were paid from and not paid again, and still finished. With
        ``match_table`` the game becomes the last hand of that table's match
        (:class:`~shuangkou.store.matches.Matches`). On any error (``settle``'s included)
        nothing changes.
        """
        game_id = check_text(game_id, "game_id", ID_MAX_LENGTH)
        edition = check_edition(edition)
        seated = [check_int(account, "account id") for account in accounts]
        if len(set(seated)) != len(seated):
            raise InvalidValueError(f"game {game_id}: an account holds two seats")
        retried = False
        while True:
            try:
                with self._driver_transaction() as cursor:
                    self._check_fences(cursor, [fence] if fence is not None else [])
                    paid = self._settled(cursor, game_id)
                    if paid:
                        before = self._paid_from(cursor, game_id)
                        balances = [before.get(account, 0) for account in seated]
                    else:
                        found = self._balances(cursor, sorted(seated), edition, lock=True)
                        balances = [found[account] for account in seated]
                    settled, payout = settle(balances)
                    if not paid:
                        if len(payout.deltas) != len(seated):
                            raise InvalidValueError(f"{len(payout.deltas)} deltas for {len(seated)} seats")
                        deltas = dict(zip(seated, payout.deltas, strict=True))
                        seats = {account: seat for seat, account in enumerate(seated)}
                        self._pay(
                            cursor,
                            self._payment(game_id, edition, deltas, payout.house, allow_negative, reason, seats),
                        )
                    self._end_game_on(cursor, game_id, "finished", _finished(record_json, payout.breakdown_json))
                    if match_table is not None:
                        self._keep_match_on(cursor, match_table, game_id)
                    return settled, self._balances(cursor, seated, edition)
            except IntegrityError:
                # A concurrent call paid the game first and has committed: the next attempt
                # finds it paid.
                if retried or not self.is_settled(game_id):
                    raise
                retried = True

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
