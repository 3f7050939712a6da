#!/usr/bin/env bash
# Runs the ansible-test integration targets against a fresh emulator on loopback, then stops it.
# Usage: tests/utils/integration.sh [target ...]   (from the repository root, after `make collection`)
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
bin="$root/.venv/bin"
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
"$bin/ansible-test" integration --python 3.11 --color no "$@"
