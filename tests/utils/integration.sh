#!/usr/bin/env bash
# Runs the ansible-test integration targets against a fresh emulator on loopback, then stops it.
# Usage: tests/utils/integration.sh [target ...]   (from the repository root, after `make collection`)
# VENV (default .venv) chooses the virtualenv that runs ansible-test and the emulator, e.g. VENV=.venv-2.16;
# ansible-test gets that venv's Python version.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/${VENV:-.venv}/bin"
pyver=$("$bin/python" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
build="$root/${BUILD:-build}"
state="$build/emulator-integration"
coll="$build/ansible_collections/posthog/admin"
"$bin/python" "$root/tests/utils/emulator_ctl.py" start --state "$state"
trap '"$bin/python" "$root/tests/utils/emulator_ctl.py" stop --state "$state"' EXIT
"$bin/python" - "$state/emulator.json" "$coll/tests/integration/integration_config.yml" <<'PY'
import json, sys
info = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    out.write("---\n")
    out.write("posthog_host: %s\n" % json.dumps(info["url"]))
    out.write("posthog_api_key: %s\n" % json.dumps(info["api_key"]))
    out.write("emulator_url: %s\n" % json.dumps(info["url"]))
PY
cd "$coll"
export ANSIBLE_COLLECTIONS_PATH="$build"
"$bin/ansible-test" integration --python "$pyver" --color no "$@"
