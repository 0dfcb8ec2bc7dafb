# Two commands do all the set-up on a fresh machine:
#   make run   -- creates .venv, installs pokerlab, runs the demo (the main job)
#   make test  -- creates .venv, installs pokerlab with its test extras, runs the test suite
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[dev,web,torch,ray]'
	touch $(STAMP)

.PHONY: setup run test test-slow lint bench chromium
setup: $(STAMP)

run: $(STAMP)
	$(BIN)/pokerlab demo
	@# with a terminal: then serve the play page with the shipped agent until Ctrl-C
	@if [ -t 0 ]; then $(BIN)/pokerlab play; fi

# The browser tests drive Debian's Chromium (Playwright's own download does not work here).
chromium:
	@command -v chromium >/dev/null 2>&1 || (apt-get update && apt-get install -y chromium) || \
	  { echo "error: the browser tests need Chromium: run 'apt-get install -y chromium' as root" >&2; exit 1; }

test: $(STAMP) chromium
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check pokerlab tests benchmarks
	$(BIN)/mypy pokerlab

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py
