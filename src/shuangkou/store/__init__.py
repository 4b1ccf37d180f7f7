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

Every method runs in its own transaction on its own pooled connection, so a store may be
shared by several threads. Methods are synchronous: an asyncio server calls them from a
thread executor.

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

import json
import threading
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final, Literal

from alembic import command
from alembic.config import Config
from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Connection,
    DateTime,
    Engine,
    ForeignKeyConstraint,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Row,
    SmallInteger,
    String,
    Table,
    Text,
    UniqueConstraint,
    bindparam,
    create_engine,
    event,
    func,
    literal_column,
    select,
    text,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool

__all__ = [
    "DEFAULT_DATABASE_URL",
    "EDITIONS",
    "GAME_STATUSES",
    "NAME_MAX_LENGTH",
    "Account",
    "BalanceFloorError",
    "BalanceRangeError",
    "DuplicateActionError",
    "GameAction",
    "GameStateError",
    "InvalidNameError",
    "LedgerEntry",
    "Store",
    "StoreError",
    "StoredGame",
    "UnknownAccountError",
    "UnknownGameError",
    "ZeroSumError",
    "metadata",
    "validate_name",
]

EDITIONS: Final = ("points", "wealth")
"""The editions; every account has one balance per edition, the house one account per edition."""

GAME_STATUSES: Final = ("running", "finished", "void")
"""The states of a stored game: running until finished (settled) or void (abandoned)."""

NAME_MAX_LENGTH: Final = 24
"""The longest display name, in characters."""

DEFAULT_DATABASE_URL: Final = "sqlite:///data/shuangkou.db"
"""The database a server uses when given none: a SQLite file under ``./data/``."""

_ID_MAX_LENGTH: Final = 64
_REASON_MAX_LENGTH: Final = 200
_OPERATOR_MAX_LENGTH: Final = 64
_WRITE: Final = "shuangkou_write"  # execution option: this transaction writes
_PG_MIGRATION_LOCK: Final = 0x5348_4B30  # pg_advisory_xact_lock key while migrating ("SHK0")
_MIGRATIONS: Final = Path(__file__).parent / "migrations"
# Alembic keeps its running migration context in module globals: one migration at a time per process.
_MIGRATION_LOCK: Final = threading.Lock()


class StoreError(Exception):
    """Base class of the errors the store raises on a request it refuses."""


class InvalidNameError(StoreError, ValueError):
    """A display name that is empty, too long or holds control characters."""


class UnknownAccountError(StoreError, LookupError):
    """No account with this id (or it has no balance in this edition)."""


class UnknownGameError(StoreError, LookupError):
    """No stored game with this id."""


class BalanceFloorError(StoreError, ValueError):
    """A deduction would take a balance below the floor (0 when negatives are not allowed, R9.5)."""


class BalanceRangeError(StoreError, ValueError):
    """A balance change that would leave the range of the database's 64-bit integers."""


class ZeroSumError(StoreError, ValueError):
    """A settlement whose deltas plus the house's do not sum to zero (R9.1, R9.7)."""


class DuplicateActionError(StoreError):
    """An action with this sequence number is already stored for the game."""


class GameStateError(StoreError):
    """The game is not in a state that allows the request (e.g. appending to a finished game)."""


ActionError = StoreError | ValueError | TypeError
"""What :meth:`Store.append_action` raises for an action it cannot store."""


# --------------------------------------------------------------------------------------------
# Schema. The Alembic revisions in shuangkou/store/migrations create exactly this (a test compares).

metadata = MetaData(
    naming_convention={
        "pk": "pk_%(table_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    }
)
"""The tables, for queries; the schema itself is created by the Alembic revisions."""


def _timestamp(name: str) -> Column[datetime]:
    return Column(name, DateTime(timezone=True), nullable=False)


accounts_table = Table(
    "accounts",
    metadata,
    Column("id", Integer, nullable=False, autoincrement=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(8), nullable=False),
    Column("house_edition", String(16), nullable=True),
    _timestamp("created_at"),
    PrimaryKeyConstraint("id"),
    UniqueConstraint("house_edition"),
    CheckConstraint("kind IN ('guest', 'house')", name="kind"),
    CheckConstraint(
        "(kind = 'house' AND house_edition IS NOT NULL) OR (kind = 'guest' AND house_edition IS NULL)",
        name="house_edition",
    ),
)

balances_table = Table(
    "balances",
    metadata,
    Column("account_id", Integer, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("balance", BigInteger, nullable=False),
    PrimaryKeyConstraint("account_id", "edition"),
    ForeignKeyConstraint(["account_id"], ["accounts.id"]),
)

settlements_table = Table(
    "settlements",
    metadata,
    Column("game_id", String(64), nullable=False),
    Column("edition", String(16), nullable=False),
    Column("house_delta", BigInteger, nullable=False),
    Column("reason", String(200), nullable=False),
    _timestamp("created_at"),
    PrimaryKeyConstraint("game_id"),
)

ledger_table = Table(
    "ledger",
    metadata,
    Column("id", BigInteger().with_variant(Integer(), "sqlite"), nullable=False, autoincrement=True),
    Column("account_id", Integer, nullable=False),
    Column("edition", String(16), nullable=False),
    Column("delta", BigInteger, nullable=False),
    Column("balance_after", BigInteger, nullable=False),
    Column("reason", String(200), nullable=False),
    Column("operator", String(64), nullable=True),
    Column("game_id", String(64), nullable=True),
    Column("seat", SmallInteger, nullable=True),
    _timestamp("created_at"),
    PrimaryKeyConstraint("id"),
    ForeignKeyConstraint(["account_id", "edition"], ["balances.account_id", "balances.edition"]),
    ForeignKeyConstraint(["game_id"], ["settlements.game_id"]),
    UniqueConstraint("game_id", "account_id"),
    Index(None, "account_id", "id"),
)

games_table = Table(
    "games",
    metadata,
    Column("game_id", String(64), nullable=False),
    Column("room", String(64), nullable=False),
    Column("status", String(8), nullable=False),
    Column("config_json", Text, nullable=False),
    Column("record_json", Text, nullable=True),
    Column("settlement_json", Text, nullable=True),
    Column("void_reason", Text, nullable=True),
    _timestamp("created_at"),
    _timestamp("updated_at"),
    PrimaryKeyConstraint("game_id"),
    CheckConstraint("status IN ('running', 'finished', 'void')", name="status"),
    Index(None, "status"),
    Index(None, "created_at"),
)

game_actions_table = Table(
    "game_actions",
    metadata,
    Column("game_id", String(64), nullable=False),
    Column("seq", Integer, nullable=False),
    Column("action_json", Text, nullable=False),
    _timestamp("created_at"),
    PrimaryKeyConstraint("game_id", "seq"),
    ForeignKeyConstraint(["game_id"], ["games.game_id"]),
    CheckConstraint("seq >= 0", name="seq"),
)


# The statements of append_action, built once: the server appends an action for every move,
# and building a statement anew costs more than running it.
_GAME_STATUS_FOR_UPDATE: Final = (
    select(games_table.c.status).where(games_table.c.game_id == bindparam("game_id")).with_for_update()
)
_GAME_STATUSES_FOR_UPDATE: Final = (
    select(games_table.c.game_id, games_table.c.status)
    .where(games_table.c.game_id.in_(bindparam("game_ids", expanding=True)))
    .with_for_update()
)
_INSERT_ACTION: Final = game_actions_table.insert()


# --------------------------------------------------------------------------------------------
# Values returned by the store.


@dataclass(frozen=True, slots=True)
class Account:
    """A player (``kind == "guest"``) or the house of one edition (``kind == "house"``)."""

    id: int
    name: str
    kind: Literal["guest", "house"]
    balances: dict[str, int]
    """Balance per edition; a guest has every edition, a house only its own."""
    created_at: datetime

    @property
    def is_house(self) -> bool:
        """Whether this is a house account (R9.7)."""
        return self.kind == "house"


@dataclass(frozen=True, slots=True)
class LedgerEntry:
    """One balance change: a grant (``game_id is None``) or one account's part of a settlement."""

    id: int
    account_id: int
    edition: str
    delta: int
    balance_after: int
    reason: str
    operator: str | None
    game_id: str | None
    seat: int | None
    created_at: datetime

    def to_dict(self) -> dict[str, object]:
        """JSON form, as the operator API and ``shuangkou replay`` print it."""
        return {
            "id": self.id,
            "account": self.account_id,
            "edition": self.edition,
            "delta": self.delta,
            "balance_after": self.balance_after,
            "reason": self.reason,
            "operator": self.operator,
            "game": self.game_id,
            "seat": self.seat,
            "created_at": self.created_at.isoformat(),
        }



@dataclass(frozen=True, slots=True)
class GameAction:
    """One action of a game, stored before the server acknowledged it."""

    seq: int
    action_json: str
    created_at: datetime


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A stored game. ``actions`` is filled by :meth:`Store.get_game` and :meth:`Store.running_games`."""

    game_id: str
    room: str
    status: Literal["running", "finished", "void"]
    config_json: str
    record_json: str | None
    settlement_json: str | None
    void_reason: str | None
    created_at: datetime
    updated_at: datetime
    actions: tuple[GameAction, ...] = field(default=())


# --------------------------------------------------------------------------------------------
# Validation helpers.

_BAD_NAME_CATEGORIES: Final = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})


def validate_name(name: str) -> str:
    """The display name to store for ``name``, or :class:`InvalidNameError` saying what is wrong.

    Names are NFC-normalized and stripped of surrounding spaces, then must hold 1 to 24
    characters and no control, format, private-use or unassigned characters.

    >>> validate_name("  Zhang San ")
    'Zhang San'
    >>> validate_name("a\\tb")
    Traceback (most recent call last):
    ...
    shuangkou.store.InvalidNameError: display name contains a control character (U+0009)
    """
    if not isinstance(name, str):
        raise InvalidNameError(f"display name must be a string, not {type(name).__name__}")
    name = unicodedata.normalize("NFC", name).strip()
    if not name:
        raise InvalidNameError("display name is empty")
    if len(name) > NAME_MAX_LENGTH:
        raise InvalidNameError(f"display name is {len(name)} characters long; at most {NAME_MAX_LENGTH}")
    for char in name:
        if unicodedata.category(char) in _BAD_NAME_CATEGORIES:
            raise InvalidNameError(f"display name contains a control character (U+{ord(char):04X})")
    return name


def _check_int(value: object, what: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise TypeError(f"{what} must be an int, not {type(value).__name__}")
    return value


def _check_edition(edition: object) -> str:
    if edition not in EDITIONS:
        raise ValueError(f"unknown edition {edition!r}; editions are {', '.join(EDITIONS)}")
    assert isinstance(edition, str)
    return edition


def _check_text(value: object, what: str, max_length: int) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"{what} must be a non-empty string")
    if len(value) > max_length:
        raise ValueError(f"{what} is longer than {max_length} characters")
    return value


def _check_json(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a JSON string, not {type(value).__name__}")
    try:
        json.loads(value)
    except ValueError as error:
        raise ValueError(f"{what} is not valid JSON: {error}") from None
    return value


def _check_page(limit: int, offset: int) -> None:
    if _check_int(limit, "limit") < 0 or _check_int(offset, "offset") < 0:
        raise ValueError("limit and offset must not be negative")


def _utc(moment: datetime) -> datetime:
    """``moment`` as an aware UTC datetime (SQLite hands naive UTC datetimes back)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _now() -> datetime:
    return datetime.now(UTC)


_SPLIT: Final = 2**32
_INT64_MIN: Final = -(2**63)
_INT64_MAX: Final = 2**63 - 1


def _split_sum(column: Any, label: str) -> tuple[Any, Any]:
    """The exact SUM of a 64-bit column, as two sums that cannot overflow (SQLite's SUM
    raises on overflow): of the quotients and of the remainders by 2**32, both truncated
    toward zero on SQLite and PostgreSQL alike. :func:`_joined` puts them together."""
    split = literal_column(str(_SPLIT), type_=BigInteger)
    return (
        func.coalesce(func.sum(column.op("/")(split)), 0).label(f"{label}_high"),
        func.coalesce(func.sum(column.op("%")(split)), 0).label(f"{label}_low"),
    )


def _joined(high: Any, low: Any) -> int:
    """A sum from the two parts of :func:`_split_sum`."""
    return int(high) * _SPLIT + int(low)


def _action_row(game_id: str, seq: int, action_json: str) -> dict[str, Any]:
    """The checked row of one game action."""
    if _check_int(seq, "seq") < 0:
        raise ValueError("seq must not be negative")
    action_json = _check_json(action_json, "action_json")
    return {"game_id": game_id, "seq": seq, "action_json": action_json, "created_at": _now()}


# --------------------------------------------------------------------------------------------
# The store.


class Store:
    """A database holding accounts, the ledger and games; safe to share between threads.

    ``url`` is a SQLAlchemy URL: ``sqlite:///path/to/file.db`` (the directory is created),
    ``sqlite://`` for an in-memory database (one connection, serialized), or
    ``postgresql+psycopg://user@host:5432/db`` (``postgresql://`` means the same). Opening
    creates or upgrades the schema.
    """

    def __init__(self, url: str = DEFAULT_DATABASE_URL) -> None:
        parsed = make_url(url)
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        backend = parsed.get_backend_name()
        self._lock: AbstractContextManager[Any] = nullcontext()
        if backend == "sqlite":
            database = parsed.database or ""
            if database in ("", ":memory:") or parsed.query.get("mode") == "memory":
                # One in-memory database shared by every thread through one connection.
                self._lock = threading.RLock()
                engine = create_engine(
                    parsed, poolclass=StaticPool, connect_args={"check_same_thread": False}
                )
            else:
                if not database.startswith("file:"):
                    Path(database).parent.mkdir(parents=True, exist_ok=True)
                engine = create_engine(parsed, connect_args={"timeout": 30})
            _configure_sqlite(engine)
        elif backend == "postgresql":
            engine = create_engine(parsed, pool_pre_ping=True)
        else:
            raise ValueError(f"unsupported database {backend!r}; use sqlite or postgresql")
        self._engine: Engine = engine
        self.url: str = parsed.render_as_string(hide_password=True)
        """The database URL, password hidden."""
        try:
            self._migrate()
            with self._transaction() as conn:
                rows = conn.execute(
                    select(accounts_table.c.house_edition, accounts_table.c.id).where(
                        accounts_table.c.kind == "house"
                    )
                ).all()
            self._houses: dict[str, int] = {str(row.house_edition): int(row.id) for row in rows}
            missing = [edition for edition in EDITIONS if edition not in self._houses]
            if missing:
                raise StoreError(f"the database has no house account for {', '.join(missing)}")
        except BaseException:
            engine.dispose()
            raise

    @classmethod
    def open(cls, url: str = DEFAULT_DATABASE_URL) -> Store:
        """Open (creating or upgrading) the database at ``url``; the same as ``Store(url)``."""
        return cls(url)

    def close(self) -> None:
        """Close every pooled connection. The store must not be used afterwards."""
        self._engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.dialect.name

    # ---------------------------------------------------------------------------------------
    # Transactions and migrations.

    @contextmanager
    def _transaction(self, write: bool = False) -> Iterator[Connection]:
        """A connection inside a transaction, committed on success and rolled back on error.

        On SQLite a writing transaction starts with ``BEGIN IMMEDIATE``, so writers queue for
        the database lock (up to the busy timeout) instead of failing when they upgrade a read.
        """
        with self._lock, self._engine.connect() as conn:
            if write:
                conn.execution_options(**{_WRITE: True})
            with conn.begin():
                yield conn

    def _migrate(self) -> None:
        """Upgrade the schema to the newest revision, in one transaction, one process at a time."""
        config = Config()
        config.set_main_option("script_location", str(_MIGRATIONS))
        with _MIGRATION_LOCK, self._transaction(write=True) as conn:
            if conn.dialect.name == "postgresql":
                conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": _PG_MIGRATION_LOCK})
            config.attributes["connection"] = conn
            command.upgrade(config, "head")

    # ---------------------------------------------------------------------------------------
    # Accounts.

    def house_id(self, edition: str) -> int:
        """The id of the house account of ``edition`` (R9.7)."""
        return self._houses[_check_edition(edition)]

    def create_guest(self, name: str, balances: Mapping[str, int]) -> Account:
        """Create a guest account named ``name`` with the given starting balance per edition.

        Editions missing from ``balances`` start at 0. Each non-zero starting balance is a
        grant: a ledger row with reason ``"initial balance"``.
        """
        name = validate_name(name)
        start = dict.fromkeys(EDITIONS, 0)
        for edition, amount in balances.items():
            if _check_int(amount, f"starting {_check_edition(edition)} balance") < 0:
                raise ValueError(f"starting {edition} balance must not be negative")
            start[edition] = amount
        now = _now()
        with self._transaction(write=True) as conn:
            account_id = conn.execute(
                accounts_table.insert()
                .values(name=name, kind="guest", house_edition=None, created_at=now)
                .returning(accounts_table.c.id)
            ).scalar_one()
            conn.execute(
                balances_table.insert(),
                [{"account_id": account_id, "edition": e, "balance": b} for e, b in start.items()],
            )
            grants = [
                _ledger_row(account_id, e, b, b, "initial balance", None, None, None, now)
                for e, b in start.items()
                if b
            ]
            if grants:
                conn.execute(ledger_table.insert(), grants)
        return Account(account_id, name, "guest", start, now)

    def get_account(self, account_id: int) -> Account | None:
        """The account with this id, or ``None``."""
        with self._transaction() as conn:
            found = _accounts(conn, select(accounts_table).where(accounts_table.c.id == account_id))
        return found[0] if found else None

    def list_accounts(self, limit: int = 100, offset: int = 0) -> list[Account]:
        """Accounts by id (the house accounts first), at most ``limit`` after skipping ``offset``."""
        _check_page(limit, offset)
        with self._transaction() as conn:
            return _accounts(
                conn, select(accounts_table).order_by(accounts_table.c.id).limit(limit).offset(offset)
            )

    def balance(self, account_id: int, edition: str) -> int:
        """The balance of one account in one edition (:class:`UnknownAccountError` if none)."""
        with self._transaction() as conn:
            value = conn.execute(
                select(balances_table.c.balance).where(
                    balances_table.c.account_id == account_id,
                    balances_table.c.edition == _check_edition(edition),
                )
            ).scalar_one_or_none()
        if value is None:
            raise UnknownAccountError(f"account {account_id} has no {edition} balance")
        return int(value)

    # ---------------------------------------------------------------------------------------
    # Ledger.

    def grant(
        self,
        account_id: int,
        edition: str,
        delta: int,
        reason: str,
        operator: str,
        allow_negative: bool = False,
    ) -> LedgerEntry:
        """An operator's grant (``delta > 0``) or deduction (``delta < 0``), as one ledger row.

        A deduction never takes the balance below the floor: 0, unless ``allow_negative``
        (R9.5); it raises :class:`BalanceFloorError` and changes nothing instead.
        """
        edition = _check_edition(edition)
        if _check_int(delta, "delta") == 0:
            raise ValueError("a grant must change the balance (delta 0)")
        reason = _check_text(reason, "reason", _REASON_MAX_LENGTH)
        operator = _check_text(operator, "operator", _OPERATOR_MAX_LENGTH)
        now = _now()
        with self._transaction(write=True) as conn:
            after = _change_balance(conn, account_id, edition, delta, allow_negative)
            row = _ledger_row(account_id, edition, delta, after, reason, operator, None, None, now)
            entry_id = conn.execute(
                ledger_table.insert().values(row).returning(ledger_table.c.id)
            ).scalar_one()
        return LedgerEntry(
            int(entry_id), account_id, edition, delta, after, reason, operator, None, None, now
        )

    def ledger(
        self,
        account_id: int | None = None,
        game_id: str | None = None,
        limit: int = 100,
        offset: int = 0,
    ) -> list[LedgerEntry]:
        """Ledger rows, newest first, of one account and/or one game (all rows when neither)."""
        _check_page(limit, offset)
        query = select(ledger_table).order_by(ledger_table.c.id.desc()).limit(limit).offset(offset)
        if account_id is not None:
            query = query.where(ledger_table.c.account_id == account_id)
        if game_id is not None:
            query = query.where(ledger_table.c.game_id == game_id)
        with self._transaction() as conn:
            rows = conn.execute(query).all()
        return [_ledger_entry(row) for row in rows]

    def total(self, edition: str) -> int:
        """The sum of every balance of ``edition``, the house's included.

        Settlements are zero-sum, so this changes only by grants: it always equals
        :meth:`granted`.
        """
        query = select(*_split_sum(balances_table.c.balance, "total")).where(
            balances_table.c.edition == _check_edition(edition)
        )
        with self._transaction() as conn:
            return _joined(*conn.execute(query).one())

    def granted(self, edition: str) -> int:
        """The sum of every grant of ``edition``: starting balances and operator grants and deductions."""
        query = select(*_split_sum(ledger_table.c.delta, "granted")).where(
            ledger_table.c.edition == _check_edition(edition), ledger_table.c.game_id.is_(None)
        )
        with self._transaction() as conn:
            return _joined(*conn.execute(query).one())

    def audit(self) -> list[str]:
        """Check the money invariants; an empty list when they hold, else one line per problem.

        Each balance equals the sum of its ledger rows and its newest row's ``balance_after``;
        each edition's total equals its grants; each settled game sums to zero.
        """
        problems: list[str] = []
        sums = (
            select(
                ledger_table.c.account_id,
                ledger_table.c.edition,
                *_split_sum(ledger_table.c.delta, "total"),
                func.max(ledger_table.c.id).label("last_id"),
            )
            .group_by(ledger_table.c.account_id, ledger_table.c.edition)
            .subquery()
        )
        per_balance = select(
            balances_table.c.account_id,
            balances_table.c.edition,
            balances_table.c.balance,
            func.coalesce(sums.c.total_high, 0).label("total_high"),
            func.coalesce(sums.c.total_low, 0).label("total_low"),
            ledger_table.c.balance_after,
        ).select_from(
            balances_table.outerjoin(
                sums,
                (sums.c.account_id == balances_table.c.account_id)
                & (sums.c.edition == balances_table.c.edition),
            ).outerjoin(ledger_table, ledger_table.c.id == sums.c.last_id)
        )
        per_game = (
            select(
                ledger_table.c.game_id,
                settlements_table.c.house_delta,
                *_split_sum(ledger_table.c.delta, "total"),
            )
            .join(settlements_table, settlements_table.c.game_id == ledger_table.c.game_id)
            .group_by(ledger_table.c.game_id, settlements_table.c.house_delta)
        )
        with self._transaction() as conn:
            for row in conn.execute(per_balance):
                where = f"account {row.account_id} ({row.edition})"
                total = _joined(row.total_high, row.total_low)
                if row.balance != total:
                    problems.append(f"{where}: balance {row.balance} but its ledger sums to {total}")
                if row.balance_after is not None and row.balance != row.balance_after:
                    problems.append(
                        f"{where}: balance {row.balance} but last balance_after {row.balance_after}"
                    )
            for game in conn.execute(per_game):
                total = _joined(game.total_high, game.total_low)
                if total != 0:
                    problems.append(f"game {game.game_id}: ledger rows sum to {total}, not 0")
        for edition in EDITIONS:
            total, granted = self.total(edition), self.granted(edition)
            if total != granted:
                problems.append(f"{edition}: balances sum to {total} but grants to {granted}")
        return problems

    # ---------------------------------------------------------------------------------------
    # Settlement.

    def apply_settlement(
        self,
        game_id: str,
        edition: str,
        deltas: Mapping[int, int],
        house_delta: int,
        allow_negative: bool,
        reason: str,
        seats: Mapping[int, int] | None = None,
    ) -> bool:
        """Pay a game: every balance change and its ledger row in one transaction (R9.9).

        ``deltas`` maps account ids to their change, ``house_delta`` is the house's
        (fees, escape remainder: R9.7, R10.3); they must sum to zero (:class:`ZeroSumError`).
        ``seats`` optionally maps account ids to their seat, recorded in the ledger.
        Unless ``allow_negative``, no balance may end below 0 (:class:`BalanceFloorError`;
        the caller caps payments beforehand as R9.5 says). On any error nothing changes.

        Returns True when the game was paid now, False when it had been paid already (by an
        earlier or a concurrent call): then nothing changes, whatever the arguments.
        """
        game_id = _check_text(game_id, "game_id", _ID_MAX_LENGTH)
        edition = _check_edition(edition)
        reason = _check_text(reason, "reason", _REASON_MAX_LENGTH)
        house = self._houses[edition]
        if not deltas:
            raise ValueError("a settlement needs at least one account")
        changes: dict[int, int] = {}
        for account_id, delta in deltas.items():
            if _check_int(account_id, "account id") == house:
                raise ValueError("the house takes part through house_delta, not deltas")
            changes[account_id] = _check_int(delta, f"delta of account {account_id}")
        if _check_int(house_delta, "house_delta"):
            changes[house] = house_delta
        if sum(changes.values()) != 0:
            raise ZeroSumError(
                f"settlement of game {game_id} does not sum to zero: players {sum(deltas.values()):+d}, "
                f"house {house_delta:+d}"
            )
        seat_of = dict(seats or {})
        now = _now()
        try:
            with self._transaction(write=True) as conn:
                if self._settled(conn, game_id):
                    return False
                conn.execute(
                    settlements_table.insert().values(
                        game_id=game_id,
                        edition=edition,
                        house_delta=house_delta,
                        reason=reason,
                        created_at=now,
                    )
                )
                rows = []
                # A fixed order (by account id) so concurrent settlements cannot deadlock.
                for account_id in sorted(changes):
                    delta = changes[account_id]
                    after = _change_balance(conn, account_id, edition, delta, allow_negative)
                    seat = seat_of.get(account_id)
                    rows.append(
                        _ledger_row(account_id, edition, delta, after, reason, None, game_id, seat, now)
                    )
                conn.execute(ledger_table.insert(), rows)
        except IntegrityError:
            # A concurrent call inserted the same settlement first and has committed.
            with self._transaction() as conn:
                if self._settled(conn, game_id):
                    return False
            raise
        return True

    def is_settled(self, game_id: str) -> bool:
        """Whether a settlement of ``game_id`` has been applied."""
        with self._transaction() as conn:
            return self._settled(conn, game_id)

    @staticmethod
    def _settled(conn: Connection, game_id: str) -> bool:
        query = select(settlements_table.c.game_id).where(settlements_table.c.game_id == game_id)
        return conn.execute(query).first() is not None

    # ---------------------------------------------------------------------------------------
    # Games.

    def save_game(
        self,
        game_id: str,
        room: str,
        config_json: str,
        record_json: str | None = None,
        status: str = "running",
    ) -> None:
        """Create or update a game; a finished or void game can no longer be saved (:class:`GameStateError`).

        The server saves a game when it starts (status ``"running"``) and may save its record
        again while it runs; :meth:`finish_game` and :meth:`void_game` end it.
        """
        game_id = _check_text(game_id, "game_id", _ID_MAX_LENGTH)
        room = _check_text(room, "room", _ID_MAX_LENGTH)
        config_json = _check_json(config_json, "config_json")
        if record_json is not None:
            record_json = _check_json(record_json, "record_json")
        if status not in GAME_STATUSES:
            raise ValueError(f"unknown game status {status!r}; statuses are {', '.join(GAME_STATUSES)}")
        now = _now()
        values = {"room": room, "config_json": config_json, "record_json": record_json, "status": status}
        insert = (postgresql.insert if self.dialect == "postgresql" else sqlite.insert)(games_table)
        upsert = (
            insert.values(game_id=game_id, created_at=now, updated_at=now, **values)
            .on_conflict_do_update(
                index_elements=[games_table.c.game_id],
                set_={**values, "updated_at": now},
                where=games_table.c.status == "running",
            )
            .returning(games_table.c.game_id)
        )
        with self._transaction(write=True) as conn:
            if conn.execute(upsert).first() is None:  # the row exists and is not running
                raise GameStateError(f"game {game_id} is {_status(conn, game_id)}; it can no longer be saved")

    def append_action(self, game_id: str, seq: int, action_json: str) -> None:
        """Store action number ``seq`` of a running game (before the server acknowledges it).

        A second action with the same ``seq`` raises :class:`DuplicateActionError`; an unknown
        game :class:`UnknownGameError`; a game that is not running :class:`GameStateError`.
        """
        row = _action_row(game_id, seq, action_json)
        with self._transaction(write=True) as conn:
            status = conn.execute(_GAME_STATUS_FOR_UPDATE, {"game_id": game_id}).scalar_one_or_none()
            if status is None:
                raise UnknownGameError(f"no game {game_id!r}")
            if status != "running":
                raise GameStateError(f"game {game_id} is {status}; no more actions")
            try:
                conn.execute(_INSERT_ACTION, row)
            except IntegrityError:
                raise DuplicateActionError(f"game {game_id} already has action {seq}") from None

    def append_actions(self, actions: Sequence[tuple[str, int, str]]) -> list[ActionError | None]:
        """Store several ``(game_id, seq, action_json)`` actions, of any games, with one commit
        (a group commit): for each, in order, None when it was stored, else the error
        :meth:`append_action` raises for it.

        When every action can be stored they are written in one transaction; otherwise each
        is stored on its own, so a bad action never holds back the others. Errors of the
        database itself (it is unreachable, say) raise.
        """
        if not actions:
            return []
        try:
            rows = [_action_row(*action) for action in actions]
            with self._transaction(write=True) as conn:
                games = sorted({row["game_id"] for row in rows})
                found = conn.execute(_GAME_STATUSES_FOR_UPDATE, {"game_ids": games})
                statuses = {game: status for game, status in found}
                if all(statuses.get(game) == "running" for game in games):
                    conn.execute(_INSERT_ACTION, rows)
                    return [None] * len(rows)
        except (ValueError, TypeError, IntegrityError):
            pass  # one by one below: each action gets its own answer
        outcomes: list[ActionError | None] = []
        for action in actions:
            try:
                self.append_action(*action)
                outcomes.append(None)
            except (StoreError, ValueError, TypeError) as error:
                outcomes.append(error)
        return outcomes

    def finish_game(self, game_id: str, record_json: str, settlement_json: str) -> bool:
        """Mark a running game finished with its record and settlement breakdown (R9.6).

        Returns False, changing nothing, when the game is already finished (a retry);
        raises :class:`GameStateError` for a void game and :class:`UnknownGameError` for none.
        """
        values = {
            "record_json": _check_json(record_json, "record_json"),
            "settlement_json": _check_json(settlement_json, "settlement_json"),
        }
        return self._end_game(game_id, "finished", values)

    def void_game(self, game_id: str, reason: str) -> bool:
        """Mark a running game void (abandoned, never settled), keeping ``reason``.

        Returns False, changing nothing, when it is already void; raises
        :class:`GameStateError` for a finished game and :class:`UnknownGameError` for none.
        """
        return self._end_game(game_id, "void", {"void_reason": _check_text(reason, "reason", 10_000)})

    def _end_game(self, game_id: str, status: str, values: dict[str, str]) -> bool:
        update = (
            games_table.update()
            .where(games_table.c.game_id == game_id, games_table.c.status == "running")
            .values(status=status, updated_at=_now(), **values)
        )
        with self._transaction(write=True) as conn:
            if conn.execute(update).rowcount == 1:
                return True
            current = _status(conn, game_id)
        if current == status:
            return False
        raise GameStateError(f"game {game_id} is {current}; it cannot become {status}")

    def get_game(self, game_id: str) -> StoredGame | None:
        """The game with this id and its actions in order, or ``None``."""
        with self._transaction() as conn:
            found = _games(
                conn, select(games_table).where(games_table.c.game_id == game_id), with_actions=True
            )
        return found[0] if found else None

    def list_games(self, limit: int = 100, offset: int = 0, status: str | None = None) -> list[StoredGame]:
        """Games, newest first, optionally of one status; without their actions."""
        _check_page(limit, offset)
        query = (
            select(games_table)
            .order_by(games_table.c.created_at.desc(), games_table.c.game_id.desc())
            .limit(limit)
            .offset(offset)
        )
        if status is not None:
            query = query.where(games_table.c.status == status)
        with self._transaction() as conn:
            return _games(conn, query, with_actions=False)

    def running_games(self) -> list[StoredGame]:
        """Every running game, oldest first, with its actions in order: what to restore after a crash."""
        query = (
            select(games_table)
            .where(games_table.c.status == "running")
            .order_by(games_table.c.created_at, games_table.c.game_id)
        )
        with self._transaction() as conn:
            return _games(conn, query, with_actions=True)


# --------------------------------------------------------------------------------------------
# Helpers working inside a transaction.


def _configure_sqlite(engine: Engine) -> None:
    """WAL mode, foreign keys, and transactions begun by the store (immediate when writing)."""

    @event.listens_for(engine, "connect")
    def _connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None  # the driver leaves BEGIN to _begin below
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = NORMAL")  # WAL: a commit survives a process crash, no fsync each
        cursor.execute("PRAGMA busy_timeout = 30000")
        cursor.close()

    @event.listens_for(engine, "begin")
    def _begin(conn: Connection) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE" if conn.get_execution_options().get(_WRITE) else "BEGIN")


def _change_balance(conn: Connection, account_id: int, edition: str, delta: int, allow_negative: bool) -> int:
    """Add ``delta`` to a balance in one atomic statement and return the new balance.

    The conditions are written so that nothing overflows while they are checked: SQLite would
    turn an overflowing sum into a float, PostgreSQL would raise."""
    if not _INT64_MIN <= delta <= _INT64_MAX:
        raise BalanceRangeError(f"a change of {delta} is outside the 64-bit range of balances")
    balance = balances_table.c.balance
    condition = (balances_table.c.account_id == account_id) & (balances_table.c.edition == edition)
    update = balances_table.update().where(condition)
    if delta > 0:
        update = update.where(balance <= _INT64_MAX - delta)
    elif not allow_negative:
        update = update.where(balance >= -delta)  # the floor, 0 (R9.5)
    else:
        update = update.where(balance >= _INT64_MIN - delta)
    after = conn.execute(update.values(balance=balance + delta).returning(balance)).scalar_one_or_none()
    if after is not None:
        return int(after)
    before = conn.execute(select(balance).where(condition)).scalar_one_or_none()
    if before is None:
        raise UnknownAccountError(f"account {account_id} has no {edition} balance")
    if delta < 0 and not allow_negative and before + delta < 0:
        raise BalanceFloorError(
            f"account {account_id} has {before} {edition}; a change of {delta} would take it below 0"
        )
    raise BalanceRangeError(
        f"account {account_id} has {before} {edition}; a change of {delta} would leave the 64-bit range"
    )


def _ledger_row(
    account_id: int,
    edition: str,
    delta: int,
    after: int,
    reason: str,
    operator: str | None,
    game_id: str | None,
    seat: int | None,
    now: datetime,
) -> dict[str, Any]:
    return {
        "account_id": account_id,
        "edition": edition,
        "delta": delta,
        "balance_after": after,
        "reason": reason,
        "operator": operator,
        "game_id": game_id,
        "seat": seat,
        "created_at": now,
    }


def _ledger_entry(row: Row[Any]) -> LedgerEntry:
    return LedgerEntry(
        id=int(row.id),
        account_id=int(row.account_id),
        edition=row.edition,
        delta=int(row.delta),
        balance_after=int(row.balance_after),
        reason=row.reason,
        operator=row.operator,
        game_id=row.game_id,
        seat=row.seat,
        created_at=_utc(row.created_at),
    )


def _accounts(conn: Connection, query: Any) -> list[Account]:
    rows = conn.execute(query).all()
    ids = [int(row.id) for row in rows]
    held: dict[int, dict[str, int]] = {account_id: {} for account_id in ids}
    if ids:
        for b in conn.execute(
            select(balances_table)
            .where(balances_table.c.account_id.in_(ids))
            .order_by(balances_table.c.edition)
        ):
            held[int(b.account_id)][b.edition] = int(b.balance)
    return [Account(int(r.id), r.name, r.kind, held[int(r.id)], _utc(r.created_at)) for r in rows]


def _games(conn: Connection, query: Any, with_actions: bool) -> list[StoredGame]:
    rows = conn.execute(query).all()
    actions: dict[str, list[GameAction]] = {str(row.game_id): [] for row in rows}
    if with_actions and rows:
        action_rows = conn.execute(
            select(game_actions_table)
            .where(game_actions_table.c.game_id.in_(list(actions)))
            .order_by(game_actions_table.c.game_id, game_actions_table.c.seq)
        )
        for a in action_rows:
            actions[a.game_id].append(GameAction(int(a.seq), a.action_json, _utc(a.created_at)))
    return [
        StoredGame(
            game_id=row.game_id,
            room=row.room,
            status=row.status,
            config_json=row.config_json,
            record_json=row.record_json,
            settlement_json=row.settlement_json,
            void_reason=row.void_reason,
            created_at=_utc(row.created_at),
            updated_at=_utc(row.updated_at),
            actions=tuple(actions[row.game_id]),
        )
        for row in rows
    ]


def _status(conn: Connection, game_id: str) -> str:
    status = conn.execute(
        select(games_table.c.status).where(games_table.c.game_id == game_id)
    ).scalar_one_or_none()
    if status is None:
        raise UnknownGameError(f"no game {game_id!r}")
    return str(status)
