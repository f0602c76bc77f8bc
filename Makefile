# Two-command setup: `make demo` and `make test` create .venv themselves. `make demo` draws its
# reference charts from the showcase scenarios (simulator.cli.demo.SHOWCASE).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
TESTSTAMP := $(VENV)/.installed-test

.PHONY: demo test lint typecheck bench bench-compare fuzz contract clean dist dist-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e .
	touch $(STAMP)

$(TESTSTAMP): $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[test,dask]'
	touch $(TESTSTAMP)

BENCHSTAMP := $(VENV)/.installed-bench
$(BENCHSTAMP): $(TESTSTAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	touch $(BENCHSTAMP)

demo: $(STAMP)
	$(BIN)/python -m simulator demo scenarios --out out
	mkdir -p out/reference
	$(BIN)/python -m simulator replay scenarios/runoff/cary-2023-district-d.yaml --chart out/reference/cary-2023-timeline.png --graph out/reference/cary-2023-path.png > /dev/null
	$(BIN)/python -m simulator replay scenarios/nonpartisan-primary/greensboro-2017-at-large-group.yaml --chart out/reference/greensboro-2017-timeline.png --graph out/reference/greensboro-2017-path.png > /dev/null
	$(BIN)/python -m simulator replay scenarios/contingencies/112a-one-of-two-dies-day-30-nobody-files.yaml --chart out/reference/death-on-day-30-timeline.png > /dev/null
	$(BIN)/python -m simulator replay scenarios/runoff/tie-for-second-withdrawal-then-demand.yaml --chart out/reference/tie-for-second-days-from-election.png --days-from-election --graph out/reference/tie-for-second-path.mmd > /dev/null
	@echo "reference charts in out/reference/"
	@echo
	@echo "electsim is installed in $(BIN)/. Try:"
	@echo "  $(BIN)/electsim replay scenarios/runoff/cary-2023-district-d.yaml"
	@echo "  $(BIN)/electsim test scenarios"
	@echo "or run 'source $(BIN)/activate' once, then plain 'electsim --help'."

lint: $(TESTSTAMP)
	$(BIN)/ruff check simulator tests benchmarks notebooks
	$(BIN)/ruff format --check simulator tests benchmarks notebooks

typecheck: $(TESTSTAMP)
	$(BIN)/mypy

# The suite runs on $(WORKERS) processes (pytest-xdist); a process that runs out of tests takes
# some from the other. WORKERS=0 runs it in this one. The fast test profile (docs/development.md).
# Bytecode is written even where the environment turns it off: the suite starts electsim in
# hundreds of processes, and each would compile the package again.
WORKERS ?= 2

test: $(TESTSTAMP) lint typecheck
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal
	$(BIN)/python -m tests.contract

# The wheel and sdist, in dist/.
dist: $(TESTSTAMP)
	rm -rf dist
	$(BIN)/python -m build --outdir dist .

# Build, install the wheel into a fresh virtualenv, run `electsim --version` and a replay there.
dist-check: $(TESTSTAMP)
	$(BIN)/python -m pytest -m dist tests/test_distribution.py

bench: $(BENCHSTAMP)
	$(BIN)/python benchmarks/bench.py

# This checkout side by side with another commit (REF: the previous one unless given), the two
# alternating in one run; a workload more than 10% slower is marked (benchmarks/compare.py).
REF ?= HEAD~1
bench-compare: $(BENCHSTAMP)
	$(BIN)/python benchmarks/compare.py $(REF)

# Bounded in time: a mutation campaign over the scenario library, then the stateful engine test's
# long run. FUZZ_VARIANTS, FUZZ_SECONDS and STATEFUL_SECONDS make them longer or shorter. Then the
# property tests and the whole of the large grids under the long test profile
# (docs/development.md).
FUZZ_VARIANTS ?= 3000
FUZZ_SECONDS ?= 600
STATEFUL_SECONDS ?= 600
fuzz: $(TESTSTAMP)
	$(BIN)/python -m tests.fuzz_mutations --variants $(FUZZ_VARIANTS) --seconds $(FUZZ_SECONDS)
	$(BIN)/python -m tests.fuzz_stateful $(STATEFUL_SECONDS)
	ELECTSIM_TEST_PROFILE=fuzz $(BIN)/python -m pytest -n $(WORKERS) --dist worksteal -m "hypothesis or long or sample or browser" tests

clean:
	rm -rf $(VENV) out dist .pytest_cache .mypy_cache .ruff_cache
