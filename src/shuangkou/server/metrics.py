"""Prometheus metrics of the server (served at ``/metrics``)."""

from __future__ import annotations

from dataclasses import dataclass

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

__all__ = ["METRICS", "Metrics"]


@dataclass(frozen=True)
class Metrics:
    """The server's metrics, in their own registry."""

    registry: CollectorRegistry
    connections: Gauge
    tables: Gauge
    actions: Counter
    action_latency: Histogram
    games: Counter
    settlements: Counter
    games_restored: Counter
    loop_lag: Histogram
    games_voided: Counter
    hosting: Counter
    errors: Counter
    gc_pause: Histogram
    database: Histogram
    action_batch: Histogram
    expert_search: Histogram
    tables_lost: Counter
    tables_taken_over: Counter
    node: Gauge
    cluster_nodes: Gauge
    cluster_tables: Gauge
    cluster_players: Gauge
    cluster_connections: Gauge

    @classmethod
    def create(cls) -> Metrics:
        """A fresh set of metrics."""
        registry = CollectorRegistry()
        return cls(
            registry=registry,
            connections=Gauge("shuangkou_connections", "Open WebSocket connections", registry=registry),
            tables=Gauge("shuangkou_tables", "Tables with a running task", registry=registry),
            actions=Counter("shuangkou_actions", "Game actions applied", registry=registry),
            action_latency=Histogram(
                "shuangkou_action_seconds",
                "Time to handle a client message at its table",
                buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
                registry=registry,
            ),
            games=Counter("shuangkou_games", "Games started", registry=registry),
            settlements=Counter("shuangkou_settlements", "Games settled", registry=registry),
            loop_lag=Histogram(
                "shuangkou_event_loop_lag_seconds",
                "How late the event loop runs a timer (sampled every 0.25 s): time it spends busy",
                buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
                registry=registry,
            ),
            games_restored=Counter(
                "shuangkou_games_restored", "Running games restored at startup", registry=registry
            ),
            games_voided=Counter(
                "shuangkou_games_voided", "Running games voided at startup (not restorable)", registry=registry
            ),
            hosting=Counter(
                "shuangkou_hosting_activations", "Hosting switched on, by cause", ["cause"], registry=registry
            ),
            errors=Counter("shuangkou_errors", "Refused messages and failures, by code", ["code"], registry=registry),
            gc_pause=Histogram(
                "shuangkou_gc_pause_seconds",
                "Garbage collections, by generation: every table waits while one runs",
                ["generation"],
                buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5),
                registry=registry,
            ),
            database=Histogram(
                "shuangkou_database_seconds",
                "Time of one database call (with SQLite, the event loop waits for it)",
                buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5),
                registry=registry,
            ),
            action_batch=Histogram(
                "shuangkou_action_batch_size",
                "Game actions written by one transaction (group commit)",
                buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
                registry=registry,
            ),
            expert_search=Histogram(
                "shuangkou_expert_search_seconds",
                "An expert bot's search, from the table's request to its answer (waiting for a worker included)",
                buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0),
                registry=registry,
            ),
            tables_lost=Counter(
                "shuangkou_tables_lost",
                "Tables this node stopped because another node claimed them (a write refused by its fence)",
                registry=registry,
            ),
            tables_taken_over=Counter(
                "shuangkou_tables_taken_over",
                "Unfinished tables of another node (or of this node id before a restart) claimed and restored",
                registry=registry,
            ),
            node=Gauge("shuangkou_node", "1, labelled with this server's node id in its cluster", ["node"],
                       registry=registry),
            cluster_nodes=Gauge("shuangkou_cluster_nodes", "Live nodes of the cluster (last heartbeat)",
                                registry=registry),
            cluster_tables=Gauge("shuangkou_cluster_tables", "Tables of each live node (last heartbeat)", ["node"],
                                 registry=registry),
            cluster_players=Gauge("shuangkou_cluster_players", "Players seated at each live node (last heartbeat)",
                                  ["node"], registry=registry),
            cluster_connections=Gauge(
                "shuangkou_cluster_connections", "Open WebSocket connections of each live node (last heartbeat)",
                ["node"], registry=registry,
            ),
        )


METRICS = Metrics.create()
