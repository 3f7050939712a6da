#!/usr/bin/env bash
# `make ee-context`: what an AWX / automation controller user does to get the collection into an
# execution environment, up to (not including) the container build, which needs podman or docker.
# Usage: tests/utils/ee_context.sh <collection tarball> <venv bin with ansible-builder> <work dir>
#  1. install the tarball and run `ansible-builder introspect` on it: the dependencies the image
#     build will read from meta/execution-environment.yml (requests from requirements.txt, bindep.txt);
#  2. `ansible-builder create` with an execution environment definition that installs the tarball:
#     the build context (Containerfile, _build/) a user then builds with `ansible-builder build`.
set -euo pipefail
tarball=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
bin=$2
work=$3
rm -rf "$work"
mkdir -p "$work/collections" "$work/definition"

ANSIBLE_COLLECTIONS_PATH="$work/collections" \
    "$bin/ansible-galaxy" collection install --force -p "$work/collections" "$tarball" >/dev/null
"$bin/ansible-builder" introspect --sanitize "$work/collections" | tee "$work/introspect.txt"
grep -Eq "requests>=2\.25\.0 +# from collection posthog\.admin" "$work/introspect.txt" || {
    echo "ee-context: introspect did not report posthog.admin's Python requirement (requests)" >&2
    exit 1
}

cp "$tarball" "$work/definition/"
cat > "$work/definition/execution-environment.yml" <<YAML
---
version: 3
images:
  base_image:
    name: ghcr.io/ansible-community/community-ee-base:latest
dependencies:
  galaxy:
    collections:
      - name: collections/$(basename "$tarball")
        type: file
additional_build_files:
  - src: $(basename "$tarball")
    dest: collections
YAML
"$bin/ansible-builder" create -f "$work/definition/execution-environment.yml" -c "$work/context" \
    --output-filename Containerfile
for path in Containerfile _build/requirements.yml "_build/collections/$(basename "$tarball")"; do
    test -s "$work/context/$path" || { echo "ee-context: the build context lacks $path" >&2; exit 1; }
done
grep -q 'ansible-galaxy collection install' "$work/context/Containerfile" || {
    echo "ee-context: the Containerfile does not install collections" >&2
    exit 1
}
echo "ee-context: build context in $work/context (build it with: ansible-builder build -f $work/definition/execution-environment.yml)"
