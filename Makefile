# Verity: `make run` sets up and starts everything; `make test` sets up and runs the tests.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | sha1sum | cut -c1-12)
export PIP_DISABLE_PIP_VERSION_CHECK := 1
export HF_HUB_OFFLINE := 1

.PHONY: setup install chromium run stop test bench eval eval-corpus worker web bot celery-worker clean-db

setup: install  ## venv, dependencies, database, migrations, demo admin, sample corpus
	$(BIN)/python manage.py migrate --noinput -v 0
	$(BIN)/python manage.py collectstatic --noinput -v 0
	$(BIN)/python manage.py export_embedder
	$(BIN)/python manage.py setup_demo

install: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@$(BIN)/python -c 'import sys; assert sys.version_info[:2] == (3, 11), "Verity needs Python 3.11 (found %s)" % sys.version.split()[0]'
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q torch==2.13.0
	$(BIN)/pip install -q -e '.[dev]'
	@rm -f $(VENV)/.installed-*
	@touch $@

run: setup  ## web console on 127.0.0.1:$PORT (default 8000) + a worker (+ the Slack bot when tokens are set)
	@./scripts/run-local.sh

stop:  ## stop the web console, worker and bot that `make run` started, and the embedded database (data kept)
	@./scripts/stop-local.sh

web: setup
	$(BIN)/python manage.py runserver 127.0.0.1:8000

worker: setup  ## django-q2 worker (ORM broker, no server needed); its children never outlive it
	$(BIN)/python scripts/process_group.py -- $(BIN)/python manage.py qcluster

celery-worker: setup  ## Celery worker on Redis, all queues
	$(BIN)/python scripts/process_group.py -- $(BIN)/celery -A webapp.celery worker -Q ingest,answer,verify -l info

bot: setup
	$(BIN)/python manage.py runbot

chromium:  ## Debian's Chromium for the browser tests (apt-get, once; nothing to do when it is there)
	@./scripts/install-chromium.sh

test: setup chromium  ## the test suite against real PostgreSQL + pgvector and Redis (+ the real-documentation test subset), the console in Chromium
	@$(BIN)/python scripts/eval_corpus.py --subset >/dev/null
	$(BIN)/python -m pytest -q

bench: setup  ## benchmarks (slow; not part of `make test`)
	$(BIN)/python -m pytest tests/bench -q -s

EVAL_DB := VERITY_DB_NAME=verity_eval

eval: setup eval-corpus  ## ingest the whole real corpus (own database) and score its test split; fails below its floors
	$(EVAL_DB) $(BIN)/python manage.py migrate --noinput -v 0
	$(EVAL_DB) $(BIN)/python manage.py ingest "$$($(BIN)/python scripts/eval_corpus.py)" --collection "Evaluation corpus" --public --sync
	$(EVAL_DB) $(BIN)/python manage.py evaluate fixtures/eval/real/test.jsonl --collection "Evaluation corpus" --floors fixtures/eval/real/floors.json

eval-corpus: install  ## fetch the real-documentation corpus (pinned, checksummed, cached outside git)
	$(BIN)/python scripts/eval_corpus.py

clean-db:  ## stop and delete the embedded database (all local data)
	-$(BIN)/python -c 'import pgserver; pgserver.get_server("var/pgdata", cleanup_mode="delete").cleanup()'
	rm -rf var/pgdata
