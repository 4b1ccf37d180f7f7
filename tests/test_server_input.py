"""What the game server does with bad, stale and hostile input, over real WebSockets and
HTTP: each refusal has a precise error code, changes nothing, and leaves the connection
usable. Rule ids refer to RULES.md."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

import pytest
from itsdangerous import TimestampSigner, URLSafeTimedSerializer
from server_fixtures import (
    OPERATOR_TOKEN,
    WS_MAX_SIZE,
    Player,
    RunningServer,
    act,
    my_turn,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    server_fixture,  # noqa: F401
    start_game,
    start_server_fixture,  # noqa: F401
    weakest,
)
from websockets.exceptions import ConnectionClosed

from shuangkou.server.client import Client, ClientError
from shuangkou.server.protocol import MAX_FRAME_BYTES

StartServer = Callable[..., RunningServer]


async def refused(player: Player, message: Any, code: str) -> dict[str, Any]:
    """Send ``message`` (a dict, or raw text), expect the error ``code`` with no state change
    before it, then check the connection still answers and nothing changed."""
    seq = player.seq
    await player.send(message) if isinstance(message, dict) else await _raw(player, message)
    error = await player.next_error()
    assert error["code"] == code, error
    assert error["message"]
    await player.settle_quietly()
    assert player.seq == seq, "a refused message changed the state"
    return error


async def _raw(player: Player, frame: str | bytes) -> None:
    assert player.socket is not None
    await player.socket.send(frame)


async def stored_actions(server: RunningServer, player: Player) -> list[dict[str, Any]]:
    game_id = (player.table or {})["game_id"]
    actions: list[dict[str, Any]] = (await server.aadmin("GET", f"games/{game_id}"))["actions"]
    return actions


def to_act(players: tuple[Player, Player]) -> tuple[Player, Player]:
    """(the player to act, the other)."""
    first, second = players
    return (first, second) if my_turn(first.table or {}) else (second, first)


# ---------------------------------------------------------------------------
# Frames and messages


def test_malformed_frames_get_precise_errors(server: RunningServer) -> None:
    """bad_json, unknown_type, bad_message (wrong field types, extra fields), too_large."""

    async def scenario() -> None:
        players = await start_game(server)
        ana, bo = to_act(players)
        await refused(ana, "{not json", "bad_json")
        await refused(ana, "", "bad_json")
        await refused(ana, b"\xff\xfe", "bad_json")  # a binary frame that is not UTF-8 JSON
        await refused(ana, {"type": "dance"}, "unknown_type")
        await refused(ana, {"seq": 1}, "unknown_type")
        await refused(ana, {"type": 3}, "unknown_type")
        await refused(ana, "[1, 2]", "bad_message")
        await refused(ana, "null", "bad_message")
        await refused(ana, {"type": "play", "seq": "x", "cards": "3"}, "bad_message")
        await refused(ana, {"type": "play", "seq": str(ana.seq), "cards": "3"}, "bad_message")  # no coercion
        await refused(ana, {"type": "play", "seq": float(ana.seq), "cards": "3"}, "bad_message")
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": 3}, "bad_message")
        await refused(ana, {"type": "play", "seq": ana.seq}, "bad_message")
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": ""}, "bad_message")
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": "3", "as": "rocket"}, "bad_message")
        await refused(ana, {"type": "hosting", "on": "yes"}, "bad_message")
        await refused(ana, {"type": "hosting", "on": 1}, "bad_message")
        await refused(ana, {"type": "join", "room": "points", "opponent": "ghost"}, "bad_message")
        # Acting for another seat: there is no seat field to name one.
        other = 1 - (ana.seat or 0)
        await refused(ana, {"type": "pass", "seq": ana.seq, "seat": other}, "bad_message")
        big = {"type": "ping", "pad": "x" * MAX_FRAME_BYTES}
        error = await refused(ana, json.dumps(big), "too_large")
        assert str(MAX_FRAME_BYTES) in error["message"]
        await refused(ana, '{"type":"ping","pad":"' + "牌" * 3000 + '"}', "too_large")  # 9000 bytes, 3000 characters
        # After all that, the game goes on normally.
        await act(ana, weakest)
        await bo.until(lambda t: t["seq"] == ana.seq)
        assert len(await stored_actions(server, ana)) == 1

    run(scenario())


def test_a_frame_over_the_transport_limit_closes_the_connection(server: RunningServer) -> None:
    """A frame over uvicorn's ws_max_size is not read: the connection closes (1009), and a
    seated player's drop is handled like any disconnection (R11.5)."""

    async def scenario() -> None:
        ana, bo = await start_game(server)
        assert ana.socket is not None
        await ana.socket.send("x" * (WS_MAX_SIZE + 1))
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await ana.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        await bo.until(lambda t: t["game"]["hosting"][0] and not t["seats"][0]["connected"])

    run(scenario())


def test_binary_frames_are_read_as_text(server: RunningServer) -> None:
    """A binary frame holding a JSON message is handled like a text frame."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        await _raw(ana, b'{"type": "ping"}')
        assert (await ana.expect("pong"))["type"] == "pong"

    run(scenario())


def test_a_flood_is_rate_limited(start_server: StartServer) -> None:
    """More messages than the token bucket allows are refused with rate_limited; the
    connection stays usable once the client slows down."""
    server = start_server(rate=20.0, burst=5.0)

    async def scenario() -> None:
        ana = await server.player("Ana")
        for _ in range(30):
            await ana.send({"type": "ping"})
        replies = [await ana.receive() for _ in range(30)]
        pongs = [r for r in replies if r["type"] == "pong"]
        limited = [r for r in replies if r["type"] == "error" and r["code"] == "rate_limited"]
        assert len(pongs) + len(limited) == 30
        assert 5 <= len(pongs) < 15 and len(limited) > 15
        await asyncio.sleep(0.3)  # the bucket refills with time: nothing else to wait for
        await ana.settle_quietly()
        _, text = await server.ahttp("GET", "/metrics")
        assert 'shuangkou_errors_total{code="rate_limited"}' in text

    run(scenario())


# ---------------------------------------------------------------------------
# Game actions


def test_illegal_actions_are_refused_and_change_nothing(server: RunningServer) -> None:
    """not_your_turn, pass_on_lead (R2.4), cards_not_held, invalid_combination, unknown_card,
    does_not_beat (R6): each refused with nothing stored or announced."""

    async def scenario() -> None:
        players = await start_game(server)
        ana, bo = to_act(players)  # Ana leads
        assert ana.table is not None
        await refused(bo, {"type": "pass", "seq": bo.seq}, "not_your_turn")
        await refused(bo, {"type": "play", "seq": bo.seq, "cards": bo.table["game"]["hand"][0]}, "not_your_turn")
        await refused(ana, {"type": "pass", "seq": ana.seq}, "pass_on_lead")
        hand = ana.table["game"]["hand"]
        ranks = [card.rstrip("SHCD") for card in hand]
        missing = next(rank for rank in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
                       if ranks.count(rank) < 8)
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": " ".join([missing] * (ranks.count(missing) + 1))},
                      "cards_not_held")
        others = [card for card in ("3S", "3H", "3C", "3D", "4S", "4H", "4C", "4D") if card not in hand]
        if others:
            await refused(ana, {"type": "play", "seq": ana.seq, "cards": others[0]}, "cards_not_held")
        plain = sorted({rank for rank in ranks if rank not in ("SJ", "BJ")}, key=ranks.index)
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": f"{plain[0]} {plain[-1]}"}, "invalid_combination")
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": "1X"}, "unknown_card")
        await refused(ana, {"type": "play", "seq": ana.seq, "cards": plain[0], "as": "pair"}, "invalid_combination")
        assert await stored_actions(server, ana) == []
        # Lead the highest single Ana has; Bo cannot play a lower one over it.
        top = plain[-1]
        await ana.play(top)
        await bo.until(lambda t: t["seq"] > ana.seq)
        if my_turn(bo.table or {}):
            low = next((card for card in bo.table["game"]["hand"] if ranks_below(card, top)), None)
            if low is not None:
                await refused(bo, {"type": "play", "seq": bo.seq, "cards": low}, "does_not_beat")
        assert len(await stored_actions(server, ana)) == 1

    run(scenario())


ORDER = ["3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "SJ", "BJ"]


def ranks_below(card: str, rank: str) -> bool:
    """Whether a card's rank is below ``rank`` (suits ignored)."""
    own = card if card in ("SJ", "BJ") else card.rstrip("SHCD")
    return ORDER.index(own) < ORDER.index(rank)


def test_stale_actions_are_never_applied(server: RunningServer) -> None:
    """A play against an old state is refused as stale and never applied twice, whether it
    is a resend of an applied message or an old one."""

    async def scenario() -> None:
        players = await start_game(server)
        ana, bo = to_act(players)
        moves = await ana.hint()
        message = {"type": "play", "seq": ana.seq, "cards": moves[0]["cards"], "as": moves[0]["as"]}
        # Sent twice at once: applied once, the second is stale.
        await ana.send(message)
        await ana.send(message)
        error = await ana.expect("error")
        assert error["code"] == "stale"
        assert ana.seq == message["seq"] + 1
        actions = await stored_actions(server, ana)
        assert len(actions) == 1
        # The same message again, later: stale.
        await refused(ana, message, "stale")
        # Bo acts against an old state number; then the right one works.
        await bo.until(lambda t: t["seq"] == ana.seq)
        if my_turn(bo.table or {}):
            await refused(bo, {"type": "pass", "seq": message["seq"]}, "stale")
            await refused(bo, {"type": "play", "seq": bo.seq - 1, "cards": moves[0]["cards"]}, "stale")
            await refused(bo, {"type": "pass", "seq": bo.seq + 1}, "stale")
            await act(bo, weakest)
            await ana.until(lambda t: t["seq"] == bo.seq)
        # Every applied action was stored once: as many as the game counts.
        stored = await stored_actions(server, ana)
        assert len(stored) == (ana.table or {})["game"]["seq"]
        assert stored[0] == {"seat": ana.seat, "play": stored[0]["play"], "as": moves[0]["as"]}

    run(scenario())


def test_hosting_that_changes_nothing_is_no_action(server: RunningServer) -> None:
    """Switching hosting to the state it is in changes nothing: no stored action, no new state
    number, so the opponent's move in flight is not made stale by it."""

    async def scenario() -> None:
        players = await start_game(server)
        ana, bo = to_act(players)
        seq = ana.seq
        for _ in range(3):
            await bo.hosting(False)
        await bo.settle_quietly()
        assert bo.seq == seq and not (bo.table or {})["game"]["hosting"][bo.seat or 0]
        await act(ana, weakest)  # made against the state before Bo's messages
        assert len(await stored_actions(server, ana)) == 1

    run(scenario())


def test_changes_that_do_not_pass_the_turn_leave_a_move_valid(server: RunningServer) -> None:
    """A move is checked against the state its turn began in: the opponent switching hosting
    on and off meanwhile (new state numbers) neither makes it stale nor restarts the turn
    timer, so nobody can block a player by toggling; a state from before the turn is stale."""

    async def scenario() -> None:
        players = await start_game(server)
        ana, bo = to_act(players)
        moves = await ana.hint()
        turn_began, deadline = ana.seq, (ana.table or {})["turn_deadline"]
        await bo.hosting(True)
        await bo.hosting(False)
        await ana.until(lambda t: t["seq"] == turn_began + 2 and not t["game"]["hosting"][bo.seat or 0])
        assert (ana.table or {})["turn_deadline"] == deadline  # the turn timer runs on (R11.3)
        await refused(ana, {"type": "pass", "seq": turn_began - 1}, "stale")
        await ana.send({"type": "play", "seq": turn_began, "cards": moves[0]["cards"], "as": moves[0]["as"]})
        await ana.until(lambda t: t["game"]["plays"] and t["game"]["plays"][-1]["seat"] == ana.seat)
        stored = await stored_actions(server, ana)
        assert [action.get("play") is not None for action in stored] == [False, False, True]

    run(scenario())


def test_messages_need_a_seat(server: RunningServer) -> None:
    """Game messages from a connection that is not seated are refused with not_seated."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        for message in (
            {"type": "ready"},
            {"type": "hint"},
            {"type": "pass", "seq": 0},
            {"type": "play", "seq": 0, "cards": "3"},
            {"type": "hosting", "on": True},
            {"type": "leave"},
        ):
            await refused(ana, message, "not_seated")
        await refused(ana, {"type": "join", "room": "nowhere"}, "unknown_room")
        await refused(ana, {"type": "join"}, "bad_message")
        await refused(ana, {"type": "join", "table": "nope"}, "unknown_table")
        # Seated but no game yet.
        await ana.join("points")
        await ana.until(lambda t: t["you"] == 0)
        await refused(ana, {"type": "pass", "seq": ana.seq}, "not_playing")
        await refused(ana, {"type": "hosting", "on": True}, "not_playing")
        await ana.send({"type": "hint"})
        assert (await ana.expect("hint"))["moves"] == []

    run(scenario())


# ---------------------------------------------------------------------------
# Sessions


def test_bad_session_tokens_are_refused(server: RunningServer) -> None:
    """A missing, forged, expired or account-less token: error invalid_token, then closed."""

    class Old(TimestampSigner):
        def get_timestamp(self) -> int:
            return super().get_timestamp() - 10 * 365 * 24 * 3600

    async def refuse(token: str) -> None:
        client = Client(server.base_url, token, {})
        with pytest.raises(ClientError) as caught:
            await client.connect()
        assert caught.value.code == "invalid_token"
        assert client.socket is not None
        with pytest.raises(ConnectionClosed) as closed:
            await client.socket.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        status, body = await server.ahttp("GET", "/api/me", token=token or None)
        assert status == 401 and body["code"] == "invalid_token"

    async def scenario() -> None:
        ana = await server.player("Ana")
        secret = server.settings.secret
        assert secret is not None
        await refuse("")
        await refuse("not-a-token")
        await refuse(ana.token[:-2] + ("AA" if not ana.token.endswith("AA") else "BB"))
        await refuse(URLSafeTimedSerializer("another secret", salt="shuangkou-session").dumps({"account": ana.id}))
        expired = URLSafeTimedSerializer(secret, salt="shuangkou-session", signer=Old)
        await refuse(expired.dumps({"account": ana.id}))
        signer = URLSafeTimedSerializer(secret, salt="shuangkou-session")
        await refuse(signer.dumps({"account": 10**9}))
        await refuse(signer.dumps({"account": "1"}))
        await refuse(signer.dumps([1]))
        # The real token still works, and /api/me shows the account.
        status, me = await server.ahttp("GET", "/api/me", token=ana.token)
        assert status == 200 and me["id"] == ana.id and me["name"] == "Ana"
        assert set(me["levels"]) == {"points", "wealth"}

    run(scenario())


def test_guest_accounts_refuse_bad_requests(server: RunningServer) -> None:
    async def scenario() -> None:
        status, body = await asyncio.to_thread(server.http, "POST", "/api/guest", None, None, b"{no")
        assert status == 400 and body["code"] == "bad_json"
        cases = (([], "bad_message"), ({}, "bad_name"), ({"name": 3}, "bad_name"), ({"name": ""}, "bad_name"))
        for data, code in cases:
            status, body = await server.ahttp("POST", "/api/guest", data)
            assert status == 400 and body["code"] == code, (data, body)

    run(scenario())


# ---------------------------------------------------------------------------
# Operator API


def test_operator_api_needs_the_operator_token(server: RunningServer) -> None:
    """Without the token, with a wrong one, or with a player's session token: 401 not_operator."""

    async def scenario() -> None:
        ana = await server.player("Ana")
        for token in (None, "wrong", ana.token, OPERATOR_TOKEN[:-1], OPERATOR_TOKEN + "x"):
            for method, path in (("GET", "accounts"), ("GET", "ledger"), ("GET", "games"), ("POST", "rooms/reload"),
                                 ("POST", "grant"), ("GET", "games/x"), ("POST", "rooms/points/close")):
                data = {"account": ana.id, "edition": "points", "delta": 10, "reason": "x"}
                status, body = await server.ahttp(method, "/api/admin/" + path, data, token)
                assert status == 401 and body["code"] == "not_operator", (token, path, body)
        status, me = await server.ahttp("GET", "/api/me", token=ana.token)
        assert me["balances"]["points"] == ana.account["balances"]["points"]  # no grant went through
        status, rooms = await server.ahttp("GET", "/api/rooms")
        assert all(room["open"] for room in rooms["rooms"])

    run(scenario())


def test_operator_api_without_a_configured_token_refuses_everyone(start_server: StartServer) -> None:
    server = start_server(operator_token=None)
    status, body = server.http("GET", "/api/admin/accounts", token="")
    assert status == 401 and body["code"] == "not_operator"
    status, body = server.http("GET", "/api/admin/accounts", token="None")
    assert status == 401 and body["code"] == "not_operator"


def test_bad_operator_requests(server: RunningServer) -> None:
    """Each bad operator request: 400 (404 for an unknown account or game) with a precise code, nothing changed."""

    async def scenario() -> None:
        ana = await server.player("Ana")

        def grant(**changes: Any) -> dict[str, Any]:
            return {"account": ana.id, "edition": "points", "delta": 10, "reason": "test"} | changes

        cases: list[tuple[str, str, Any, int, str]] = [
            ("POST", "grant", b"{not json", 400, "bad_json"),
            ("POST", "grant", [], 400, "bad_message"),
            ("POST", "grant", {}, 400, "bad_message"),
            ("POST", "grant", grant(account="1"), 400, "bad_message"),
            ("POST", "grant", grant(account=True), 400, "bad_message"),
            ("POST", "grant", grant(delta=1.5), 400, "bad_message"),
            ("POST", "grant", grant(delta=True), 400, "bad_message"),
            ("POST", "grant", grant(reason=""), 400, "bad_message"),
            ("POST", "grant", grant(account=10**9), 404, "unknown_account"),
            ("POST", "grant", grant(edition="gold"), 400, "refused"),
            ("POST", "grant", grant(edition="wealth", delta=-10**9), 400, "refused"),
            ("POST", "grant", grant(delta=0), 400, "refused"),
            ("GET", "games/nope", None, 404, "unknown_game"),
            ("POST", "rooms/nowhere/close", None, 400, "unknown_room"),
            ("GET", "ledger?account=abc", None, 400, "bad_message"),
            ("POST", "grant", grant(account=2**70), 400, "bad_message"),  # beyond a 64-bit column
            ("POST", "grant", grant(delta=-(2**70)), 400, "bad_message"),
            ("POST", "grant", grant(delta=2**63 - 1), 400, "refused"),  # the balance would overflow
            ("GET", f"ledger?account={2**70}", None, 400, "bad_message"),
        ]
        for method, path, data, status, code in cases:
            raw = data if isinstance(data, bytes) else None
            got, body = await asyncio.to_thread(
                server.http, method, "/api/admin/" + path, None if raw else data, OPERATOR_TOKEN, raw
            )
            assert (got, body.get("code") if isinstance(body, dict) else body) == (status, code), (path, data, body)
        entries = (await server.aadmin("GET", f"ledger?account={ana.id}"))["entries"]
        assert [e["reason"] for e in entries] == ["initial balance", "initial balance"]
        # A good grant works and is in the ledger.
        entry = (await server.aadmin("POST", "grant", grant()))["entry"]
        assert entry["delta"] == 10 and entry["balance_after"] == ana.account["balances"]["points"] + 10

    run(scenario())
