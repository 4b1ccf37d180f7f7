"""What the HTTP and WebSocket handlers share: one :class:`AppState` per application."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections import Counter, OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Final, TypeVar

from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from redis import RedisError
from starlette.requests import HTTPConnection

from ..store import Account, Store
from .admission import Admission, default_most_connections
from .cluster import Cluster, NodeStatus
from .connection import AddressLimiter, Connection, RateLimiter
from .lobby import Lobby, LobbyError
from .metrics import METRICS
from .settings import ServerSettings

__all__ = ["REPLAYS_AT_ONCE", "REPLAYS_KEPT", "AppState", "account_json", "app_state"]

log = logging.getLogger("shuangkou.server")
T = TypeVar("T")

POSTGRESQL_COMMIT_DELAY: Final = 0.010
"""Seconds a batch of game actions stays open on PostgreSQL unless ``--commit-delay`` says
otherwise: at 300 tables on two nodes, 10 ms made batches of about 2 actions instead of 1,
cut the nodes' CPU per action by about a sixth and PostgreSQL's by a third, and added about
10 ms to the median action (docs/deployment.md#capacity)."""


REPLAYS_KEPT: Final = 256
"""Finished games' replays kept encoded, the most recently asked for (a finished game never changes)."""
REPLAYS_AT_ONCE: Final = 2
"""Replays computed at the same time, each in a thread of its own, off the event loop."""


class AppState:
    """The settings, the database, the lobby, session tokens and the open connections.

    The store and the lobby exist between :meth:`start` and :meth:`stop` (the application's
    lifespan).
    """

    def __init__(self, settings: ServerSettings, instance: str | None = None) -> None:
        self.settings = settings
        self.instance = instance  # a cluster's node: the value of its liveness key (see datalock.claim)
        # A cluster's nodes share the secret, kept in the database (set at start).
        self.signer = URLSafeTimedSerializer(
            _secret(settings) if settings.cluster is None else secrets.token_urlsafe(32), salt="shuangkou-session"
        )
        self.cluster: Cluster | None = None
        self.connections: set[Connection] = set()
        self.connections_of: Counter[int] = Counter()  # open WebSockets per account
        self.account_limits: dict[int, RateLimiter] = {}  # messages per account, shared by its connections
        self.guest_limits = AddressLimiter(settings.guests_per_minute / 60, settings.guest_burst)
        self.replay_limits = AddressLimiter(settings.replays_per_second, settings.replay_burst)
        # Messages per client address, shared by all its connections and accounts (0: no limit).
        self.address_messages = AddressLimiter(settings.address_rate, settings.address_burst)
        self.admission = Admission(  # connections per client address, and in all (.admission)
            settings.connections_per_address, settings.max_connections or default_most_connections()
        )
        self.replays: OrderedDict[str, bytes] = OrderedDict()  # finished games' replays, encoded (http.py)
        self.replay_slots = asyncio.Semaphore(REPLAYS_AT_ONCE)
        # SQLite: the calls run in the event loop itself. A call takes a fraction of a
        # millisecond (commits are not flushed, see docs/server.md), less than handing it to a
        # thread and back, whose Python code would compete for the GIL with the event loop:
        # measured with 600 tables, 8 % more actions per second and a p99 three times lower.
        # PostgreSQL: four threads, as each call waits for the network.
        sqlite = settings.database_url.startswith("sqlite")
        self._db_pool = None if sqlite else ThreadPoolExecutor(max_workers=4, thread_name_prefix="db")
        self._store: Store | None = None
        self._lobby: Lobby | None = None
        self._drained = False

    @property
    def store(self) -> Store:
        """The database (once started)."""
        assert self._store is not None, "the server has not started"
        return self._store

    @property
    def lobby(self) -> Lobby:
        """Rooms, tables and seating (once started)."""
        assert self._lobby is not None, "the server has not started"
        return self._lobby

    async def run_db(self, function: Callable[[], T]) -> T:
        """Run a store call: in the event loop on SQLite, in a database thread on PostgreSQL."""
        with METRICS.database.time():
            if self._db_pool is None:
                return function()
            return await asyncio.get_running_loop().run_in_executor(self._db_pool, function)

    async def start(self) -> tuple[int, int]:
        """Open the database, load the rooms and restore the unfinished games; returns
        (restored, voided)."""
        settings = self.settings
        store = self._store = await self.run_db(lambda: Store(settings.database_url))
        if settings.cluster is not None:
            assert self.instance is not None, "a cluster's node starts with its liveness key held"
            secret = await self.run_db(lambda: store.shared_secret("session"))
            self.signer = URLSafeTimedSerializer(secret, salt="shuangkou-session")
            self.cluster = Cluster(settings.cluster, self.instance)
            METRICS.node.labels(settings.cluster.node_id).set(1)
        commit_delay = settings.commit_delay
        if commit_delay is None:
            commit_delay = 0.0 if self._db_pool is None else POSTGRESQL_COMMIT_DELAY
        lobby = self._lobby = Lobby(
            store, self.run_db, settings.rooms_dir, settings.bot_delay, settings.seed, commit_delay,
            self.cluster, settings.expert_workers,
        )
        if self.cluster is None:
            return await lobby.restore()
        restored = await self.cluster.start(
            self.node_status, self._running_games, lobby.adopt, lobby.check_fences, self._operate,
            lobby.send_waiting_on,
        )
        return restored, 0

    async def operate(self, command: dict[str, Any]) -> dict[str, Any]:
        """An operator command on the rooms (:meth:`Lobby.operate`), applied here and, in a
        cluster, sent to every other node: this node's answer, with every node's under
        ``nodes``. Refused here (:class:`LobbyError`), it is sent nowhere."""
        answer = self.lobby.operate(command)
        if self.cluster is None:
            return answer
        others = await self.cluster.command_all(command)
        return {**answer, "nodes": {self.cluster.node_id: answer, **others}}

    async def _operate(self, command: dict[str, Any]) -> dict[str, Any]:
        """Another node's operator command, applied here: the answer, or the refusal."""
        try:
            return self.lobby.operate(command)
        except LobbyError as problem:
            return {"error": {"code": problem.code, "message": problem.message}}

    def node_status(self) -> NodeStatus:
        """This node's load, as its heartbeat publishes it."""
        assert self.settings.cluster is not None
        lobby = self.lobby
        return NodeStatus(
            self.settings.cluster.node_id, self.settings.cluster.public_url, len(lobby.tables), len(lobby.seated),
            len(self.connections), lobby.accepting, lobby.local_rooms(), lobby.waiting_tables(),
        )

    async def _running_games(self, nodes: list[str] | None) -> list[tuple[str, str | None, str | None]]:
        """The running games (of ``nodes``): game, table, node."""
        store = self.store
        found = await self.run_db(lambda: store.running_game_owners(nodes))
        return [(game.game_id, game.table_id, game.node) for game in found]

    async def route(self, account: Account) -> tuple[str, str | None] | None:
        """Where a connecting player belongs, in a cluster: None here (seated here, or
        nowhere); else ("redirect", URL of the node running the player's table), or
        ("moving", None) while no live node runs it or this one is restoring it (it is being
        taken over).
        :class:`LobbyError` ``unavailable`` when Redis does not answer."""
        cluster = self.cluster
        seated = self.lobby.seated.get(account.id)
        if cluster is None or (seated is not None and not seated.lost):  # (a lost table is closing: not here)
            return None
        if not self.lobby.accepting:  # stopping: another node seats the player
            elsewhere = cluster.least_loaded()
            return ("redirect", elsewhere) if elsewhere is not None else None
        try:
            table, url = await cluster.owner_url(account.id)
        except RedisError as problem:
            message = f"the cluster's directory (Redis) did not answer ({problem}); connect again"
            raise LobbyError("unavailable", message) from None
        if table is None or url == cluster.settings.public_url:
            # A table taken over here is listed before its seats are filled: until then the
            # player waits (``moving``), or would be welcomed to the lobby beside their game.
            return ("moving", None) if table in self.lobby.restoring else None
        if url is not None:
            return "redirect", url
        store = self.store
        if await self.run_db(lambda: store.running_game_at(table)) is None:
            cluster.unseated(account.id)  # a table without a game, closed with its node: the seat is gone
            return None
        return "moving", None

    async def drain(self) -> None:
        """Graceful stop, before the HTTP server closes its sockets: stop seating, stop every
        table (running games stay persisted for the next start), tell every client
        ``closed``/``shutdown`` and wait (briefly) until that is sent."""
        if self._lobby is None or self._drained:
            return
        self._drained = True
        open_connections = len(self.connections)
        if self.cluster is not None:
            await self._leave_cluster()
        await self._lobby.shutdown()
        for connection in list(self.connections):
            connection.close("shutdown")
        for _ in range(60):  # up to 3 s for the clients to take what was sent and close their side
            if not self.connections:
                break
            await asyncio.sleep(0.05)
        log.info("drained", extra={"connections": open_connections, "tables": len(self._lobby.tables)})

    async def _leave_cluster(self) -> None:
        """A cluster's node stops: seat nobody, let the games in progress end (up to
        ``drain_seconds``), give up the node's liveness (the other nodes take over the games
        still running), and send every client to another node."""
        assert self.cluster is not None
        lobby = self.lobby
        playing = sum(table.unsettled for table in lobby.tables.values())
        await lobby.finish_games(self.settings.drain_seconds)
        handed_over = sum(table.unsettled for table in lobby.tables.values())
        elsewhere = self.cluster.least_loaded()
        await self.cluster.leave()
        if elsewhere is not None:
            for connection in list(self.connections):
                connection.send({"type": "redirect", "url": elsewhere})
        log.info("left the cluster", extra={"playing": playing, "handed_over": handed_over, "redirect": elsewhere})

    async def stop(self) -> None:
        """Drain, then close the database."""
        await self.drain()
        if self.cluster is not None:
            await self.cluster.stop()
        if self._store is not None:
            await self.run_db(self._store.close)
        if self._db_pool is not None:
            self._db_pool.shutdown(wait=True)

    # -- sessions -----------------------------------------------------------------------

    def guest_balances(self) -> dict[str, int]:
        """A new guest's balances: each edition's starting balance (:meth:`Lobby.starting_balances`),
        but wealth, which moves between players, as ``guest_wealth`` says (none by default:
        an operator grants it; bots keep theirs)."""
        balances = self.lobby.starting_balances()
        if self.settings.guest_wealth is not None:
            balances["wealth"] = self.settings.guest_wealth
        return balances

    def make_token(self, account: Account) -> str:
        """A signed session token naming the account."""
        return self.signer.dumps({"account": account.id})

    async def account_from_token(self, token: str | None) -> Account:
        """The account a session token names; :class:`LobbyError` ``invalid_token`` otherwise."""
        if not token:
            raise LobbyError("invalid_token", "a session token is needed")
        try:
            data = self.signer.loads(token, max_age=self.settings.token_max_age)
        except SignatureExpired:
            raise LobbyError("invalid_token", "the session token has expired") from None
        except BadSignature:
            raise LobbyError("invalid_token", "the session token is not valid") from None
        account_id = data.get("account") if isinstance(data, dict) else None
        store = self.store
        account = await self.run_db(lambda: store.get_account(account_id)) if isinstance(account_id, int) else None
        if account is None or account.is_house:
            raise LobbyError("invalid_token", "the session token names no account")
        return account


def app_state(connection: HTTPConnection) -> AppState:
    """The state of the application serving a request or a WebSocket."""
    found: AppState = connection.app.state.server
    return found


def account_json(account: Account) -> dict[str, Any]:
    """An account as the API shows it to its owner."""
    return {"id": account.id, "name": account.name, "balances": account.balances}


def _secret(settings: ServerSettings) -> str:
    """The token-signing secret: given, or kept in the data directory across restarts."""
    if settings.secret:
        return settings.secret
    path = settings.data_dir / "secret.key"
    if not path.exists():
        settings.data_dir.mkdir(parents=True, exist_ok=True)
        path.write_text(secrets.token_urlsafe(32))
        path.chmod(0o600)
    return path.read_text().strip()
