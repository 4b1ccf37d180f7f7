"""The server lease: one game server at a time per database.

A server restores and runs every unfinished game of its database, so two servers on one
database would both run the same games. The lease is held for as long as the server runs;
a second server asks for it, is refused and does not start. It ends with its holder,
however the process ends.

- PostgreSQL: a session-level advisory lock (keys :data:`LEASE_CLASS` and a CRC-32 of the
  connection's ``search_path``: one lease per schema) on a connection of its own.
- SQLite file: an exclusive ``flock`` on the file ``DATABASE-lease`` beside the database.
- SQLite in memory: no lease (nothing outlives the process).

The lease covers the whole database. The nodes of a cluster (several servers on one
PostgreSQL database, docs/deployment.md) take it *shared*: they run the database's games
together, each table claimed by one node (:mod:`shuangkou.store.fences`), while a single
server, which runs them all, takes it exclusive; so the two never run on one database.
"""

from __future__ import annotations

import fcntl
import os
import time
import zlib
from pathlib import Path
from types import TracebackType
from typing import Final

from sqlalchemy import Connection, Engine, create_engine, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.pool import NullPool

from .errors import LeaseError, LeaseHeldError

__all__ = ["LEASE_CLASS", "FileLock", "LeaseError", "LeaseHeldError", "ServerLease"]

LEASE_CLASS: Final = 0x5348_4B53
"""First key of the PostgreSQL advisory lock ("SHKS"); the second is derived from the search path."""


class FileLock:
    """An exclusive ``flock`` on a file (created if needed) that holds its holder's process id."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._fd: int | None = None

    def acquire(self) -> bool:
        """Take the lock; False when another process holds it (see :attr:`holder`)."""
        if self._fd is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            return False
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return True

    @property
    def holder(self) -> str:
        """The process id written by the holder of the lock ("unknown" if none)."""
        try:
            return self.path.read_text().strip() or "unknown"
        except OSError:
            return "unknown"

    def release(self) -> None:
        """Release the lock (the file stays: removing it would race with a process taking it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


class ServerLease:
    """The lease of one server on its database.

    ``with ServerLease(url):`` holds it; :meth:`acquire` raises :class:`LeaseHeldError` when
    another server holds it, :class:`LeaseError` when the database cannot be reached.
    """

    def __init__(self, url: str, shared: bool = False) -> None:
        self.shared = shared  # the nodes of a cluster share the lease; a single server holds it alone
        parsed = make_url(url)
        if parsed.drivername == "postgresql":
            parsed = parsed.set(drivername="postgresql+psycopg")
        self._url = parsed.render_as_string(hide_password=True)
        self._engine: Engine | None = None
        self._connection: Connection | None = None
        self._file: FileLock | None = None
        if parsed.get_backend_name() == "postgresql":
            self._engine = create_engine(parsed, poolclass=NullPool, isolation_level="AUTOCOMMIT")
        elif _is_sqlite_file(parsed):
            self._file = FileLock(Path(f"{parsed.database}-lease"))

    def acquire(self, wait: float = 3.0) -> ServerLease:
        """Take the lease; on PostgreSQL, try for up to ``wait`` seconds (a server that just
        died may hold it until PostgreSQL sees its connection close)."""
        if self._file is not None and not self._file.acquire():
            raise LeaseHeldError(
                f"another server holds the lease on {self._url}: the lock {self._file.path} "
                f"(process {self._file.holder}); stop that server first"
            )
        if self._engine is not None and self._connection is None:
            self._connection = self._advisory_lock(self._engine, wait)
        return self

    def _advisory_lock(self, engine: Engine, wait: float) -> Connection:
        try:
            connection = engine.connect()
        except OperationalError as problem:
            raise LeaseError(f"cannot reach {self._url} to take the server's lease: {problem.orig}") from None
        deadline = time.monotonic() + wait
        try:
            search_path = connection.execute(text("select current_setting('search_path')")).scalar_one()
            key = _signed32(zlib.crc32(str(search_path).encode()))
            function = "pg_try_advisory_lock_shared" if self.shared else "pg_try_advisory_lock"
            lock = text(f"select {function}(:lease, :key)").bindparams(lease=LEASE_CLASS, key=key)
            while not (taken := connection.execute(lock).scalar_one()) and time.monotonic() < deadline:
                time.sleep(0.1)
        except BaseException:
            connection.close()
            raise
        if not taken:
            connection.close()
            holder, who = ("a single server", "it") if self.shared else ("another server", "that server (or cluster)")
            raise LeaseHeldError(
                f"{holder} holds the lease on {self._url} (search path {search_path}): "
                f"PostgreSQL advisory lock ({LEASE_CLASS}, {key}); stop {who} first"
            )
        return connection

    def release(self) -> None:
        """Give the lease back (closing its connection ends the advisory lock)."""
        if self._connection is not None:
            self._connection.close()
            self._connection = None
        if self._engine is not None:
            self._engine.dispose()
        if self._file is not None:
            self._file.release()

    def __enter__(self) -> ServerLease:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


def _is_sqlite_file(url: URL) -> bool:
    """A SQLite database in a file of its own (not in memory, not a ``file:`` URI)."""
    database = url.database or ""
    return (
        url.get_backend_name() == "sqlite" and database not in ("", ":memory:")
        and not database.startswith("file:") and url.query.get("mode") != "memory"
    )


def _signed32(value: int) -> int:
    """An unsigned 32-bit value as PostgreSQL's signed ``integer``."""
    return value - 2**32 if value >= 2**31 else value
