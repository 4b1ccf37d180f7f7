"""The node's liveness key at start-up: :class:`NodeLease` takes it before the node restores
anything (a node id that is live already is refused, after waiting for a crashed holder's
key to expire), and gives it back at the end."""

from __future__ import annotations

import logging
import secrets
import time
from types import TracebackType
from typing import Final

import redis

from .settings import ClusterError, ClusterSettings

__all__ = ["DELETE_IF", "NodeLease"]

log = logging.getLogger("shuangkou.cluster")

DELETE_IF: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""
"""A Lua script deleting the key KEYS[1] only while it holds ARGV[1] (this process's value)."""


class NodeLease:
    """The node's liveness key, taken before the node restores anything (``with NodeLease(settings):``).

    A key held by another process is waited for up to its TTL (a node killed a moment ago
    holds it until it expires), then refused with :class:`ClusterError`."""

    def __init__(self, settings: ClusterSettings) -> None:
        self.settings = settings
        self.instance = f"{settings.public_url} {secrets.token_hex(8)}"  # this process's value
        self._redis = redis.Redis.from_url(
            settings.redis_url, socket_timeout=5, socket_connect_timeout=5, decode_responses=True
        )

    def acquire(self) -> NodeLease:
        """Take the liveness key (waiting for a dead holder's key to expire)."""
        settings = self.settings
        key, ttl_ms = settings.liveness_key, int(settings.ttl * 1000)
        deadline = time.monotonic() + settings.ttl + 1.0
        try:
            while not self._redis.set(key, self.instance, nx=True, px=ttl_ms):
                if time.monotonic() >= deadline:
                    holder = self._redis.get(key)
                    where = str(holder).split(" ")[0] if holder else "?"
                    raise ClusterError(
                        f"node id {settings.node_id!r} is live in cluster {settings.name!r} (a node at {where} "
                        f"renews {key} in Redis); stop that node first, or give this one another --node-id"
                    )
                time.sleep(0.2)
        except redis.RedisError as problem:
            raise ClusterError(f"cannot reach Redis at {_safe(settings.redis_url)}: {problem}") from None
        return self

    def release(self) -> None:
        """Give the key back, if it is still this process's (a graceful stop: others take over at once)."""
        try:
            self._redis.eval(DELETE_IF, 1, self.settings.liveness_key, self.instance)
        except redis.RedisError as problem:
            log.warning("liveness not released", extra={"error": str(problem)})
        finally:
            self._redis.close()

    def __enter__(self) -> NodeLease:
        return self.acquire()

    def __exit__(
        self, kind: type[BaseException] | None, value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self.release()


def _safe(url: str) -> str:
    """A Redis URL without its password."""
    if "@" not in url:
        return url
    scheme, rest = url.split("://", 1)
    return f"{scheme}://***@{rest.split('@', 1)[1]}"
