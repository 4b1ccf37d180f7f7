"""The WebSocket endpoint: a client's frames become lobby requests and table inbox items.

The reader refuses what it cannot take (rate limit, bad frames, not seated) with an error
reply and goes on; the tables answer everything else. Refusal replies never cost a
player the connection: they yield to the connection's writer, and are dropped while its
queue is half full (:meth:`Connection.send_refusal`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json

from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import ErrorCode
from ..store import Account
from . import protocol as p
from .cluster import Redirect
from .connection import Connection, RateLimiter
from .inbox import Disconnect, Received, Reconnect, Unwatch, Watch
from .lobby import LobbyError
from .metrics import METRICS
from .state import AppState, account_json, app_state
from .tables import Table, TableFull

__all__ = ["ClientSession", "route"]


class ClientSession:
    """One open connection of an account: what it watches, how fast it may send."""

    def __init__(self, state: AppState, connection: Connection) -> None:
        self.state = state
        self.connection = connection
        self.account: Account = connection.account
        self.limiter = RateLimiter(state.settings.rate, state.settings.burst)
        self.watching: Table | None = None

    async def run(self) -> None:
        """Handle frames until the client or the server closes the connection."""
        websocket = self.connection.websocket
        with contextlib.suppress(WebSocketDisconnect):
            while not self.connection.closed:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text: str | bytes = frame.get("text") or frame.get("bytes") or ""  # a binary frame is read as UTF-8
                await self.handle(text)

    async def handle(self, text: str | bytes) -> None:
        """One frame."""
        if not self.limiter.allow():
            await self.refuse("rate_limited", "too many messages; slow down")
            return
        try:
            message = p.parse_client_message(text)
        except p.ProtocolError as problem:
            await self.refuse(problem.code, problem.message)
            return
        lobby = self.state.lobby
        table = lobby.seated.get(self.account.id)
        if isinstance(message, p.JoinMessage):
            try:
                await lobby.join(
                    self.account, self.connection, message.room, message.table, message.opponent, message.seat,
                    message.redirected,
                )
            except LobbyError as problem:
                await self.refuse(problem.code, problem.message)
            except Redirect as there:  # quick match: players wait on another node of the cluster
                self.connection.send(there.message())
        elif isinstance(message, p.BotsMessage):
            try:
                await lobby.fill_with_bots(self.account)
            except LobbyError as problem:
                await self.refuse(problem.code, problem.message)
        elif isinstance(message, p.WatchMessage):
            watched = lobby.tables.get(message.table)
            if watched is None:
                await self.watch_elsewhere(message.table)
                return
            if self.watching is not None and self.watching is not watched:
                self.watching.tell(Unwatch(self.connection))  # one table at a time
            self.watching = watched
            watched.tell(Watch(self.connection))
        elif table is not None:
            table.tell(Received(self.connection, message))
        elif isinstance(message, p.PingMessage):
            self.connection.send({"type": "pong"})
        else:
            await self.refuse("not_seated", "join a table first")

    async def watch_elsewhere(self, table_id: str) -> None:
        """A ``watch`` of a table this server does not run: in a cluster, a table of another
        node is watched there (``redirect``), unless the connection keeps a seat here."""
        cluster = self.state.cluster
        url = await cluster.table_url(table_id) if cluster is not None else None
        if url is None:
            await self.refuse("unknown_table", f"no table {table_id!r}")
        elif self.account.id in self.state.lobby.seated:
            await self.refuse(
                "already_seated",
                f"table {table_id!r} runs on another node ({url}): a player seated here watches this node's "
                "tables only",
            )
        else:
            self.connection.send(Redirect(url, watch=table_id).message())

    async def refuse(self, code: ErrorCode, message: str) -> None:
        """Reply ``error`` to a refused frame, then let the writer send it."""
        METRICS.errors.labels(code).inc()
        self.connection.send_refusal(dict(p.error(code, message)))
        await asyncio.sleep(0)

    def close(self) -> None:
        """The connection ended: tell the table and the watched table, close the socket."""
        table = self.state.lobby.seated.get(self.account.id)
        if table is not None:
            table.tell(Disconnect(self.connection))
        if self.watching is not None and self.watching is not table:
            self.watching.tell(Disconnect(self.connection))
        self.connection.close("disconnected")


async def websocket_endpoint(websocket: WebSocket) -> None:
    """Authenticate by the ``token`` query parameter, welcome, reconnect a seated player, then read."""
    state = app_state(websocket)
    await websocket.accept()
    try:
        account = await state.account_from_token(websocket.query_params.get("token"))
    except LobbyError as problem:
        await _refuse_and_close(websocket, problem.code, problem.message, 4401)
        return
    try:
        route = await state.route(account)
    except LobbyError as problem:  # the cluster's Redis did not answer: nothing was changed
        await _refuse_and_close(websocket, problem.code, problem.message, 1013)
        return
    if route is not None:  # a cluster: the player's table runs on another node, or this one stops
        where, url = route
        moved = {"type": "redirect", "url": url} if where == "redirect" else {"type": "closed", "reason": where}
        await websocket.send_text(json.dumps(moved))
        await websocket.close(code=1000)
        return
    if not state.lobby.accepting:
        await _refuse_and_close(websocket, "shutting_down", "the server is shutting down", 1012)
        return
    connection = Connection(websocket, account)
    connection.writer = asyncio.get_running_loop().create_task(connection.write())
    state.connections.add(connection)
    METRICS.connections.inc()
    session = ClientSession(state, connection)
    connection.send({"type": "welcome", "account": account_json(account), "rooms": state.lobby.summary()})
    table = state.lobby.seated.get(account.id)
    if table is not None:
        with contextlib.suppress(TableFull):  # the table stopped meanwhile
            await table.ask(Reconnect(account, connection))
    try:
        await session.run()
    finally:
        state.connections.discard(connection)
        METRICS.connections.dec()
        session.close()


def route() -> WebSocketRoute:
    """The WebSocket route."""
    return WebSocketRoute("/ws", websocket_endpoint)


async def _refuse_and_close(websocket: WebSocket, code: ErrorCode, message: str, close_code: int) -> None:
    METRICS.errors.labels(code).inc()
    await websocket.send_text(json.dumps(p.error(code, message)))
    await websocket.close(code=close_code)
