"""The ASGI application: HTTP API, the WebSocket endpoint, the web client, metrics.

The server holds no rule logic: WebSocket messages become table inbox items, and the
tables turn game events into messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import json
import logging
import secrets
import socket
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, ClassVar, TypeGuard, TypeVar

import uvicorn
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..errors import ErrorCode
from ..store import Account, InvalidNameError, Store, StoreError, UnknownAccountError
from . import protocol as p
from .connection import Connection, RateLimiter
from .lobby import Lobby, LobbyError
from .metrics import METRICS
from .tables import TableFull

__all__ = ["ServerSettings", "create_app", "serve"]

log = logging.getLogger("shuangkou.server")
T = TypeVar("T")


@dataclass
class ServerSettings:
    """Everything ``shuangkou serve`` can set."""

    database_url: str = "sqlite:///data/shuangkou.db"
    rooms_dir: Path | None = None
    data_dir: Path = Path("data")
    operator_token: str | None = None
    secret: str | None = None
    bot_delay: float = 0.6
    commit_delay: float = 0.0  # seconds a batch of game actions waits for more before its commit
    seed: int | None = None  # tests and demos only: deal game n with seed + n instead of a secure shuffle
    token_max_age: int = 30 * 24 * 3600
    rate: float = 20.0
    burst: float = 40.0
    tune_gc: bool = False  # set by serve(): a process of its own may tune the garbage collector
    ws_deflate: bool = False  # per-message compression: less bandwidth, much more CPU and memory per socket
    extra: dict[str, Any] = field(default_factory=dict)


class JsonFormatter(logging.Formatter):
    """One JSON object per log line, with the ids passed in ``extra``."""

    _standard: ClassVar[set[str]] = set(vars(logging.makeLogRecord({})))

    def format(self, record: logging.LogRecord) -> str:
        data = {"time": self.formatTime(record), "level": record.levelname, "logger": record.name,
                "message": record.getMessage()}
        data.update({k: v for k, v in vars(record).items() if k not in self._standard and k != "message"})
        if record.exc_info:
            data["error"] = self.formatException(record.exc_info)
        return json.dumps(data, default=str, ensure_ascii=False)


def configure_logging(level: int = logging.INFO) -> None:
    """Structured logs on standard error."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter())
    root = logging.getLogger("shuangkou")
    root.handlers[:] = [handler]
    root.setLevel(level)
    root.propagate = False


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


def create_app(settings: ServerSettings) -> Starlette:
    """The application; the database is opened and games restored at startup."""
    state: dict[str, Any] = {}
    signer = URLSafeTimedSerializer(_secret(settings), salt="shuangkou-session")
    # SQLite: the calls run in the event loop itself. A call takes a fraction of a
    # millisecond (commits are not flushed, see docs/server.md), less than handing it to a
    # thread and back, whose Python code would compete for the GIL with the event loop:
    # measured with 600 tables, 8 % more actions per second and a p99 three times lower.
    # PostgreSQL: four threads, as each call waits for the network.
    sqlite = settings.database_url.startswith("sqlite")
    db_pool = None if sqlite else ThreadPoolExecutor(max_workers=4, thread_name_prefix="db")

    async def run_db(function: Callable[[], T]) -> T:
        with METRICS.database.time():
            if db_pool is None:
                return function()
            return await asyncio.get_running_loop().run_in_executor(db_pool, function)

    def lobby() -> Lobby:
        result: Lobby = state["lobby"]
        return result

    def store() -> Store:
        result: Store = state["store"]
        return result

    connections: set[Connection] = set()

    async def drain() -> None:
        """Graceful stop, before the HTTP server closes its sockets: stop seating, stop every
        table (running games stay persisted for the next start), tell every client
        ``closed``/``shutdown`` and wait (briefly) until that is sent."""
        if "lobby" not in state or state.get("drained"):
            return
        state["drained"] = True
        open_connections = len(connections)
        await lobby().shutdown()
        for connection in list(connections):
            connection.close("shutdown")
        writers = {c.writer for c in connections if c.writer is not None and not c.writer.done()}
        if writers:
            await asyncio.wait(writers, timeout=3)
        log.info("drained", extra={"connections": open_connections, "tables": len(lobby().tables)})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        if settings.database_url.startswith("sqlite:///"):
            Path(settings.database_url.removeprefix("sqlite:///")).parent.mkdir(parents=True, exist_ok=True)
        state["store"] = await run_db(lambda: Store(settings.database_url))
        state["lobby"] = Lobby(
            state["store"], run_db, settings.rooms_dir, settings.bot_delay, settings.seed, settings.commit_delay
        )
        restored, voided = await lobby().restore()
        if settings.tune_gc:
            # What exists now (modules, the database layer, rooms) lives as long as the server:
            # leave it out of every collection; and collect less often. A full collection
            # scans every object and pauses every table (up to 200 ms with 600 connections).
            gc.collect()
            gc.freeze()
            gc.set_threshold(5_000, 20, 100)
            gc.callbacks.append(_time_collections())
        log.info("server started", extra={"restored": restored, "voided": voided, "database": store().url})
        monitor = asyncio.get_running_loop().create_task(_watch_loop_lag())
        try:
            yield
        finally:
            monitor.cancel()
            await drain()
            await run_db(store().close)
            if db_pool is not None:
                db_pool.shutdown(wait=True)
            log.info("server stopped")

    # -- sessions -----------------------------------------------------------------------

    def make_token(account: Account) -> str:
        return signer.dumps({"account": account.id})

    async def account_from_token(token: str | None) -> Account:
        if not token:
            raise LobbyError("invalid_token", "a session token is needed")
        try:
            data = signer.loads(token, max_age=settings.token_max_age)
        except SignatureExpired:
            raise LobbyError("invalid_token", "the session token has expired") from None
        except BadSignature:
            raise LobbyError("invalid_token", "the session token is not valid") from None
        account_id = data.get("account") if isinstance(data, dict) else None
        account = await run_db(lambda: store().get_account(account_id)) if isinstance(account_id, int) else None
        if account is None or account.is_house:
            raise LobbyError("invalid_token", "the session token names no account")
        return account

    def account_json(account: Account) -> dict[str, Any]:
        return {"id": account.id, "name": account.name, "balances": account.balances}

    def refuse(code: ErrorCode, message: str, status: int) -> JSONResponse:
        METRICS.errors.labels(code).inc()
        return JSONResponse(p.error(code, message), status_code=status)

    async def body(request: Request) -> dict[str, Any]:
        try:
            data = await request.json()
        except ValueError:
            raise LobbyError("bad_json", "the request body is not valid JSON") from None
        if not isinstance(data, dict):
            raise LobbyError("bad_message", "the request body must be a JSON object")
        return data

    # -- public HTTP --------------------------------------------------------------------

    async def guest(request: Request) -> Response:
        try:
            data = await body(request)
            name = data.get("name")
            if not isinstance(name, str):
                return refuse("bad_name", "'name' must be a string", 400)
            balances = lobby().starting_balances()
            account = await run_db(lambda: store().create_guest(name, balances))
        except LobbyError as problem:
            return refuse(problem.code, problem.message, 400)
        except InvalidNameError as problem:
            return refuse("bad_name", str(problem), 400)
        return JSONResponse({"token": make_token(account), "account": account_json(account)})

    async def me(request: Request) -> Response:
        try:
            account = await account_from_token(_bearer(request))
        except LobbyError as problem:
            return refuse(problem.code, problem.message, 401)
        data = account_json(account)
        data["levels"] = {
            room.config.edition: room.config.level_for(account.balances.get(room.config.edition, 0)).level
            for room in lobby().rooms.values()
        }
        return JSONResponse(data)

    async def rooms(request: Request) -> Response:
        return JSONResponse({"rooms": lobby().summary()})

    async def healthz(request: Request) -> Response:
        return JSONResponse({"status": "ok", "tables": len(lobby().tables), "accepting": lobby().accepting})

    async def metrics(request: Request) -> Response:
        return Response(generate_latest(METRICS.registry), media_type=CONTENT_TYPE_LATEST)

    # -- operator HTTP ------------------------------------------------------------------

    def operator(handler: Callable[[Request], Any]) -> Callable[[Request], Any]:
        async def guarded(request: Request) -> Response:
            token = _bearer(request)
            if not settings.operator_token or not token or not secrets.compare_digest(
                token, settings.operator_token
            ):
                return refuse("not_operator", "an operator token is needed (Authorization: Bearer ...)", 401)
            try:
                response: Response = await handler(request)
            except LobbyError as problem:
                return refuse(problem.code, problem.message, 400)
            except UnknownAccountError as problem:
                return refuse("unknown_account", str(problem), 404)
            except (StoreError, ValueError) as problem:
                return refuse("refused", str(problem), 400)
            return response

        return guarded

    async def list_accounts(request: Request) -> Response:
        limit, offset = _paging(request)
        accounts = await run_db(lambda: store().list_accounts(limit, offset))
        return JSONResponse({"accounts": [account_json(a) | {"kind": a.kind} for a in accounts]})

    async def grant(request: Request) -> Response:
        data = await body(request)
        account_id, edition, delta, reason = (data.get(k) for k in ("account", "edition", "delta", "reason"))
        if not (_is_int(account_id) and isinstance(edition, str) and _is_int(delta)
                and isinstance(reason, str) and reason):
            raise LobbyError("bad_message", "grant needs integer 'account', 'edition', integer 'delta', 'reason'")
        allow_negative = any(r.config.allow_negative for r in lobby().rooms.values() if r.config.edition == edition)
        entry = await run_db(
            lambda: store().grant(account_id, edition, delta, reason, "operator", allow_negative)
        )
        return JSONResponse({"entry": entry.to_dict()})

    async def ledger(request: Request) -> Response:
        limit, offset = _paging(request)
        account = request.query_params.get("account")
        game = request.query_params.get("game")
        account_id = int(account) if account is not None and account.isdigit() else None
        if account is not None and not _is_int(account_id):
            raise LobbyError("bad_message", f"'account' must be an account id, not {account!r}")
        entries = await run_db(lambda: store().ledger(account_id, game, limit, offset))
        return JSONResponse({"entries": [e.to_dict() for e in entries]})

    async def games(request: Request) -> Response:
        limit, offset = _paging(request)
        status = request.query_params.get("status")
        found = await run_db(lambda: store().list_games(limit, offset, status))
        return JSONResponse({"games": [_game_json(g, False) for g in found]})

    async def game(request: Request) -> Response:
        game_id = request.path_params["game_id"]
        found = await run_db(lambda: store().get_game(game_id))
        if found is None:
            raise LobbyError("unknown_game", f"no game {game_id!r}")
        return JSONResponse(_game_json(found, True))

    async def reload_rooms(request: Request) -> Response:
        return JSONResponse(lobby().reload_rooms())

    async def close_room(request: Request) -> Response:
        lobby().close_room(request.path_params["name"])
        return JSONResponse({"closed": request.path_params["name"]})

    # -- WebSocket ---------------------------------------------------------------------

    async def websocket_endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            account = await account_from_token(websocket.query_params.get("token"))
        except LobbyError as problem:
            METRICS.errors.labels(problem.code).inc()
            await websocket.send_text(json.dumps(p.error(problem.code, problem.message)))
            await websocket.close(code=4401)
            return
        if not lobby().accepting:
            METRICS.errors.labels("shutting_down").inc()
            await websocket.send_text(json.dumps(p.error("shutting_down", "the server is shutting down")))
            await websocket.close(code=1012)
            return
        connection = Connection(websocket, account)
        connection.writer = asyncio.get_running_loop().create_task(connection.write())
        connections.add(connection)
        limiter = RateLimiter(settings.rate, settings.burst)
        watching = None
        METRICS.connections.inc()
        connection.send({"type": "welcome", "account": account_json(account), "rooms": lobby().summary()})
        table = lobby().seated.get(account.id)
        if table is not None:
            with contextlib.suppress(TableFull):  # the table stopped meanwhile
                await table.request("reconnect", account, connection)
        try:
            while not connection.closed:
                frame = await websocket.receive()
                if frame["type"] == "websocket.disconnect":
                    break
                text: str | bytes = frame.get("text") or frame.get("bytes") or ""  # a binary frame is read as UTF-8
                if not limiter.allow():
                    METRICS.errors.labels("rate_limited").inc()
                    connection.send(dict(p.error("rate_limited", "too many messages; slow down")))
                    continue
                try:
                    message = p.parse_client_message(text)
                except p.ProtocolError as problem:
                    METRICS.errors.labels(problem.code).inc()
                    connection.send(dict(p.error(problem.code, problem.message)))
                    continue
                table = lobby().seated.get(account.id)
                if isinstance(message, p.JoinMessage):
                    try:
                        await lobby().join(account, connection, message.room, message.table, message.opponent)
                    except LobbyError as problem:
                        METRICS.errors.labels(problem.code).inc()
                        connection.send(dict(p.error(problem.code, problem.message)))
                elif isinstance(message, p.WatchMessage):
                    watched = lobby().tables.get(message.table)
                    if watched is None:
                        connection.send(dict(p.error("unknown_table", f"no table {message.table!r}")))
                    else:
                        if watching is not None and watching is not watched:
                            watching.post("unwatch", connection)  # one table at a time
                        watching = watched
                        watched.post("watch", connection)
                elif table is not None:
                    table.post("message", connection, message)
                elif isinstance(message, p.PingMessage):
                    connection.send({"type": "pong"})
                else:
                    METRICS.errors.labels("not_seated").inc()
                    connection.send(dict(p.error("not_seated", "join a table first")))
        except WebSocketDisconnect:
            pass
        finally:
            connections.discard(connection)
            METRICS.connections.dec()
            table = lobby().seated.get(account.id)
            if table is not None:
                table.post("disconnect", connection)
            if watching is not None and watching is not table:
                watching.post("disconnect", connection)
            connection.close("disconnected")

    web = resources.files("shuangkou") / "web"
    routes = [
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/rooms", rooms),
        Route("/api/admin/accounts", operator(list_accounts)),
        Route("/api/admin/grant", operator(grant), methods=["POST"]),
        Route("/api/admin/ledger", operator(ledger)),
        Route("/api/admin/games", operator(games)),
        Route("/api/admin/games/{game_id}", operator(game)),
        Route("/api/admin/rooms/reload", operator(reload_rooms), methods=["POST"]),
        Route("/api/admin/rooms/{name}/close", operator(close_room), methods=["POST"]),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
        WebSocketRoute("/ws", websocket_endpoint),
        Mount("/", StaticFiles(directory=str(web), html=True), name="web"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.settings = settings
    app.state.server = state
    app.state.drain = drain
    return app


class _Server(uvicorn.Server):
    """Uvicorn, with the application's graceful stop run before uvicorn closes the
    WebSockets (it would otherwise drop them with code 1012 and no word to the clients)."""

    def __init__(self, config: uvicorn.Config, drain: Callable[[], Awaitable[None]]) -> None:
        super().__init__(config)
        self.drain = drain

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await self.drain()
        finally:
            await super().shutdown(sockets)


def serve(settings: ServerSettings, host: str, port: int) -> None:
    """Run the server until SIGINT or SIGTERM, which stop it gracefully: seating stops,
    tables stop (running games stay persisted), clients get ``closed``/``shutdown``."""
    # The event loop and the database thread share the GIL; the default 5 ms switch interval
    # would add up to 5 ms to each hand-over between them.
    sys.setswitchinterval(0.0005)
    app = create_app(dataclasses.replace(settings, tune_gc=True))
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", ws_max_size=65536, timeout_graceful_shutdown=5,
        ws_per_message_deflate=settings.ws_deflate,
    )
    _Server(config, app.state.drain).run()


def _is_int(value: object) -> TypeGuard[int]:
    """An integer that fits the database's 64-bit columns (and not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


async def _watch_loop_lag(period: float = 0.25) -> None:
    """Observe how late the event loop wakes a sleeping task: a busy loop delays every message."""
    loop = asyncio.get_running_loop()
    while True:
        start = loop.time()
        await asyncio.sleep(period)
        METRICS.loop_lag.observe(max(0.0, loop.time() - start - period))


def _time_collections() -> Callable[[str, dict[str, int]], None]:
    """A :data:`gc.callbacks` entry that observes how long each collection pauses the server."""
    started = 0.0

    def observe(phase: str, info: dict[str, int]) -> None:
        nonlocal started
        if phase == "start":
            started = time.perf_counter()
        else:
            METRICS.gc_pause.labels(str(info["generation"])).observe(time.perf_counter() - started)

    return observe


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def _paging(request: Request) -> tuple[int, int]:
    def number(name: str, default: int, ceiling: int) -> int:
        text = request.query_params.get(name, "")
        return min(int(text), ceiling) if text.isdigit() else default

    return number("limit", 100, 1000), number("offset", 0, 10**9)


def _game_json(stored: Any, full: bool) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": stored.game_id,
        "room": stored.room,
        "status": stored.status,
        "void_reason": stored.void_reason,
        "created_at": stored.created_at.isoformat(),
        "updated_at": stored.updated_at.isoformat(),
    }
    if full:
        data["config"] = json.loads(stored.config_json)
        data["record"] = json.loads(stored.record_json) if stored.record_json else None
        data["settlement"] = json.loads(stored.settlement_json) if stored.settlement_json else None
        data["actions"] = [json.loads(a.action_json) for a in stored.actions]
    return data
