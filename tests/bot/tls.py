"""Certificates for Redis over TLS on loopback, made by ``openssl`` for one test run: a
certificate authority, a server certificate for 127.0.0.1 and a client certificate, all
signed by it."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode


@dataclass(frozen=True, slots=True)
class TlsFiles:
    ca: Path
    server_cert: Path
    server_key: Path
    client_cert: Path
    client_key: Path

    def server_args(self) -> list[str]:
        """redis-server's options to serve TLS with these files, clients showing a
        certificate of the same authority."""
        return [
            "--tls-cert-file", str(self.server_cert),
            "--tls-key-file", str(self.server_key),
            "--tls-ca-cert-file", str(self.ca),
        ]  # fmt: skip

    def query(self, *, client_cert: bool = True) -> str:
        """The ``rediss://`` URL's query naming the authority (and the client's
        certificate, unless not ``client_cert``)."""
        files = {"ssl_ca_certs": self.ca}
        if client_cert:
            files |= {"ssl_certfile": self.client_cert, "ssl_keyfile": self.client_key}
        return urlencode({name: str(path) for name, path in files.items()})


def _openssl(*args: str | Path) -> None:
    subprocess.run(["openssl", *map(str, args)], check=True, capture_output=True)


def _signed(folder: Path, name: str, subject: str, extensions: str, ca: Path, ca_key: Path) -> None:
    key, request, ext = folder / f"{name}.key", folder / f"{name}.csr", folder / f"{name}.ext"
    _openssl("req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", key, "-out", request, "-subj", subject)  # fmt: skip
    ext.write_text(extensions)
    _openssl("x509", "-req", "-in", request, "-CA", ca, "-CAkey", ca_key, "-CAcreateserial",
             "-days", "2", "-out", folder / f"{name}.crt", "-extfile", ext)  # fmt: skip


def make_tls_files(folder: Path) -> TlsFiles:
    ca, ca_key = folder / "ca.crt", folder / "ca.key"
    _openssl("req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
             "-nodes", "-keyout", ca_key, "-out", ca, "-days", "2",
             "-subj", "/CN=domino-bot test authority")  # fmt: skip
    _signed(folder, "server", "/CN=localhost",
            "subjectAltName=IP:127.0.0.1,DNS:localhost\n", ca, ca_key)  # fmt: skip
    _signed(folder, "client", "/CN=domino-bot", "extendedKeyUsage=clientAuth\n", ca, ca_key)
    server, client = folder / "server", folder / "client"
    return TlsFiles(
        ca,
        server.with_suffix(".crt"),
        server.with_suffix(".key"),
        client.with_suffix(".crt"),
        client.with_suffix(".key"),
    )
