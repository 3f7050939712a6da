"""Command line: ``posthog-emulator serve`` (also ``python -m posthog_emulator serve``).

Configures Django from the options (environment variables set before ``django.setup()``), creates
the tables, bootstraps an empty database, and serves with Django's threaded WSGI server (no
autoreload, no static files). Prints one line when ready and flushes it, so a caller can wait for
it::

    posthog-emulator listening on http://127.0.0.1:8010 (profile spec)

``--port 0`` picks a free port; the line shows the port actually bound. SIGTERM and SIGINT stop
the server cleanly (exit status 0).

``--tls-cert CERT --tls-key KEY`` serves HTTPS instead (the line then says ``https://``); the TLS
handshake runs in the connection's own thread, so a client that rejects the certificate stalls
nobody. ``posthog-emulator make-test-ca DIR`` makes a test CA and a server certificate for it (see
:mod:`posthog_emulator.tls`).

The server also carries out the fault rule ``drop_after_commit`` (:mod:`posthog_emulator.faults`):
after the view ran, it shuts the client socket down instead of sending the answer.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import signal
import socket
import ssl
import sys
import tempfile

from posthog_emulator import __version__

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8010


class _Stop(Exception):
    """Raised from the signal handler to leave ``serve_forever``."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="posthog-emulator",
        description="A local, PostHog-compatible server for PostHog's organization administration API.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True
    serve = commands.add_parser("serve", help="run the emulator", description="Run the emulator.")
    serve.add_argument("--host", default=DEFAULT_HOST, help=f"address to bind (default {DEFAULT_HOST})")
    serve.add_argument(
        "--port", type=int, default=DEFAULT_PORT, help=f"port to bind; 0 picks a free one (default {DEFAULT_PORT})"
    )
    serve.add_argument(
        "--db",
        metavar="PATH",
        help="SQLite database file, kept between runs (default: a temporary file removed on exit)",
    )
    serve.add_argument(
        "--api-key",
        metavar="KEY",
        default=os.environ.get("POSTHOG_EMULATOR_API_KEY"),
        help="raw value of the bootstrap personal API key (default: env POSTHOG_EMULATOR_API_KEY, "
        "else a generated phx_ key, printed once)",
    )
    serve.add_argument(
        "--profile",
        choices=("spec", "posthog"),
        default=os.environ.get("POSTHOG_EMULATOR_PROFILE", "spec"),
        help="response profile (default: env POSTHOG_EMULATOR_PROFILE, else spec)",
    )
    serve.add_argument(
        "--allowed-host",
        metavar="NAME",
        action="append",
        default=[],
        help="also answer requests whose Host (and control requests whose Origin) is NAME; repeatable "
        "(default: only 127.0.0.1, localhost and [::1])",
    )
    serve.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow --host to be a non-loopback address: the control API has no authentication and "
        "anyone who reaches the port can reset the database",
    )
    serve.add_argument("--quiet", action="store_true", help="do not log each request")
    serve.add_argument("--tls-cert", metavar="CERT", help="serve HTTPS with this PEM certificate (chain)")
    serve.add_argument("--tls-key", metavar="KEY", help="the PEM private key of --tls-cert")
    make_ca = commands.add_parser(
        "make-test-ca",
        help="write a test CA and a server certificate for localhost/127.0.0.1 (needs openssl)",
        description="Write DIR/ca.pem, DIR/ca.key, DIR/server.pem and DIR/server.key: a throw-away "
        "certificate authority and a server certificate it signed, for serve --tls-cert/--tls-key.",
    )
    make_ca.add_argument("directory", metavar="DIR")
    make_ca.add_argument("--name", action="append", default=[], help="another DNS name or IP for the server certificate")
    make_ca.add_argument("--days", type=int, default=30, help="validity in days (default 30)")
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if getattr(args, "profile", "spec") not in ("spec", "posthog"):  # a bad POSTHOG_EMULATOR_PROFILE
        parser.error(f"invalid profile {args.profile!r} (choose from 'spec', 'posthog')")
    if args.command == "serve":
        if bool(args.tls_cert) != bool(args.tls_key):
            parser.error("--tls-cert and --tls-key go together")
        from posthog_emulator.guard import is_loopback

        if not is_loopback(args.host) and not args.allow_remote:
            parser.error(
                f"--host {args.host} is not a loopback address: the control API (/_emulator/) has no "
                "authentication and can wipe the database; add --allow-remote to serve beyond this machine "
                "anyway (and --allowed-host NAME for each name clients will use)"
            )
        for name in args.allowed_host:
            if not name or "," in name or "/" in name or " " in name:
                parser.error(f"--allowed-host {name!r}: expected a host name or address, such as emulator.local")
        return serve(args)
    if args.command == "make-test-ca":
        return make_test_ca(args)
    return 2  # pragma: no cover - argparse already rejected anything else


def make_test_ca(args: argparse.Namespace) -> int:
    from posthog_emulator import tls

    try:
        paths = tls.make_test_ca(args.directory, names=args.name, days=args.days)
    except tls.TLSError as error:
        print(f"posthog-emulator: {error}", file=sys.stderr, flush=True)
        return 1
    for name, path in paths.items():
        print(f"{name}: {path}")
    return 0


def serve(args: argparse.Namespace) -> int:
    temp_dir = None
    if args.db:
        db_path = os.path.abspath(args.db)
    else:
        temp_dir = tempfile.mkdtemp(prefix="posthog-emulator-")
        db_path = os.path.join(temp_dir, "emulator.sqlite3")
    os.environ["POSTHOG_EMULATOR_DB"] = db_path
    os.environ["POSTHOG_EMULATOR_PROFILE"] = args.profile
    os.environ["POSTHOG_EMULATOR_ALLOWED_HOSTS"] = ",".join(
        f"[{name}]" if ":" in name and not name.startswith("[") else name for name in args.allowed_host
    )
    os.environ["DJANGO_SETTINGS_MODULE"] = "posthog_emulator.settings"
    try:
        return _run(args)
    finally:
        if temp_dir:
            shutil.rmtree(temp_dir, ignore_errors=True)


def _run(args: argparse.Namespace) -> int:
    import django

    django.setup()

    from django.core.handlers.wsgi import WSGIHandler
    from django.core.servers.basehttp import ThreadedWSGIServer, WSGIRequestHandler

    from posthog_emulator import bootstrap
    from posthog_emulator.guard import is_loopback

    bootstrap.migrate()
    raw_key, created = bootstrap.ensure_bootstrap(args.api_key)
    if created and not args.api_key:
        print(f"posthog-emulator bootstrap API key: {raw_key}", flush=True)
    elif not created and not args.api_key:
        print("posthog-emulator: existing database; its keys are stored hashed and are not shown", flush=True)

    # Import the URLconf and every view now, so the first request is as fast as the others.
    from django.urls import get_resolver

    get_resolver().url_patterns

    from posthog_emulator import faults

    quiet = args.quiet
    tls_context = None
    if args.tls_cert:
        from posthog_emulator import tls

        try:
            tls_context = tls.server_context(args.tls_cert, args.tls_key)
        except tls.TLSError as error:
            print(f"posthog-emulator: {error}", file=sys.stderr, flush=True)
            return 1

    class RequestHandler(WSGIRequestHandler):
        # Buffer what the handler writes (flushed after each write call of the WSGI handler, i.e.
        # once the body is written): the status line, headers and a small body leave in one
        # send instead of two, which saves a system call and a GIL hand-off per request.
        wbufsize = 1 << 16

        def setup(self):
            # Headers and body go out in separate writes; without TCP_NODELAY a keep-alive client
            # waits ~40 ms for a delayed ACK on every response.
            self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if tls_context is not None:
                self.request.settimeout(30)  # a client that never finishes the handshake
                self.request = tls_context.wrap_socket(self.request, server_side=True)
                self.request.settimeout(None)
            super().setup()

        def finish(self):
            try:
                super().finish()
            finally:
                if tls_context is not None:
                    with contextlib.suppress(OSError):
                        self.request.close()

        def get_environ(self):
            environ = super().get_environ()
            environ[faults.SOCKET_KEY] = self.connection
            if tls_context is not None:
                # wsgiref derives wsgi.url_scheme from HTTPS: without it every absolute link the
                # API builds (a page's ``next``, scim_base_url) would say http:// on an HTTPS port.
                environ["HTTPS"] = "on"
            return environ

        def log_message(self, format, *log_args):
            if not quiet:
                super().log_message(format, *log_args)

    class Server(ThreadedWSGIServer):
        def handle_error(self, request, client_address):
            error = sys.exc_info()[1]
            if isinstance(error, (ssl.SSLError, ConnectionError, TimeoutError)):
                if not quiet:
                    print(f"posthog-emulator: connection from {client_address[0]} failed: {error}",
                          file=sys.stderr, flush=True)
                return
            super().handle_error(request, client_address)

    try:
        httpd = Server((args.host, args.port), RequestHandler, ipv6=":" in args.host)
    except OSError as error:
        print(f"posthog-emulator: cannot listen on {args.host}:{args.port}: {error}", file=sys.stderr, flush=True)
        return 1
    httpd.daemon_threads = True
    httpd.set_app(dropping_app(WSGIHandler()))

    def stop(signum, frame):
        raise _Stop()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)

    host, port = httpd.server_address[:2]
    shown_host = f"[{host}]" if ":" in host else host
    if args.allow_remote and not is_loopback(args.host):
        print(f"posthog-emulator: WARNING: listening on {shown_host}, beyond loopback. The control API "
              "(/_emulator/) has no authentication: anyone who can reach this port can reset the database "
              "and issue API keys. Answering Host names: "
              f"{', '.join(['127.0.0.1', 'localhost', '[::1]'] + args.allowed_host)}.",
              file=sys.stderr, flush=True)
    scheme = "https" if tls_context is not None else "http"
    try:
        # Inside the try: a SIGTERM that arrives as soon as the caller read the line stops cleanly.
        print(f"posthog-emulator listening on {scheme}://{shown_host}:{port} (profile {args.profile})", flush=True)
        httpd.serve_forever()
    except _Stop:
        pass
    finally:
        httpd.server_close()
    print("posthog-emulator stopped", flush=True)
    return 0


def dropping_app(app):
    """Wrap the WSGI ``app``: when a fault rule asked for it, drop the connection instead of answering.

    The view has run (and committed) by the time ``app`` returns; the client socket is then shut
    down in both directions before a byte of the answer is written, so the client reads an empty
    reply ("connection closed" / reset). The server's later write fails quietly (wsgiref ignores
    a broken pipe) and the keep-alive loop ends because the socket reads EOF.
    """
    from posthog_emulator import faults

    def wrapped(environ, start_response):
        result = app(environ, start_response)
        if not environ.get(faults.DROP_KEY):
            return result
        close = getattr(result, "close", None)
        if close is not None:
            close()
        sock = environ.get(faults.SOCKET_KEY)
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)
        return []

    return wrapped
