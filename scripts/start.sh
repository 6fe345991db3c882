#!/usr/bin/env bash
# Set up (idempotently) and start Nexus Ark on http://127.0.0.1:7860 with the embedded model.
# Extra arguments go to nexus_ark.py (e.g. --port 7861 --data-dir ~/nexus-data).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
printf '\n==> Starting Nexus Ark (it prints the address to open; Ctrl-C to quit)\n'
exec .venv/bin/python nexus_ark.py "$@"
