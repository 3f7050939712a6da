# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make utils-test`: check_tarball.py (run by `make tarball`) tells a clean tarball from one that ships
build dirs, virtual environments, caches or the integration config (which holds an API key)."""
import io
import os
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import check_tarball  # noqa: E402  pylint: disable=wrong-import-position

CLEAN = ["MANIFEST.json", "FILES.json", "README.md", "plugins/modules/organization.py",
         "roles/organization_as_code/tasks/main.yml", "tests/unit/plugins/test_x.py", "docs/docsite/links.yml"]


def make_tarball(tmp_path, names):
    path = str(tmp_path / "posthog-admin-0.1.0.tar.gz")
    with tarfile.open(path, "w:gz") as archive:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = 1
            archive.addfile(info, io.BytesIO(b"x"))
    return path


def test_clean_tarball_passes(tmp_path):
    assert check_tarball.problems(make_tarball(tmp_path, CLEAN))[1] == []
    assert check_tarball.check(make_tarball(tmp_path, CLEAN))


def test_leftovers_fail(tmp_path):
    dirty = ["build-2.16/ansible_collections/posthog/admin/README.md", ".venv-x/bin/python",
             "tests/integration/integration_config.yml", "tests/output/junit/x.xml",
             "plugins/modules/__pycache__/organization.cpython-311.pyc", "tests/unit/.pytest_cache/README.md",
             "demo/.state/emulator.sqlite3"]
    found = check_tarball.problems(make_tarball(tmp_path, CLEAN + dirty))[1]
    assert len(found) == len(dirty)
    assert not check_tarball.check(make_tarball(tmp_path, CLEAN + dirty))
