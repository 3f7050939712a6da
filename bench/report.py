# -*- coding: utf-8 -*-
# Copyright (c) 2026, posthog.admin contributors
# GNU General Public License v3.0+ (see https://www.gnu.org/licenses/gpl-3.0.txt)
"""Turn the benchmark's raw data into bench/results.md and bench/results.png.

    python bench/report.py [bench/.state/raw.json]     # re-render without re-running the bench
"""
import collections
import json
import os
import re
import statistics
import sys

BENCH = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, BENCH)

import scenario  # noqa: E402

WAY_TITLES = {
    "collection": "(a) posthog.admin modules",
    "uri": "(b) ansible.builtin.uri playbook",
    "floor": "(c) floor: Python + requests",
    "state": "(d) organization_state, one task",
}
WAY_SHORT = {"collection": "(a)", "uri": "(b)", "floor": "(c)", "state": "(d)"}
WAY_COLORS = {"collection": "#1f77b4", "uri": "#ff7f0e", "floor": "#2ca02c", "state": "#9467bd"}
STATE_TARGET_SECONDS = 1.5
WRITES = ("POST", "PATCH", "PUT", "DELETE")
PASSES = [("first", "First run (creates everything)"), ("again", "Idempotent re-run (nothing to change)")]
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def median(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def fmt_s(seconds):
    if seconds is None:
        return "n/a"
    if seconds < 1:
        return "%.3f s" % seconds
    if seconds < 10:
        return "%.2f s" % seconds
    return "%.1f s" % seconds


def fmt_ratio(value):
    if value is None:
        return "n/a"
    return "%.0f×" % value if value >= 10 else "%.1f×" % value


def req_counts(log):
    writes = sum(1 for r in log if r["method"] in WRITES)
    return len(log), writes


def fmt_req(log):
    total, writes = req_counts(log)
    return "%d (%d w)" % (total, writes)


def normalize(entry):
    path = UUID.sub("<id>", entry["path"])
    path = re.sub(r"/api/projects/\d+/", "/api/projects/<project>/", path)
    query = entry.get("query") or ""
    query = re.sub(r"(search=)[^&]*", r"\1<name>", query)
    query = re.sub(r"(offset=)\d+", r"\1<n>", query)
    return "%s %s%s" % (entry["method"], path, "?" + query if query else "")


def summarize_requests(log):
    counts = collections.Counter(normalize(e) for e in log)
    return ["%d × `%s`" % (n, line) for line, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))]


def step_data(data, way, pass_name, step):
    """(median seconds, request log of the last run, whether all runs made the same requests, n)."""
    runs = data["scenario"][way]
    seconds, counts = [], set()
    log = []
    for run in runs:
        entry = next(s for s in run[pass_name]["steps"] if s["name"] == step)
        seconds.append(entry["seconds"])
        counts.add(req_counts(entry["requests"]))
        log = entry["requests"]
    return median(seconds), log, len(counts) == 1, len(runs)


def changed_of(data, way, pass_name, step):
    return [next(s for s in run[pass_name]["steps"] if s["name"] == step)["changed"] for run in data["scenario"][way]]


def pass_wall(data, way, pass_name):
    return median([run[pass_name]["wall"] for run in data["scenario"][way]])


def pass_log(data, way, pass_name):
    run = data["scenario"][way][-1]
    return [r for s in run[pass_name]["steps"] for r in s["requests"]]


def scenario_table(data, pass_name):
    lines = [
        "| step | (a) time | (a) requests | (a) ÷ floor: time / requests | (b) time | (b) requests "
        "| (b) ÷ floor: time / requests | (c) floor time | (c) requests |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    notes = []
    for step in scenario.STEPS:
        floor_s, floor_log, same, dummy = step_data(data, "floor", pass_name, step)
        cells = ["**%s**" % scenario.STEP_TITLES[step]]
        for way in ("collection", "uri"):
            secs, log, same_way, dummy = step_data(data, way, pass_name, step)
            ratio_t = secs / floor_s if secs and floor_s else None
            ratio_r = len(log) / len(floor_log) if floor_log else None
            cells += [fmt_s(secs), fmt_req(log), "%s / %s" % (fmt_ratio(ratio_t), fmt_ratio(ratio_r))]
            if not same_way:
                notes.append("%s %s: the request count differed between runs (last run shown)." % (WAY_SHORT[way], step))
        cells += [fmt_s(floor_s), fmt_req(floor_log)]
        lines.append("| " + " | ".join(cells) + " |")
    # The whole pass, as a process (ansible-playbook start-up included).
    floor_wall = pass_wall(data, "floor", pass_name)
    cells = ["whole pass, process wall (start-up included)"]
    for way in ("collection", "uri"):
        wall = pass_wall(data, way, pass_name)
        log = pass_log(data, way, pass_name)
        cells += [fmt_s(wall), fmt_req(log), "%s / %s" % (fmt_ratio(wall / floor_wall),
                                                        fmt_ratio(len(log) / max(1, len(pass_log(data, "floor", pass_name)))))]
    cells += [fmt_s(floor_wall), fmt_req(pass_log(data, "floor", pass_name))]
    lines.append("| " + " | ".join(cells) + " |")
    return lines, notes


def inventory_rows(data):
    inv = data["inventory"]
    floor_wall = median([r["wall"] for r in inv["floor"]])
    floor_in = median([r["in_process"] for r in inv["floor"]])
    rows = []
    for way in ("collection", "uri", "floor"):
        runs = inv[way]
        if not runs:
            rows.append((way, None, None, [], 0))
            continue
        wall = median([r["wall"] for r in runs])
        in_process = median([r.get("in_process") for r in runs]) if way != "uri" else None
        rows.append((way, wall, in_process, runs[-1]["requests"], len(runs)))
    return rows, floor_wall, floor_in


def targets(data):
    out = []
    # 1. Idempotent re-run: no writes, no more requests than the floor.
    per_step = []
    all_no_writes, all_within = True, True
    for step in scenario.STEPS:
        dummy, log, dummy2, dummy3 = step_data(data, "collection", "again", step)
        dummy, floor_log, dummy2, dummy3 = step_data(data, "floor", "again", step)
        total, writes = req_counts(log)
        changed = sum(changed_of(data, "collection", "again", step))
        all_no_writes &= writes == 0 and changed == 0
        all_within &= total <= len(floor_log)
        per_step.append("%s %d vs %d" % (step.replace("_", " "), total, len(floor_log)))
    verdict = "met" if all_no_writes and all_within else ("partly met" if all_no_writes else "missed")
    out.append(("Idempotent re-run: no writes, and no more requests than the floor needs to read the state",
                verdict,
                "writes: %s (changed=%d); requests (a) vs floor per step: %s" % (
                    "none" if all_no_writes else "SOME",
                    sum(sum(changed_of(data, "collection", "again", s)) for s in scenario.STEPS), "; ".join(per_step))))
    # 2. Roster vs per-person uri.
    a_s = step_data(data, "collection", "first", "people")[0]
    b_s = step_data(data, "uri", "first", "people")[0]
    speedup = b_s / a_s if a_s else None
    out.append(("%d-person roster at least 10× faster than the per-person `uri` playbook" % scenario.N_PEOPLE,
                "met" if speedup and speedup >= 10 else "missed",
                "(b) %s / (a) %s = %s faster" % (fmt_s(b_s), fmt_s(a_s), fmt_ratio(speedup))))
    # 3. Inventory within 1.5× the floor.
    rows, floor_wall, floor_in = inventory_rows(data)
    a_row = next(r for r in rows if r[0] == "collection")
    ratio = a_row[1] / floor_wall if a_row[1] and floor_wall else None
    ratio_in = a_row[2] / floor_in if a_row[2] and floor_in else None
    out.append(("Inventory of {:,} organizations within 1.5× the floor's time".format(scenario.N_INVENTORY_ORGS),
                "met" if ratio and ratio <= 1.5 else ("met in process only" if ratio_in and ratio_in <= 1.5 else "missed"),
                "`ansible-inventory --list` %s vs floor script %s = %s (process wall); the plugin in process %s vs "
                "the floor's requests in process %s = %s" % (fmt_s(a_row[1]), fmt_s(floor_wall), fmt_ratio(ratio),
                                                             fmt_s(a_row[2]), fmt_s(floor_in), fmt_ratio(ratio_in))))
    return out


def state_rows(data):
    """Way (d), the whole pass: ``[(pass title, wall, log, floor wall, floor log, (a) wall)]``."""
    rows = []
    if not data["scenario"].get("state"):
        return rows
    for pass_name, title in PASSES:
        rows.append((title, pass_wall(data, "state", pass_name), pass_log(data, "state", pass_name),
                     pass_wall(data, "floor", pass_name), pass_log(data, "floor", pass_name),
                     pass_wall(data, "collection", pass_name)))
    return rows


def state_target(data):
    rows = state_rows(data)
    if not rows:
        return None
    first, again = rows
    same_first = len(first[2]) == len(first[4])
    met = len(again[2]) == len(again[4]) and req_counts(again[2])[1] == 0 and again[1] <= STATE_TARGET_SECONDS
    return ("`organization_state`: the idempotent re-run of the whole scenario in the floor's requests and at most "
            "%.1f s of process wall; the first run in the floor's requests" % STATE_TARGET_SECONDS,
            "met" if met and same_first else ("partly met" if met or same_first else "missed"),
            "re-run %s, %s (floor %s); first run %s, %s (floor %s)" % (
                fmt_s(again[1]), fmt_req(again[2]), fmt_req(again[4]), fmt_s(first[1]), fmt_req(first[2]),
                fmt_req(first[4])))


def state_table(data):
    lines = ["| pass | (d) process wall | (d) requests | (d) ÷ floor: time / requests | (a) process wall, six tasks "
             "| (c) floor | (c) requests |", "|---|---:|---:|---:|---:|---:|---:|"]
    for title, wall, log, floor_wall, floor_log, a_wall in state_rows(data):
        lines.append("| %s | %s | %s | %s / %s | %s | %s | %s |" % (
            title, fmt_s(wall), fmt_req(log), fmt_ratio(wall / floor_wall if wall and floor_wall else None),
            fmt_ratio(len(log) / max(1, len(floor_log))), fmt_s(a_wall), fmt_s(floor_wall), fmt_req(floor_log)))
    return lines


def extra_requests(data, pass_name):
    """Lines naming the requests (a) makes beyond the floor, per step."""
    lines = []
    for step in scenario.STEPS:
        dummy, log, dummy2, dummy3 = step_data(data, "collection", pass_name, step)
        dummy, floor_log, dummy2, dummy3 = step_data(data, "floor", pass_name, step)
        if len(log) > len(floor_log):
            lines.append("* **%s**: (a) %s — %s; floor %s — %s" % (
                scenario.STEP_TITLES[step], fmt_req(log), ", ".join(summarize_requests(log)),
                fmt_req(floor_log), ", ".join(summarize_requests(floor_log))))
    return lines


LISTED = {"domains": "domain", "batch_exports": "batch_export", "plugins": "pipeline_plugin",
          "event_definitions": "event_definition"}


def findings(data):
    """What the numbers say, in sentences (generated from the data, so they follow it)."""
    out = ["## Findings", ""]
    over, same = [], []
    for step, module in LISTED.items():
        log = step_data(data, "collection", "again", step)[1]
        floor_log = step_data(data, "floor", "again", step)[1]
        objects = len([r for r in step_data(data, "collection", "first", step)[1] if r["method"] in WRITES])
        if len(log) > len(floor_log):
            over.append("`%s` %d requests for %d objects (floor %d)" % (module, len(log), objects, len(floor_log)))
        else:
            same.append("`%s` %d for %d objects" % (module, len(log), objects))
    sentence = ("* **Idempotent re-run, requests.** No way writes anything on the re-run. The organization "
                "(1 request) and the people (`roster`: 2 requests, a list of members and a list of invites) read "
                "exactly what the floor reads.")
    if same:
        sentence += (" The list options of the per-object modules read their collection once for all their items: "
                     "%s." % "; ".join(same))
    if over:
        sentence += " More than the floor: %s." % "; ".join(over)
    out.append(sentence)
    a_again = pass_wall(data, "collection", "again")
    b_again = pass_wall(data, "uri", "again")
    c_again = pass_wall(data, "floor", "again")
    if a_again and b_again and c_again:
        tasks = len(scenario.STEPS)
        out.append("* **Idempotent re-run, time.** (a) %s, (b) %s, the floor %s (whole pass, process start-up "
                   "included). (a) runs one module process per task (%d tasks, one per step), each reading the "
                   "state and comparing every setting the task gives; (b) runs a `uri` request per collection and "
                   "then decides item by item in the controller with `when`, skipping every item; the floor is one "
                   "Python process." % (fmt_s(a_again), fmt_s(b_again), fmt_s(c_again), tasks))
    a_people = step_data(data, "collection", "first", "people")[0]
    b_people = step_data(data, "uri", "first", "people")[0]
    c_people = step_data(data, "floor", "first", "people")[0]
    if a_people and b_people:
        out.append("* **People.** `roster` invites %d people in %s with the floor's %d requests (two lists, then "
                   "bulk invites of 20); the per-person `uri` playbook needs %s and %d requests. The floor itself "
                   "takes %s." % (scenario.N_PEOPLE, fmt_s(a_people),
                                  len(step_data(data, "floor", "first", "people")[1]), fmt_s(b_people),
                                  len(step_data(data, "uri", "first", "people")[1]), fmt_s(c_people)))
    rows, floor_wall, floor_in = inventory_rows(data)
    a_row = rows[0]
    if a_row[1] and floor_wall:
        out.append("* **Inventory.** The plugin makes the floor's requests (%d pages of 500) and nothing else. "
                   "`ansible-inventory --list` takes %s of process time against the floor script's %s; most of "
                   "the difference is `ansible-inventory` itself (start-up, and turning every host's variables "
                   "into its `--list` output), not the requests (see the breakdown below). Inside the process, too, "
                   "most of what the plugin adds to the floor's requests is ansible-core's (its plugin loading, and "
                   "checking every variable a plugin sets); bench/README.md has a profile."
                   % (len(a_row[3]), fmt_s(a_row[1]), fmt_s(floor_wall)))
    out.append("")
    return out


def write_markdown(data, path):
    env = data["environment"]
    md = ["# Benchmark: posthog.admin vs an `ansible.builtin.uri` playbook vs the floor", ""]
    md.append("Generated by `make bench` (bench/run.py) on %s. %d run(s) per way, median shown (the "
              "uri inventory: %d run(s)); each run starts from a freshly reset emulator. Total: %.0f s." % (
                  env["date"], env["runs"], env["uri_inventory_runs"], env.get("total_seconds", 0)))
    md.append("")
    md.append("Machine: %s CPU(s) %s, Python %s, ansible-core %s; 1-minute load average %s before, %s after "
              "(a shared machine: absolute times move with its load, ratios much less)." % (
                  env["cpus"], ("(" + env["cpu_model"] + ")") if env.get("cpu_model") else "", env["python"],
                  env["ansible_core"], "%.1f" % env["load_before"] if env.get("load_before") is not None else "?",
                  "%.1f" % env["load_after"] if env.get("load_after") is not None else "?"))
    md.append("")
    md.append("Ways: **(a)** the collection's modules in a playbook (bench/playbooks/collection.yml: one task "
              "per resource kind: the list option of each state module (`domains:`, `batch_exports:`, `plugins:`, "
              "`event_definitions:`), `roster` for the people); "
              "**(b)** the playbook an ops team would write with `ansible.builtin.uri` (bench/playbooks/uri.yml: "
              "list each collection once, then one request per missing or different item, `loop` + `when`); "
              "**(c)** the floor, a plain Python script with `requests.Session` making the minimum calls "
              "(bench/floor.py: the reads needed to decide, then the writes; bulk invites, 20 a request).")
    md.append("")
    md.append("Times: per step, the wall time of that step (for (a) and (b) the span of its play, measured by "
              "bench/callback_plugins/bench_steps.py; for (c) in the script), excluding process start-up, which "
              "the *whole pass* row includes. Requests: what the emulator logged for the step, `N (W w)` = N "
              "requests of which W writes (last run; identical in every run unless noted). Ratios: the way ÷ the floor.")
    md.append("")
    md.append("## Targets")
    md.append("")
    md.append("| target | result | numbers |")
    md.append("|---|---|---|")
    for name, verdict, numbers in targets(data) + [t for t in [state_target(data)] if t]:
        md.append("| %s | **%s** | %s |" % (name, verdict, numbers))
    md.append("")
    if state_rows(data):
        md.append("## (d) The whole scenario in one task: `organization_state`")
        md.append("")
        md.append("bench/playbooks/state.yml: one play, one task, the scenario as one document (settings, %d "
                  "domains, %d people, %d exports, %d plugins, %d event definitions). Process wall includes "
                  "`ansible-playbook` start-up, as the whole-pass rows below." % (
                      scenario.N_DOMAINS, scenario.N_PEOPLE, scenario.N_EXPORTS, scenario.N_PLUGINS,
                      scenario.N_EVENTS))
        md.append("")
        md.extend(state_table(data))
        md.append("")
    md.extend(findings(data))
    for pass_name, title in PASSES:
        md.append("## %s" % title)
        md.append("")
        lines, notes = scenario_table(data, pass_name)
        md.extend(lines)
        md.append("")
        for note in notes:
            md.append("* " + note)
        extra = extra_requests(data, pass_name)
        if extra:
            md.append("Requests (a) makes beyond the floor:")
            md.append("")
            md.extend(extra)
        changed = {}
        ways = [w for w in WAY_TITLES if data["scenario"].get(w)]
        for way in ways:
            per_run = [sum(st["changed"] for st in run[pass_name]["steps"]) for run in data["scenario"][way]]
            changed[way] = median(per_run)
        md.append("")
        md.append("Changed results per pass (median; a loop item or a task counts once, so (a)'s `roster` counts 1 "
                  "for all its invites, and (d)'s one task counts 1): "
                  + ", ".join("%s %g" % (WAY_SHORT[w], changed[w]) for w in ways) + ".")
        md.append("")
    md.append("## Inventory of {:,} organizations".format(scenario.N_INVENTORY_ORGS))
    md.append("")
    rows, floor_wall, floor_in = inventory_rows(data)
    md.append("%d organizations ({:,} seeded through `POST /_emulator/seed/organizations`, untimed, plus the "
              "bootstrap one), all visible to the key. Process wall time of the whole command; *in process* is the "
              "plugin's parse alone (`InventoryManager(sources=...)` in bench/inventory_parse.py, plugin loading "
              "included) against the floor's paging alone.".format(scenario.N_INVENTORY_ORGS) % data["inventory"]["hosts"])
    md.append("")
    md.append("| way | command | process wall | ÷ floor | in process | ÷ floor | requests | runs |")
    md.append("|---|---|---:|---:|---:|---:|---:|---:|")
    commands = {"collection": "`ansible-inventory -i bench.posthog.yml --list`",
                "uri": "`ansible-playbook inventory_uri.yml` (uri + add_host)",
                "floor": "`python floor.py inventory` (pages of 500)"}
    for way, wall, in_process, log, n in rows:
        md.append("| %s | %s | %s | %s | %s | %s | %s | %d |" % (
            WAY_SHORT[way], commands[way], fmt_s(wall), fmt_ratio(wall / floor_wall) if wall else "n/a",
            fmt_s(in_process) if in_process else "—", fmt_ratio(in_process / floor_in) if in_process else "—",
            "%d (%s)" % (len(log), ", ".join(summarize_requests(log))) if log else "n/a", n))
    baseline = median([r.get("startup_baseline") for r in data["inventory"]["collection"]])
    a_wall, a_in = rows[0][1], rows[0][2]
    if baseline and a_wall and a_in:
        md.append("")
        md.append("Where (a)'s %s go: %s is `ansible-inventory`'s own start-up and output with a one-host inventory "
                  "(`ansible-inventory -i localhost, --list`); %s is the plugin in process (its loading, the %d "
                  "requests, building the hosts); the remaining %s is `ansible-inventory` turning %d hosts into its "
                  "`--list` JSON (host variables per host, serialisation). The floor's process: %s, of which %s "
                  "are its requests." % (fmt_s(a_wall), fmt_s(baseline), fmt_s(a_in), len(rows[0][3]),
                                         fmt_s(max(0.0, a_wall - baseline - a_in)), data["inventory"]["hosts"],
                                         fmt_s(floor_wall), fmt_s(floor_in)))
    md.append("")
    md.append("## The emulator under load")
    md.append("")
    md.append("8 client threads, each with its own keep-alive `requests.Session`, on loopback, %g s per workload, "
              "on a freshly reset emulator (bench/throughput.py). *read*: `GET /api/organizations/@current/domains/` "
              "(10 domains); *mixed*: 80 %% that list, 10 %% `POST …/invites/`, 10 %% `PATCH /api/organizations/@current/`. "
              "The clients share the machine's cores with the server, as a test suite on the same machine does; "
              "reads run side by side, writes one at a time (SQLite in WAL mode)." % env["throughput_seconds"])
    md.append("")
    md.append("| workload | requests | errors | requests/s | p50 | p99 |")
    md.append("|---|---:|---:|---:|---:|---:|")
    for row in data["throughput"]:
        md.append("| %s | %d | %d | %.1f | %.1f ms | %.1f ms |" % (row["workload"], row["requests"], row["errors"],
                                                                  row["rps"], row["p50_ms"], row["p99_ms"]))
    startup = data.get("startup")
    if startup:
        md.append("")
        md.append("Start-up, from `python -m posthog_emulator serve` on a fresh database to its \"listening\" line "
                  "(migrations and the bootstrap included): median %s over %d runs, slowest %s."
                  % (fmt_s(startup["median_s"]), startup["runs"], fmt_s(startup["max_s"])))
    for kept in kept_sections(path):  # measured by hand: throughput.py --compare, inventory_pages.py
        md.append("")
        md.append(kept)
    md.append("")
    md.append("![median time per step and way](results.png)")
    md.append("")
    with open(path, "w") as handle:
        handle.write("\n".join(md))


KEEP = re.compile(r"<!-- keep:(?P<name>[\w-]+):begin -->.*?<!-- keep:(?P=name):end -->", re.S)


def kept_sections(path):
    """The blocks between ``<!-- keep:NAME:begin -->`` and ``<!-- keep:NAME:end -->`` in the
    results.md being replaced, markers included: figures measured by hand (``throughput.py
    --compare``, ``inventory_pages.py``), which a re-render must not lose."""
    try:
        with open(path) as handle:
            text = handle.read()
    except OSError:
        return []
    return [found.group(0) for found in KEEP.finditer(text)]


def write_chart(data, path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    fig, axes = plt.subplots(1, 3, figsize=(17, 6.6), sharey=True, gridspec_kw={"width_ratios": [7, 7, 1.8]})
    seconds_label = FuncFormatter(lambda v, pos: ("%g s" % v))
    ways = ["collection", "uri", "floor"]
    width = 0.27
    for ax, (pass_name, title) in zip(axes[:2], PASSES):
        labels = [scenario.STEP_TITLES[s].replace(" (settings)", "\nsettings").replace(" ", "\n", 1)
                  if s != "organization" else "organization\nsettings" for s in scenario.STEPS]
        labels.append("whole pass\n(process,\nstart-up incl.)")
        for offset, way in enumerate(ways):
            values = [step_data(data, way, pass_name, s)[0] for s in scenario.STEPS] + [pass_wall(data, way, pass_name)]
            xs = [i + (offset - 1) * width for i in range(len(labels))]
            bars = ax.bar(xs, values, width, label=WAY_TITLES[way], color=WAY_COLORS[way])
            for bar, value in zip(bars, values):
                ax.annotate(("%.2f" % value) if value < 10 else ("%.0f" % value), (bar.get_x() + bar.get_width() / 2, value),
                            ha="center", va="bottom", fontsize=7, xytext=(0, 1), textcoords="offset points")
        ax.set_xticks(range(len(labels)))
        ax.set_xticklabels(labels, fontsize=8.5)
        ax.set_title(title, fontsize=11)
        ax.grid(axis="y", which="major", alpha=0.3)
    axes[0].set_ylabel("median wall time (log scale)")
    ax = axes[2]
    rows, dummy, dummy2 = inventory_rows(data)
    for offset, (way, wall, dummy3, dummy4, dummy5) in enumerate(rows):
        if wall is None:
            continue
        bar = ax.bar([offset], [wall], 0.8, color=WAY_COLORS[way])[0]
        ax.annotate("%.1f" % wall, (bar.get_x() + bar.get_width() / 2, wall), ha="center", va="bottom", fontsize=7,
                    xytext=(0, 1), textcoords="offset points")
    ax.set_yscale("log")
    ax.yaxis.set_major_locator(LogLocator(base=10))
    ax.yaxis.set_major_formatter(seconds_label)
    ax.yaxis.set_minor_formatter(NullFormatter())
    ax.set_xticks(range(3))
    ax.set_xticklabels(["(a)", "(b)", "(c)"], fontsize=8.5)
    ax.set_title("Inventory,\n{:,} orgs".format(scenario.N_INVENTORY_ORGS), fontsize=11)
    ax.grid(axis="y", which="major", alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=3, frameon=False, fontsize=10)
    runs = data["environment"]["runs"]
    fig.suptitle("posthog.admin benchmark: median wall time per step (lower is better; %d run%s per way, emulator on loopback)"
                 % (runs, "" if runs == 1 else "s"), fontsize=12)
    fig.tight_layout(rect=(0, 0.06, 1, 0.95))
    fig.savefig(path, dpi=110)
    plt.close(fig)


def write(data, md_path, png_path):
    write_markdown(data, md_path)
    write_chart(data, png_path)


def main():
    raw = sys.argv[1] if len(sys.argv) > 1 else os.path.join(BENCH, ".state", "raw.json")
    with open(raw) as handle:
        data = json.load(handle)
    write(data, os.path.join(BENCH, "results.md"), os.path.join(BENCH, "results.png"))
    print("wrote bench/results.md and bench/results.png from %s" % raw)


if __name__ == "__main__":
    main()
