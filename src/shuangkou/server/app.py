"""The ASGI application and the ``serve`` entry point.

The server holds no rule logic: WebSocket messages become table inbox items, and the
tables turn game events into messages. The shell is split by concern: :mod:`.settings`
(what ``serve`` can set), :mod:`.state` (what every handler shares), :mod:`.http` (the HTTP
API), :mod:`.websocket` (the WebSocket protocol), :mod:`.datalock` (one server per data directory
and database); this module assembles the routes and the lifespan, and runs uvicorn.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import errno
import functools
import gc
import logging
import socket
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from typing import Any, cast

import uvicorn
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.responses import PlainTextResponse
from starlette.routing import BaseRoute, Mount
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from . import http, websocket
from .admission import Admission
from .datalock import ClaimError, claim
from .headers import HeaderTimedProtocol
from .metrics import METRICS
from .protocol import MAX_TRANSPORT_FRAME_BYTES
from .settings import ServerSettings
from .state import AppState

__all__ = ["ServerSettings", "StartError", "create_app", "serve", "uvicorn_config"]

log = logging.getLogger("shuangkou.server")


class StartError(Exception):
    """The server cannot start: the port is taken, or another server holds the data."""


def create_app(settings: ServerSettings, claimed: bool = False, instance: str | None = None) -> Starlette:
    """The application; at startup it takes the data directory lock and the database lease
    (unless ``claimed``: the caller holds them, and a cluster's node its liveness key, whose
    value is ``instance``), opens the database and restores the games."""
    state = AppState(settings, instance)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        with contextlib.nullcontext(instance) if claimed else claim(settings) as held:
            state.instance = held
            restored, voided = await state.start()
            collector = _take_over_collection() if settings.tune_gc else None
            node = settings.cluster.node_id if settings.cluster is not None else None
            log.info("server started", extra={
                "restored": restored, "voided": voided, "database": state.store.url, "node": node,
            })
            monitor = asyncio.get_running_loop().create_task(_watch_loop_lag())
            try:
                yield
            finally:
                monitor.cancel()
                if collector is not None:
                    collector.cancel()
                await state.stop()
                log.info("server stopped")

    web = resources.files("shuangkou") / "web"
    routes: list[BaseRoute] = [*http.routes(), Mount("/", StaticFiles(directory=str(web), html=True), name="web")]
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(HealthOnly, admission=state.admission)])
    app.state.server = state
    return app


class HealthOnly:
    """ASGI middleware: a connection admitted while the process is full (:class:`~.admission.Admission`)
    gets the health check and nothing else (``503``)."""

    def __init__(self, app: ASGIApp, admission: Admission) -> None:
        self.app = app
        self.admission = admission

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        client = scope.get("client")
        if scope["type"] == "http" and scope["path"] != "/healthz" and client is not None \
                and self.admission.health_only(tuple(client)):
            response = PlainTextResponse("The server is full: try again later\n", status_code=503)
            await response(scope, receive, send)
            return
        await self.app(scope, receive, send)


def serve(settings: ServerSettings, host: str, port: int, on_ready: Callable[[], None] = lambda: None) -> None:
    """Run the server until SIGINT or SIGTERM, which stop it gracefully: seating stops,
    tables stop (running games stay persisted), clients get ``closed``/``shutdown``.

    The port is bound, then the data directory and the database claimed, before anything
    is restored; :class:`StartError` says which failed. ``on_ready`` runs once the server
    answers."""
    # The event loop and the database thread share the GIL; the default 5 ms switch interval
    # would add up to 5 ms to each hand-over between them.
    sys.setswitchinterval(0.0005)
    listener = _listen(host, port)
    try:
        with claim(settings) as instance:
            app = create_app(dataclasses.replace(settings, tune_gc=True), claimed=True, instance=instance)
            config = uvicorn_config(app, timeout_graceful_shutdown=5, ws_per_message_deflate=settings.ws_deflate)
            _Server(config, app.state.server.drain, on_ready).run(sockets=[listener])
    except ClaimError as problem:
        raise StartError(str(problem)) from None
    finally:
        listener.close()


def uvicorn_config(app: Starlette, **options: Any) -> uvicorn.Config:
    """uvicorn's configuration for the application (``options`` added): HTTP through the
    Starlette application, each request's headers due within ``header_seconds``
    (:class:`~.headers.HeaderTimedProtocol`), every WebSocket request a
    :class:`~.websocket.PlayerSocket` of its state (uvicorn builds one per request as it
    would its own protocol class)."""
    state = app.state.server
    sockets = cast(type[asyncio.Protocol], functools.partial(websocket.PlayerSocket, state))
    http = cast(type[asyncio.Protocol], functools.partial(
        HeaderTimedProtocol, seconds=state.settings.header_seconds, admission=state.admission
    ))
    return uvicorn.Config(
        app, log_level="warning", http=http, ws=sockets, ws_max_size=MAX_TRANSPORT_FRAME_BYTES, **options
    )


class _Server(uvicorn.Server):
    """Uvicorn, with the application's graceful stop run before uvicorn closes the
    WebSockets (it would otherwise drop them with code 1012 and no word to the clients),
    and ``on_ready`` once it serves."""

    def __init__(
        self, config: uvicorn.Config, drain: Callable[[], Awaitable[None]], on_ready: Callable[[], None]
    ) -> None:
        super().__init__(config)
        self.drain = drain
        self.on_ready = on_ready

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            self.on_ready()

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        try:
            await self.drain()
        finally:
            await super().shutdown(sockets)


def _listen(host: str, port: int) -> socket.socket:
    """A socket bound to ``host``:``port``; :class:`StartError` when that address is taken."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listener = socket.socket(family, kind, proto)
    except OSError as problem:
        raise StartError(f"cannot listen on {host}:{port}: {problem}") from None
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(address)
    except OSError as problem:
        listener.close()
        reason = "the port is already in use (is another server running?)" if problem.errno == errno.EADDRINUSE \
            else problem.strerror
        raise StartError(f"cannot listen on {host}:{port}: {reason}") from None
    return listener


def _take_over_collection() -> asyncio.Task[None]:
    """Leave what exists now (modules, the database layer, rooms), which lives as long as
    the server, out of every collection, and collect on a clock instead of CPython's
    allocation count; returns the task that collects."""
    gc.collect()
    gc.freeze()
    gc.disable()
    gc.callbacks.append(_time_collections())
    return asyncio.get_running_loop().create_task(_collect_garbage(), name="garbage-collector")


async def _collect_garbage(young_every: float = 0.1, full_every: float = 600.0) -> None:
    """Collect the young generation every ``young_every`` seconds and everything every
    ``full_every``.

    CPython starts a young collection when allocations outnumber deallocations by the
    threshold, but a deallocation of an old object counts too: a server whose games
    replace old objects with new ones keeps the count low while the young generation grows,
    and one collection then scans hundreds of thousands of live objects (up to 250 ms at
    1,000 tables, all of them waiting), to find no garbage: in steady play nothing here makes
    reference cycles, only connecting does (a few dozen objects a connection). On a clock,
    a young collection scans a tenth of a second's survivors, which then wait for the full
    collection (CPython's own came every 10 to 30 minutes at 1,000 tables)."""
    loop = asyncio.get_running_loop()
    next_full = loop.time() + full_every
    while True:
        await asyncio.sleep(young_every)
        if loop.time() < next_full:
            gc.collect(0)
        else:
            gc.collect()
            next_full = loop.time() + full_every


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
