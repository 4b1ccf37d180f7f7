"""Who may open a connection: at most so many per client address, and a reserve kept for
the health check when the process holds as many as it may.

Every connection the server accepts (HTTP, and a WebSocket after its upgrade: the same
transport) is counted from its opening to its close, by client address. A client address
that holds ``per_address`` connections has the next closed at once, so one client cannot
take every file descriptor of the process. Past ``most`` connections in all, the server
answers a new connection's ``GET /healthz`` (and nothing else: ``503``) as long as fewer
than ``reserve`` such connections are open, and closes the others at once: the health
check is served while the process is full, and the file descriptors left below the
process's limit go to the database, logs and running tables. Behind a reverse proxy every
client has the proxy's address: the per-address limit is then the proxy's to keep
(docs/deployment.md).
"""

from __future__ import annotations

import resource
from collections import defaultdict
from enum import Enum
from typing import Final

__all__ = ["DESCRIPTOR_RESERVE", "Admission", "Admitted", "default_most_connections", "peer_address"]

DESCRIPTOR_RESERVE: Final = 256
"""File descriptors kept below the process's limit for what is not a client connection
(database connections, logs, the expert workers' pipes) and for the health check."""


def default_most_connections() -> int:
    """Connections in all by default: the process's file descriptor limit less :data:`DESCRIPTOR_RESERVE`."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return 1_000_000
    return max(16, soft - DESCRIPTOR_RESERVE)


def peer_address(peer: object) -> str:
    """The client address of a transport's ``peername`` (a Unix socket's clients share one)."""
    return str(peer[0]) if isinstance(peer, tuple) and peer else "local"


def _endpoint(peer: object) -> tuple[str, int] | None:
    """A peer's address and port (an IPv6 ``peername`` has four parts; the ASGI scope's ``client`` two)."""
    if isinstance(peer, tuple | list) and len(peer) >= 2:
        return str(peer[0]), int(peer[1])
    return None


class Admitted(Enum):
    """What a new connection may do."""

    OPEN = "open"  # anything
    HEALTH = "health"  # the process is full: GET /healthz only
    REFUSED = "refused"  # closed at once


class Admission:
    """Open connections counted by client address (``per_address`` 0: no limit), at most
    ``most`` in all beside ``reserve`` kept for health checks."""

    def __init__(self, per_address: int, most: int, reserve: int = DESCRIPTOR_RESERVE // 4) -> None:
        self.per_address = per_address
        self.most = most
        self.reserve = reserve
        self._open: defaultdict[str, set[object]] = defaultdict(set)
        self._total = 0
        self._health: dict[object, object] = {}  # connection -> its peer, for those admitted for the health check

    def health_only(self, peer: object) -> bool:
        """Whether the connection of ``peer`` (its address and port) may ask for the health check only."""
        return bool(self._health) and _endpoint(peer) in self._health.values()

    @property
    def total(self) -> int:
        """Connections open now."""
        return self._total

    def admit(self, connection: object, address: str, peer: object = None) -> Admitted:
        """Count the new ``connection`` from ``address`` (``peer``: its address and port), or refuse it."""
        if self.per_address and len(self._open[address]) >= self.per_address:
            return Admitted.REFUSED
        admitted = Admitted.OPEN
        if self._total >= self.most:
            if len(self._health) >= self.reserve:
                return Admitted.REFUSED
            admitted = Admitted.HEALTH
            self._health[connection] = _endpoint(peer)
        self._open[address].add(connection)
        self._total += 1
        return admitted

    def release(self, connection: object, address: str) -> None:
        """``connection`` from ``address`` closed (once or more: only its first release counts)."""
        held = self._open.get(address)
        if held is None or connection not in held:
            return
        held.discard(connection)
        if not held:
            del self._open[address]
        self._health.pop(connection, None)
        self._total -= 1
