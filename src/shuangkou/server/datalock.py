"""One server per data directory, and per database: taken before anything is restored.

The data directory holds the session secret and, by default, the SQLite database; a
server restores every unfinished game it finds there. :class:`DataDirLock` is an exclusive
``flock`` on ``server.lock`` in the data directory, held for the life of the server; the
kernel releases it when the process ends, however it ends. :func:`claim` takes it and the
database's lease (:class:`shuangkou.store.lease.ServerLease`, for PostgreSQL, whose
servers may have different data directories).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from ..store.lease import LeaseError, ServerLease
from .settings import ServerSettings

__all__ = ["LOCK_FILE", "ClaimError", "DataDirLock", "claim"]

LOCK_FILE = "server.lock"


class ClaimError(Exception):
    """Another server holds the data directory or the database."""


class DataDirLock:
    """An exclusive lock on a data directory (``with DataDirLock(path):``)."""

    def __init__(self, data_dir: Path) -> None:
        self.path = Path(data_dir) / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> DataDirLock:
        """Take the lock; raises :class:`ClaimError` naming the lock file and its holder."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 32).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise ClaimError(
                f"the data directory {self.path.parent} is in use: another server (process {holder}) "
                f"holds the lock {self.path}; stop it first, or give this one another --data-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        return self

    def release(self) -> None:
        """Release the lock (the file stays: removing it would race with a server taking it)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> DataDirLock:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


@contextlib.contextmanager
def claim(settings: ServerSettings) -> Iterator[None]:
    """Hold the data directory lock, then the database lease; :class:`ClaimError` if either
    is taken (or the database cannot be reached for the lease)."""
    with DataDirLock(settings.data_dir):
        try:
            lease = ServerLease(settings.database_url).acquire()
        except LeaseError as problem:
            raise ClaimError(str(problem)) from None
        with lease:
            yield
