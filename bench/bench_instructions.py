"""Instructions a move in the event loop, counted by callgrind and held to a baseline.

Runs ``bench_moves.py`` under valgrind's callgrind, with the hash seed fixed, once with
``--moves 0`` (only opening the tables) and once whole, for each hand model, and prints
the main thread's instructions a move: (whole run - opening) / moves. Then the same for
``bench_deal_end.py`` (``--rounds 0``: only the first pictures, which ready the palette
and the tiles), and prints the instructions a deal-end picture: what a picture worker
spends on a deal's end. A machine's speed does not move these counts, so a version is
held to them rather than to seconds.

The counts are compared with ``bench/instructions_baseline.json``; a figure whose count
is more than 10% over its baseline fails the run (exit status 1), so ``make bench`` stops
there. ``--update`` writes the counts of this run as the new baseline: do that on
purpose, and say why in the commit that carries it.

Without valgrind on the machine it says so and exits 0 (Debian: ``apt-get install
valgrind``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "instructions_baseline.json"
ALLOWED_GROWTH = 1.10


@dataclass(frozen=True)
class Figure:
    """One count held to the baseline: a bench script run whole and run ``bare`` (its
    fixed work only), the difference divided by what the script says it did."""

    script: str
    extra: list[str]  # its arguments in both runs
    bare: list[str]  # the arguments that leave only its fixed work
    words: str  # the figure, in the line printed
    per: str  # what the script counts (its output's first number), one of them


FIGURES = {
    "listing": Figure("bench_moves.py", [], ["--moves", "0"], "listing hands", "move"),
    "steady": Figure("bench_moves.py", ["--steady"], ["--moves", "0"], "steady hands", "move"),
    "deal_end_picture": Figure(
        "bench_deal_end.py", [], ["--rounds", "0"], "deals' ends", "deal-end picture"
    ),
}
"""The figures by their names in the baseline: the hand models ``bench_moves.py`` plays,
and the deals' ends ``bench_deal_end.py`` draws."""


def counted(script: str, extra: list[str], workdir: Path) -> tuple[int, int]:
    """The main thread's instructions and the work done (the first number the script
    prints: moves, pictures) by one run of ``script``."""
    out = workdir / "cg.out"
    command = [
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(HERE / script),
        *extra,
    ]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        command, env=environment, capture_output=True, text=True, check=True, cwd=HERE.parent
    )
    work = int(done.stdout.split()[0])
    # Thread 01 is the main thread (bench_moves.py: the event loop; the others draw deals' ends).
    summary = re.search(r"^summary: (\d+)", Path(f"{out}-01").read_text(), re.MULTILINE)
    assert summary is not None, f"no summary in {out}-01"
    return int(summary.group(1)), work


def per_unit(figure: Figure) -> tuple[float, int]:
    """Instructions a unit of ``figure`` (a move, a picture), and the units counted."""
    with tempfile.TemporaryDirectory() as workdir:
        fixed, _ = counted(figure.script, [*figure.extra, *figure.bare], Path(workdir))
        whole, units = counted(figure.script, figure.extra, Path(workdir))
    return (whole - fixed) / units, units


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write this run as the baseline")
    options = parser.parse_args()
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: no instruction counts (apt-get install valgrind)")
        return 0
    baseline: dict[str, float] = json.loads(BASELINE.read_text()) if BASELINE.exists() else {}
    counts: dict[str, float] = {}
    failed = False
    for name, figure in FIGURES.items():
        count, units = per_unit(figure)
        counts[name] = round(count)
        line = (
            f"{figure.words}: {count / 1e6:.3f} million instructions a {figure.per}"
            f" ({units} {figure.per}s)"
        )
        if name in baseline and not options.update:
            ratio = count / baseline[name]
            line += f", {ratio:.3f}x the baseline's {baseline[name] / 1e6:.3f} million"
            if ratio > ALLOWED_GROWTH:
                line += f": more than {ALLOWED_GROWTH:.2f}x, FAILED"
                failed = True
        print(line)
    if options.update:
        BASELINE.write_text(json.dumps(counts, indent=2, sort_keys=True) + "\n")
        print(f"baseline written to {BASELINE.relative_to(HERE.parent)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
