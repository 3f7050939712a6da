# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Time the posthog.admin.organizations inventory plugin in process: load ansible, then time
``InventoryManager(sources=[CONFIG])`` (plugin loading, the API pages, building the hosts).
Prints ``{"in_process_seconds": s, "hosts": n}``. Host and key come from POSTHOG_HOST and
POSTHOG_API_KEY, as for ``ansible-inventory``.

    python bench/inventory_parse.py STATE/inventory/bench.posthog.yml
"""
import json
import sys
import time

from ansible.inventory.manager import InventoryManager
from ansible.parsing.dataloader import DataLoader

try:
    from ansible.plugins.loader import init_plugin_loader
except ImportError:  # ansible-core < 2.15
    init_plugin_loader = None


def main():
    if init_plugin_loader is not None:
        init_plugin_loader()
    loader = DataLoader()
    started = time.perf_counter()
    inventory = InventoryManager(loader=loader, sources=[sys.argv[1]])
    seconds = time.perf_counter() - started
    hosts = len(inventory.get_groups_dict().get("posthog_organizations", []))
    print(json.dumps({"in_process_seconds": seconds, "hosts": hosts}))


if __name__ == "__main__":
    main()
