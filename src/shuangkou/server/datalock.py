"""One server per data directory, and per database: taken before anything is restored.

The data directory holds the session secret and, by default, the SQLite database; a
server restores every unfinished game it finds there. :class:`DataDirLock` is an exclusive
``flock`` on ``server.lock`` in the data directory, held for the life of the server; the
kernel releases it when the process ends, however it ends. :func:`claim` takes it and the
database's lease (:class:`shuangkou.store.lease.ServerLease`: servers with different data
directories may share a database).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from sqlalchemy.engine import make_url

from ..store.lease import FileLock, LeaseError, ServerLease
from .cluster import ClusterError, NodeLease
from .settings import ServerSettings

__all__ = ["LOCK_FILE", "ClaimError", "DataDirLock", "claim"]

LOCK_FILE = "server.lock"


class ClaimError(Exception):
    """Another server holds the data directory or the database."""


class DataDirLock:
    """An exclusive lock on a data directory (``with DataDirLock(path):``)."""

    def __init__(self, data_dir: Path) -> None:
        self._lock = FileLock(Path(data_dir) / LOCK_FILE)

    @property
    def path(self) -> Path:
        """The lock file."""
        return self._lock.path

    def acquire(self) -> DataDirLock:
        """Take the lock; raises :class:`ClaimError` naming the lock file and its holder."""
        if not self._lock.acquire():
            raise ClaimError(
                f"the data directory {self.path.parent} is in use: another server (process "
                f"{self._lock.holder}) holds the lock {self.path}; stop it first, or give this one another --data-dir"
            )
        return self

    def release(self) -> None:
        """Release the lock."""
        self._lock.release()

    def __enter__(self) -> DataDirLock:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


@contextlib.contextmanager
def claim(settings: ServerSettings) -> Iterator[str | None]:
    """Hold the data directory lock, then the database lease, then (a cluster's node) the
    node's liveness key in Redis; yields the liveness key's value (None for a single
    server). :class:`ClaimError` if any is taken, or cannot be reached.

    A single server's lease on PostgreSQL is exclusive; the nodes of a cluster share it, so
    a single server and a cluster never run the same database's games."""
    cluster = settings.cluster
    if cluster is not None and make_url(settings.database_url).get_backend_name() != "postgresql":
        raise ClaimError(
            "a cluster (--redis-url) needs PostgreSQL (--database-url postgresql+psycopg://...): "
            "a SQLite database serves one server process"
        )
    with DataDirLock(settings.data_dir):
        try:
            lease = ServerLease(settings.database_url, shared=cluster is not None).acquire()
        except LeaseError as problem:
            raise ClaimError(str(problem)) from None
        with lease:
            if cluster is None:
                yield None
                return
            try:
                node = NodeLease(cluster).acquire()
            except ClusterError as problem:
                raise ClaimError(str(problem)) from None
            with node:
                yield node.instance
