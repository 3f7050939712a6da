# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Put the get-pip stand-in where ansible-test caches its bootstrap script (for its pip version)."""
import os
import re
import shutil
import sys

import ansible_test

source = os.path.join(os.path.dirname(ansible_test.__file__), "_internal", "python_requirements.py")
with open(source) as handle:
    versions = set(re.findall(r"pip='([0-9.]+)'", handle.read()))
if not versions:
    sys.exit("cannot find the pip version ansible-test bootstraps in %s" % source)
standin = os.path.join(os.path.dirname(os.path.abspath(__file__)), "get_pip_standin.py")
for version in versions:
    target = os.path.expanduser("~/.ansible/test/cache/get_pip_%s.py" % version.replace(".", "_"))
    os.makedirs(os.path.dirname(target), exist_ok=True)
    shutil.copyfile(standin, target)
    print("ansible-test pip %s bootstrap: %s" % (version, target))
