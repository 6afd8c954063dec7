#!/usr/bin/env bash
# Start the web console, a worker and (when Slack tokens are set) the bot; Ctrl-C or `make stop` ends them.
# Each process's id is kept in var/run/ so `make stop` can end exactly these (and the embedded database).
set -uo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
RUN_DIR=var/run
mkdir -p "$RUN_DIR"
echo $$ > "$RUN_DIR/run.pid"

# PORT, SLACK_BOT_TOKEN and SLACK_APP_TOKEN may come from the environment or from .env.
read -r PORT SLACK_BOT_TOKEN SLACK_APP_TOKEN < <("$BIN/python" -m webapp.env PORT SLACK_BOT_TOKEN SLACK_APP_TOKEN | paste -sd ' ')
PORT=${PORT:-8000}
[[ "$PORT" =~ ^[0-9]+$ ]] || { echo "Configuration error: PORT must be a port number; got '$PORT'" >&2; exit 2; }

pids=()
stopping=0
# Each service leads its own process group (scripts/process_group.py): stopping it, or its dying,
# takes every process it started along.
GROUP=("$BIN/python" scripts/process_group.py --)
start() {  # start NAME COMMAND...: run in its own process group in the background and record its pid
  local name=$1; shift
  "${GROUP[@]}" "$@" &
  pids+=($!)
  echo $! > "$RUN_DIR/$name.pid"
}
cleanup() {
  [[ $stopping == 1 ]] && return
  stopping=1
  kill -TERM "${pids[@]}" 2>/dev/null
  wait "${pids[@]}" 2>/dev/null
  rm -f "$RUN_DIR"/{run,web,worker,bot}.pid
}
# Ctrl-C and `make stop` are the normal way to end: exit 0, so make reports no error.
trap 'cleanup; echo "Verity stopped. The embedded database keeps running for other commands; \`make stop\` stops it."; exit 0' INT TERM
trap cleanup EXIT

start worker "$BIN/python" manage.py qcluster
if [[ -n "$SLACK_BOT_TOKEN" && -n "$SLACK_APP_TOKEN" ]]; then
  start bot "$BIN/python" manage.py runbot
else
  echo "Slack bot not started: set SLACK_BOT_TOKEN and SLACK_APP_TOKEN (see README, 'Slack')."
fi
echo "Verity console: http://127.0.0.1:$PORT/  (admin: http://127.0.0.1:$PORT/admin/, API docs: /api/docs/)"
start web "$BIN/python" manage.py runserver --noreload "127.0.0.1:$PORT"
# One process ending (a crash, a port in use) ends the others. One ended by a signal (128+N: stopped
# from outside) is a normal stop; any other status is a failure make should report.
wait -n "${pids[@]}"
status=$?
cleanup
(( status > 128 )) && exit 0
exit $status
