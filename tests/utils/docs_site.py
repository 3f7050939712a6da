# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""`make docs`: build the HTML docs site of the collection with antsibull-docs and Sphinx, offline.

Usage: docs_site.py <collections dir> <destination dir>   (run with the docs venv's python; its bin
directory must be on PATH, antsibull-docs calls `ansible-doc` from there)

antsibull-docs renders every plugin, module and role the installed collection has (found through
ANSIBLE_COLLECTIONS_PATH) plus the guides of docs/docsite/, and Sphinx turns them into HTML with
warnings as errors. Plugin pages link to a few pages of the Ansible documentation; with no network
to fetch its Sphinx inventory, a small one naming exactly those targets is written here, so the links
still point at docs.ansible.com and any other unresolved reference fails the build.
"""
import os
import shutil
import subprocess
import sys
import zlib

ANSIBLE_DOCS = "https://docs.ansible.com/projects/ansible/devel/"
CONFIG_PAGE = "reference_appendices/config.html"
# (name, domain:role, uri, display name) of the Ansible documentation targets the generated pages use.
ANSIBLE_TARGETS = [
    ("common_return_values", "std:label", "reference_appendices/common_return_values.html#common-return-values",
     "Return Values"),
    ("ansible_configuration_settings", "std:label", CONFIG_PAGE + "#ansible-configuration-settings",
     "Ansible Configuration Settings"),
    # the `action` attribute of a module with an action plugin (organization_state)
    ("action_plugins", "std:label", "plugins/action.html#action-plugins", "Action plugins"),
]
# Environment variables of ansible-core's configuration (inventory cache, ...), linked the same way.
ANSIBLE_ENVVARS = [
    "ANSIBLE_CACHE_PLUGIN", "ANSIBLE_CACHE_PLUGIN_CONNECTION", "ANSIBLE_CACHE_PLUGIN_PREFIX",
    "ANSIBLE_CACHE_PLUGIN_TIMEOUT", "ANSIBLE_INVENTORY_CACHE", "ANSIBLE_INVENTORY_CACHE_PLUGIN",
    "ANSIBLE_INVENTORY_CACHE_CONNECTION", "ANSIBLE_INVENTORY_CACHE_PLUGIN_PREFIX",
    "ANSIBLE_INVENTORY_CACHE_TIMEOUT", "ANSIBLE_INVENTORY_USE_EXTRA_VARS",
]


def write_inventory(path):
    """A Sphinx objects.inv (version 2) for the Ansible documentation targets above."""
    lines = ["%s %s -1 %s %s" % target for target in ANSIBLE_TARGETS]
    lines += ["%s std:envvar -1 %s#envvar-%s -" % (name, CONFIG_PAGE, name) for name in ANSIBLE_ENVVARS]
    header = "# Sphinx inventory version 2\n# Project: Ansible\n# Version: devel\n" \
             "# The remainder of this file is compressed using zlib.\n"
    with open(path, "wb") as handle:
        handle.write(header.encode("utf-8"))
        handle.write(zlib.compress(("\n".join(lines) + "\n").encode("utf-8")))


def run(cmd, cwd=None):
    print("+ " + " ".join(cmd), flush=True)
    if subprocess.run(cmd, cwd=cwd, check=False).returncode:
        sys.exit("docs: %s failed (see above)" % cmd[0 if cmd[0] != "bash" else 1])


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    collections, dest = (os.path.abspath(arg) for arg in sys.argv[1:])
    os.environ["ANSIBLE_COLLECTIONS_PATH"] = collections
    os.environ["ANSIBLE_COLLECTIONS_SCAN_SYS_PATH"] = "false"
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest, mode=0o700)  # antsibull-docs insists on a directory only its owner can write
    os.chmod(dest, 0o700)
    run(["antsibull-docs", "sphinx-init", "--use-current", "--squash-hierarchy", "--fail-on-error",
         "--dest-dir", dest, "--project", "posthog.admin", "--title", "posthog.admin",
         "--copyright", "2026, posthog.admin contributors", "posthog.admin"])
    inventory = os.path.join(dest, "ansible_devel.inv")
    write_inventory(inventory)
    with open(os.path.join(dest, "conf.py"), "a") as conf:
        conf.write("\n# Offline build (tests/utils/docs_site.py): only the Ansible targets the pages use.\n")
        conf.write("intersphinx_mapping = {'ansible_devel': (%r, %r)}\n" % (ANSIBLE_DOCS, inventory))
    run(["bash", os.path.join(dest, "build.sh")], cwd=dest)  # antsibull-docs collection, then sphinx-build -W
    index = os.path.join(dest, "build", "html", "index.html")
    if not os.path.exists(index):
        sys.exit("docs: %s was not built" % index)
    print("docs: open file://%s" % index)


if __name__ == "__main__":
    main()
