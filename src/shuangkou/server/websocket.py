"""The WebSocket endpoint ``/ws``: a client's frames become lobby requests and table inbox items.

Each connection is an asyncio protocol (:class:`PlayerSocket`) that uvicorn hands the
socket to once the HTTP request asks for a WebSocket; the protocol itself (handshake,
framing, pings, the closing handshake) is ``websockets``' sans-I/O
:class:`~websockets.server.ServerProtocol`. A message is handled in the event loop's own
call that read it, and a message sent is framed and written at once: no ASGI messages, no
task and no queue per connection. Only what waits for the database or another node
(opening the session, seating, watching a table elsewhere) runs as a task, and the
connection reads nothing more until it is done, so a client's messages are handled in the
order sent.

The session (:class:`ClientSession`) refuses what it cannot take (rate limit, bad frames,
not seated) with an error reply and goes on; the tables answer everything else. Refusal
replies never cost a player the connection: they are dropped while half the connection's
send buffer is taken (:meth:`Connection.send_refusal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import deque
from collections.abc import Coroutine
from typing import Any, Final
from urllib.parse import parse_qs

import orjson
from uvicorn.config import Config
from uvicorn.server import ServerState
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory
from websockets.frames import Opcode
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.server import ServerProtocol

from ..errors import ErrorCode
from ..store import Account
from . import protocol as p
from .admission import peer_address
from .cluster import Redirect
from .connection import Connection, RateLimiter
from .inbox import Disconnect, Received, Reconnect, Unwatch, Watch
from .lobby import LobbyError
from .metrics import METRICS
from .sansio import SansIOSocket
from .state import AppState, account_json
from .tables import Table, TableFull

__all__ = ["ClientSession", "PlayerSocket"]

log = logging.getLogger("shuangkou.server")

PATH: Final = "/ws"
CLOSE_TIMEOUT: Final = 10.0
"""Seconds a closing socket waits for the client's side of the closing handshake."""

Work = Coroutine[Any, Any, None]


FLOOD_REFUSALS = 5_000
FLOOD_SECONDS = 10.0
"""A connection that has more than :data:`FLOOD_REFUSALS` messages refused for the rate
limit within :data:`FLOOD_SECONDS` is closed as ``flooding`` (a player's burst of a
thousand keeps its seat; a client that ignores ``rate_limited`` does not). Past the first
50 refusals of those seconds only every 100th is answered: each answer costs a write."""

_RATE_LIMITED: Final = orjson.dumps(p.error("rate_limited", "too many messages; slow down"))
RATE_LIMITED: Final = METRICS.errors.labels("rate_limited")


class ClientSession:
    """One open connection of an account: what it watches, how fast it may send."""

    def __init__(self, state: AppState, connection: Connection, address: str) -> None:
        self.state = state
        self.connection = connection
        self.address = address
        self.account: Account = connection.account
        self.limiter = RateLimiter(state.settings.rate, state.settings.burst)
        # The account's allowance, shared by its connections: more connections send no more.
        self.account_limiter = state.account_limits.setdefault(
            self.account.id, RateLimiter(state.settings.rate, state.settings.burst)
        )
        self.watching: Table | None = None
        self.refusals = 0  # messages refused for the rate since refusals_since
        self.refusals_since = 0.0

    def handle(self, data: bytes) -> Work | None:
        """One message: handled now, or the work to await before the next (seating, or a
        table watched on another node)."""
        allowed = self.limiter.allow() and self.account_limiter.allow()
        if not (allowed and self.state.address_messages.allow(self.address)):
            now = time.monotonic()
            if now - self.refusals_since > FLOOD_SECONDS:
                self.refusals_since, self.refusals = now, 0
            refused = self.refusals = self.refusals + 1
            if refused > FLOOD_REFUSALS:  # it ignores the limit: a flood, not a player
                METRICS.errors.labels("flooding").inc()
                self.connection.close("flooding")
            elif refused <= 50 or refused % 100 == 0:  # a flood's replies thinned: each costs a write
                RATE_LIMITED.inc()
                self.connection.send_refusal(_RATE_LIMITED)
            return None
        try:
            message = p.parse_client_message(data)
        except p.ProtocolError as problem:
            self.refuse(problem.code, problem.message)
            return None
        lobby = self.state.lobby
        if isinstance(message, p.JoinMessage):
            return self.join(message)
        if isinstance(message, p.BotsMessage):
            return self.fill_with_bots()
        if isinstance(message, p.WatchMessage):
            watched = lobby.tables.get(message.table)
            if watched is None:
                return self.watch_elsewhere(message.table)
            if self.watching is not None and self.watching is not watched:
                self.watching.tell(Unwatch(self.connection))  # one table at a time
            self.watching = watched
            watched.tell(Watch(self.connection))
            return None
        table = lobby.seated.get(self.account.id)
        if table is not None:
            table.tell(Received(self.connection, message))
        elif isinstance(message, p.PingMessage):
            self.connection.send({"type": "pong"})
        else:
            self.refuse("not_seated", "join a table first")
        return None

    async def join(self, message: p.JoinMessage) -> None:
        """Sit down (the lobby answers with the table's state)."""
        try:
            await self.state.lobby.join(
                self.account, self.connection, message.room, message.table, message.opponent, message.seat,
                message.redirected,
            )
        except LobbyError as problem:
            self.refuse(problem.code, problem.message)
        except Redirect as there:  # quick match: players wait on another node of the cluster
            self.connection.send(there.message())

    async def fill_with_bots(self) -> None:
        """Bots in the free seats of the account's table."""
        try:
            await self.state.lobby.fill_with_bots(self.account)
        except LobbyError as problem:
            self.refuse(problem.code, problem.message)

    async def watch_elsewhere(self, table_id: str) -> None:
        """A ``watch`` of a table this server does not run: in a cluster, a table of another
        node is watched there (``redirect``), unless the connection keeps a seat here."""
        cluster = self.state.cluster
        url = await cluster.table_url(table_id) if cluster is not None else None
        if url is None:
            self.refuse("unknown_table", f"no table {table_id!r}")
        elif self.account.id in self.state.lobby.seated:
            self.refuse(
                "already_seated",
                f"table {table_id!r} runs on another node ({url}): a player seated here watches this node's "
                "tables only",
            )
        else:
            self.connection.send(Redirect(url, watch=table_id).message())

    def refuse(self, code: ErrorCode, message: str) -> None:
        """Reply ``error`` to a refused message."""
        METRICS.errors.labels(code).inc()
        self.connection.send_refusal(dict(p.error(code, message)))

    def close(self) -> None:
        """The connection ended: tell the table and the watched table, close the socket."""
        table = self.state.lobby.seated.get(self.account.id)
        if table is not None:
            table.tell(Disconnect(self.connection))
        if self.watching is not None and self.watching is not table:
            self.watching.tell(Disconnect(self.connection))
        self.connection.close("disconnected")


class PlayerSocket(SansIOSocket[ServerProtocol]):
    """One client's WebSocket, from uvicorn's hand-over of the upgrade request to the end.

    uvicorn builds one per WebSocket request (``ws=`` of :func:`.app.uvicorn_config`) with
    its configuration (frame size limit, compression, keep-alive pings) and its registry of
    open connections, which it closes on shutdown (:meth:`shutdown`)."""

    def __init__(self, state: AppState, config: Config, server_state: ServerState, app_state: Any = None) -> None:
        self.state = state
        self.registry = server_state.connections
        extensions = [ServerPerMessageDeflateFactory(
            server_max_window_bits=12, client_max_window_bits=12, compress_settings={"memLevel": 5},
        )] if config.ws_per_message_deflate else []
        super().__init__(ServerProtocol(extensions=extensions, max_size=config.ws_max_size, logger=log))
        self.ping_interval = config.ws_ping_interval
        self.ping_timeout = config.ws_ping_timeout
        self.session: ClientSession | None = None
        self.address = "local"  # the client's address (connection_made)
        self.lost = False
        self._busy: asyncio.Task[None] | None = None  # work the next message waits for
        self._backlog: deque[bytes] = deque()  # messages read meanwhile
        self._ping: bytes | None = None  # the payload of the keep-alive ping awaiting its pong
        self._timer: asyncio.TimerHandle | None = None  # the next ping, or the end of a close
        self._closing = False

    # -- Outlet (the connection's side) ----------------------------------------------------

    def write_message(self, data: bytes) -> None:
        """Send one text message now."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_text(data)
            self._flush()

    def unsent(self) -> int:
        """Bytes the transport holds that the network has not taken."""
        return self.transport.get_write_buffer_size() if self.transport is not None else 0

    def end(self, code: int) -> None:
        """Start the closing handshake; the socket closes when the client answers (or after
        :data:`CLOSE_TIMEOUT`)."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code)
            self._flush()

    # -- asyncio.Protocol ----------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # a TCP transport (uvloop's is not a subclass)
        self.address = peer_address(transport.get_extra_info("peername"))
        self.registry.add(self)  # type: ignore[arg-type]  # uvicorn keeps its protocols there

    def connection_lost(self, exc: Exception | None) -> None:
        self.protocol.receive_eof()  # closed for the protocol too: nothing more is sent
        if self.transport is not None:  # counted since its HTTP upgrade request (.admission)
            self.state.admission.release(self.transport, self.address)
        self.transport = None
        self.lost = True
        self.registry.discard(self)
        if self._timer is not None:
            self._timer.cancel()
        if self._busy is None:  # else when the work is done: it may have seated the account
            self._end_session()

    def shutdown(self) -> None:
        """uvicorn stops: close what the server's own stop left open."""
        if self.transport is not None:
            self.end(1012)
            self.transport.close()

    # -- opening ---------------------------------------------------------------------------

    def _handshake(self, request: Request | Response) -> None:
        """The opening handshake; the session opens once the token's account is known."""
        assert isinstance(request, Request)  # a server's protocol reads requests
        path, _, query = request.path.partition("?")
        protocol = self.protocol
        if self.transport is not None and self.state.admission.health_only(self.transport.get_extra_info("peername")):
            response = protocol.reject(503, "The server is full: try again later\n")
        elif path == PATH:
            response = protocol.accept(request)
        else:
            response = protocol.reject(404, "Not Found\n")
        protocol.send_response(response)
        if response.status_code != 101:
            return
        self._arm_ping()
        token = parse_qs(query).get("token", [None])[0]
        self._run(self._start_session(token))

    async def _start_session(self, token: str | None) -> None:
        """Authenticate by the ``token`` query parameter, welcome, reconnect a seated player."""
        state = self.state
        try:
            account = await state.account_from_token(token)
        except LobbyError as problem:
            self._refuse_and_close(problem.code, problem.message, 4401)
            return
        try:
            route = None if self.lost else await state.route(account)
        except LobbyError as problem:  # the cluster's Redis did not answer: nothing was changed
            self._refuse_and_close(problem.code, problem.message, 1013)
            return
        if self.lost:
            return
        if route is not None:  # a cluster: the player's table runs on another node, or this one stops
            where, url = route
            moved = {"type": "redirect", "url": url} if where == "redirect" else {"type": "closed", "reason": where}
            self.write_message(orjson.dumps(moved))
            self.end(1000)
            return
        if not state.lobby.accepting:
            self._refuse_and_close("shutting_down", "the server is shutting down", 1012)
            return
        most = state.settings.connections_per_account
        if state.connections_of[account.id] >= most:
            self._refuse_and_close(
                "too_many_connections", f"this account has {most} connections open already: close one", 1008
            )
            return
        connection = Connection(account, self)
        self.session = ClientSession(state, connection, self.address)
        state.connections.add(connection)
        state.connections_of[account.id] += 1
        METRICS.connections.inc()
        connection.send({"type": "welcome", "account": account_json(account), "rooms": state.lobby.summary()})
        table = state.lobby.seated.get(account.id)
        if table is not None:
            with contextlib.suppress(TableFull):  # the table stopped meanwhile
                await table.ask(Reconnect(account, connection))

    def _refuse_and_close(self, code: ErrorCode, message: str, close_code: int) -> None:
        METRICS.errors.labels(code).inc()
        self.write_message(orjson.dumps(p.error(code, message)))
        self.end(close_code)

    def _end_session(self) -> None:
        session, self.session = self.session, None
        if session is not None:
            self.state.connections.discard(session.connection)
            counts = self.state.connections_of
            counts[session.account.id] -= 1
            if counts[session.account.id] <= 0:
                del counts[session.account.id]
                self.state.account_limits.pop(session.account.id, None)
            METRICS.connections.dec()
            session.close()

    # -- messages --------------------------------------------------------------------------

    def _control(self, opcode: Opcode, data: bytes) -> None:
        if opcode is Opcode.PONG and data == self._ping:
            self._ping = None

    def _message(self, data: bytes) -> None:
        """A whole message (a binary one is read as UTF-8 text)."""
        if self._busy is not None:
            self._backlog.append(data)
            return
        session = self.session
        if session is None or session.connection.closed:
            return  # refused at the opening, or closing: nothing more is read
        try:
            work = session.handle(data)
        except Exception:  # a bug must not take the connection down
            log.exception("message not handled", extra={"account": session.account.id})
            METRICS.errors.labels("internal").inc()
            return
        if work is not None:
            self._run(work)

    def _run(self, work: Work) -> None:
        """Run ``work`` as a task; messages read meanwhile wait for it."""
        self._busy = task = asyncio.get_running_loop().create_task(work)
        task.add_done_callback(self._done)
        if self.transport is not None:
            self.transport.pause_reading()

    def _done(self, task: asyncio.Task[None]) -> None:
        self._busy = None
        if not task.cancelled() and (problem := task.exception()) is not None:
            log.error("message not handled", exc_info=problem)
            METRICS.errors.labels("internal").inc()
        if self.lost:
            self._backlog.clear()
            self._end_session()
            return
        while self._backlog and self._busy is None:
            self._message(self._backlog.popleft())
        if self._busy is None and self.transport is not None:
            self.transport.resume_reading()

    # -- writing, pings and closing ---------------------------------------------------------

    def _flush(self) -> None:
        """Write what the protocol has to send; once it expects the connection to close, give
        the client :data:`CLOSE_TIMEOUT` to close its side."""
        super()._flush()
        transport = self.transport
        if transport is not None and not self._closing and self.protocol.close_expected():
            self._closing = True
            if self._timer is not None:
                self._timer.cancel()
            self._timer = asyncio.get_running_loop().call_later(CLOSE_TIMEOUT, transport.abort)

    def _arm_ping(self) -> None:
        if self.ping_interval:
            self._timer = asyncio.get_running_loop().call_later(self.ping_interval, self._keepalive)

    def _keepalive(self) -> None:
        """Ping every ``ws_ping_interval`` seconds; with a ``ws_ping_timeout``, a client that
        has not answered the last ping by the next is gone (code 1011)."""
        if self.protocol.state is not State.OPEN:
            return
        if self._ping is not None and self.ping_timeout:
            self.protocol.fail(1011, "keepalive ping timeout")
            self._flush()
            return
        self._ping = os.urandom(4)
        self.protocol.send_ping(self._ping)
        self._flush()
        self._arm_ping()
