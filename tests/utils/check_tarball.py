# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Fail on anything in the collection tarball that is not the collection (run by `make tarball`).

    python tests/utils/check_tarball.py TARBALL
        every top-level entry of TARBALL is on the allow-list below, and no build output, virtual
        environment, cache, database or test output is in it at any depth;
    python tests/utils/check_tarball.py --dirty-checkout ROOT --ansible-galaxy PATH
        copies the checkout's files (git ls-files: tracked and untracked, not ignored) to a temporary
        directory, adds what `make test` and a developer leave behind (build-x/, .venv-x/, caches,
        a demo database, an old tarball...), runs `ansible-galaxy collection build` there, as a user
        does in the checkout, and checks that tarball the same way.

Once, `ansible-galaxy collection build .` after `make test` shipped build-2.16/ and doubled the
tarball: galaxy.yml's build_ignore named build but not build-*.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile

# What a release of posthog.admin holds at its top level. Anything else fails the check: add it here
# only if it belongs in every installed copy of the collection.
ALLOWED_TOP = frozenset([
    "MANIFEST.json", "FILES.json",                  # written by ansible-galaxy
    "README.md", "CHANGELOG.rst", "LICENSE", "COPYING",
    ".ansible-lint",                                # the lint profile galaxy-importer applies
    "requirements.txt", "bindep.txt",               # read by ansible-builder (meta/execution-environment.yml)
    "changelogs", "docs", "extensions", "meta", "plugins", "roles", "tests",
])

# Never in a release, at any depth (a path component, or a file name's ending).
FORBIDDEN_PARTS = frozenset([
    "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".cache", ".ansible", ".git",
    ".tox", ".state",
])
FORBIDDEN_SUFFIXES = (".pyc", ".sqlite3", ".tar.gz", ".egg-info", ".retry")
FORBIDDEN_PATHS = ("tests/output", "tests/integration/integration_config.yml", "changelogs/.plugin-cache.yaml")

# Left behind in a checkout by make test, make demo, editors and by hand; none may reach the tarball.
DIRT = [
    "build/dist/posthog-admin-0.0.1.tar.gz",
    "build/ansible_collections/posthog/admin/README.md",
    "build-x/ansible_collections/posthog/admin/README.md",
    "build-2.16/ansible_collections/posthog/admin/README.md",
    ".venv/pyvenv.cfg",
    ".venv-x/bin/python",
    ".venv-2.21/pyvenv.cfg",
    ".venv-release/pyvenv.cfg",
    ".pytest_cache/README.md",
    "tests/unit/.pytest_cache/README.md",
    ".ruff_cache/CACHEDIR.TAG",
    ".mypy_cache/CACHEDIR.TAG",
    ".cache/pip/x",
    ".ansible/collections/x",
    "plugins/modules/__pycache__/organization.cpython-311.pyc",
    "tests/output/junit/x.xml",
    "tests/integration/integration_config.yml",
    "changelogs/.plugin-cache.yaml",
    "demo/.state/emulator.sqlite3",
    "emulator/emulator.sqlite3",
    "emulator/posthog_emulator.egg-info/PKG-INFO",
    "bench/results.md",
    "posthog-admin-0.0.1.tar.gz",
]


def problems(tarball):
    """The members of the tarball that should not be there."""
    found = []
    with tarfile.open(tarball) as archive:
        names = archive.getnames()
    for name in names:
        path = name[2:] if name.startswith("./") else name
        parts = path.split("/")
        if parts[0] not in ALLOWED_TOP:
            found.append("%s (top-level entry %r is not on the allow-list)" % (path, parts[0]))
        elif FORBIDDEN_PARTS.intersection(parts) or path.endswith(FORBIDDEN_SUFFIXES) or \
                any(path == p or path.startswith(p + "/") for p in FORBIDDEN_PATHS):
            found.append("%s (build output, cache, database or test output)" % path)
    return names, found


def check(tarball):
    names, found = problems(tarball)
    size = os.path.getsize(tarball)
    if found:
        print("check_tarball: %s (%d KB) holds what is not the collection; fix galaxy.yml's build_ignore "
              "(or, for a new part of the collection, tests/utils/check_tarball.py's ALLOWED_TOP):" % (tarball, size // 1024),
              file=sys.stderr)
        for line in sorted(set(found))[:50]:
            print("  " + line, file=sys.stderr)
        return False
    tops = sorted(set(n.split("/")[0] for n in names))
    print("check_tarball: %s: %d entries, %d KB, top level: %s" % (tarball, len(names), size // 1024, " ".join(tops)))
    return True


def checkout_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                         check=True, stdout=subprocess.PIPE).stdout
    return [f for f in out.decode().split("\0") if f and os.path.isfile(os.path.join(root, f))]


def check_dirty_checkout(root, ansible_galaxy):
    work = tempfile.mkdtemp(prefix="check-tarball-")
    try:
        src = os.path.join(work, "posthog.admin")
        for rel in checkout_files(root):
            os.makedirs(os.path.dirname(os.path.join(src, rel)), exist_ok=True)
            shutil.copy2(os.path.join(root, rel), os.path.join(src, rel))
        for rel in DIRT:
            path = os.path.join(src, rel)
            if not os.path.exists(path):
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w") as handle:
                    handle.write("left behind by a test run\n")
        out = os.path.join(work, "dist")
        env = dict(os.environ, HOME=work)
        subprocess.run([ansible_galaxy, "collection", "build", "--output-path", out, "."], cwd=src, env=env,
                       check=True, stdout=subprocess.DEVNULL)
        tarballs = [os.path.join(out, f) for f in os.listdir(out) if f.endswith(".tar.gz")]
        if len(tarballs) != 1:
            sys.exit("check_tarball: ansible-galaxy built %r" % tarballs)
        print("check_tarball: built the checkout with %d leftovers added (build-x/, .venv-x/, caches, ...)" % len(DIRT))
        return check(tarballs[0])
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tarball", nargs="?")
    parser.add_argument("--dirty-checkout", metavar="ROOT")
    parser.add_argument("--ansible-galaxy", default="ansible-galaxy")
    args = parser.parse_args()
    ok = True
    if args.tarball:
        ok = check(args.tarball) and ok
    if args.dirty_checkout:
        galaxy = args.ansible_galaxy
        if os.sep in galaxy:
            galaxy = os.path.abspath(galaxy)
        ok = check_dirty_checkout(os.path.abspath(args.dirty_checkout), galaxy) and ok
    if not (args.tarball or args.dirty_checkout):
        parser.error("give a TARBALL, --dirty-checkout ROOT, or both")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
