"""A lean WebSocket client for the load generator: websockets' sans-I/O protocol on an
asyncio protocol, with no task, no lock and no queue per connection.

The load generator shares the machine's cores with the servers it measures, so every
microsecond it spends per message is one the servers cannot have. The asyncio client of
``websockets`` runs a task per connection and hands each message through a queue to a
``recv()`` awaited by another task; here each message received is handed straight to a
callback as bytes, from the event loop's own read of the socket, and a message sent is
framed and written at once. The protocol itself (handshake, framing, masking, pings,
the closing handshake) is ``websockets``' own (:class:`websockets.client.ClientProtocol`),
run as the server's connections run theirs (:class:`~.sansio.SansIOSocket`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import cast

from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosedOK
from websockets.http11 import Request, Response
from websockets.protocol import State
from websockets.uri import WebSocketURI, parse_uri

from ..server.sansio import SansIOSocket

__all__ = ["LeanSocket"]


class LeanSocket(SansIOSocket[ClientProtocol]):
    """One client connection; ``on_message`` gets each text or binary message's bytes."""

    def __init__(self, uri: WebSocketURI, on_message: Callable[[bytes], None], max_size: int = 2**22) -> None:
        super().__init__(ClientProtocol(uri, max_size=max_size))
        self.on_message = on_message
        loop = asyncio.get_running_loop()
        self.opened: asyncio.Future[None] = loop.create_future()  # the handshake's outcome
        self.ended: asyncio.Future[bool] = loop.create_future()  # True: closed cleanly (1000 or 1001)

    @classmethod
    async def connect(
        cls, url: str, on_message: Callable[[bytes], None], *, timeout: float = 60.0, max_size: int = 2**22
    ) -> LeanSocket:
        """Open a connection to ``url`` (``ws://`` only) and complete its handshake."""
        uri = parse_uri(url)
        if uri.secure:
            raise ValueError("the load generator connects to ws:// addresses only")
        loop = asyncio.get_running_loop()

        async def opening() -> LeanSocket:
            _, socket = await loop.create_connection(lambda: cls(uri, on_message, max_size), uri.host, uri.port)
            try:
                await socket.opened
            except BaseException:  # refused, or out of time: the connection goes too
                if socket.transport is not None:
                    socket.transport.close()
                raise
            return socket

        return await asyncio.wait_for(opening(), timeout)

    @property
    def open(self) -> bool:
        """Whether messages can be sent."""
        return self.protocol.state is State.OPEN

    def send(self, text: bytes) -> None:
        """Send one text message (UTF-8 bytes); nothing once the connection is closing."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_text(text)
            self._flush()

    def close(self, code: int = 1000) -> None:
        """Start the closing handshake; :attr:`ended` resolves when the server has closed."""
        if self.protocol.state is State.OPEN:
            self.protocol.send_close(code)
            self._flush()
        elif self.transport is not None and self.protocol.state is State.CONNECTING:
            self.transport.close()

    # -- asyncio.Protocol ---------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is one, not a subclass
        self.protocol.send_request(self.protocol.connect())
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail_opening(exc or ConnectionError("the connection closed during the handshake"))
        self.protocol.receive_eof()  # closed for the protocol too: nothing more is sent
        self.transport = None
        if not self.ended.done():
            self.ended.set_result(isinstance(self.protocol.close_exc, ConnectionClosedOK))

    # -- the connection's events -----------------------------------------------------------

    def _handshake(self, response: Request | Response) -> None:
        if self.protocol.handshake_exc is not None:
            self._fail_opening(self.protocol.handshake_exc)
        elif not self.opened.done():
            self.opened.set_result(None)

    def _message(self, data: bytes) -> None:
        self.on_message(data)

    def _fail_opening(self, problem: BaseException) -> None:
        if not self.opened.done():
            self.opened.set_exception(problem)
            if self.transport is not None:
                self.transport.close()
