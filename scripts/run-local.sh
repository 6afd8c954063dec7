#!/usr/bin/env bash
# Start the web console, a worker and (when Slack tokens are set) the bot; stop all on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
pids=()
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
trap cleanup EXIT INT TERM

# Each service leads its own process group (scripts/process_group.py): stopping it, or its dying,
# takes every process it started along.
GROUP=("$BIN/python" scripts/process_group.py --)
"${GROUP[@]}" "$BIN/python" manage.py qcluster &
pids+=($!)
if [[ -n "${SLACK_BOT_TOKEN:-}" && -n "${SLACK_APP_TOKEN:-}" ]]; then
  "${GROUP[@]}" "$BIN/python" manage.py runbot &
  pids+=($!)
else
  echo "Slack bot not started: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (see README, 'Slack')."
fi
echo "Verity console: http://127.0.0.1:8000/  (admin: http://127.0.0.1:8000/admin/)"
"${GROUP[@]}" "$BIN/python" manage.py runserver --noreload 127.0.0.1:8000 &
pids+=($!)
wait -n "${pids[@]}"
