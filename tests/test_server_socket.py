"""The server's WebSocket (shuangkou.server.websocket.PlayerSocket) over real connections:
the order of a client's messages across the work that waits (the session's opening,
seating), keep-alive pings, a client too slow to read, a request for another path; and
the connection's send buffer rule (shuangkou.server.connection.Connection) on its own."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

import pytest
import websockets
from server_fixtures import (
    Player,
    RunningServer,
    my_turn,
    pg_server_database_fixture,  # noqa: F401 - fixtures
    run,
    server_fixture,  # noqa: F401
    start_game,
    start_server_fixture,  # noqa: F401
)
from websockets.exceptions import InvalidStatus

from shuangkou.server.connection import SEND_BUFFER_LIMIT, Connection
from shuangkou.store import Account

StartServer = Callable[..., RunningServer]


def _ws_url(server: RunningServer, path: str) -> str:
    return server.base_url.replace("http", "ws", 1) + path


def test_messages_sent_right_after_the_opening_are_answered_after_the_welcome_in_order(
    server: RunningServer,
) -> None:
    """Messages sent as soon as the opening handshake is answered may come while the session
    is still opening (its token being checked: in a database thread on PostgreSQL): they
    wait for it, so the welcome comes first, then each answer in the order asked."""

    async def scenario() -> None:
        ana = await server.player("Ana", connect=False)
        raw = await asyncio.to_thread(_RawClient, server, ana.token)
        raw.send({"type": "ping"}, {"type": "ready"}, {"type": "ping"})
        texts = await asyncio.to_thread(raw.texts, 4)
        raw.socket.close()
        assert [text["type"] for text in texts] == ["welcome", "pong", "error", "pong"], texts
        assert texts[2]["code"] == "not_seated"

    run(scenario())


def test_a_message_behind_a_join_is_handled_once_seated(server: RunningServer) -> None:
    """A join waits for the lobby; a message that came in the same packet is read only once
    the player is seated, so the table answers it (a ready: the game against the bot starts)."""

    async def scenario() -> None:
        ana = await server.player("Ana", connect=False)
        raw = await asyncio.to_thread(_RawClient, server, ana.token)
        assert (await asyncio.to_thread(raw.texts, 1))[0]["type"] == "welcome"
        raw.send({"type": "join", "room": "points", "opponent": "bot"}, {"type": "ready"})
        phases = []
        while "playing" not in phases:
            text = (await asyncio.to_thread(raw.texts, 1))[0]
            assert text["type"] == "state", text
            phases.append(text["table"]["phase"])
        raw.socket.close()

    run(scenario())


def test_a_websocket_request_for_another_path_is_refused(server: RunningServer) -> None:
    """Only /ws speaks the protocol: another path's WebSocket request gets 404."""

    async def scenario() -> None:
        with pytest.raises(InvalidStatus) as refused:
            async with websockets.connect(_ws_url(server, "/elsewhere")):
                pass
        assert refused.value.response.status_code == 404
        ana = await server.player("Ana")  # the server goes on
        await ana.settle_quietly()

    run(scenario())


class _RawClient:
    """A WebSocket client written by hand that reads only when told to, and never answers
    pings (the server's frames are not masked; the client's are)."""

    def __init__(self, server: RunningServer, token: str) -> None:
        host, port = server.base_url.removeprefix("http://").split(":")
        self.socket = socket.socket()
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the kernel holds little for it
        self.socket.settimeout(20)
        self.socket.connect((host, int(port)))
        key = base64.b64encode(os.urandom(16)).decode()
        self.socket.sendall((
            f"GET /ws?token={token} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.socket.recv(4096)
        response, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        assert response.startswith(b"HTTP/1.1 101"), response

    def send(self, *messages: dict[str, Any]) -> None:
        """Send ``messages`` in one write."""
        self.socket.sendall(b"".join(map(self._frame_of, messages)))

    @staticmethod
    def _frame_of(message: dict[str, Any]) -> bytes:
        data, mask = json.dumps(message).encode(), os.urandom(4)
        assert len(data) < 126
        return bytes((0x81, 0x80 | len(data))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))

    def texts(self, count: int) -> list[dict[str, Any]]:
        """The next ``count`` text messages (control frames skipped)."""
        texts: list[dict[str, Any]] = []
        while len(texts) < count:
            frame = self._frame()
            if frame is None:
                self._read()
            elif frame[0] == 0x1:
                texts.append(json.loads(frame[1]))
        return texts

    def frames(self, within: float = 30.0) -> list[tuple[int, bytes]]:
        """Every frame up to the server's close frame (opcode, payload), which must come
        ``within`` seconds."""
        frames: list[tuple[int, bytes]] = []
        deadline = time.monotonic() + within
        while not frames or frames[-1][0] != 0x8:
            assert time.monotonic() < deadline, f"no close frame after {len(frames)} frames"
            frame = self._frame()
            if frame is None:
                self._read()
            else:
                frames.append(frame)
        return frames

    def _read(self) -> None:
        chunk = self.socket.recv(1 << 20)
        assert chunk, "the server closed the connection"
        self.buffer += chunk

    def _frame(self) -> tuple[int, bytes] | None:
        data = self.buffer
        if len(data) < 2:
            return None
        size, start = data[1] & 0x7F, 2
        if size == 126:
            size, start = int.from_bytes(data[2:4], "big"), 4
        elif size == 127:
            size, start = int.from_bytes(data[2:10], "big"), 10
        if len(data) < start + size:
            return None
        self.buffer = data[start + size :]
        return data[0] & 0x0F, data[start : start + size]


def test_a_client_that_does_not_answer_pings_is_closed(start_server: StartServer) -> None:
    """Keep-alive (uvicorn's ws_ping_interval and ws_ping_timeout): a client that has not
    answered a ping by the next is closed (1011); one that answers stays."""
    server = start_server(uvicorn_options={"ws_ping_interval": 0.2, "ws_ping_timeout": 0.2})

    async def scenario() -> None:
        ana = await server.player("Ana")  # websockets' client answers every ping
        silent = await server.player("Bo", connect=False)
        raw = _RawClient(server, silent.token)
        frames = await asyncio.to_thread(raw.frames, 5.0)
        raw.socket.close()
        assert [opcode for opcode, _ in frames] == [0x1, 0x9, 0x8]  # the welcome, one ping, the close
        assert int.from_bytes(frames[-1][1][:2], "big") == 1011
        await asyncio.sleep(1.0)  # five intervals
        await ana.settle_quietly()

    run(scenario())


def test_a_client_that_does_not_read_is_closed_as_too_slow(start_server: StartServer) -> None:
    """A seated player asks for thousands of hints and reads nothing: once more than
    SEND_BUFFER_LIMIT bytes wait to be sent, the connection ends with ``closed`` ``too_slow``
    (code 1008), and the table treats the seat as disconnected (hosted, R11.5)."""
    server = start_server(rate=1e6, burst=1e6)

    async def scenario() -> None:
        ana, bo = await start_game(server)
        mover, other = (ana, bo) if my_turn(ana.table or {}) else (bo, ana)
        await mover.settle_quietly()
        moves = json.dumps(await mover.hint())
        raw = _RawClient(server, mover.token)  # takes the seat over from the first connection
        hints = 8 * SEND_BUFFER_LIMIT // len(moves)  # the kernel's buffers hold a few MB too
        for _ in range(hints):
            raw.send({"type": "hint"})
        frames = await asyncio.to_thread(raw.frames)
        raw.socket.close()
        texts = [json.loads(payload) for opcode, payload in frames if opcode == 0x1]
        assert texts[-1] == {"type": "closed", "reason": "too_slow"}
        assert int.from_bytes(frames[-1][1][:2], "big") == 1008
        assert 0 < len([text for text in texts if text["type"] == "hint"]) < hints
        seat = mover.seat
        await other.until(lambda t: t["game"]["hosting"][seat] and not t["seats"][seat]["connected"])

    run(scenario(), timeout=120)


class _Outlet:
    """An outlet whose unsent bytes a test sets."""

    def __init__(self) -> None:
        self.waiting = 0
        self.written: list[bytes] = []
        self.ended: int | None = None

    def write_message(self, data: bytes) -> None:
        self.written.append(data)

    def unsent(self) -> int:
        return self.waiting

    def end(self, code: int) -> None:
        self.ended = code


def _connection(limit: int = 1000) -> tuple[Connection, _Outlet]:
    outlet = _Outlet()
    account = Account(1, "Ann", "guest", {"points": 1000}, datetime.now(UTC))
    return Connection(account, outlet, buffer_limit=limit), outlet


def test_a_connection_sends_at_once_until_its_buffer_limit() -> None:
    connection, outlet = _connection()
    outlet.waiting = 1000
    connection.send({"type": "pong"})
    connection.send_json('{"type":"hint","seq":1,"moves":[]}')
    assert outlet.written == [b'{"type":"pong"}', b'{"type":"hint","seq":1,"moves":[]}']
    assert outlet.ended is None and not connection.closed
    outlet.waiting = 1001
    connection.send({"type": "pong"})
    assert connection.closed and connection.close_reason == "too_slow"
    assert outlet.written[-1] == b'{"type":"closed","reason":"too_slow"}' and outlet.ended == 1008
    connection.send({"type": "pong"})  # nothing after closing
    assert len(outlet.written) == 3


def test_refusals_are_dropped_while_half_the_buffer_is_taken() -> None:
    """A flood's refusals never close the connection: past half the limit they are dropped."""
    connection, outlet = _connection()
    outlet.waiting = 499
    connection.send_refusal({"type": "error"})
    outlet.waiting = 500
    for _ in range(10):
        connection.send_refusal({"type": "error"})
    assert outlet.written == [b'{"type":"error"}'] and not connection.closed


def test_closing_tells_the_client_why_with_code_1000() -> None:
    connection, outlet = _connection()
    connection.close("replaced")
    connection.close("shutdown")  # once
    assert outlet.written == [b'{"type":"closed","reason":"replaced"}'] and outlet.ended == 1000


@pytest.mark.parametrize("reply", [b'{"type":"ping"}', b'{"type": "ping"}'])
def test_binary_frames_and_text_frames_alike(server: RunningServer, reply: bytes) -> None:
    """A message in a binary frame or in fragments is read as one text message."""

    async def scenario() -> None:
        ana: Player = await server.player("Ana")
        assert ana.socket is not None
        await ana.socket.send(reply)
        await ana.expect("pong")
        await ana.socket.send([reply[:5].decode(), reply[5:].decode()])  # fragments
        await ana.expect("pong")

    run(scenario())
