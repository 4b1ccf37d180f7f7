"""What a hostile client tries against a real server, and that it holds (over real HTTP
and WebSockets): game ids cannot be enumerated from prefixes, bodies are bounded, deep or
odd input is a clear 4xx, names cannot hide or imitate the system, guests are no free
money."""

from __future__ import annotations

import asyncio
import http.client
import json
import socket
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from server_fixtures import (
    OPERATOR_TOKEN,
    Player,
    RunningServer,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    play_out,
    run,
    server_fixture,  # noqa: F401
    start_game,
    start_server_fixture,  # noqa: F401
    weakest,
)
from websockets.exceptions import InvalidHandshake

from shuangkou.loadtest.attack import attack_for
from shuangkou.server.client import ClientError
from shuangkou.store import Store


def test_game_ids_cannot_be_listed_from_prefixes(server: RunningServer) -> None:
    """A finished game is shown to anyone by its whole id (a shareable link), by a prefix
    only to a session of one of its players; no refusal names another game's id."""

    async def scenario() -> None:
        players = await start_game(server)
        final, _ = await play_out(players, (weakest, weakest))
        game_id = final["game_id"]
        ana = players[0]
        stranger = await server.player("Cy")
        for prefix in ("", *"0123456789abcdef", game_id[:8]):
            if not prefix:
                continue
            for token in (None, stranger.token):
                status, body = await server.ahttp("GET", f"/api/games/{prefix}", token=token)
                assert status == 404 and body["code"] == "unknown_game", (prefix, body)
                assert game_id not in body["message"]
        status, replay = await server.ahttp("GET", f"/api/games/{game_id}")
        assert status == 200 and replay["game_id"] == game_id
        status, replay = await server.ahttp("GET", f"/api/games/{game_id[:6]}", token=ana.token)
        assert status == 200 and replay["game_id"] == game_id
        status, refused = await server.ahttp("GET", f"/api/games/{game_id[:6]}", token="forged")
        assert status == 401 and refused["code"] == "invalid_token"

    run(scenario(), timeout=90)


def _raw(server: RunningServer, method: str, path: str, body: bytes, headers: dict[str, str],
         source: str = "127.0.0.1") -> tuple[int, dict[str, Any]]:
    """One HTTP request from the loopback address ``source`` (127.0.0.2 is another client)."""
    port = int(server.base_url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10, source_address=(source, 0))
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, json.loads(response.read() or b"{}")
    finally:
        connection.close()


def test_bodies_are_bounded_and_odd_input_is_a_clear_refusal(server: RunningServer) -> None:
    """A body over 16 KiB is refused from its Content-Length before it is read (413), or as
    soon as a chunked one runs over; JSON nested 100,000 deep is a 400 ``bad_json`` on the
    public and the operator API alike; a bearer token that is not ASCII is a 401, not a 500."""
    json_type = {"Content-Type": "application/json"}
    status, refused = _raw(server, "POST", "/api/guest", b"{}", {**json_type, "Content-Length": str(400 << 20)})
    assert status == 413 and refused["code"] == "too_large"

    def chunks() -> Iterator[bytes]:
        yield b'{"name": "'
        for _ in range(64):
            yield b"x" * 1024

    port = int(server.base_url.rsplit(":", 1)[1])
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", "/api/guest", body=chunks(), headers=json_type, encode_chunked=True)
    response = connection.getresponse()
    assert response.status == 413 and json.loads(response.read())["code"] == "too_large"
    connection.close()
    deep = b"[" * 100_000 + b"]" * 100_000
    for path, token in (("/api/guest", None), ("/api/admin/grant", OPERATOR_TOKEN)):
        headers = {**json_type, **({"Authorization": f"Bearer {token}"} if token else {})}
        status, refused = _raw(server, "POST", path, b'{"a": ' + deep[:8000] + deep[-8000:] + b"}", headers)
        assert status == 400 and refused["code"] == "bad_json", (path, refused)
    odd = "Bearer ü€".encode().decode("latin-1")  # as a client may send UTF-8 in a header
    status, refused = _raw(server, "GET", "/api/admin/accounts", b"", {"Authorization": odd})
    assert status == 401 and refused["code"] == "not_operator"
    assert server.errors == []


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("\u3164", "invisible"), ("\u2800\u2800", "invisible"), ("a" + "\u0301" * 24, "combining marks"),
        ("Bot", "the system's"), ("Ｂｏｔ", "the system's"), ("house (points)", "the system's"),
        (" \u0301 ", "nothing visible"), ("a\u200bb", "control character"),
    ],
)
def test_names_that_hide_or_imitate_the_system_are_refused(server: RunningServer, name: str, why: str) -> None:
    status, refused = server.http("POST", "/api/guest", {"name": name})
    assert status == 400 and refused["code"] == "bad_name" and why in refused["message"], refused


def test_names_are_normalised_and_bots_keep_their_name(server: RunningServer) -> None:
    status, made = server.http("POST", "/api/guest", {"name": "Ｚｈａｎｇ Ｓａｎ"})
    assert status == 200 and made["account"]["name"] == "Zhang San"  # NFKC
    status, made = server.http("POST", "/api/guest", {"name": "Nguyễn"})  # two marks on one letter, decomposed
    assert status == 200 and made["account"]["name"] == "Nguyễn"


def test_guests_are_rate_limited_per_address(start_server: Callable[..., RunningServer]) -> None:
    """A client address makes a burst of guests, then a few a minute (429 ``rate_limited``);
    another address is not held back by it."""
    server = start_server(guests_per_minute=6.0, guest_burst=3.0)
    body, headers = json.dumps({"name": "Flood"}).encode(), {"Content-Type": "application/json"}
    statuses = [_raw(server, "POST", "/api/guest", body, headers)[0] for _ in range(5)]
    assert statuses == [200, 200, 200, 429, 429]
    assert _raw(server, "POST", "/api/guest", body, headers)[1]["code"] == "rate_limited"
    assert _raw(server, "POST", "/api/guest", body, headers, source="127.0.0.2")[0] == 200


def test_joining_with_bots_and_leaving_reuses_the_bot_accounts(server: RunningServer) -> None:
    """A join-with-bots / leave loop seats the same bot account again instead of making a
    new one each time; a reused bot that lost is topped up to the starting balance by a
    grant ("bot top-up"), so the ledger still balances."""

    async def scenario() -> None:
        player = await server.player("Looper")
        before = len((await server.aadmin("GET", "accounts?limit=1000"))["accounts"])
        bots: set[int] = set()
        for _ in range(10):
            await player.join("points", "bot")
            table = await player.until(lambda t: t["you"] is not None and all(t["seats"]))
            bots |= {seat["account"] for seat in table["seats"] if seat["bot"]}
            await player.leave()
        after = len((await server.aadmin("GET", "accounts?limit=1000"))["accounts"])
        assert len(bots) == 1 and after - before == 1
        (bot,) = bots
        await server.aadmin("POST", "grant", {"account": bot, "edition": "points", "delta": -500, "reason": "lost"})
        await player.join("points", "bot")
        table = await player.until(lambda t: t["you"] is not None and all(t["seats"]))
        assert {seat["account"] for seat in table["seats"] if seat["bot"]} == {bot}
        entries = (await server.aadmin("GET", f"ledger?account={bot}"))["entries"]
        assert (entries[0]["reason"], entries[0]["delta"], entries[0]["balance_after"]) == ("bot top-up", 500, 1000)

    run(scenario(), timeout=90)
    with Store(server.settings.database_url) as store:
        assert store.audit() == []


def test_replays_are_kept_computed_off_the_loop_and_rate_limited(start_server: Callable[..., RunningServer]) -> None:
    """A finished game's replay is computed once and kept (the same bytes again), and a
    client address asking for replays faster than 10 a second past a burst is refused
    (429 ``rate_limited``) while another address is served."""
    server = start_server(replays_per_second=10.0, replay_burst=5.0)

    async def scenario() -> str:
        players = await start_game(server)
        final, _ = await play_out(players, (weakest, weakest))
        return str(final["game_id"])

    game_id = run(scenario(), timeout=90)
    answers = [_raw(server, "GET", f"/api/games/{game_id}", b"", {}) for _ in range(8)]
    assert [status for status, _ in answers[:5]] == [200] * 5 and answers[0][1] == answers[4][1]
    assert any(status == 429 and body["code"] == "rate_limited" for status, body in answers[5:])
    assert _raw(server, "GET", f"/api/games/{game_id}", b"", {}, source="127.0.0.2")[0] == 200
    assert list(server_state(server).replays) == [game_id]


def server_state(server: RunningServer) -> Any:
    """The application state of a server running in this process."""
    assert server._server is not None
    return server._server.config.app.state.server


def test_an_account_holds_a_bounded_number_of_connections(server: RunningServer) -> None:
    """One account opens 8 WebSockets; the 9th is refused (``too_many_connections``) and
    closed; once one of the 8 closes, a new one is welcome (their seat goes to the newest)."""

    async def scenario() -> None:
        first = await server.player("Tabs")
        others = [await server.again(first) for _ in range(7)]
        extra = Player(server.base_url, first.token, first.account)
        with pytest.raises(ClientError) as refused:
            await extra.connect()
        assert refused.value.code == "too_many_connections"
        await others.pop().close()
        for _ in range(50):  # the server learns of the close in a moment
            try:
                welcome = await Player(server.base_url, first.token, first.account).connect()
                break
            except ClientError:
                await asyncio.sleep(0.05)
        assert welcome["type"] == "welcome"

    run(scenario())


def test_more_connections_do_not_multiply_an_account_s_message_allowance(
    start_server: Callable[..., RunningServer],
) -> None:
    """The message rate limit holds per account as well as per connection: four
    connections of one account, each sending 5 pings at once under a limit of 5 a second
    (bursts of 5), get about 5 answers in all, not 20; the rest are ``rate_limited``."""
    server = start_server(rate=5.0, burst=5.0)

    async def scenario() -> None:
        first = await server.player("Many")
        sockets = [first, *[await server.again(first) for _ in range(3)]]
        for each in sockets:
            for _ in range(5):
                await each.send({"type": "ping"})
        replies: list[str] = []
        for each in sockets:
            for _ in range(5):
                replies.append((await each.receive(timeout=5))["type"])
        assert replies.count("pong") <= 7 and replies.count("error") >= 13, replies

    run(scenario())


def test_a_client_that_sends_its_headers_too_slowly_is_closed(start_server: Callable[..., RunningServer]) -> None:
    """A connection that opens and sends nothing, or trickles its headers (slowloris), is
    closed once ``header_seconds`` pass without a whole request's headers; a prompt client,
    a WebSocket's upgrade and a kept-alive second request are served as before."""
    server = start_server(header_seconds=0.5)
    port = int(server.base_url.rsplit(":", 1)[1])

    def closed_by_server(send: Callable[[socket.socket], None]) -> bool:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
            try:
                send(sock)
                return sock.recv(1024) == b""  # the server closed it, without an answer
            except (BrokenPipeError, ConnectionResetError):
                return True  # closed while the client was still sending

    assert closed_by_server(lambda sock: None)

    def trickle(sock: socket.socket) -> None:
        sock.sendall(b"GET /healthz HTTP/1.1\r\n")
        for _ in range(4):
            time.sleep(0.3)
            sock.sendall(b"X-Slow: 1\r\n")

    assert closed_by_server(trickle)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    for _ in range(2):  # one kept-alive connection, two requests, the second after the deadline
        connection.request("GET", "/healthz")
        assert connection.getresponse().read() and time.sleep(0.7) is None
    connection.close()

    async def scenario() -> None:
        player = await server.player("Prompt")
        await asyncio.sleep(1.0)  # the WebSocket stays open past the deadline of its headers
        await player.send({"type": "ping"})
        assert (await player.receive())["type"] == "pong"

    run(scenario())


def _closed_at_once(port: int) -> bool:
    """Whether a new connection to ``port`` is closed by the server before it sends anything."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        try:
            return sock.recv(1024) == b""
        except ConnectionResetError:
            return True


def test_a_client_address_holds_a_bounded_number_of_connections(start_server: Callable[..., RunningServer]) -> None:
    """One address holding ``connections_per_address`` connections (idle ones here: one
    client cannot take every file descriptor of the process) has the next closed at once,
    WebSockets included; once one closes, the address is served again."""
    server = start_server(connections_per_address=4, header_seconds=30.0)
    port = int(server.base_url.rsplit(":", 1)[1])
    held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(4)]
    try:
        assert _closed_at_once(port)

        async def refused() -> None:
            with pytest.raises((InvalidHandshake, OSError)):  # closed at once, or 503
                await Player(server.base_url, "no-token", {}).connect()

        run(refused())
        held.pop().close()
        for _ in range(50):  # the server learns of the close in a moment
            try:
                if server.http("GET", "/healthz")[0] == 200:
                    break
            except OSError:
                pass
            time.sleep(0.05)
        else:
            raise AssertionError("the address was not served again")
    finally:
        for sock in held:
            sock.close()


def test_a_full_server_answers_its_health_check_and_nothing_else(start_server: Callable[..., RunningServer]) -> None:
    """Past ``max_connections`` (one idle client holding them all) the server still answers
    ``GET /healthz`` on a new connection — from a reserve kept below the descriptor limit —
    and refuses anything else with 503 (a WebSocket's upgrade too); running tables keep their
    connections, and once the idle ones go everything is served again."""
    server = start_server(max_connections=4, header_seconds=30.0)
    port = int(server.base_url.rsplit(":", 1)[1])

    async def scenario() -> None:
        player = await server.player("Seated")  # one connection of the four
        await player.join("points", "bot")
        await player.until(lambda table: table["seats"][1] is not None)
        held.extend(socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(3))
        await asyncio.sleep(0.2)
        assert (await server.ahttp("GET", "/healthz"))[0] == 200
        assert (await server.ahttp("GET", "/api/rooms"))[0] == 503
        with pytest.raises((InvalidHandshake, OSError)):  # closed at once, or 503
            await Player(server.base_url, "no-token", {}).connect()
        await player.ready()  # the table plays on
        await player.until(lambda table: table["phase"] == "playing")

    held: list[socket.socket] = []
    try:
        run(scenario())
    finally:
        for sock in held:
            sock.close()
    for _ in range(50):
        if server.http("GET", "/api/rooms")[0] == 200:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the server was not served again once the idle connections went")


def test_an_address_s_message_allowance_is_shared_by_all_its_accounts(
    start_server: Callable[..., RunningServer],
) -> None:
    """The message rate limit holds per client address as well: two accounts from one
    address, each sending 5 pings at once under an address limit of 5 a second (bursts of
    5), get about 5 answers in all, not 10; the rest are ``rate_limited``."""
    server = start_server(address_rate=5.0, address_burst=5.0)

    async def scenario() -> None:
        players = [await server.player("Near"), await server.player("Far")]
        for each in players:
            for _ in range(5):
                await each.send({"type": "ping"})
        replies: list[str] = []
        for each in players:
            for _ in range(5):
                replies.append((await each.receive(timeout=5))["type"])
        assert replies.count("pong") <= 7 and replies.count("error") >= 3, replies

    run(scenario())


def test_guests_have_no_wealth_to_move_unless_the_operator_says(start_server: Callable[..., RunningServer]) -> None:
    """A new guest has the points edition's starting balance but no wealth by default
    (``guest_wealth`` 0): fresh guests cannot sit in a wealth room (``below_entry``, R9.4),
    so escaping there cannot move coins to anyone; an operator's grant (or a server started
    with ``--guest-wealth``) lets a guest play."""
    server = start_server(guest_wealth=0)

    async def scenario() -> None:
        guest = await server.player("Fresh")
        assert guest.account["balances"]["wealth"] == 0 and guest.account["balances"]["points"] > 0
        await guest.join("wealth", "bot")
        assert (await guest.expect("error"))["code"] == "below_entry"
        await server.aadmin("POST", "grant", {"account": guest.id, "edition": "wealth", "delta": 100_000,
                                              "reason": "welcome"})
        await guest.join("wealth", "bot")
        await guest.until(lambda table: table["seats"][1] is not None)

    run(scenario())
    generous = start_server(guest_wealth=5000)

    async def granted() -> None:
        guest = await generous.player("Given")
        assert guest.account["balances"]["wealth"] == 5000

    run(granted())


def test_a_client_that_ignores_the_rate_limit_is_closed_as_flooding(
    start_server: Callable[..., RunningServer],
) -> None:
    """A player's burst of a thousand keeps the connection (test_server_shell); a client
    that goes on past 5,000 refusals within 10 s is closed (``closed``, ``flooding``, code
    1008), having had only a thinned stream of ``rate_limited`` answers (each costs the
    server a write)."""
    server = start_server(rate=20.0, burst=40.0)

    async def scenario() -> None:
        flooder = await server.player("Flooder")
        assert flooder.socket is not None
        for _ in range(6000):
            await flooder.socket.send('{"type":"ping"}')
        received: list[dict[str, Any]] = []
        with pytest.raises(ClientError) as closed:
            while True:
                received.append(await flooder.receive(timeout=10))
                if received[-1]["type"] == "closed":
                    raise ClientError("closed", received[-1]["reason"])
        assert closed.value.message == "flooding"
        answers = [m for m in received if m["type"] == "error"]
        assert all(m["code"] == "rate_limited" for m in answers) and len(answers) < 200

    run(scenario())


def test_the_soak_run_s_attacker_is_held_to_its_address_limits(start_server: Callable[..., RunningServer]) -> None:
    """The load test's attacker (``shuangkou.loadtest.attack``), from its own address, tries
    to hold 12 idle connections where its address may hold 5, and floods on one WebSocket:
    it holds 5 at once, the others are refused at once, and its flood is answered by a few
    ``pong`` and thinned ``rate_limited``."""
    server = start_server(connections_per_address=5, header_seconds=30.0, rate=20.0, burst=40.0)
    report = attack_for(server.base_url, idle=12, flood=1, seconds=3.0)
    assert report["idle_refused"] > 0 and report["idle_opened"] >= 5
    assert report["flood_connections"] == 1 and report["flood_sent"] > 100
    answers = report["flood_answers"]
    assert answers.get("welcome") == 1 and 0 < answers.get("pong", 0) <= 100
    assert answers.get("error:rate_limited", 0) < report["flood_sent"] / 2
