"""A WebSocket connection on an asyncio transport, run by ``websockets``' sans-I/O protocol:
what the server's connections (:mod:`.websocket`) and the load generator's
(:mod:`.leansocket`) share.

The protocol object parses what is read into events and frames what is sent; this class
feeds it what the transport reads, hands each whole message to :meth:`SansIOSocket._message`
(joining a fragmented one), and writes what the protocol has to send. Pings and the closing
handshake are answered by the protocol itself.
"""

from __future__ import annotations

import asyncio
from typing import Generic, TypeVar

from websockets.frames import Frame, Opcode
from websockets.http11 import Request, Response
from websockets.protocol import Protocol

__all__ = ["SansIOSocket"]

P = TypeVar("P", bound=Protocol)


class SansIOSocket(asyncio.Protocol, Generic[P]):
    """One connection; subclasses take the handshake's request or response
    (:meth:`_handshake`), each whole text or binary message as bytes (:meth:`_message`) and,
    if they care, the control frames (:meth:`_control`)."""

    def __init__(self, protocol: P) -> None:
        self.protocol = protocol
        self.transport: asyncio.Transport | None = None
        self._fragments: list[bytes] = []

    # -- asyncio.Protocol ---------------------------------------------------------------

    def data_received(self, data: bytes) -> None:
        protocol = self.protocol
        protocol.receive_data(data)
        for event in protocol.events_received():
            if isinstance(event, Frame):
                self._frame(event)
            else:
                self._handshake(event)
        self._flush()

    def eof_received(self) -> bool | None:
        self.protocol.receive_eof()
        self._flush()
        return None

    # -- for subclasses -----------------------------------------------------------------

    def _handshake(self, event: Request | Response) -> None:
        """The opening handshake's request (on a server) or response (on a client)."""
        raise NotImplementedError

    def _message(self, data: bytes) -> None:
        """A whole text or binary message (a text one is UTF-8)."""
        raise NotImplementedError

    def _control(self, opcode: Opcode, data: bytes) -> None:
        """A ping, pong or close frame, after the protocol has answered it."""

    def _flush(self) -> None:
        """Write what the protocol has to send; at the end of its stream, half-close (the
        peer then closes) or, where the transport cannot, close."""
        transport = self.transport
        if transport is None:
            return
        for data in self.protocol.data_to_send():
            if data:
                transport.write(data)
            elif transport.can_write_eof():
                transport.write_eof()
            else:
                transport.close()

    # -- helpers ------------------------------------------------------------------------

    def _frame(self, frame: Frame) -> None:
        """A frame: a whole message, a fragment of one, or a control frame."""
        opcode, data = frame.opcode, bytes(frame.data)  # bytes already, as the protocol parses them
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY:
            if frame.fin:
                self._message(data)
            else:
                self._fragments = [data]
        elif opcode is Opcode.CONT:
            if self._fragments:
                self._fragments.append(data)
                if frame.fin:
                    data, self._fragments = b"".join(self._fragments), []
                    self._message(data)
        else:
            self._control(opcode, data)
