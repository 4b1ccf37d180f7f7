"""The connection to the database: an engine for a URL and one transaction per call."""

from __future__ import annotations

import math
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any, Final, Self

from sqlalchemy import Column, Connection, Engine, Select, String, bindparam, create_engine, event, func, select, true
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, DisconnectionError
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.expression import ClauseElement

from .errors import InvalidValueError

__all__ = ["DEFAULT_DATABASE_URL", "Database", "DriverStatement", "locked_by_key"]

DEFAULT_DATABASE_URL: Final = "sqlite:///data/shuangkou.db"
"""The database a server uses when given none: a SQLite file under ``./data/``."""

_WRITE: Final = "shuangkou_write"  # execution option: this transaction writes


def locked_by_key(key: Column[str], columns: Sequence[Column[Any]], keys: str, read: bool) -> Select[Any]:
    """PostgreSQL: ``columns`` of the rows whose ``key`` is one of the array parameter
    ``keys``, each row locked (``FOR SHARE`` when ``read``, else ``FOR UPDATE``) in the
    order of the array (pass it sorted, so that two transactions lock in one order).

    Each key is looked up on its own through the key's index (a lateral join on the
    unnested array): written as ``key = ANY(keys)``, a table of a thousand rows or so is read
    whole for every batch, analyzed or not, since the planner reckons that cheaper than
    several index lookups; that read cost four to five times as much, and grows with the table.
    """
    wanted = func.unnest(bindparam(keys, type_=postgresql.ARRAY(String))).table_valued("key").render_derived("wanted")
    locked = select(*columns).where(key == wanted.c.key).with_for_update(read=read).lateral("locked")
    return select(*(locked.c[column.name] for column in columns)).select_from(wanted).join(locked, true())


class Database:
    """An engine on the database at ``url`` and the transactions the store runs on it.

    ``url`` is a SQLAlchemy URL: ``sqlite:///path/to/file.db`` (the directory is created),
    ``sqlite://`` for an in-memory database (one connection, serialized), or
    ``postgresql+psycopg://user@host:5432/db`` (``postgresql://`` means the same).
    """

    def __init__(self, url: str) -> None:
        try:
            parsed = make_url(url)
            if parsed.drivername == "postgresql":
                parsed = parsed.set(drivername="postgresql+psycopg")
            self._engine: Engine = _create_engine(parsed)
        except ArgumentError as error:  # unparsable, or an unknown driver
            raise InvalidValueError(f"not a usable database URL: {error}") from None
        # An in-memory SQLite database has one connection: calls take turns.
        self._lock: AbstractContextManager[Any] = (
            threading.RLock() if isinstance(self._engine.pool, StaticPool) else nullcontext()
        )
        # A SQLite file: the driver transactions share one connection, kept out of the pool
        # (checking a connection out and back in cost about as much as an action's commit).
        self._kept_lock = threading.Lock() if self.dialect == "sqlite" and not isinstance(
            self._engine.pool, StaticPool
        ) else None
        self._kept: Any = None
        self.url: str = parsed.render_as_string(hide_password=True)
        """The database URL, password hidden."""

    def close(self) -> None:
        """Close every pooled connection. The store must not be used afterwards."""
        if self._kept_lock is not None:
            with self._kept_lock:
                if self._kept is not None:
                    self._kept.close()  # back to the pool, closed below
                    self._kept = None
        self._engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def dialect(self) -> str:
        """``"sqlite"`` or ``"postgresql"``."""
        return self._engine.dialect.name

    def driver_statement(self, statement: ClauseElement) -> DriverStatement:
        """``statement`` compiled for this database, for :meth:`_driver_transaction`."""
        dialect = self._engine.dialect
        compiled = statement.compile(dialect=dialect)
        assert isinstance(compiled, SQLCompiler)  # a Core statement compiles to SQL
        keys = tuple(compiled.positiontup or ()) if compiled.positional else tuple(compiled.binds)
        processors: dict[str, Callable[[Any], Any]] = {}
        for key in keys:
            processor = compiled.binds[key].type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                processors[key] = processor
        return DriverStatement(compiled.string, keys, compiled.positional, processors)

    @contextmanager
    def _driver_transaction(self, write: bool = True) -> Iterator[Any]:
        """A driver (DBAPI) cursor inside a transaction (a writing one unless ``write`` is
        False), committed on success and rolled back on error: for the statements the server
        runs for every game action or game, where SQLAlchemy's own execution costs several
        times the database's work. The driver's errors are raised as SQLAlchemy's
        (``IntegrityError``, ``OperationalError``…), as from :meth:`_transaction`."""
        driver_error: type[Exception] = self._engine.dialect.loaded_dbapi.Error
        with self._lock, self._driver_connection() as raw:
            cursor = raw.cursor()
            try:
                if self.dialect == "sqlite":
                    # the driver leaves transactions to us (see below)
                    cursor.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                yield cursor
                raw.commit()
            except BaseException as error:
                dialect = self._engine.dialect  # its is_disconnect takes the driver's Error, typed as PEP 249's
                if isinstance(error, driver_error) and dialect.is_disconnect(
                    error, raw.dbapi_connection, cursor  # type: ignore[arg-type]
                ):
                    raw.invalidate(error)  # not back to the pool: the next call connects anew
                    if raw is self._kept:
                        self._kept = None
                else:
                    raw.rollback()
                if isinstance(error, driver_error):
                    raise DBAPIError.instance(None, None, error, driver_error) from error
                raise
            finally:
                cursor.close()

    @contextmanager
    def _driver_connection(self) -> Iterator[Any]:
        """A driver connection for one transaction: on a SQLite file the one kept for them
        all, one transaction at a time; else one from the pool."""
        if self._kept_lock is None:
            raw = self._engine.raw_connection()
            try:
                yield raw
            finally:
                raw.close()  # back to the pool
            return
        with self._kept_lock:
            if self._kept is None:
                self._kept = self._engine.raw_connection()
            yield self._kept

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


def _create_engine(url: URL) -> Engine:
    """The engine for a SQLite or PostgreSQL URL; SQLite's directory is created."""
    backend = url.get_backend_name()
    if backend == "postgresql":
        engine = create_engine(url)
        _ping_when_idle(engine)
        return engine
    if backend != "sqlite":
        raise InvalidValueError(f"unsupported database {backend!r}; use sqlite or postgresql")
    database = url.database or ""
    if database in ("", ":memory:") or url.query.get("mode") == "memory":
        # One in-memory database shared by every thread through one connection.
        engine = create_engine(url, poolclass=StaticPool, connect_args={"check_same_thread": False})
    else:
        if not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"timeout": 30})
    _configure_sqlite(engine)
    return engine


IDLE_PING: Final = 1.0
"""Seconds a pooled PostgreSQL connection may rest before its next use pings it first."""


def _ping_when_idle(engine: Engine) -> None:
    """Ping a pooled connection before it is used again when it has rested longer than
    :data:`IDLE_PING` (a restarted database has closed it: the pool connects anew). A
    connection in steady use goes without: a ping is a round trip, which a busy server would
    pay once more per transaction, and a failing call on a lost connection drops it."""

    @event.listens_for(engine, "connect")
    @event.listens_for(engine, "checkin")
    def _rested(_dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in"] = time.monotonic()

    @event.listens_for(engine, "checkout")
    def _check(dbapi_connection: Any, record: Any, _proxy: Any) -> None:
        if time.monotonic() - record.info.get("checked_in", -math.inf) <= IDLE_PING:
            return
        try:
            alive = engine.dialect.do_ping(dbapi_connection)
        except engine.dialect.loaded_dbapi.Error as error:
            raise DisconnectionError(str(error)) from error
        if not alive:
            raise DisconnectionError("the connection did not answer a ping")


@dataclass(frozen=True, slots=True)
class DriverStatement:
    """A Core statement compiled once for the database's dialect, to run on the driver's own
    cursor: its SQL, the order of its parameters (or their names, for a driver that takes
    them by name), and each bound column's conversion (a datetime to SQLite's text, say), so
    that the rows it writes are those SQLAlchemy would write."""

    sql: str
    keys: tuple[str, ...]
    positional: bool
    processors: Mapping[str, Callable[[Any], Any]]

    def parameters(self, values: Mapping[str, Any]) -> Sequence[Any] | dict[str, Any]:
        """The driver's parameters for ``values`` (by key)."""
        if self.positional:
            return tuple([self.convert(key, values[key]) for key in self.keys])
        return {key: self.convert(key, values[key]) for key in self.keys}

    def convert(self, key: str, value: Any) -> Any:
        """``value`` of the parameter ``key`` as the driver takes it."""
        processor = self.processors.get(key)
        return value if processor is None else processor(value)

    def row_parameters(self, names: Sequence[str]) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
        """For a positional driver: a function from a row of values in the order of ``names``
        to the driver's parameters, at C speed (for the many rows of an ``executemany``). The
        values are taken as they are: those of a key with a conversion must be converted
        first (:meth:`convert`, once for a value that every row shares)."""
        assert self.positional and len(self.keys) > 1, "a positional statement of several parameters"
        return itemgetter(*[names.index(key) for key in self.keys])


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
