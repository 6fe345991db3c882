#!/usr/bin/env bash
# Idempotent set-up: venv, pinned requirements (llama-cpp-python built for this CPU's instruction sets),
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

# llama-cpp-python is built here for this CPU's instruction sets (scripts/llama_build_flags.py), once:
# the wheel is kept in a cache folder named by the flags, so another clone on this machine reuses it
# and a machine with other flags never picks it up (pip's own wheel cache ignores CMAKE_ARGS).
LLAMA_PIN=$(grep -E '^llama-cpp-python==' requirements.txt)
LLAMA_ARGS=$("$PYTHON" scripts/llama_build_flags.py)
hash_of() { cat "$@" | sha256sum | cut -c1-16; }
llama_key=$(printf '%s %s' "$LLAMA_PIN" "$LLAMA_ARGS" | sha256sum | cut -c1-16)
LLAMA_WHEELS="${XDG_CACHE_HOME:-$HOME/.cache}/nexus-ark/llama-wheels/$llama_key"

# One stamp per requirements set and llama build; the dev set includes the app's, so it satisfies
# `start.sh` too.
app_stamp=".venv/.installed-app-$(hash_of requirements.txt)-$llama_key"
dev_stamp=".venv/.installed-dev-$(hash_of requirements-dev.txt requirements.txt)-$llama_key"
if [ "$REQS" = requirements.txt ]; then set_name=app; stamp=$app_stamp; else set_name=dev; stamp=$dev_stamp; fi
if [ ! -f "$stamp" ] && ! { [ "$REQS" = requirements.txt ] && [ -f "$dev_stamp" ]; }; then
  if ! ls "$LLAMA_WHEELS"/llama_cpp_python-*.whl >/dev/null 2>&1; then
    step "Building llama-cpp-python for this CPU (the first time: about 5 minutes on 2 cores)"
    echo "CMAKE_ARGS=$LLAMA_ARGS"
    rm -rf "$LLAMA_WHEELS.partial" && mkdir -p "$LLAMA_WHEELS.partial"
    CMAKE_ARGS="$LLAMA_ARGS" CMAKE_BUILD_PARALLEL_LEVEL=2 \
      .venv/bin/python -m pip wheel --progress-bar off --no-deps --no-cache-dir -w "$LLAMA_WHEELS.partial" "$LLAMA_PIN"
    rm -rf "$LLAMA_WHEELS" && mv "$LLAMA_WHEELS.partial" "$LLAMA_WHEELS"  # only a finished build is kept
  fi
  step "Installing $REQS"
  .venv/bin/python -m pip install --progress-bar off --force-reinstall --no-deps "$LLAMA_WHEELS"/llama_cpp_python-*.whl
  .venv/bin/python -m pip install --progress-bar off -r "$REQS"
  rm -f .venv/.installed-"$set_name"-*  # older stamps of this set
  touch "$stamp"
else
  step "Requirements already installed"
fi

step "Checking the embedded model"
.venv/bin/python nexus_ark.py setup-model
