#!/usr/bin/env bash
# Set up (idempotently, with test requirements) and run the whole test suite.
# Browser tests need Debian's chromium: installed here when possible, else skipped with a message.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --dev

if [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null; then
    printf '\n==> Installing Debian chromium for the browser tests\n'
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || echo "Could not install chromium: the browser tests will be skipped."
  elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
    sudo apt-get update -qq && sudo DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
      || echo "Could not install chromium: the browser tests will be skipped."
  else
    echo "NOTE: /usr/bin/chromium is missing and cannot be installed here: the browser tests will be skipped."
  fi
fi

printf '\n==> Running the tests\n'
set +e
.venv/bin/python -m pytest -rs "$@"
code=$?
set -e
if [ "$code" = "5" ]; then
  echo "pytest collected no tests: that is a failure." >&2
  exit 1
fi
exit "$code"
