#!/usr/bin/env bash
# Stop what `make run` started (web, worker, bot) and the embedded database; no data is deleted.
set -uo pipefail
cd "$(dirname "$0")/.."
RUN_DIR=var/run
for name in run web worker bot; do
  file="$RUN_DIR/$name.pid"
  [[ -f $file ]] || continue
  pid=$(cat "$file")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" && echo "Stopped $name (pid $pid)."
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
  fi
  rm -f "$file"
done
# The embedded server outlives the processes that use it (DESIGN.md); stop it only when it is ours.
if [[ -z "${DATABASE_URL:-}" && -f var/pgdata/postmaster.pid ]]; then
  .venv/bin/python - <<'PY'
import logging, warnings
warnings.filterwarnings("ignore", message="XDG_RUNTIME_DIR")
logging.getLogger("pgserver").setLevel(logging.WARNING)
import pgserver
# A handle with no clean-up, then pg_ctl as the server's own system user (pgserver runs it as
# "pgserver" when started by root); other open handles do not keep it running.
server = pgserver.get_server("var/pgdata", cleanup_mode=None)
pgserver.pg_ctl(["-w", "-m", "fast", "stop"], pgdata=server.pgdata, user=server.system_user)
print("Stopped the embedded database (data kept in var/pgdata).")
PY
fi
