"""How long Redis is busy when a cluster's node forgets a dead node's directory entries
(docs/deployment.md, "Tables without a running game"): the node reads the ``tables`` and
``seats`` hashes by chunks (HSCAN) and deletes the dead node's entries with one short script
per chunk, so Redis answers other calls in between.

    .venv/bin/python bench/bench_forget.py [--redis-url redis://127.0.0.1:6379/0] [--tables 1000,10000]

For each size, the directory holds that many tables (half of them the dead node's) and two
seated players per table, under a key prefix of its own that is deleted afterwards. Printed:
the Redis calls made, the longest as the client timed it (an upper bound of how long other
calls may wait), Redis's own time for them (``INFO commandstats``: the scripts and HSCAN;
run it on a Redis nothing else uses) and the whole.
"""

from __future__ import annotations

import argparse
import asyncio
import time
import uuid
from typing import Any

from shuangkou.server.cluster import Cluster, ClusterSettings


async def forget_once(redis_url: str, tables: int) -> tuple[int, float, float, float]:
    """Fill a directory of ``tables`` tables, forget the dead node's half: (Redis calls, the
    longest call's seconds, Redis's own seconds for them, all of it)."""
    settings = ClusterSettings(redis_url, "live", "http://live.example", name=f"bench-forget-{uuid.uuid4().hex[:8]}")
    cluster = Cluster(settings, "bench")
    redis = cluster.redis
    calls: list[float] = []
    timed = redis.execute_command

    async def execute_command(*arguments: Any, **options: Any) -> Any:
        started = time.perf_counter()
        try:
            return await timed(*arguments, **options)
        finally:
            calls.append(time.perf_counter() - started)

    keys = [settings.key(name) for name in ("tables", "seats", "nodes")]
    try:
        await redis.hset(keys[0], mapping={f"t{i}": ("dead" if i % 2 else "live") for i in range(tables)})
        await redis.hset(keys[1], mapping={str(i): f"t{i // 2}" for i in range(2 * tables)})
        await redis.hset(keys[2], "dead", "{}")
        await cluster._forget("none")  # the scripts loaded
        busy_before = await redis_busy(cluster)
        redis.execute_command = execute_command  # type: ignore[method-assign]
        started = time.perf_counter()
        await cluster._forget("dead")
        whole = time.perf_counter() - started
        redis.execute_command = timed  # type: ignore[method-assign]
        busy = await redis_busy(cluster) - busy_before
        assert await redis.hlen(keys[0]) == tables // 2 and await redis.hlen(keys[1]) == tables
        return len(calls), max(calls), busy, whole
    finally:
        await redis.delete(*keys)
        await redis.aclose()


async def redis_busy(cluster: Cluster) -> float:
    """Seconds Redis has spent in scripts and HSCAN since its statistics were last reset."""
    stats = await cluster.redis.info("commandstats")
    return sum(float(stats.get(f"cmdstat_{name}", {}).get("usec", 0)) for name in ("evalsha", "eval", "hscan")) / 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--tables", default="1000,10000", help="directory sizes, comma-separated")
    args = parser.parse_args()
    for tables in (int(size) for size in args.tables.split(",")):
        calls, longest, busy, whole = asyncio.run(forget_once(args.redis_url, tables))
        print(f"{tables:>6} tables, {2 * tables:>6} seats: {calls} Redis calls, the longest {longest * 1000:.1f} ms, "
              f"Redis busy {busy * 1000:.1f} ms ({busy / calls * 1e6:.0f} µs a call), {whole * 1000:.1f} ms in all")


if __name__ == "__main__":
    main()
