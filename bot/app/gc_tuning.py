"""The garbage collector of a long-running bot process.

CPython's collector looks at the young container objects after every 700 new ones, and
now and then at every object the process holds. Most of a bot's objects are made at
start-up (modules, message catalogs, fonts) and live as long as it does; most made later
are short-lived and freed by their reference counts, without the collector. So once
started, the process moves what start-up made out of the collector's sight and lets
young objects pile up longer before a look: the collector took about 8% of the CPU of a
press, and its longest pause was twice as long, before (``bench/bench_core.py``).
"""

from __future__ import annotations

import gc
from typing import Final

YOUNG: Final = 20_000
"""New container objects between two collections of the youngest generation."""


def freeze_startup() -> None:
    """Call once start-up is done: collect, then keep every object left out of all later
    collections, and collect the young less often."""
    gc.collect()
    gc.freeze()
    _young, older, oldest = gc.get_threshold()
    gc.set_threshold(YOUNG, older, oldest)
