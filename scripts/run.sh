#!/usr/bin/env bash
# Set up and start shuangkou. Extra arguments go to the `shuangkou` command.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
if [ "$#" -eq 0 ]; then
  set -- serve
fi
exec .venv/bin/shuangkou "$@"
