"""uvicorn's HTTP protocol with a deadline for every request's headers, and connections
admitted by :class:`~.admission.Admission` (by client address, with a reserve).

uvicorn times a connection out only between requests (its keep-alive timeout): one that
opens and sends nothing, or sends its headers a line every few seconds (slowloris), is
kept for ever, and enough of them take every file descriptor of the process. Here each
request's headers, from the connection's opening or the request's first byte, must be
complete within ``seconds``; else the connection is closed. A WebSocket's upgrade request
is timed like any other, until its headers are read.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from .admission import Admission, Admitted, peer_address
from .metrics import METRICS

__all__ = ["HEADER_SECONDS", "HeaderTimedProtocol"]

HEADER_SECONDS = 10.0
"""Seconds a client has to send a request's headers, by default."""


class HeaderTimedProtocol(HttpToolsProtocol):
    """:class:`HttpToolsProtocol`, each request's headers due within ``seconds``, each
    connection admitted by ``admission`` (closed at once when refused)."""

    def __init__(
        self, *args: Any, seconds: float = HEADER_SECONDS, admission: Admission | None = None, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.header_seconds = seconds
        self.admission = admission
        self._headers_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.admission is not None:
            peer = transport.get_extra_info("peername")
            if self.admission.admit(transport, peer_address(peer), peer) is Admitted.REFUSED:
                METRICS.errors.labels("too_many_connections").inc()
                transport.close()
                return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        if self.admission is not None and self.transport is not None:
            self.admission.release(self.transport, peer_address(self.transport.get_extra_info("peername")))
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        if self._headers_due is None:  # a request after a kept-alive one: timed from its first byte
            self._arm()

    def on_headers_complete(self) -> None:
        self._disarm()
        super().on_headers_complete()

    def _arm(self) -> None:
        self._headers_due = self.loop.call_later(self.header_seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._headers_due is not None:
            self._headers_due.cancel()
            self._headers_due = None

    def _too_slow(self) -> None:
        self._headers_due = None
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()
