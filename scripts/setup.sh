#!/usr/bin/env bash
# Idempotent set-up: venv, pinned requirements (llama-cpp-python built with portable CPU flags),
# and the embedded model assembled into the data directory and verified once.
# Usage: scripts/setup.sh [--dev]   (--dev adds the test requirements)
set -euo pipefail
cd "$(dirname "$0")/.."

REQS=requirements.txt
[ "${1:-}" = "--dev" ] && REQS=requirements-dev.txt
PYTHON=${PYTHON:-python3}

step() { printf '\n==> %s\n' "$*"; }

if ! "$PYTHON" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else 1)'; then
  echo "Nexus Ark needs Python 3.11 or newer ($PYTHON is $("$PYTHON" --version 2>&1))." >&2
  exit 1
fi

if [ ! -x .venv/bin/python ]; then
  step "Creating the virtual environment in .venv"
  "$PYTHON" -m venv .venv
fi

# One stamp per requirements set; the dev set includes the app's, so it satisfies `start.sh` too.
hash_of() { cat "$@" | sha256sum | cut -c1-16; }
app_stamp=".venv/.installed-app-$(hash_of requirements.txt)"
dev_stamp=".venv/.installed-dev-$(hash_of requirements-dev.txt requirements.txt)"
if [ "$REQS" = requirements.txt ]; then stamp=$app_stamp; else stamp=$dev_stamp; fi
if [ ! -f "$stamp" ] && ! { [ "$REQS" = requirements.txt ] && [ -f "$dev_stamp" ]; }; then
  step "Installing $REQS (the first time this builds llama-cpp-python: about 5 minutes on 2 cores)"
  # Portable build: without these flags llama.cpp is tied to this CPU (-march=native) and builds slower.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF" \
  CMAKE_BUILD_PARALLEL_LEVEL=2 \
    .venv/bin/python -m pip install --progress-bar off -r "$REQS"
  rm -f "${stamp%-*}"-*  # older stamps of this set
  touch "$stamp"
else
  step "Requirements already installed"
fi

step "Checking the embedded model"
.venv/bin/python nexus_ark.py setup-model
