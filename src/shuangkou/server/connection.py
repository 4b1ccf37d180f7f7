"""A player's or spectator's connection as the tables and the lobby see it.

:meth:`Connection.send` never waits: a message is framed and handed to the socket at once
(:class:`Outlet`, the WebSocket of :mod:`.websocket`), whose transport buffers what the
network has not taken yet. A client that does not read lets that buffer grow; past
:data:`SEND_BUFFER_LIMIT` it is disconnected (``too_slow``), so a slow reader never holds a
table and never holds the server's memory.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from typing import Any, Final, Protocol

import orjson

from ..store import Account

__all__ = ["SEND_BUFFER_LIMIT", "Connection", "Outlet", "RateLimiter"]

SEND_BUFFER_LIMIT: Final = 2 * 1024 * 1024
"""Bytes sent to a client and not yet taken by the network past which the client is
disconnected as ``too_slow`` (a few hundred states: a client that reads at all keeps up)."""


class Outlet(Protocol):
    """Where a connection's messages go: the client's WebSocket."""

    def write_message(self, data: bytes) -> None:
        """Send one text message now (nothing once the socket is closing)."""

    def unsent(self) -> int:
        """Bytes written and not yet taken by the network."""

    def end(self, code: int) -> None:
        """Close the socket with ``code`` after what was written."""


class RateLimiter:
    """A token bucket: ``rate`` messages per second, bursts up to ``burst``."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        """Take one token if there is one."""
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class AddressLimiter:
    """A :class:`RateLimiter` per client address (``per_second`` 0: no limit). At most
    ``capacity`` addresses are remembered, the least recently seen forgotten first (it then
    starts again with a full bucket, as a new address would), so that no number of
    addresses can grow it without bound."""

    def __init__(self, per_second: float, burst: float, capacity: int = 65_536) -> None:
        self.per_second = per_second
        self.burst = burst
        self.capacity = capacity
        self._buckets: OrderedDict[str, RateLimiter] = OrderedDict()

    def allow(self, address: str) -> bool:
        """Whether ``address`` may go on now (taking one of its tokens)."""
        if self.per_second <= 0:
            return True
        bucket = self._buckets.pop(address, None) or RateLimiter(self.per_second, self.burst)
        self._buckets[address] = bucket
        if len(self._buckets) > self.capacity:
            self._buckets.popitem(last=False)
        return bucket.allow()


class Connection:
    """One client connection of ``account``."""

    def __init__(self, account: Account, outlet: Outlet, buffer_limit: int = SEND_BUFFER_LIMIT) -> None:
        self.account = account
        self.outlet = outlet
        self.buffer_limit = buffer_limit
        self.closed = False
        self.close_reason = ""

    def send(self, message: dict[str, Any]) -> None:
        """Send a message; a reader too slow to keep up is disconnected."""
        if not self.closed:
            self.send_json(orjson.dumps(message))

    def send_refusal(self, message: dict[str, Any] | bytes) -> None:
        """Send the reply to a refused message (a message, or its JSON), unless half the
        buffer is taken: then it is dropped, so that a client flooding the server without
        reading never fills its own buffer with refusals (and is never closed as too slow
        for them)."""
        if self.outlet.unsent() < self.buffer_limit // 2:
            self.send_json(message) if isinstance(message, bytes) else self.send(message)

    def send_json(self, text: str | bytes) -> None:
        """Send a message already encoded as JSON."""
        if self.closed:
            return
        if self.outlet.unsent() > self.buffer_limit:
            self.close("too_slow")
            return
        self.outlet.write_message(text.encode() if isinstance(text, str) else text)

    def close(self, reason: str) -> None:
        """Tell the client why, then close after what was sent (code 1008 for a client too
        slow to read or flooding, 1000 otherwise)."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        self.outlet.write_message(orjson.dumps({"type": "closed", "reason": reason}))
        self.outlet.end(1008 if reason in ("too_slow", "flooding") else 1000)
