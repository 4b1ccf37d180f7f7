"""How long Redis is busy when a cluster's node forgets a dead node's directory entries
(docs/deployment.md, "Tables without a running game"): one Lua script reads the whole
``tables`` and ``seats`` hashes and deletes the dead node's half.

    .venv/bin/python bench/bench_forget.py [--redis-url redis://127.0.0.1:6379/0] [--tables 1000,10000]

For each size, the directory holds that many tables (half of them the dead node's) and two
seated players per table, under a key prefix of its own that is deleted afterwards.
"""

from __future__ import annotations

import argparse
import time
import uuid

import redis

from shuangkou.server.cluster import _FORGET_NODE


def forget_once(client: redis.Redis, tables: int) -> tuple[list[int], float]:
    """Fill a directory of ``tables`` tables, forget the dead node's half: (what the script
    forgot, its seconds)."""
    prefix = f"bench-forget-{uuid.uuid4().hex[:8]}"
    keys = [f"{prefix}:node:dead", f"{prefix}:tables", f"{prefix}:seats", f"{prefix}:nodes"]
    try:
        client.hset(keys[1], mapping={f"t{i}": ("dead" if i % 2 else "live") for i in range(tables)})
        client.hset(keys[2], mapping={str(i): f"t{i // 2}" for i in range(2 * tables)})
        client.hset(keys[3], "dead", "{}")
        script = client.register_script(_FORGET_NODE)
        script(keys=[f"{prefix}:node:none", *keys[1:]], args=["none", ""])  # loaded, and nothing forgotten
        started = time.perf_counter()
        forgotten = script(keys=keys, args=["dead", ""])
        return list(forgotten), time.perf_counter() - started
    finally:
        client.delete(*keys)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--tables", default="1000,10000", help="directory sizes, comma-separated")
    args = parser.parse_args()
    client = redis.Redis.from_url(args.redis_url)
    for tables in (int(size) for size in args.tables.split(",")):
        forgotten, seconds = forget_once(client, tables)
        print(f"{tables:>6} tables, {2 * tables:>6} seats: forgot {forgotten[0]} tables and {forgotten[1]} seats "
              f"in {seconds * 1000:.1f} ms")
    client.close()


if __name__ == "__main__":
    main()
