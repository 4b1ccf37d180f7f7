#!/usr/bin/env bash
# Set up and run the whole test suite, plus ruff and mypy --strict on the package.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/ruff check src tests bench
.venv/bin/mypy --strict src/shuangkou
.venv/bin/python -m pytest -n auto --doctest-glob=README.md "$@" src tests README.md
