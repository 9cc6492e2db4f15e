"""The same deal-end pictures drawn again and again: a fixed amount of work for comparing
two versions of the picture path by instructions rather than by seconds.

Run from the repository root: ``.venv/bin/python bench/bench_deal_end.py`` draws each of
the gallery's deals' ends (``bot.picture.samples``) once, as a worker does its first
pictures (the palette learnt, the tiles made), then ``--rounds`` more times each, in
this thread, the whole job a picture worker does for a deal's end
(``bot.picture.screens.draw_table``: the image and its PNG). It prints the pictures
drawn after the first ones and the processor time each took. ``--rounds 0`` draws only
the first ones.

Under valgrind, with the hash seed fixed, a run's count, less that of a ``--rounds 0``
run, divided by the pictures, is a version's instructions a deal-end picture
(``bench_instructions.py`` does this). Nothing here is asserted.
"""

from __future__ import annotations

import argparse
import time

from bot.picture.samples import gallery
from bot.picture.screens import TableOrder, draw_table


def orders(lang: str) -> list[TableOrder]:
    """The gallery's deals' ends, worded as the event loop words them for the worker."""
    return [
        TableOrder(lang, s.table, s.names, s.status, s.revealed)
        for s in gallery()
        if s.view.deal_over
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="times each picture is redrawn")
    parser.add_argument("--lang", default="en")
    options = parser.parse_args()
    ends = orders(options.lang)
    for order in ends:  # the first pictures: what a worker readies once
        draw_table(order)
    began = time.thread_time()
    for _round in range(options.rounds):
        for order in ends:
            draw_table(order)
    used = time.thread_time() - began
    pictures = options.rounds * len(ends)
    print(f"{pictures} pictures; {used / max(pictures, 1) * 1e3:.3f} ms a deal-end picture")


if __name__ == "__main__":
    main()
