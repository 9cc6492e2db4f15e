"""How long a table picture takes to draw and how large its PNG is.

Run from the repository root: ``.venv/bin/python bench/bench_pictures.py``
(``--repeat R`` to time each position R times; ``--lang xx`` for a language).

Positions: the worst ones a picture meets (the whole set in one line at a
deal's end, six players with every hand revealed, Thief of Baghdad with all
four thieves used and a fifth caravan open, each with the longest names that
get cut to fit), then the gallery's sample positions of every game. Each is
drawn once untimed, so the tiles the pictures paste are ready (a running bot
keeps them from its first picture on), then ``--repeat`` times on the clock.

Figures: ``draw`` makes the image in the palette's colours, as the bot draws a picture
it sends (:mod:`bot.picture.indexed`), ``png`` encodes it, ``total`` is both, the
whole cost of a picture to the bot; the median and the slowest of the runs, in
milliseconds of wall time (time.perf_counter), then ``cpu``, the median of the
same runs in processor time (time.process_time), which the machine's load
inflates far less, and the PNG's size. The targets are a total of at most 50 ms
and at most 150 KB on every position. On a shared machine the slowest run mostly
shows the machine's load; the medians are the figures to read. Nothing here is
asserted.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.picture import table_png
from bot.picture.indexed import indexed
from bot.picture.samples import Sample, gallery, worst
from bot.picture.stored import indexed_png
from bot.picture.table import table_blocks
from bot.views.i18n import translator

MOST_MS = 50.0
MOST_KB = 150.0


def measure(
    sample: Sample, lang: str, repeat: int
) -> tuple[list[float], list[float], list[float], int]:
    """Draw and encode wall times and the processor time of each run (ms), and
    the PNG's size in bytes."""
    _ = translator(lang)
    table, names, status, revealed = sample.table, sample.names, sample.status, sample.revealed
    size = len(table_png(_, table, names, status, revealed))  # untimed: tiles get made
    draws: list[float] = []
    encodes: list[float] = []
    cpu: list[float] = []
    for _run in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        image = indexed(table_blocks(_, table, names, status, revealed))
        drawn = time.perf_counter()
        indexed_png(image)
        done, done_cpu = time.perf_counter(), time.process_time()
        draws.append((drawn - start) * 1000)
        encodes.append((done - drawn) * 1000)
        cpu.append((done_cpu - start_cpu) * 1000)
    return draws, encodes, cpu, size


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=30, help="timed runs per position")
    parser.add_argument("--lang", default="en")
    args = parser.parse_args()
    print(f"Table pictures, {args.repeat} timed runs each, language {args.lang}.")
    print(
        f"{'position':<26} {'draw':>6} {'png':>6} {'total':>6} {'slowest':>8} {'cpu':>6}"
        f" {'size':>9}"
    )
    worst_total = 0.0
    worst_size = 0
    for sample in [*worst(), *gallery()]:
        draws, encodes, cpu, size = measure(sample, args.lang, args.repeat)
        totals = [d + e for d, e in zip(draws, encodes, strict=True)]
        median = statistics.median(totals)
        worst_total, worst_size = max(worst_total, median), max(worst_size, size)
        print(
            f"{sample.name:<26} {statistics.median(draws):6.1f} {statistics.median(encodes):6.1f}"
            f" {median:6.1f} {max(totals):8.1f} {statistics.median(cpu):6.1f}"
            f" {size / 1024:7.1f}KB"
        )
    verdict = "within" if worst_total <= MOST_MS and worst_size / 1024 <= MOST_KB else "OVER"
    print(
        f"largest median total {worst_total:.1f} ms (target {MOST_MS:.0f}), largest picture"
        f" {worst_size / 1024:.1f} KB (target {MOST_KB:.0f}): {verdict} the targets"
    )


if __name__ == "__main__":
    main()
