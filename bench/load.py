"""Load test of the game server: N tables of two bot players over real WebSockets.

The same as ``shuangkou loadtest`` (see ``src/shuangkou/loadtest.py`` and docs/server.md):

    python bench/load.py --tables 1000 --duration 60
    python bench/load.py --sweep 250,500,1000,1500 --duration 30
    python bench/load.py --tables 5 --duration 3 --warmup 1      # a quick check

It starts ``shuangkou serve`` on 127.0.0.1 with a fresh data directory (or targets
``--url``, loopback only), runs for a bounded time, stops by itself and prints action
latency percentiles, actions per second, errors by code and the server's CPU.
"""

from __future__ import annotations

import sys

from shuangkou.loadtest.run import main

if __name__ == "__main__":
    sys.exit(main())
