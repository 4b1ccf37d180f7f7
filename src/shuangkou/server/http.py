"""The HTTP API: public endpoints (guest accounts, rooms, health, metrics) and the
operator API under ``/api/admin`` (docs/server.md)."""

from __future__ import annotations

import asyncio
import json
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, TypeGuard

import orjson
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from ..errors import ErrorCode
from ..games import DEFAULT_GAME, family
from ..games.interface import GameFamily
from ..store import InvalidNameError, LedgerEntry, Store, StoredGame, StoreError, UnknownAccountError
from . import protocol as p
from .lobby import LobbyError
from .metrics import METRICS
from .record import restore_game, stored_bot_level
from .replay import resolve_game_id
from .state import REPLAYS_KEPT, account_json, app_state

__all__ = ["routes"]

Handler = Callable[[Request], Awaitable[Response]]

_FULL_GAME_ID = re.compile(r"[0-9a-f]{32}")  # a game's id: uuid4().hex


class NotFound(LobbyError):
    """The request names something that does not exist (HTTP 404)."""


def refuse(code: ErrorCode, message: str, status: int) -> JSONResponse:
    """An error response, counted in the metrics."""
    METRICS.errors.labels(code).inc()
    return JSONResponse(p.error(code, message), status_code=status)


MAX_BODY_BYTES = 16 * 1024
"""The largest request body the API reads (every request of it is a small JSON object)."""


class TooLarge(LobbyError):
    """A request body over :data:`MAX_BODY_BYTES` (HTTP 413)."""

    def __init__(self) -> None:
        super().__init__("too_large", f"the request body is over {MAX_BODY_BYTES} bytes")


async def body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read only up to :data:`MAX_BODY_BYTES` (a larger body is
    refused from its ``Content-Length`` before any of it is read, or as soon as it runs
    over): :class:`TooLarge`, or :class:`LobbyError` ``bad_json`` (JSON nested deeper than
    1,024 levels included) or ``bad_message`` otherwise."""
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise TooLarge()
    received = bytearray()
    async for chunk in request.stream():
        received += chunk
        if len(received) > MAX_BODY_BYTES:
            raise TooLarge()
    try:
        data = orjson.loads(bytes(received))
    except orjson.JSONDecodeError:
        raise LobbyError("bad_json", "the request body is not valid JSON (nested at most 1,024 deep)") from None
    if not isinstance(data, dict):
        raise LobbyError("bad_message", "the request body must be a JSON object")
    return data


# -- public -----------------------------------------------------------------------------


async def guest(request: Request) -> Response:
    """Create a guest account: its session token and the account, with the starting
    balances (no wealth by default: :meth:`AppState.guest_balances`). A client address makes
    ``guest_burst`` guests at once, then ``guests_per_minute`` (429 ``rate_limited``)."""
    server = app_state(request)
    if not server.guest_limits.allow(_address(request)):
        return refuse("rate_limited", "too many new guests from your address: try again in a minute", 429)
    try:
        data = await body(request)
        name = data.get("name")
        if not isinstance(name, str):
            return refuse("bad_name", "'name' must be a string", 400)
        balances = server.guest_balances()
        account = await server.run_db(lambda: server.store.create_guest(name, balances))
    except TooLarge as problem:
        return refuse(problem.code, problem.message, 413)
    except LobbyError as problem:
        return refuse(problem.code, problem.message, 400)
    except InvalidNameError as problem:
        return refuse("bad_name", str(problem), 400)
    return JSONResponse({"token": server.make_token(account), "account": account_json(account)})


async def me(request: Request) -> Response:
    """The session's account, with its level in each room's edition."""
    server = app_state(request)
    try:
        account = await server.account_from_token(_bearer(request))
    except LobbyError as problem:
        return refuse(problem.code, problem.message, 401)
    data = account_json(account)
    data["levels"] = {
        room.config.edition: room.config.stake_level(account.balances.get(room.config.edition, 0))
        for room in server.lobby.rooms.values()
    }
    return JSONResponse(data)


async def my_games(request: Request) -> Response:
    """战绩: the session's own settled games, newest first, ``limit`` (at most 100) from
    ``offset``: when, which game, where, who sat where (and in which team), the result, the
    change and the balance after."""
    server = app_state(request)
    try:
        account = await server.account_from_token(_bearer(request))
    except LobbyError as problem:
        return refuse(problem.code, problem.message, 401)
    limit, offset = _paging(request)
    limit = min(limit, 100) if "limit" in request.query_params else 20
    history = await server.run_db(lambda: server.store.game_history(account.id, limit, offset))
    items = [_history_item(entry, game) for entry, game in history]
    return JSONResponse({"games": items, "offset": offset, "limit": limit})


def _history_item(entry: LedgerEntry, game: StoredGame) -> dict[str, Any]:
    """One game of a player's history (see :func:`my_games`)."""
    record = json.loads(game.record_json) if game.record_json else {}
    settlement = json.loads(game.settlement_json) if game.settlement_json else {}
    seats = _seats(((seat[1], seat[2]) if seat else None for seat in record.get("seats", [])), game.config_json)
    game_family = _family_of(game.config_json)
    return {
        "game_id": game.game_id,
        "finished_at": game.updated_at.isoformat(),
        "family": game_family.name,
        "room": game.room,
        "edition": entry.edition,
        "seat": entry.seat,
        "seats": seats,
        "teams": game_family.teams(settlement, len(seats)),
        "result": settlement.get("result"),
        "won": entry.seat in _winners(settlement),
        "delta": entry.delta,
        "balance_after": entry.balance_after,
    }


def _seats(seats: Iterable[tuple[str, bool] | None], config_json: str) -> list[dict[str, Any] | None]:
    """The seats of a finished game (each its name and whether a bot played it) as its
    players may see them: as in a table's state, a bot's seat also names the level it
    played at (``bot_level``, None for a person), the game's own (its stored configuration)."""
    level = stored_bot_level(config_json)
    return [
        None if seat is None else {"name": seat[0], "bot": seat[1], "bot_level": level if seat[1] else None}
        for seat in seats
    ]


def _family_of(config_json: str) -> GameFamily:
    """The family of a stored game: its configuration's ``game`` (Shuangkou's before games had names)."""
    name = json.loads(config_json).get("game", DEFAULT_GAME)
    return family(name if isinstance(name, str) else DEFAULT_GAME)


def _winners(settlement: dict[str, Any]) -> list[int]:
    """The seats that won, as every game's breakdown names them (``winners``; a two-seat
    Shuangkou game's ``winner``)."""
    if "winners" in settlement:
        return list(settlement["winners"])
    winner = settlement.get("winner")
    return [] if winner is None else [winner]


async def game_replay(request: Request) -> Response:
    """A finished game for the replay viewer, by its whole id (a shareable link, no token),
    or by a unique prefix of the id of a game the session's account played (with its
    token: ids cannot be guessed or listed from prefixes): what its players may see once it
    is over — the seats by name, the hands as dealt (亮牌), the leader, flip card and seat
    swap, every event as views show it, and the settlement. No account ids, seed or cards
    not dealt. 404 ``unknown_game``; a game still running or void: 409 ``not_finished``.

    A replay is computed outside the event loop (:data:`~.state.REPLAYS_AT_ONCE` at a time)
    and kept (:data:`~.state.REPLAYS_KEPT`), and a client address asks for at most 10 a second (bursts
    of 20, by default; 429 ``rate_limited``), so that no client slows the tables down."""
    server = app_state(request)
    if not server.replay_limits.allow(_address(request)):
        return refuse("rate_limited", "too many replays asked for from your address: slow down", 429)
    text = request.path_params["game_id"]
    token = _bearer(request)
    try:
        account = await server.account_from_token(token) if token is not None else None
    except LobbyError as problem:
        return refuse(problem.code, problem.message, 401)
    if account is None and not _FULL_GAME_ID.fullmatch(text):
        return refuse("unknown_game", f"no game {text!r}: a game is shown by its whole id (a prefix needs the "
                      "session token of one of its players)", 404)
    kept = server.replays.get(text)
    if kept is not None:
        server.replays.move_to_end(text)
        return Response(kept, media_type="application/json")
    async with server.replay_slots:
        try:
            game_id, encoded = await asyncio.to_thread(
                _replay, server.store, text, account.id if account is not None else None
            )
        except LobbyError as problem:
            return refuse(problem.code, problem.message, 409 if problem.code == "not_finished" else 404)
    server.replays[game_id] = encoded
    while len(server.replays) > REPLAYS_KEPT:
        server.replays.popitem(last=False)
    return Response(encoded, media_type="application/json")


def _replay(store: Store, text: str, account_id: int | None) -> tuple[str, bytes]:
    """The id and the encoded replay of the finished game ``text`` names (:func:`game_replay`);
    :class:`LobbyError` ``unknown_game`` or ``not_finished`` otherwise. Runs in a thread."""
    try:
        game_id = resolve_game_id(store, text, account_id)
    except ValueError as problem:
        raise LobbyError("unknown_game", str(problem)) from None
    stored = store.get_game(game_id) if game_id is not None else None
    if stored is None:
        raise LobbyError("unknown_game", f"no game {text!r}")
    if stored.status != "finished":
        raise LobbyError("not_finished", f"game {stored.game_id} is {stored.status}: only a finished game is shown")
    record, game = restore_game(stored)
    config = record.game.config
    return stored.game_id, orjson.dumps({
        "game_id": stored.game_id,
        "room": stored.room,
        "family": config.game,
        "title": config.name,
        "edition": config.edition,
        "finished_at": stored.updated_at.isoformat(),
        "seats": _seats(((seat.name, seat.bot) if seat else None for seat in record.seats), stored.config_json),
        **family(config.game).replay(record.game, game),
        "events": [event.view() for event in game.events],
        "result": game.result,
        "settlement": json.loads(stored.settlement_json) if stored.settlement_json else None,
    })


async def rooms(request: Request) -> Response:
    """The rooms and their tables."""
    return JSONResponse({"rooms": app_state(request).lobby.summary()})


async def healthz(request: Request) -> Response:
    """Liveness: the number of tables and whether the server still seats players."""
    server = app_state(request)
    lobby = server.lobby
    health: dict[str, Any] = {"status": "ok", "tables": len(lobby.tables), "accepting": lobby.accepting}
    if server.cluster is not None:
        health["node"] = server.cluster.node_id
    return JSONResponse(health)


async def metrics(request: Request) -> Response:
    """Prometheus metrics."""
    return Response(generate_latest(METRICS.registry), media_type=CONTENT_TYPE_LATEST)


# -- operator ---------------------------------------------------------------------------


def operator(handler: Handler) -> Handler:
    """``handler`` for operators only; its refusals become error responses."""

    async def guarded(request: Request) -> Response:
        token = _bearer(request)
        expected = app_state(request).settings.operator_token
        if not expected or not token or not secrets.compare_digest(token.encode(), expected.encode()):
            return refuse("not_operator", "an operator token is needed (Authorization: Bearer ...)", 401)
        try:
            return await handler(request)
        except NotFound as problem:
            return refuse(problem.code, problem.message, 404)
        except TooLarge as problem:
            return refuse(problem.code, problem.message, 413)
        except LobbyError as problem:
            return refuse(problem.code, problem.message, 400)
        except UnknownAccountError as problem:
            return refuse("unknown_account", str(problem), 404)
        except (StoreError, ValueError) as problem:
            return refuse("refused", str(problem), 400)

    return guarded


async def list_accounts(request: Request) -> Response:
    """Accounts by id, house accounts first."""
    server = app_state(request)
    limit, offset = _paging(request)
    accounts = await server.run_db(lambda: server.store.list_accounts(limit, offset))
    return JSONResponse({"accounts": [account_json(a) | {"kind": a.kind} for a in accounts]})


async def grant(request: Request) -> Response:
    """Grant or deduct a balance: one ledger row."""
    server = app_state(request)
    data = await body(request)
    account_id, edition, delta, reason = (data.get(k) for k in ("account", "edition", "delta", "reason"))
    if not (_is_int(account_id) and isinstance(edition, str) and _is_int(delta)
            and isinstance(reason, str) and reason):
        raise LobbyError("bad_message", "grant needs integer 'account', 'edition', integer 'delta', 'reason'")
    allow_negative = any(
        r.config.allow_negative for r in server.lobby.rooms.values() if r.config.edition == edition
    )
    entry = await server.run_db(
        lambda: server.store.grant(account_id, edition, delta, reason, "operator", allow_negative)
    )
    return JSONResponse({"entry": entry.to_dict()})


async def ledger(request: Request) -> Response:
    """Ledger entries, newest first, of one account and/or one game."""
    server = app_state(request)
    limit, offset = _paging(request)
    account = request.query_params.get("account")
    game_id = request.query_params.get("game")
    account_id = int(account) if account is not None and account.isdigit() else None
    if account is not None and not _is_int(account_id):
        raise LobbyError("bad_message", f"'account' must be an account id, not {account!r}")
    entries = await server.run_db(lambda: server.store.ledger(account_id, game_id, limit, offset))
    return JSONResponse({"entries": [e.to_dict() for e in entries]})


async def games(request: Request) -> Response:
    """Games, newest first, optionally of one status."""
    server = app_state(request)
    limit, offset = _paging(request)
    status = request.query_params.get("status")
    found = await server.run_db(lambda: server.store.list_games(limit, offset, status))
    return JSONResponse({"games": [_game_json(g, False) for g in found]})


async def game(request: Request) -> Response:
    """One game with its configuration, record, settlement and actions; 404 ``unknown_game``."""
    server = app_state(request)
    game_id = request.path_params["game_id"]
    found = await server.run_db(lambda: server.store.get_game(game_id))
    if found is None:
        raise NotFound("unknown_game", f"no game {game_id!r}")
    return JSONResponse(_game_json(found, True))


async def cluster(request: Request) -> Response:
    """The cluster this server belongs to: its live nodes with their load, as of the last
    heartbeat (a single server: itself alone, node null)."""
    server = app_state(request)
    if server.cluster is not None:
        return JSONResponse(server.cluster.view())
    lobby = server.lobby
    alone = {
        "node": None, "url": str(request.base_url).rstrip("/"), "tables": len(lobby.tables),
        "players": len(lobby.seated), "connections": len(server.connections), "accepting": lobby.accepting,
    }
    return JSONResponse({
        "node": None, "nodes": [alone], "tables": alone["tables"], "players": alone["players"],
        "connections": alone["connections"], "dead": [],
    })


async def reload_rooms(request: Request) -> Response:
    """Read every room file again (on every node of a cluster)."""
    return JSONResponse(await app_state(request).operate({"op": "reload"}))


async def close_room(request: Request) -> Response:
    """Stop seating in a room (on every node of a cluster)."""
    return JSONResponse(await app_state(request).operate({"op": "close", "room": request.path_params["name"]}))


def routes() -> list[Route]:
    """The HTTP routes."""
    return [
        Route("/api/guest", guest, methods=["POST"]),
        Route("/api/me", me),
        Route("/api/me/games", my_games),
        Route("/api/games/{game_id}", game_replay),
        Route("/api/rooms", rooms),
        Route("/api/admin/accounts", operator(list_accounts)),
        Route("/api/admin/grant", operator(grant), methods=["POST"]),
        Route("/api/admin/ledger", operator(ledger)),
        Route("/api/admin/games", operator(games)),
        Route("/api/admin/games/{game_id}", operator(game)),
        Route("/api/admin/cluster", operator(cluster)),
        Route("/api/admin/rooms/reload", operator(reload_rooms), methods=["POST"]),
        Route("/api/admin/rooms/{name}/close", operator(close_room), methods=["POST"]),
        Route("/healthz", healthz),
        Route("/metrics", metrics),
    ]


def _is_int(value: object) -> TypeGuard[int]:
    """An integer that fits the database's 64-bit columns (and not a boolean)."""
    return isinstance(value, int) and not isinstance(value, bool) and -(2**63) <= value < 2**63


def _address(request: Request) -> str:
    """The client's address (a trusted proxy's ``X-Forwarded-For``, as uvicorn reads it)."""
    return request.client.host if request.client is not None else ""


def _bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    return header[7:].strip() if header.lower().startswith("bearer ") else None


def _paging(request: Request) -> tuple[int, int]:
    def number(name: str, default: int, ceiling: int) -> int:
        text = request.query_params.get(name, "")
        return min(int(text), ceiling) if text.isdigit() else default

    return number("limit", 100, 1000), number("offset", 0, 10**9)


def _game_json(stored: StoredGame, full: bool) -> dict[str, Any]:
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
