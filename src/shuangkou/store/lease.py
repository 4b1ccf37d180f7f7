"""The server lease: one game server at a time per PostgreSQL schema.

A server restores and runs every unfinished game of its database, so two servers on one
database would both run the same games. On PostgreSQL the lease is a session-level
advisory lock, held on a connection of its own for as long as the server runs: a second
server asks for it, is refused at once and does not start. PostgreSQL drops the lock
when that connection ends, also when the process dies.

The lease covers the whole schema. It is meant to be replaced by finer leases (per table)
when several servers share one database; nothing else depends on it.

SQLite needs no lease here: its database lives in the server's data directory, which the
server locks (``shuangkou.server.datalock``).
"""

from __future__ import annotations

import time
import zlib
from types import TracebackType
from typing import Final

from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from . import StoreError

__all__ = ["LEASE_CLASS", "LeaseError", "LeaseHeldError", "ServerLease"]

LEASE_CLASS: Final = 0x5348_4B53
"""First key of the advisory lock ("SHKS"); the second is derived from the schema's search path."""


class LeaseError(StoreError):
    """The lease cannot be taken."""


class LeaseHeldError(LeaseError):
    """Another server holds the lease on this database."""


class ServerLease:
    """The lease of one server on a PostgreSQL database; nothing on SQLite.

    ``with ServerLease(url):`` holds it; :meth:`acquire` raises :class:`LeaseHeldError` when
    another server holds it, :class:`LeaseError` when the database cannot be reached.
    """

    def __init__(self, url: str) -> None:
        parsed = make_url(url)
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        self._engine: Engine | None = None
        if parsed.get_backend_name() == "postgresql":
            self._engine = create_engine(parsed, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        self._url = parsed.render_as_string(hide_password=True)
        self._connection: Connection | None = None

    def acquire(self, wait: float = 3.0) -> ServerLease:
        """Take the lease, trying for up to ``wait`` seconds (a server that just died may
        still hold it until PostgreSQL sees its connection close); raises
        :class:`LeaseHeldError` when another server holds it."""
        if self._engine is None or self._connection is not None:
            return self
        try:
            connection = self._engine.connect()
        except OperationalError as problem:
            raise LeaseError(f"cannot reach {self._url} to take the server's lease: {problem.orig}") from None
        deadline = time.monotonic() + wait
        try:
            search_path = connection.execute(text("select current_setting('search_path')")).scalar_one()
            key = _signed32(zlib.crc32(str(search_path).encode()))
            lock = text("select pg_try_advisory_lock(:lease, :key)").bindparams(lease=LEASE_CLASS, key=key)
            while not (taken := connection.execute(lock).scalar_one()) and time.monotonic() < deadline:
                time.sleep(0.1)
        except BaseException:
            connection.close()
            raise
        if not taken:
            connection.close()
            raise LeaseHeldError(
                f"another server holds the lease on {self._url} (search path {search_path}): "
                f"PostgreSQL advisory lock ({LEASE_CLASS}, {key}); stop that server first"
            )
        self._connection = connection
        return self

    def release(self) -> None:
        """Give the lease back (closing its connection ends the advisory lock)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._engine is not None:
            self._engine.dispose()

    def __enter__(self) -> ServerLease:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


def _signed32(value: int) -> int:
    """An unsigned 32-bit value as PostgreSQL's signed ``integer``."""
    return value - 2**32 if value >= 2**31 else value
