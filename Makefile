# Every target works on a fresh clone with only Python 3.11: the virtualenv is made from
# uv.lock, exactly, whenever the lock or pyproject.toml changes.
#
# The lock is uv's: one file holds every package, direct and transitive, dev tools
# included, with the hashes of its files for every platform, and `uv lock --check` tells
# offline whether pyproject.toml and the lock agree. uv itself comes from PyPI through pip,
# pinned with hashes in requirements-uv.txt, into a folder of its own (.uv), so a machine
# needs nothing but Python; uv never downloads a Python of its own here.

PYTHON ?= $(shell command -v python3.11 2>/dev/null || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
UV := .uv/bin/uv
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)

# Packages may appear one at a time, so only the ones that exist are checked.
TYPED := $(wildcard engine bot adapters)
BENCHMARKS := $(wildcard bench/*.py)

# Arguments for the bot, e.g. `make run ARGS="play kozel --players 3"`.
ARGS ?=

# The languages the bot speaks; `make messages` refreshes their catalogs.
LANGUAGES := en ru uk pl ca
LOCALE := bot/locale
POT := $(LOCALE)/domino.pot

.PHONY: run test lock lock-check lint typecheck bench pictures schema clean messages soak soak-scale upgrade

run: $(INSTALLED)
	@$(BIN)/domino-bot $(ARGS)

# One test worker a core (pytest-xdist); a file's tests stay together, in their order.
test: lock-check lint typecheck
	$(BIN)/pytest --numprocesses auto --dist loadfile

# Fails when pyproject.toml asks for something uv.lock does not hold (run `make lock`).
lock-check: $(UV)
	$(UV) lock --check --offline --python $(PYTHON)

# After a change to pyproject.toml: the lock again, moving no package it need not move.
lock: $(UV)
	$(UV) lock --python $(PYTHON)

# The newest versions pyproject.toml's ranges allow (uv's own pin too), installed and tested.
upgrade: $(UV)
	echo uv | $(UV) pip compile --generate-hashes --upgrade --python-version 3.11 \
		--no-header --quiet -o requirements-uv.txt -
	sed -i '1i # uv, the tool that installs uv.lock, pinned with its hashes; `make upgrade` refreshes it.' \
		requirements-uv.txt
	$(UV) lock --upgrade --python $(PYTHON)
	$(MAKE) test

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

# Sample positions of every game drawn as the chats show them, and the web table's page
# of each game in a headless chromium (skipped without one), for the docs.
pictures: $(INSTALLED)
	$(BIN)/python -m bot.picture.gallery docs/pictures
	$(BIN)/python -m tests.adapters.web.browser.pictures docs/pictures

# The JSON schema of the table's model (docs/table-model.md), written from the models.
schema: $(INSTALLED)
	$(BIN)/python -m bot.model.schema docs/table-model.schema.json

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

$(UV): requirements-uv.txt
	$(PYTHON) -m venv .uv
	.uv/bin/python -m pip install --disable-pip-version-check --progress-bar off --quiet \
		--require-hashes --no-deps -r requirements-uv.txt
	touch $@

$(INSTALLED): pyproject.toml uv.lock | $(UV)
	$(UV) sync --frozen --extra dev --python $(PYTHON)
	touch $@

# Leaves .venv, .uv and data/ (the embedded Redis files) alone.
clean:
	rm -rf build dist *.egg-info .pytest_cache .mypy_cache .ruff_cache .hypothesis
	find . -path ./$(VENV) -prune -o -name __pycache__ -type d -prune -exec rm -rf {} +
