"""The operator's room commands carried to every node (:class:`Commands`): published on the
channel ``admin``, applied by each node, and answered in a list ``admin:REQUEST``; the rooms
closed are remembered in ``rooms_closed``."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final

import redis
import redis.asyncio as aioredis

from .heartbeat import Heartbeat

__all__ = ["ADMIN_REPLY_SECONDS", "Commands"]

log = logging.getLogger("shuangkou.cluster")

ADMIN_REPLY_SECONDS: Final = 5.0
"""How long an operator request acting on every node waits for the other nodes' answers."""


class Commands(Heartbeat):
    """Operator commands sent to the other nodes (:meth:`command_all`) and obeyed from them (:meth:`_obey`)."""

    async def command_all(self, command: dict[str, Any]) -> dict[str, Any]:
        """Send an operator command on the rooms to the other nodes: ``{"op": "reload"}`` or
        ``{"op": "close", "room": NAME}``; returns their answers by node id (those that
        answered within :data:`ADMIN_REPLY_SECONDS`). Closures are remembered (a reload
        forgets them), so that a node starting later closes the same rooms."""
        closed = self.settings.key("rooms_closed")
        replies = self.settings.key("admin", secrets.token_hex(8))
        message = json.dumps({**command, "from": self.node_id, "reply": replies})
        answers: dict[str, Any] = {}
        try:
            if command["op"] == "close":
                await self.redis.sadd(closed, command["room"])
            else:
                await self.redis.delete(closed)
            others = int(await self.redis.publish(self.settings.key("admin"), message)) - 1  # this node listens too
            deadline = time.monotonic() + ADMIN_REPLY_SECONDS
            while len(answers) < others and time.monotonic() < deadline:
                popped = await self.redis.blpop([replies], timeout=1)
                if popped is not None:
                    reply = json.loads(popped[1])
                    answers[reply["node"]] = reply["answer"]
            await self.redis.delete(replies)
        except redis.RedisError as problem:  # the nodes that answered so far are listed
            log.warning("operator command not sent to every node", extra={"error": str(problem), **command})
        return answers

    async def _obey(
        self, commands: aioredis.client.PubSub, operate: Callable[[dict[str, Any]], Awaitable[dict[str, Any]]]
    ) -> None:
        """Apply the operator commands other nodes publish, and answer each."""
        try:
            while True:
                try:
                    message = await commands.get_message(True, timeout=self.settings.heartbeat)
                    if message is None:
                        continue
                    command = json.loads(message["data"])
                    if command["from"] == self.node_id:
                        continue  # applied by the node itself
                    answer = json.dumps({"node": self.node_id, "answer": await operate(command)})
                    await self.redis.rpush(command["reply"], answer)
                    await self.redis.expire(command["reply"], int(ADMIN_REPLY_SECONDS * 2))
                except redis.RedisError as problem:
                    log.warning("operator commands not read", extra={"error": str(problem)})
                    await asyncio.sleep(self.settings.heartbeat)
                except (ValueError, KeyError, TypeError) as problem:  # not a command of a node
                    log.warning("operator command ignored", extra={"error": repr(problem)})
        finally:
            await commands.aclose()
