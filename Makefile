# Two commands for a fresh Linux machine with Python >= 3.11 (no conda needed):
#   make reproduce   set up .venv and run the whole pipeline at paper scale
#   make test        set up .venv and run the test suite
# and a third: make docs builds the documentation site (docs/, strictly) into site/.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= all

.PHONY: reproduce quick test docs benchmark clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/activate requirements.lock pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# Snakemake loads the local profile (workflow/profiles/default) by itself: README, "Two commands".
RUN = $(BIN)/snakemake --cores $(CORES)

reproduce: $(VENV)/.installed
	$(RUN)

quick: $(VENV)/.installed
	$(RUN) --configfile config/quick.yaml

# Unit tests on TEST_WORKERS processes (pytest-xdist, a file per worker), then the workflow tests
# (they share one tiny run and use the cores themselves; the 15 slowest are listed, for CI's log).
TEST_WORKERS ?= 2
test: $(VENV)/.installed
	$(BIN)/python -m pytest -q -m "not workflow" -n $(TEST_WORKERS) --dist loadfile
	$(BIN)/python -m pytest -q -m workflow --durations=15

# The documentation site, strictly: a broken link, a missing page or an unresolved API reference fails.
docs: $(VENV)/.installed
	$(BIN)/mkdocs build --strict

benchmark: $(VENV)/.installed
	$(BIN)/python benchmarks/bandit_speed.py
	$(BIN)/python benchmarks/linucb_speed.py

clean:
	rm -rf results figures logs .snakemake benchmarks/out site
