"""Profile the emulator's per-request CPU: call the WSGI application in a loop, in one thread.

    python tools/profile_requests.py [--requests 2000] [--workload read|mixed] [--top 40] [--pyinstrument]

A temporary database is created, migrated and bootstrapped; the bootstrap organization gets 10
domains (the page ``bench/throughput.py`` reads). Requests go straight to Django's WSGIHandler with
a hand-made environ (no sockets, no HTTP parsing: the server's own share is measured by
``bench/throughput.py``). Prints the CPU time per request and the share of the phases the
"Fast feedback" issue names (inclusive times of the functions that own each phase).
"""

import argparse
import cProfile
import io
import json
import os
import pstats
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

KEY = "phx_" + "p" * 40

#: phase -> (file fragment, function name) pairs whose inclusive times make up the phase.
PHASES = {
    "authentication + permissions": [("rest_framework/views.py", "initial")],
    "SQL compilation (Django ORM)": [("django/db/models/sql/compiler.py", "as_sql")],
    "serializer field construction": [("rest_framework/serializers.py", "fields")],
    "SQLite (execute/fetch)": [("~", "<method 'execute' of 'sqlite3.Cursor' objects>"),
                               ("~", "<method 'fetchmany' of 'sqlite3.Cursor' objects>"),
                               ("~", "<method 'fetchone' of 'sqlite3.Cursor' objects>"),
                               ("~", "<method 'commit' of 'sqlite3.Connection' objects>")],
    "rendering (JSON)": [("rest_framework/renderers.py", "render")],
}


def environ(method, path, body=None, query=""):
    data = json.dumps(body).encode() if body is not None else b""
    return {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "QUERY_STRING": query,
        "SERVER_NAME": "127.0.0.1",
        "SERVER_PORT": "8010",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "HTTP_HOST": "127.0.0.1:8010",
        "HTTP_AUTHORIZATION": f"Bearer {KEY}",
        "CONTENT_TYPE": "application/json",
        "CONTENT_LENGTH": str(len(data)),
        "wsgi.input": io.BytesIO(data),
        "wsgi.url_scheme": "http",
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--workload", choices=("read", "mixed"), default="read")
    parser.add_argument("--top", type=int, default=0, help="also print the top N functions by own time")
    parser.add_argument("--pyinstrument", action="store_true", help="print a pyinstrument tree instead")
    parser.add_argument("--no-response-cache", action="store_true",
                        help="compute every GET (what a request costs when its page was just invalidated)")
    args = parser.parse_args()

    directory = tempfile.mkdtemp(prefix="emulator-profile-")
    os.environ["POSTHOG_EMULATOR_DB"] = os.path.join(directory, "db.sqlite3")
    os.environ["DJANGO_SETTINGS_MODULE"] = "posthog_emulator.settings"
    import django

    django.setup()
    from django.core.handlers.wsgi import WSGIHandler

    from posthog_emulator import bootstrap

    bootstrap.migrate()
    bootstrap.ensure_bootstrap(KEY)
    if args.no_response_cache:
        from posthog_emulator import responses

        responses.serve = lambda request, get_response: get_response(request)
    app = WSGIHandler()
    statuses = {}

    def call(method, path, body=None, query=""):
        holder = {}

        def start_response(status, headers, exc_info=None):
            holder["status"] = status

        result = app(environ(method, path, body, query), start_response)
        b"".join(result)
        if hasattr(result, "close"):
            result.close()
        statuses[holder["status"]] = statuses.get(holder["status"], 0) + 1

    for i in range(10):
        call("POST", "/api/organizations/@current/domains/", {"domain": f"load{i}.bench-org.example"})

    def one(count):
        kind = count % 10 if args.workload == "mixed" else 0
        if kind == 3:
            call("POST", "/api/organizations/@current/invites/",
                 {"target_email": f"load-{count}@bench-org.example", "send_email": False})
        elif kind == 7:
            call("PATCH", "/api/organizations/@current/", {"enforce_2fa": bool(count % 20 < 10)})
        else:
            call("GET", "/api/organizations/@current/domains/")

    for count in range(200):  # warm up
        one(count)
    statuses.clear()
    started = time.process_time()
    for count in range(args.requests):
        one(count)
    cpu = time.process_time() - started
    print(f"{args.workload}: {args.requests} requests, {1000 * cpu / args.requests:.2f} ms CPU per request "
          f"(no profiler), statuses {statuses}")

    if args.pyinstrument:
        from pyinstrument import Profiler

        profiler = Profiler(interval=0.0005)
        profiler.start()
        for count in range(args.requests):
            one(count)
        profiler.stop()
        print(profiler.output_text(unicode=True, color=False, show_all=False))
        return

    profile = cProfile.Profile()
    profile.enable()
    for count in range(args.requests):
        one(count)
    profile.disable()
    stats = pstats.Stats(profile)
    total = stats.total_tt
    print(f"profiled: {1000 * total / args.requests:.2f} ms per request under cProfile")
    for phase, functions in PHASES.items():
        inclusive = 0.0
        for (filename, _, name), (_, _, _, cumulative, _) in stats.stats.items():
            if any(filename.endswith(fragment) or (fragment == "~" and filename == "~")
                   for fragment, function in functions if function == name):
                inclusive += cumulative
        print(f"  {phase:32s} {100 * inclusive / total:5.1f} %")
    if args.top:
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(os.environ.get("SORT", "tottime")).print_stats(args.top)
        print(out.getvalue())


if __name__ == "__main__":
    main()
