"""One web worker, as a host process serves the web table: the core's sessions on a
Redis server, the aiohttp application on a loopback port, the chats' channels heard.

Run by the benchmarks, never by hand: ``python -m web_path.worker REDIS_URL SECRET``
with ``bench`` on ``PYTHONPATH``. It prints the port it listens on as one line of JSON,
then serves until its standard input is closed.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys

from aiohttp import web

from adapters.web.app import WebTable, web_app
from bot.app import gc_tuning
from bot.app.config import Settings
from bot.storage.store import Store, connect
from bot.table.sessions import Sessions


def more_files() -> int:
    """Raise this process's open-files limit to the most it may have; that limit."""
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


async def serve(url: str, secret: str) -> None:
    client = connect(url)
    store = Store(client)
    await store.tell_pages()
    sessions = Sessions(store, Settings(_env_file=None))
    table = WebTable(sessions, client, secret=secret)
    runner = web.AppRunner(web_app(table), handle_signals=False, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
    await site.start()
    port = next(a[1] for a in runner.addresses if isinstance(a, tuple))
    gc_tuning.freeze_startup()  # as a bot process does once started
    print(json.dumps({"port": port}), flush=True)
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, sys.stdin.read)  # until the parent closes it
    await runner.cleanup()
    await store.close()


if __name__ == "__main__":
    more_files()
    asyncio.run(serve(sys.argv[1], sys.argv[2]))
