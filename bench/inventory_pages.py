# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""The inventory plugin against ansible-inventory's own floor, and its page size.

On an emulator of its own with 2,001 organizations (2,000 seeded, untimed), it times
``ansible-inventory --list``:

* with ``posthog.admin.organizations`` at several ``page_size`` values;
* with a *script inventory* that prints the very groups and host variables the plugin produced
  (read from a file written beforehand, no HTTP): what ansible-inventory costs by itself for this
  inventory, the floor the plugin is measured against.

The runs alternate between the configurations so that a change of machine load hits them alike;
it prints a Markdown table of medians (process wall time and requests). Usage, after
``make collection`` (or ``make bench``):

    .venv/bin/python bench/inventory_pages.py [--runs 3] [--sizes 100,500,1000,2000,5000]
"""

import argparse
import json
import os
import statistics
import stat
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

import run  # noqa: E402  (the bench's emulator, environment and process helpers)
import scenario  # noqa: E402

SCRIPT = """#!%s
import json, sys
if "--host" in sys.argv:
    print("{}")
else:
    with open(%r) as handle:
        sys.stdout.write(handle.read())
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--sizes", default="100,500,1000,2000,5000")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    work = os.path.join(run.STATE, "inventory-pages")
    os.makedirs(work, exist_ok=True)
    emu = run.Emulator()
    emu.start()
    try:
        emu.control("POST", "reset", {"api_key": emu.key})
        seeded = emu.control("POST", "seed/organizations", {"count": scenario.N_INVENTORY_ORGS, "prefix": "Inventory org"})
        expected = seeded["created"] + 1
        env = run.ansible_env(emu, os.path.join(work, "steps.json"))
        env.pop("ANSIBLE_CALLBACKS_ENABLED")
        env["ANSIBLE_INVENTORY_ENABLED"] = "script,posthog.admin.organizations"  # the bench's config has no script
        configs = {}
        for size in sizes:
            configs[size] = os.path.join(work, "pages-%d.posthog.yml" % size)
            with open(configs[size], "w") as handle:
                handle.write("plugin: posthog.admin.organizations\npage_size: %d\n" % size)
        # What the plugin produces, served by a script: ansible-inventory's own cost for it.
        listed = os.path.join(work, "listed.json")
        run.run_logged([os.path.join(run.BIN, "ansible-inventory"), "-i", configs[sizes[0]], "--list"], env,
                       os.path.join(work, "listed.log"), stdout_path=listed)
        with open(listed) as handle:
            if len(json.load(handle)["posthog_organizations"]["hosts"]) != expected:
                sys.exit("inventory_pages: the plugin listed the wrong number of hosts")
        script = os.path.join(work, "script_inventory.py")
        with open(script, "w") as handle:
            handle.write(SCRIPT % (run.PYTHON, listed))
        os.chmod(script, os.stat(script).st_mode | stat.S_IEXEC)
        ways = [("script", script)] + [("page_size %d" % size, configs[size]) for size in sizes]
        walls = dict((name, []) for name, dummy in ways)
        requests = {}
        emu.control("DELETE", "requests")
        for index in range(args.runs):
            for name, source in (ways if index % 2 == 0 else list(reversed(ways))):
                out = os.path.join(work, "out.json")
                walls[name].append(run.run_logged([os.path.join(run.BIN, "ansible-inventory"), "-i", source, "--list"],
                                                  env, os.path.join(work, "run.log"), stdout_path=out))
                with open(out) as handle:
                    if len(json.load(handle).get("posthog_organizations", {}).get("hosts", [])) != expected:
                        sys.exit("inventory_pages: %s listed the wrong number of hosts" % name)
                requests[name] = len(emu.requests_log())
    finally:
        emu.stop()
    floor = statistics.median(walls["script"])
    print("%d organizations; `ansible-inventory --list`, process wall, median of %d runs (load average %s)\n"
          % (expected, args.runs, run.loadavg()))
    print("| source | process wall | ÷ script inventory | requests |")
    print("|---|---:|---:|---:|")
    for name, dummy in ways:
        wall = statistics.median(walls[name])
        print("| %s | %.2f s | %.2f× | %d |" % (name, wall, wall / floor, requests[name]))


if __name__ == "__main__":
    main()
