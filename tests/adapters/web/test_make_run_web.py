"""``make run ARGS=web`` with no REDIS_URL: the local web table on an embedded Redis,
whose printed link lets a page in as seat 0, stopped cleanly by Ctrl-C."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pytest

from adapters.web import frames
from tests.adapters.web.conftest import Page

ROOT = Path(__file__).resolve().parents[3]
UNSET = ("REDIS_URL", "TELEGRAM_TOKEN", "DISCORD_TOKEN", "WEB_SECRET", "MAKEFLAGS", "MAKELEVEL")


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
@pytest.mark.skipif((ROOT / ".env").exists(), reason="a .env file could hand the bot tokens")
async def test_make_run_web_serves_a_table_at_the_printed_link(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k not in UNSET}
    env.update(DATA_DIR=str(tmp_path / "data"), COMPUTER_DELAY="0", WEB_PORT="0")
    served = subprocess.Popen(
        ["make", "--no-print-directory", "-o", ".venv/.installed", "run", "ARGS=web"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,  # its own group, killed whole should the test fail
    )
    try:
        assert served.stdout is not None
        url = served.stdout.readline().strip()
        address = urlsplit(url)
        assert (address.scheme, address.hostname) == ("http", "127.0.0.1"), url
        ticket = parse_qs(address.query)["pass"][0]
        async with aiohttp.ClientSession() as http:
            socket = await http.ws_connect(f"http://{address.netloc}/ws")
            page = Page(socket)
            await page.send(frames.Hello(ticket=ticket))
            welcome = await page.next()
            assert isinstance(welcome, frames.Welcome) and welcome.seat == 0
            state = await page.next()
            assert isinstance(state, frames.State) and state.hand is not None
            await socket.close()
        # Ctrl-C to the bot (make's child): it stops serving and make exits with it.
        for child in children(served.pid):
            os.kill(child, signal.SIGINT)
        assert served.wait(timeout=30) == 0
    finally:
        if served.poll() is None:
            os.killpg(served.pid, signal.SIGKILL)
            served.wait()


def children(pid: int) -> list[int]:
    """The processes ``pid`` started (Linux's /proc)."""
    listed = Path(f"/proc/{pid}/task/{pid}/children").read_text(encoding="ascii")
    return [int(child) for child in listed.split()]
