"""Several ``shuangkou serve`` processes (nodes) on one PostgreSQL database and one Redis.

Each node runs the tables it claimed; docs/deployment.md tells the whole design. Here:

- :mod:`.settings`: :class:`ClusterSettings`, the node's id, its public URL, Redis, the
  cluster's name; :class:`ClusterError`, when the node cannot join;
- :mod:`.lease`: :class:`NodeLease`, the node's liveness key in Redis, taken at start-up (a
  node id that is live already is refused, after waiting for a crashed holder's key to
  expire);
- :mod:`.node`: :class:`Cluster`, the node's part while it runs, made of the parts below
  (each a class it inherits), whose loops it starts and stops;
- :mod:`.heartbeat`: the liveness renewed every second with the node's load
  (:class:`NodeStatus`), and the statuses of the live nodes read back;
- :mod:`.placement`: where quick match sends players (a waiting table of another node, the
  node a new table opens on);
- :mod:`.directory`: the directory (which node runs each table, which table seats each
  account) that routes players, and :class:`Redirect`;
- :mod:`.takeover`: the unfinished tables of nodes whose liveness expired taken over (and
  their other tables forgotten);
- :mod:`.commands`: the operator's room commands carried to every node.

Redis keys, all under ``NAME:`` (``--cluster``): ``node:ID`` (liveness, a TTL), ``nodes``
(hash: each node's URL and load), ``tables`` (hash: table → node), ``seats`` (hash:
account → table), ``claim:TABLE`` (one claimant at a time, a TTL), ``rooms_closed`` (set:
rooms the operator closed); the channel ``admin`` carries the operator's room commands to
every node, each answered in a list ``admin:REQUEST``. Redis is only for liveness,
routing and the operator's commands: which node may write a table is decided by PostgreSQL
(:mod:`shuangkou.store.fences`), so a lost or stale Redis key can delay a game, never
corrupt one.
"""

from __future__ import annotations

from .directory import Redirect
from .heartbeat import REDIS_CONNECTIONS, NodeStatus
from .lease import NodeLease
from .node import Cluster
from .placement import WAITING_LISTED
from .settings import ClusterError, ClusterSettings

__all__ = [
    "REDIS_CONNECTIONS", "WAITING_LISTED", "Cluster", "ClusterError", "ClusterSettings", "NodeLease", "NodeStatus",
    "Redirect",
]
