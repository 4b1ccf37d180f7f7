"""What ``shuangkou serve`` can set, in one place."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Final

from sqlalchemy.engine import make_url

from ..store import DEFAULT_DATABASE_URL
from .cluster import ClusterSettings
from .headers import HEADER_SECONDS

__all__ = [
    "ADDRESS_RATE_VARIABLE",
    "CONNECTIONS_PER_ADDRESS_VARIABLE",
    "DATABASE_FILE",
    "GUESTS_PER_MINUTE_VARIABLE",
    "GUEST_WEALTH_VARIABLE",
    "PER_ADDRESS_VARIABLES",
    "ServerSettings",
    "database_url_in",
]

GUESTS_PER_MINUTE_VARIABLE: Final = "SHUANGKOU_GUESTS_PER_MINUTE"
"""The environment variable that sets the default of ``serve --guests-per-minute``."""
CONNECTIONS_PER_ADDRESS_VARIABLE: Final = "SHUANGKOU_CONNECTIONS_PER_ADDRESS"
"""The environment variable that sets the default of ``serve --connections-per-address``."""
GUEST_WEALTH_VARIABLE: Final = "SHUANGKOU_GUEST_WEALTH"
"""The environment variable that sets the default of ``serve --guest-wealth``."""
ADDRESS_RATE_VARIABLE: Final = "SHUANGKOU_ADDRESS_RATE"
"""The environment variable that sets the default of ``serve --address-rate``."""
PER_ADDRESS_VARIABLES: Final = (GUESTS_PER_MINUTE_VARIABLE, CONNECTIONS_PER_ADDRESS_VARIABLE, ADDRESS_RATE_VARIABLE)
"""The limits per client address, which servers whose clients all share one address (tests,
load tests) turn off."""

DATABASE_FILE: Final = PurePosixPath(make_url(DEFAULT_DATABASE_URL).database or "").name
"""The SQLite file of the default database (:data:`shuangkou.store.DEFAULT_DATABASE_URL`)."""


def database_url_in(data_dir: Path) -> str:
    """The default database, in ``data_dir``."""
    return f"sqlite:///{data_dir / DATABASE_FILE}"


@dataclass
class ServerSettings:
    """Everything ``shuangkou serve`` can set."""

    database_url: str = DEFAULT_DATABASE_URL
    rooms_dir: Path | None = None
    data_dir: Path = Path("data")
    operator_token: str | None = None
    secret: str | None = None
    bot_delay: float = 0.6
    expert_workers: int | None = None  # processes searching expert bots' moves; None: one fewer than the cores
    commit_delay: float | None = None  # seconds a batch of game actions waits for more before its commit;
    # None: 0 on SQLite, POSTGRESQL_COMMIT_DELAY on PostgreSQL (each transaction there costs a thread hand-off and
    # round trips: larger batches save CPU on the server and in PostgreSQL)
    seed: int | None = None  # tests and demos only: deal game n with seed + n instead of a secure shuffle
    token_max_age: int = 30 * 24 * 3600
    rate: float = 20.0
    burst: float = 40.0
    guests_per_minute: float = 6.0  # new guest accounts per client address, after a burst of guest_burst; 0: no limit
    guest_burst: float = 30.0
    guest_wealth: int | None = 0  # a new guest's wealth (what moves between players); None: the rooms' starting balance
    replays_per_second: float = 10.0  # GET /api/games/ID per client address, after a burst of replay_burst; 0: no limit
    replay_burst: float = 20.0
    connections_per_account: int = 8  # WebSockets one account may hold open at once
    connections_per_address: int = 256  # connections one client address may hold open at once; 0: no limit
    max_connections: int | None = None  # connections in all; None: the file descriptor limit less a reserve
    address_rate: float = 200.0  # WebSocket messages per second per client address, all its connections; 0: no limit
    address_burst: float = 400.0
    header_seconds: float = HEADER_SECONDS  # a request's headers are due within this (slow clients are closed)
    tune_gc: bool = False  # set by serve(): a process of its own may tune the garbage collector
    ws_deflate: bool = False  # per-message compression: less bandwidth, much more CPU and memory per socket
    cluster: ClusterSettings | None = None  # a node of a cluster (docs/deployment.md); None: a single server
    drain_seconds: float = 30.0  # a cluster's node, on SIGTERM: how long running games may go on before handover
