# Every target works on a fresh clone: the virtualenv is created when missing and the
# project (with its dev tools) is reinstalled whenever pyproject.toml changes.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed

# Packages may appear one at a time, so only the ones that exist are checked.
TYPED := $(wildcard engine bot adapters)
BENCHMARKS := $(wildcard bench/*.py)

# Arguments for the bot, e.g. `make run ARGS="play kozel --players 3"`.
ARGS ?=

# The languages the bot speaks; `make messages` refreshes their catalogs.
LANGUAGES := en ru uk pl ca
LOCALE := bot/locale
POT := $(LOCALE)/domino.pot

.PHONY: run test lint typecheck bench pictures clean messages soak soak-scale

run: $(INSTALLED)
	@$(BIN)/domino-bot $(ARGS)

test: lint typecheck
	$(BIN)/pytest

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

# The benchmark scripts run from the repository root with bench/ on their path (they
# import press_path as a package of its own), the soak runs as the package bench.soak,
# and the tests import each other's helpers as tests.* from folders without __init__
# files: mypy maps a file to one module name per run, so each is checked in a run of its own.
typecheck: $(INSTALLED)
	$(BIN)/mypy $(TYPED)
	MYPYPATH=bench $(BIN)/mypy $(BENCHMARKS)
	$(BIN)/mypy -p bench.soak
	$(BIN)/mypy --explicit-package-bases tests

bench: $(INSTALLED)
	@if [ -z "$(BENCHMARKS)" ]; then echo "no benchmarks in bench/"; fi
	@for script in $(BENCHMARKS); do \
		echo "== $$script"; \
		$(BIN)/python $$script || exit 1; \
	done

# Not part of `test`: bot processes against real Redis servers and the fake Bot API,
# killed and restarted while fake people play (`make soak ARGS="--games 20"`), or the
# scale run (`make soak ARGS=scale`, `make soak-scale ARGS="--minutes 2"`).
soak: $(INSTALLED)
	$(BIN)/python -m bench.soak $(ARGS)

soak-scale: $(INSTALLED)
	$(BIN)/python -m bench.soak scale $(ARGS)

# Sample positions of every game drawn as the chats show them, for the docs.
pictures: $(INSTALLED)
	$(BIN)/python -m bot.picture.gallery docs/pictures

# Extract every translatable text, bring each language's catalog up to date (a changed
# text comes back fuzzy, for a translator to check) and compile the catalogs that run.
messages: $(INSTALLED)
	$(BIN)/pybabel extract -k ngettext:1,2 -k N_ -k NC_:1c,2 --no-location --sort-output \
		--project domino-bot --version 0.1.0 -o $(POT) bot adapters
	@for lang in $(LANGUAGES); do \
		if [ -f $(LOCALE)/$$lang/LC_MESSAGES/domino.po ]; then \
			$(BIN)/pybabel update -i $(POT) -d $(LOCALE) -D domino -l $$lang --ignore-obsolete \
				|| exit 1; \
		else \
			$(BIN)/pybabel init -i $(POT) -d $(LOCALE) -D domino -l $$lang || exit 1; \
		fi; \
	done
	$(BIN)/pybabel compile -d $(LOCALE) -D domino --statistics

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --disable-pip-version-check --progress-bar off -e '.[dev]'
	touch $@

# Leaves .venv and data/ (the embedded Redis files) alone.
clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
