"""The load generator's lean WebSocket client against a real WebSocket server on loopback."""

from __future__ import annotations

import asyncio
import struct
from collections.abc import Awaitable, Callable
from http import HTTPStatus
from socket import SO_LINGER, SOL_SOCKET
from typing import Any

import pytest
from websockets.asyncio.server import Request, Response, ServerConnection, serve
from websockets.exceptions import InvalidStatus

from shuangkou.loadtest.leansocket import LeanSocket

Handler = Callable[[ServerConnection], Awaitable[None]]


async def _with_server(handler: Handler, body: Callable[[str], Awaitable[Any]], **options: Any) -> Any:
    async with serve(handler, "127.0.0.1", 0, **options) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        return await body(f"ws://127.0.0.1:{port}/ws?token=x")


def _run(handler: Handler, body: Callable[[str], Awaitable[Any]], **options: Any) -> Any:
    return asyncio.run(_with_server(handler, body, **options))


async def _until(received: list[bytes], count: int, seconds: float = 2.0) -> None:
    """Wait until ``received`` holds ``count`` messages, or ``seconds`` have passed."""
    for _ in range(int(seconds / 0.01)):
        if len(received) >= count:
            return
        await asyncio.sleep(0.01)


def _receive(count: int) -> Callable[[str], Awaitable[list[bytes]]]:
    """A body that opens a socket, keeps the first ``count`` messages, then closes it."""

    async def body(url: str) -> list[bytes]:
        received: list[bytes] = []
        socket = await LeanSocket.connect(url, received.append)
        await _until(received, count)
        socket.close()
        await asyncio.wait_for(socket.ended, 5)
        return received

    return body


async def _ended_then_send(url: str) -> bool:
    """A body that opens a socket, waits for its end (what ``ended`` says), then sends on
    the closed socket: nothing is written and nothing raises."""
    socket = await LeanSocket.connect(url, lambda data: None)
    ended: bool = await asyncio.wait_for(socket.ended, 5)
    assert not socket.open
    socket.send(b"after the end")
    return ended


def test_messages_go_both_ways_whole_and_in_order() -> None:
    async def echo_twice(connection: ServerConnection) -> None:
        async for message in connection:
            await connection.send(message)
            await connection.send(b"binary " + (message.encode() if isinstance(message, str) else message))

    async def body(url: str) -> list[bytes]:
        received: list[bytes] = []
        socket = await LeanSocket.connect(url, received.append)
        assert socket.open
        socket.send('{"type":"ping","n":"é"}'.encode())
        socket.send(b'{"type":"ping","n":2}')
        await _until(received, 4)
        socket.close()
        assert await asyncio.wait_for(socket.ended, 5) is True
        return received

    assert _run(echo_twice, body) == [
        '{"type":"ping","n":"é"}'.encode(),
        'binary {"type":"ping","n":"é"}'.encode(),
        b'{"type":"ping","n":2}',
        b'binary {"type":"ping","n":2}',
    ]


def test_a_fragmented_message_arrives_as_one() -> None:
    async def fragments(connection: ServerConnection) -> None:
        await connection.send(iter(["{\"a\":", "[1,2,", "3]}"]))
        await connection.send("after")
        await connection.wait_closed()

    assert _run(fragments, _receive(2)) == [b'{"a":[1,2,3]}', b"after"]


@pytest.mark.parametrize(("code", "clean"), [(1000, True), (1001, True), (1008, False), (1011, False)])
def test_the_end_says_whether_the_server_closed_cleanly(code: int, clean: bool) -> None:
    async def close_at_once(connection: ServerConnection) -> None:
        await connection.close(code)

    assert _run(close_at_once, _ended_then_send) is clean


@pytest.mark.parametrize("reset", [False, True], ids=["end_of_stream", "reset"])
def test_a_connection_dropped_without_a_close_is_not_clean(reset: bool) -> None:
    async def drop(connection: ServerConnection) -> None:
        if reset:  # no end of stream first: the client learns of it only as the connection's loss
            connection.transport.get_extra_info("socket").setsockopt(SOL_SOCKET, SO_LINGER, struct.pack("ii", 1, 0))
        connection.transport.abort()

    assert _run(drop, _ended_then_send) is False


def test_pings_are_answered() -> None:
    async def ping(connection: ServerConnection) -> None:
        pong = await connection.ping()
        latency = await asyncio.wait_for(pong, 5)
        await connection.send(f"pong after {latency >= 0}")
        await connection.wait_closed()

    assert _run(ping, _receive(1)) == [b"pong after True"]


def test_a_refused_handshake_raises_the_servers_status() -> None:
    def refuse(connection: ServerConnection, request: Request) -> Response:
        return connection.respond(HTTPStatus.FORBIDDEN, "no\n")

    async def handler(connection: ServerConnection) -> None:
        raise AssertionError("never reached")

    async def body(url: str) -> None:
        with pytest.raises(InvalidStatus, match="403"):
            await LeanSocket.connect(url, lambda data: None)

    _run(handler, body, process_request=refuse)


def test_a_server_that_never_answers_the_handshake_times_out_and_is_hung_up_on() -> None:
    async def main() -> None:
        hung_up = asyncio.Event()

        async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            await reader.read()  # until the client closes
            hung_up.set()
            writer.close()

        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        async with server:
            with pytest.raises(TimeoutError):
                await LeanSocket.connect(f"ws://127.0.0.1:{port}/ws", lambda data: None, timeout=0.2)
            await asyncio.wait_for(hung_up.wait(), 5)

    asyncio.run(main())


def test_only_plain_ws_addresses_are_opened() -> None:
    async def main() -> None:
        with pytest.raises(ValueError, match="ws://"):
            await LeanSocket.connect("wss://127.0.0.1:1/ws", lambda data: None)

    asyncio.run(main())
