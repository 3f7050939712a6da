# posthog.admin — the two commands a newcomer needs are `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# BUILD lets several checkouts' worth of work run side by side: make collection BUILD=build-x
BUILD ?= build
COLL := $(BUILD)/ansible_collections/posthog/admin
export BUILD
export ANSIBLE_COLLECTIONS_PATH := $(CURDIR)/$(BUILD)
export ANSIBLE_COLLECTIONS_SCAN_SYS_PATH := false
export PIP_DISABLE_PIP_VERSION_CHECK := 1

.PHONY: help venv collection demo test units emulator-test sanity integration lint clean

help:
	@echo "make demo   - build .venv, start the emulator, converge the example playbook twice, show the inventory"
	@echo "make test   - unit, emulator, sanity, integration and lint checks"
	@echo "make venv   - build .venv only"

$(BIN)/.stamp: requirements-dev.txt emulator/pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	$(BIN)/python -m pip install -q -e emulator
	touch $@

venv: $(BIN)/.stamp

# The collection as ansible sees it: a copy under build/ansible_collections/posthog/admin.
collection: venv
	rm -rf $(COLL) && mkdir -p $(COLL)
	tar -c --exclude=./.venv --exclude='./build*' --exclude=./.git --exclude=./emulator --exclude=./bench \
	    --exclude=./demo/.state --exclude='__pycache__' --exclude=./tests/output --exclude=./.pytest_cache . \
	  | tar -x -C $(COLL)
	cd $(COLL) && git init -q . && git add -A >/dev/null   # ansible-test lists files through git

demo: collection
	$(BIN)/python tests/utils/demo.py

units: collection
	cd $(COLL) && PYTHONPATH=$(CURDIR)/$(BUILD) $(CURDIR)/$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit

emulator-test: venv
	cd emulator && $(CURDIR)/$(BIN)/python -m pytest -q -p no:cacheprovider -n 2 tests

sanity: collection
	$(BIN)/python tests/utils/ansible_test_offline.py
	cd $(COLL) && $(CURDIR)/$(BIN)/ansible-test sanity --python 3.11 --requirements --color no

integration: collection
	bash tests/utils/integration.sh

lint: collection
	cd $(COLL) && $(CURDIR)/$(BIN)/ansible-lint --profile production --offline

test: units emulator-test integration sanity lint
	@echo "make test: all checks passed"

clean:
	rm -rf build build-* tests/output demo/.state
