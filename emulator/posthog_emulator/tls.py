"""HTTPS for the emulator: a server TLS context, and a throw-away test CA made with ``openssl``.

``posthog-emulator make-test-ca DIR`` writes, with the ``openssl`` command line tool:

``DIR/ca.pem``, ``DIR/ca.key``
    A self-signed certificate authority ("posthog-emulator test CA"). Give ``ca.pem`` to a client
    (``ca_path`` in posthog.admin, ``--cacert`` for curl, ``REQUESTS_CA_BUNDLE``) to trust the server.
``DIR/server.pem``, ``DIR/server.key``
    A server certificate signed by that CA for ``localhost``, ``127.0.0.1`` and ``::1`` (plus any
    ``--name``), for ``serve --tls-cert DIR/server.pem --tls-key DIR/server.key``.

Keys are 2048-bit RSA; certificates are valid for ``--days`` (default 30). Nothing is installed
into any trust store: a client that is not given ``ca.pem`` rejects the server, which is what a
test of certificate validation needs. Test material only; never reuse the keys.
"""

from __future__ import annotations

import ipaddress
import os
import shutil
import ssl
import subprocess
import tempfile

DEFAULT_NAMES = ("localhost", "127.0.0.1", "::1")


class TLSError(Exception):
    pass


def server_context(cert: str, key: str) -> ssl.SSLContext:
    """A server-side context for ``cert`` (PEM, may include the chain) and ``key`` (PEM)."""
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as error:
        raise TLSError(f"cannot load the TLS certificate {cert} / key {key}: {error}") from error
    return context


def _san(names) -> str:
    entries = []
    for name in names:
        try:
            ipaddress.ip_address(name)
            entries.append(f"IP:{name}")
        except ValueError:
            entries.append(f"DNS:{name}")
    return ",".join(entries)


def _openssl(*args: str, cwd: str) -> None:
    openssl = shutil.which("openssl")
    if openssl is None:
        raise TLSError("make-test-ca needs the openssl command line tool on PATH")
    result = subprocess.run([openssl, *args], cwd=cwd, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise TLSError(f"openssl {args[0]} failed: {result.stderr.strip()}")


def make_test_ca(directory: str, names=DEFAULT_NAMES, days: int = 30) -> dict:
    """Write ``ca.pem``, ``ca.key``, ``server.pem``, ``server.key`` into ``directory``; return their paths."""
    os.makedirs(directory, exist_ok=True)
    directory = os.path.abspath(directory)
    names = list(dict.fromkeys([*DEFAULT_NAMES, *names]))
    paths = {name: os.path.join(directory, name) for name in ("ca.pem", "ca.key", "server.pem", "server.key")}
    with tempfile.TemporaryDirectory(prefix="posthog-emulator-ca-") as work:
        ca_ext = os.path.join(work, "ca.ext")
        server_ext = os.path.join(work, "server.ext")
        with open(ca_ext, "w") as handle:
            handle.write(
                "basicConstraints=critical,CA:TRUE,pathlen:0\n"
                "keyUsage=critical,keyCertSign,cRLSign\n"
                "subjectKeyIdentifier=hash\n"
            )
        with open(server_ext, "w") as handle:
            handle.write(
                "basicConstraints=critical,CA:FALSE\n"
                "keyUsage=critical,digitalSignature,keyEncipherment\n"
                "extendedKeyUsage=serverAuth\n"
                f"subjectAltName={_san(names)}\n"
                "authorityKeyIdentifier=keyid\n"
                "subjectKeyIdentifier=hash\n"
            )
        _openssl("genrsa", "-out", "ca.key", "2048", cwd=work)
        _openssl("req", "-new", "-key", "ca.key", "-subj", "/CN=posthog-emulator test CA", "-out", "ca.csr", cwd=work)
        _openssl("x509", "-req", "-in", "ca.csr", "-signkey", "ca.key", "-days", str(days), "-sha256",
                 "-extfile", ca_ext, "-out", "ca.pem", cwd=work)
        _openssl("genrsa", "-out", "server.key", "2048", cwd=work)
        _openssl("req", "-new", "-key", "server.key", "-subj", f"/CN={names[0]}", "-out", "server.csr", cwd=work)
        _openssl("x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial",
                 str(int.from_bytes(os.urandom(8), "big")), "-days", str(days), "-sha256",
                 "-extfile", server_ext, "-out", "server.pem", cwd=work)
        for name, path in paths.items():
            shutil.copyfile(os.path.join(work, name), path)
            os.chmod(path, 0o600 if name.endswith(".key") else 0o644)
    return paths
