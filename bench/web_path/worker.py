"""One web worker, as a chat bot's process serves the web table
(:mod:`adapters.web.host`): the core's sessions on a Redis server, the aiohttp
application on a loopback port, the chats' channels heard.

Run by the benchmarks, never by hand: ``python -m web_path.worker REDIS_URL SECRET``
with ``bench`` on ``PYTHONPATH``. It prints the port it listens on as one line of JSON,
then serves until its standard input is closed.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys

from adapters.web import moves
from adapters.web.host import hosted_table, serving
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
    settings = Settings(_env_file=None, web_public_url="http://127.0.0.1", web_secret=secret)
    sessions = Sessions(store, settings)
    table = hosted_table(settings, sessions, client, moves.drop)
    assert table is not None
    async with serving(table, "127.0.0.1", 0) as port:
        gc_tuning.freeze_startup()  # as a bot process does once started
        print(json.dumps({"port": port}), flush=True)
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, sys.stdin.read)  # until the parent closes it
    await store.close()


if __name__ == "__main__":
    more_files()
    asyncio.run(serve(sys.argv[1], sys.argv[2]))
