# Two commands for a fresh Linux machine with Python >= 3.11 (no conda needed):
#   make reproduce   set up .venv and run the five papers at paper scale
#   make test        set up .venv and run the test suite
# and a third: make docs builds the documentation site (docs/, strictly) into site/.
# `make help` lists every target. A target's help is the `## ` comment on the line above it.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
CORES ?= all
PORT ?= 8000

.PHONY: help reproduce quick studies plan run check-config check-store verify tiny-digests release test lint docs serve benchmark clean

## List the targets, one line each (this list).
help:
	@awk '/^## /{h=substr($$0,4);next} /^[a-z][a-z_-]*:/{if(h){sub(/:.*/,"",$$1);printf "  make %-10s %s\n",$$1,h};h=""} !/^## /{h=""}' $(MAKEFILE_LIST)
	@echo "  Variables: CORES=$(CORES) (cores for snakemake), CONFIGS=\"a.yaml ...\" (own config files), EXPERIMENT=name and TARGET=path (plan one part or output), TEST_WORKERS=$(TEST_WORKERS) (pytest processes), PYTHON=$(PYTHON),"
	@echo "  VERIFY_ARGS='$(VERIFY_ARGS)' (options of make verify, e.g. VERIFY_ARGS=\"--budget 60 --seed 4\", \"--all\", \"--all --scratch .verify/all\" (resumable), or \"--configfile FILE\" naming data.raw_dir)."

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)

$(VENV)/.installed: $(BIN)/activate requirements.lock pyproject.toml
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.lock
	$(BIN)/python -m pip install --quiet --no-deps -e .
	touch $@

# Snakemake loads the local profile (workflow/profiles/default) by itself: README, "Two commands".
# Before it, `check-store --before-run` with the run's config files: the raw data first (a wrong file, or a missing one
# that cannot be downloaded, stops the recipe in one line), then a run file deleted or damaged after a run (a chunk, a
# chunk summary) is removed if damaged and named as a target beside `all`, so that Snakemake rebuilds it instead of
# finding "Nothing to be done"; it prints nothing when there is none, and stops the recipe on a bad config.
# $(call RUN_WITH,config files) runs both.
RUN = $(BIN)/snakemake --cores $(CORES)
RUN_WITH = targets=$$($(BIN)/causal-bandits check-store --before-run $(1)) && $(RUN) $$targets $(if $(strip $(1)),--configfile $(1))

## Set up .venv if needed, then run the whole pipeline at paper scale (config/config.yaml).
reproduce: $(VENV)/.installed
	$(call RUN_WITH,)

## Set up .venv if needed, then run the quick config (every experiment, short horizons, few seeds).
quick: $(VENV)/.installed
	$(call RUN_WITH,config/quick.yaml)

# Where plan and check-config find snakemake and causal-bandits: .venv once it is set up; else the PATH's when both
# are there (a conda environment from environment.yml, a cluster's module); else .venv, set up first.
ON_PATH := $(and $(shell command -v snakemake 2>/dev/null),$(shell command -v causal-bandits 2>/dev/null))
TOOLS := $(if $(and $(ON_PATH),$(if $(wildcard $(VENV)/.installed),,no venv)),,$(BIN)/)
SETUP := $(if $(TOOLS),$(VENV)/.installed)

# The plan, job by job, without running anything: the default profile keeps Snakemake's job listing off the
# console (`quiet: [rules]`), and `--quiet host` brings it back. CONFIGS names config overlays, e.g.
# `make plan CONFIGS="config/quick.yaml examples/own_experiment.yaml"`; the last lines count the jobs per rule.
# EXPERIMENT=name plans one own or pure-exploration experiment, paper or study of the config alone (its outputs,
# from `causal-bandits check-config --targets name`), TARGET=path one output; check-config runs first.
CONFIGS ?=
EXPERIMENT ?=
TARGET ?=
## List every job the run would do (rule, wildcards, outputs, why) and count them; CONFIGS="a.yaml b.yaml" adds overlays, EXPERIMENT=name or TARGET=path plans only that.
plan: check-config
	$(TOOLS)snakemake -n --quiet host $(if $(strip $(CONFIGS)),--configfile $(CONFIGS)) $(if $(strip $(EXPERIMENT) $(TARGET)),-- $(strip $(TARGET) $(if $(strip $(EXPERIMENT)),$$($(TOOLS)causal-bandits check-config --targets $(EXPERIMENT) $(CONFIGS)))))

## Set up .venv if needed, then run the papers and every study beyond them (config/studies.yaml, docs/studies.md).
studies: $(VENV)/.installed
	$(call RUN_WITH,config/studies.yaml)

# Own config files: CONFIGS="a.yaml b.yaml" (merged over config/config.yaml in order, as --configfile). Snakemake
# reads --configfile itself, before the workflow's checks, so a missing file or a folder there ends in its traceback;
# check-config answers every such mistake in one line, and `make run` checks before it starts Snakemake.
## Check config files (CONFIGS="a.yaml ...") as `snakemake --configfile` would, one line per problem, before a run; EXPERIMENT=name prints its cost alone.
check-config: $(SETUP)
	$(TOOLS)causal-bandits check-config $(strip $(if $(strip $(EXPERIMENT)),--experiment $(EXPERIMENT)) $(CONFIGS))

## Check the config files (CONFIGS="a.yaml ..."), then run the pipeline with them.
run: check-config
	$(call RUN_WITH,$(CONFIGS))

## After a run with CONFIGS="a.yaml ...": read back every file under results/, name each damaged or missing one and its fix.
check-store: $(VENV)/.installed
	$(BIN)/causal-bandits check-store $(CONFIGS)

# Unit tests on TEST_WORKERS processes (pytest-xdist, a file per worker), then the workflow tests, also
# a file per worker: they share one tiny run (the first worker to need it runs it on 2 cores, the other
# waits), then mostly wait on one Snakemake process each; the 15 slowest are listed, for CI's log.
# The archived paper-scale run (archive/paper-scale, docs/guide/reviewers.md#verify): a seeded random sample of its
# jobs rebuilt from scratch and every derived job from the archived intermediates, in scratch folders, compared byte
# for byte, with the code the run ran (this checkout's, or the run's commit in a temporary git worktree when they
# differ). VERIFY_ARGS passes options, e.g. VERIFY_ARGS="--budget 60 --seed 4". make exits 2 whenever its recipe
# fails; the line after verify's says verify's own status (1: a file differs, 2: could not check), which
# .venv/bin/causal-bandits verify returns as its exit status.
VERIFY_ARGS ?=
## Set up .venv if needed, then rebuild a sample of the archived paper-scale run's jobs and every derived job and compare.
verify: $(VENV)/.installed
	@$(BIN)/causal-bandits verify $(VERIFY_ARGS) || { status=$$?; echo "causal-bandits verify exited $$status (1: a rebuilt file differs; 2: could not check)" >&2; exit $$status; }

# The byte guard (CONTRIBUTING.md#byte-guard): tests/tiny_digests.txt lists the sha256 of every output of the tiny
# run, and CI fails when they move without it. A change that moves them on purpose rewrites it here, in its commit.
REASON ?=
## Rewrite tests/tiny_digests.txt from a tiny run (a few minutes), with REASON="why the outputs moved" as its first line.
tiny-digests: $(VENV)/.installed
	@test -n "$(REASON)" || { echo 'make tiny-digests needs REASON="why the outputs moved" (the list'"'"'s first line)' >&2; exit 2; }
	CB_TINY_DIGESTS_REASON="$(REASON)" $(BIN)/python -m pytest -q -n 0 -p no:cacheprovider tests/test_byte_guard.py -k tiny_run

# A release (CONTRIBUTING.md#releases): on a clean tree with every rule registered, bump the version, run the papers
# and the studies at that commit in one run folder, archive both, verify them, and write the CHANGELOG.md entry.
# RELEASE_CONFIG overlays a config on both runs (config/tiny.yaml to try the command out in a scratch clone).
VERSION ?=
RELEASE_CONFIG ?=
## Make release VERSION=X.Y.Z: the version bumped, papers and studies run and archived at one commit, verified, CHANGELOG.md written.
release: $(VENV)/.installed
	@test -n "$(VERSION)" || { echo 'make release needs VERSION=X.Y.Z (above the version in pyproject.toml)' >&2; exit 2; }
	$(BIN)/causal-bandits release $(VERSION) --cores $(CORES) $(if $(RELEASE_CONFIG),--configfile $(RELEASE_CONFIG))

TEST_WORKERS ?= 2
## Set up .venv if needed, then run the unit tests and the workflow tests (tiny config).
test: $(VENV)/.installed
	$(BIN)/python -m pytest -q -m "not workflow" -n $(TEST_WORKERS) --dist loadfile
	$(BIN)/python -m pytest -q -m workflow -n $(TEST_WORKERS) --dist loadfile --durations=15

# The linters and type checks CI runs before the tests (.ci/run); the tools are pinned in
# requirements.lock (the `lint` extra), so the install step above brings them.
## Set up .venv if needed, then lint: ruff check, ruff format --check, snakefmt --check, mypy, tools/house_rules.py; a finding fails.
lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/snakefmt --check workflow
	$(BIN)/snakemake --lint --workflow-profile none --configfile config/quick.yaml > /dev/null
	$(BIN)/mypy
	$(BIN)/python tools/house_rules.py

## Build the documentation site (docs/) into site/, strictly; a broken link or anchor fails.
docs: $(VENV)/.installed
	$(BIN)/mkdocs build --strict

## Build the site and serve it at http://127.0.0.1:8000/ (PORT=...) until Ctrl-C: search works (from disk it cannot).
serve: docs
	$(BIN)/python -m http.server --directory site --bind 127.0.0.1 $(PORT)

## Run the bandit speed benchmarks (benchmarks/README.md).
benchmark: $(VENV)/.installed
	$(BIN)/python benchmarks/bandit_speed.py
	$(BIN)/python benchmarks/linucb_speed.py

# Everything the pipeline writes: the folders below and Snakemake's report bundle. data/raw (the
# downloaded or placed raw data) and .venv are kept.
GENERATED := results figures logs .snakemake benchmarks/out data/generated data/processed data/standin report.zip site
## Remove every generated output (results, figures, logs, Snakemake's state, timings, derived data); keeps data/raw and .venv.
clean:
	rm -rf $(GENERATED)
