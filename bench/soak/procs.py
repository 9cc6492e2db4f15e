"""The real servers a soak runs against: a Redis server of its own (with AOF, so a
stop loses nothing it acknowledged) and bot processes it can SIGKILL and start again.
Everything listens on loopback, on ports the system says are free."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parents[2]


def free_port(highest: int = 65535) -> int:
    """A port nobody listens on, at most ``highest`` (a cluster node also takes the port
    10,000 above its own)."""
    while True:
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port = int(sock.getsockname()[1])
        if port <= highest and (highest == 65535 or _free(port + 10_000)):
            return port


def _free(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def redis_binary() -> str:
    found = shutil.which("redis-server")
    if found is None:
        raise SystemExit("the soak needs redis-server on the PATH")
    return found


class RedisServer:
    """One redis-server with an append-only file in ``workdir``; ``stop`` is a clean
    shutdown (SIGTERM), ``start`` brings it back on the same port with the same data."""

    def __init__(self, workdir: Path, port: int | None = None, *extra: str) -> None:
        self.workdir = workdir
        self.port = port or free_port()
        self.extra = extra
        self.proc: subprocess.Popen[bytes] | None = None
        workdir.mkdir(parents=True, exist_ok=True)

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = [
            redis_binary(),
            "--port", str(self.port),
            "--bind", "127.0.0.1",
            "--dir", str(self.workdir),
            "--appendonly", "yes",
            "--appendfsync", "everysec",
            "--save", "",
            "--protected-mode", "no",
            *self.extra,
        ]  # fmt: skip
        log = open(self.workdir / "redis.log", "ab")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        self.wait_ready()

    def wait_ready(self, timeout: float = 20.0) -> None:
        client = redis.Redis(port=self.port, socket_timeout=1)
        deadline = time.monotonic() + timeout
        while True:
            try:
                client.ping()
                return
            except redis.RedisError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.05)
            finally:
                client.close()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(30)
        self.proc = None


class BotProcess:
    """``domino-bot telegram`` as its own process, with its log in ``log_path``."""

    def __init__(self, env: dict[str, str], log_path: Path, command: str = "telegram") -> None:
        self.env = {**os.environ, **env}
        self.log_path = log_path
        self.command = command
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        log = open(self.log_path, "ab")  # noqa: SIM115 - the child keeps it
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "bot", self.command],
            env=self.env,
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        self.starts += 1

    def kill(self) -> None:
        """SIGKILL: no drain, no goodbye, as when a machine dies."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(30)
        self.proc = None

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None


CLUSTER_NODE = ("--cluster-enabled", "yes", "--cluster-config-file", "nodes.conf")


class RedisCluster:
    """Three masters met with ``redis-cli --cluster create``; ``url`` names one node."""

    def __init__(self, workdir: Path) -> None:
        self.nodes = [
            RedisServer(workdir / f"node{n}", free_port(55535), *CLUSTER_NODE) for n in range(3)
        ]

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self) -> None:
        for node in self.nodes:
            node.start()
        cli = shutil.which("redis-cli")
        if cli is None:
            raise SystemExit("the scale run needs redis-cli on the PATH")
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        subprocess.run(
            [cli, "--cluster", "create", *addresses, "--cluster-yes"],
            check=True,
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        for node in self.nodes:
            client = redis.Redis(port=node.port)
            # redis-py leaves execute_command unannotated.
            while b"cluster_state:ok" not in client.execute_command("CLUSTER", "INFO"):  # type: ignore[no-untyped-call]
                if time.monotonic() > deadline:
                    raise SystemExit("the cluster never came up")
                time.sleep(0.1)
            client.close()

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
