"""A player's or spectator's WebSocket, with its own writer so a slow reader never blocks a table."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..store import Account

__all__ = ["Connection", "RateLimiter"]


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


class Connection:
    """One WebSocket. :meth:`send` never waits: messages queue for the writer task."""

    def __init__(self, websocket: WebSocket, account: Account, queue_size: int = 256) -> None:
        self.websocket = websocket
        self.account = account
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(queue_size)
        self.closed = False
        self.close_reason = ""
        self.writer: asyncio.Task[None] | None = None

    def send(self, message: dict[str, Any]) -> None:
        """Queue a message; a reader too slow to keep up is disconnected."""
        if not self.closed:
            self.send_json(orjson.dumps(message).decode())

    def send_refusal(self, message: dict[str, Any]) -> None:
        """Queue the reply to a refused message, unless the queue is half full: then it is
        dropped, so that a client flooding the server never fills its own queue with
        refusals (and is never closed as too slow for them)."""
        if self.queue.qsize() < self.queue.maxsize // 2:
            self.send(message)

    def send_json(self, text: str) -> None:
        """Queue a message already encoded as JSON text."""
        if self.closed:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.close("too_slow")

    def close(self, reason: str) -> None:
        """Tell the client why, then close after what is queued (at once if the queue is full)."""
        if self.closed:
            return
        self.closed = True
        self.close_reason = reason
        try:
            self.queue.put_nowait(json.dumps({"type": "closed", "reason": reason}))
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            if self.writer is not None:
                self.writer.cancel()

    async def write(self) -> None:
        """Send queued messages until the connection closes or the client goes away."""
        try:
            while (text := await self.queue.get()) is not None:
                await self.websocket.send_text(text)
        except WebSocketDisconnect:  # the client went away; the reader sees it too
            self.closed = True
        finally:
            with contextlib.suppress(RuntimeError, WebSocketDisconnect):  # already closed by the client
                await self.websocket.close(code=1008 if self.close_reason == "too_slow" else 1000)
