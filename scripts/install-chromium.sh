#!/usr/bin/env bash
# Debian's Chromium for the browser tests (Playwright drives it; its own browser download is never used).
# Idempotent and quiet: nothing to do when the browser is there; otherwise one apt-get install, its log
# kept in var/ and shown only when it fails.
set -uo pipefail

CHROMIUM="${VERITY_TEST_CHROMIUM:-/usr/bin/chromium}"
LOG="var/chromium-install.log"

if [ -x "$CHROMIUM" ]; then
    exit 0
fi

fail() {
    echo "Chromium for the browser tests could not be installed: $1" >&2
    echo "Install it yourself (Debian/Ubuntu: sudo apt-get install chromium), or point VERITY_TEST_CHROMIUM" >&2
    echo "at a Chromium binary; \`pytest -m 'not browser'\` runs the other tests without it." >&2
    exit 1
}

command -v apt-get >/dev/null || fail "this machine has no apt-get (not Debian or Ubuntu), and no browser at $CHROMIUM."
[ "$(id -u)" = 0 ] || fail "installing packages needs root (this is $(id -un)), and there is no browser at $CHROMIUM."

mkdir -p var
echo "Installing Debian's chromium for the browser tests (once; about 15 s)..."
started=$(date +%s)
if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
        chromium fonts-dejavu-core; } >"$LOG" 2>&1; then
    tail -n 15 "$LOG" >&2
    fail "apt-get failed (full log: $LOG)."
fi
[ -x "$CHROMIUM" ] || fail "apt-get finished but there is still no browser at $CHROMIUM (log: $LOG)."
echo "Chromium installed in $(( $(date +%s) - started )) s: $("$CHROMIUM" --version 2>/dev/null)"
