"""Where players go for quick match (:class:`Placement`): a waiting table of another node to
join, the node a new table should open on, reckoned from the live nodes' statuses and what
this node opened, closed and sent elsewhere since each was published."""

from __future__ import annotations

import bisect
import math
import time
from collections import defaultdict
from typing import Final

from .heartbeat import Heartbeat
from .settings import ClusterSettings

__all__ = ["PLACEMENT_MARGIN", "WAITING_LISTED", "Placement"]

WAITING_LISTED: Final = 16
"""Waiting tables a node lists per room in its status (quick match seats players at them)."""

PLACEMENT_MARGIN: Final = 2
"""A new quick-match table opens on another node when this one runs more tables than that
node by more than this (and than a tenth of its own): nodes a heartbeat apart never send a
player back and forth."""


class Placement(Heartbeat):
    """Quick match across the nodes: :meth:`placement`, :meth:`least_loaded`, :meth:`waiting_elsewhere`."""

    def __init__(self, settings: ClusterSettings, instance: str) -> None:
        super().__init__(settings, instance)
        self._sent: set[str] = set()  # waiting tables of other nodes a player was sent to since the last heartbeat
        self._placed: defaultdict[str, list[float]] = defaultdict(list)  # when new tables were sent to each other node
        # Tables opened less tables closed here after each recent opening or closing; the first
        # entry (at -inf) holds the count from before those kept:
        self._net: list[tuple[float, int]] = [(-math.inf, 0)]

    async def _read_nodes(self) -> None:
        """The statuses of the live nodes; what was reckoned against the statuses they replace is forgotten."""
        await super()._read_nodes()
        self._sent.clear()
        self._forget_placements()

    def placement(self, tables_here: int) -> str | None:
        """Where a new quick-match table should open: the URL of the node that seats players
        and runs clearly fewer tables than this one (``tables_here`` now); None: here.

        A node's count is set against this node's count at the moment that node published
        it, not against this node's count of now: in a burst of joins, counts a fraction of
        a heartbeat apart differ by the tables opened in between, and each node would find
        itself the fuller one in turn. Each table sent to a node since it published narrows
        the lead by two (the node has it, and this node did not open it), on the assumption
        that players arrive at both nodes alike (a load balancer's share): a node that gets
        players only from others fills more slowly, never past this one."""
        now = time.time()
        leads = [
            (
                self._count_at(status.at, tables_here) - status.tables - 2 * self._sent_since(node, status.at),
                node, status.url,
            )
            for node, status in self.nodes.items()
            if node != self.node_id and status.accepting
        ]
        if not leads:
            return None
        lead, node, url = max(leads)
        if lead > max(PLACEMENT_MARGIN, tables_here // 10):
            self._placed[node].append(now)
            return url
        return None

    def _count_at(self, moment: float, tables_now: int) -> int:
        """This node's tables at ``moment``: ``tables_now`` less those opened since, plus those closed."""
        then = self._net[bisect.bisect_right(self._net, (moment, math.inf)) - 1][1]
        return tables_now - (self._net[-1][1] - then)

    def _sent_since(self, node: str, moment: float) -> int:
        """New tables this node sent to ``node`` after ``moment``."""
        sent = self._placed[node]
        return len(sent) - bisect.bisect_right(sent, moment)

    def least_loaded(self) -> str | None:
        """The URL of the live node, other than this one, that seats players and runs the
        fewest tables (as of the last heartbeat); None when there is none."""
        others = [
            (status.tables, status.url) for node, status in self.nodes.items()
            if node != self.node_id and status.accepting
        ]
        return min(others)[1] if others else None

    def table_lost(self) -> None:
        """Another node took a table of this one over: it no longer counts here (its directory
        entry is that node's to write)."""
        self._count_change(-1)

    def _count_change(self, change: int) -> None:
        """Note a table opened (1) or closed (-1) here, when (:meth:`placement` reckons with it)."""
        self._net.append((time.time(), self._net[-1][1] + change))

    def waiting_elsewhere(self, room: str, players: int = 1, lower_ids: bool = False) -> tuple[int, str, str] | None:
        """The table of ``room`` closest to full where players wait on another live node
        that seats players, with a seat for each of ``players``: (free seats, its URL, the
        table), as of the last heartbeat; with ``lower_ids``, only on a node whose id sorts
        before this one's. A table is named once per heartbeat, so the players who ask
        within one heartbeat are not all sent to the same seat (those who find it taken
        play by quick match there)."""
        found = [
            (free, status.url, table)
            for node, status in self.nodes.items()
            if node != self.node_id and status.accepting and (node < self.node_id or not lower_ids)
            for table, free in status.waiting.get(room, [])
            if table not in self._sent and free >= players
        ]
        chosen = min(found, default=None)
        if chosen is not None:
            self._sent.add(chosen[2])
        return chosen

    def _forget_placements(self) -> None:
        """Keep only the placements, openings and closings the live nodes' statuses may still
        be set against: those since the oldest of them was published."""
        published = [status.at for node, status in self.nodes.items() if node != self.node_id]
        # a live node publishes every heartbeat: a status older than its liveness is not set against
        oldest = max(min(published, default=math.inf), time.time() - self.settings.ttl)
        for node in list(self._placed):
            sent = self._placed[node]
            del sent[: bisect.bisect_right(sent, oldest)]
            if not sent:
                del self._placed[node]
        before = bisect.bisect_right(self._net, (oldest, math.inf)) - 1  # the count when the oldest was published
        self._net[: before + 1] = [(-math.inf, self._net[before][1])]
