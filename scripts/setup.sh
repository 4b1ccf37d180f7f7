#!/usr/bin/env bash
# Create .venv and install shuangkou into it (with the test tools when given "test"),
# at the dependency versions in constraints.txt.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --upgrade pip
if [ "${1:-}" = "test" ]; then
  .venv/bin/python -m pip install --quiet -c constraints.txt -e ".[test]"
else
  .venv/bin/python -m pip install --quiet -c constraints.txt -e .
fi
