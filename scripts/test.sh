#!/usr/bin/env bash
# Set up and run the whole test suite, plus ruff and mypy --strict on the package.
# As root on a machine without /usr/bin/chromium, it installs Debian's Chromium for the browser tests,
# and without `node` Debian's Node.js for the browser client's unit tests.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
# The browser tests (tests/test_web.py) drive Debian's Chromium; install it once, quietly, when we can.
if [ ! -x /usr/bin/chromium ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Chromium for the browser tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends chromium fonts-noto-cjk >/dev/null \
    || echo "could not install Chromium: the browser tests will be skipped" >&2
fi
# The browser client's state module is unit-tested with Node's own test runner (tests/web/).
if ! command -v node >/dev/null && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing Node.js for the client's unit tests..."
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null && apt-get install -y -qq --no-install-recommends nodejs >/dev/null
fi
node --test tests/web/*.test.mjs
.venv/bin/ruff check src tests bench
.venv/bin/mypy --strict src/shuangkou
.venv/bin/lint-imports
.venv/bin/python -m pytest -n auto --doctest-glob=README.md "$@" src tests README.md
