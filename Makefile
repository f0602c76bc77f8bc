# Two-command setup: `make demo` and `make test` create .venv themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: demo test lint typecheck bench contract clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

$(TESTSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(TESTSTAMP)

demo: $(STAMP)
	$(BIN)/python -m simulator demo scenarios --out out

lint: $(TESTSTAMP)
	$(BIN)/ruff check simulator tests benchmarks notebooks
	$(BIN)/ruff format --check simulator tests benchmarks notebooks

typecheck: $(TESTSTAMP)
	$(BIN)/mypy

test: $(TESTSTAMP) lint typecheck
	$(BIN)/python -m pytest
	$(BIN)/python ../shared/contract/check.py || [ ! -d ../shared/contract ]

bench: $(TESTSTAMP)
	$(BIN)/python benchmarks/bench.py

clean:
	rm -rf $(VENV) out .pytest_cache .mypy_cache .ruff_cache
