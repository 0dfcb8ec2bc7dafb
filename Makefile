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
	$(BIN)/python -m pip install -q -e '.[dev,torch,ray]'
	touch $(STAMP)

.PHONY: setup run test test-slow lint bench
setup: $(STAMP)

run: $(STAMP)
	$(BIN)/pokerlab demo

test: $(STAMP)
	$(BIN)/python -m pytest -q -n 2 --dist loadfile

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -m slow

lint: $(STAMP)
	$(BIN)/ruff check pokerlab tests benchmarks
	$(BIN)/mypy pokerlab

bench: $(STAMP)
	$(BIN)/python benchmarks/run_all.py
