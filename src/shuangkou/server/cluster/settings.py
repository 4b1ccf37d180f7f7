"""What makes a server a node of a cluster: :class:`ClusterSettings`, and :class:`ClusterError`
when it cannot join."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

__all__ = ["HEARTBEAT", "LIVENESS_TTL", "ClusterError", "ClusterSettings"]

LIVENESS_TTL: Final = 5.0
"""Seconds a node's liveness key lives without renewal: how long a crashed node's tables wait."""

HEARTBEAT: Final = 1.0
"""Seconds between two renewals of a node's liveness (and of its load in ``nodes``)."""


class ClusterError(Exception):
    """The node cannot join its cluster: Redis is unreachable, or its id is live elsewhere."""


@dataclass(frozen=True)
class ClusterSettings:
    """What makes a server a node of a cluster (``serve --redis-url … --node-id …``)."""

    redis_url: str
    node_id: str
    public_url: str  # where players reach this node (redirects name it)
    name: str = "shuangkou"  # the Redis key prefix: clusters sharing one Redis differ by name
    ttl: float = LIVENESS_TTL
    heartbeat: float = HEARTBEAT

    def key(self, *parts: str) -> str:
        """A Redis key of this cluster."""
        return ":".join((self.name, *parts))

    @property
    def liveness_key(self) -> str:
        """This node's liveness key."""
        return self.liveness_key_of(self.node_id)

    def liveness_key_of(self, node: str) -> str:
        """The liveness key of ``node``."""
        return self.key("node", node)
