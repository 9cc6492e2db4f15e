"""Instructions a move in the event loop, counted by callgrind and held to a baseline.

Runs ``bench_moves.py`` under valgrind's callgrind, with the hash seed fixed, once with
``--moves 0`` (only opening the tables) and once whole, for each hand model, and prints
the main thread's instructions a move: (whole run - opening) / moves. A machine's speed
does not move these counts, so a version is held to them rather than to seconds.

The counts are compared with ``bench/instructions_baseline.json``; a hand model whose count
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
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASELINE = HERE / "instructions_baseline.json"
ALLOWED_GROWTH = 1.10
MODELS = {"listing": [], "steady": ["--steady"]}
"""The hand models and the arguments of ``bench_moves.py`` that play them."""


def counted(extra: list[str], workdir: Path) -> tuple[int, int]:
    """The event loop's instructions and the moves made by one run of ``bench_moves.py``."""
    out = workdir / "cg.out"
    command = [
        "valgrind",
        "--tool=callgrind",
        "--separate-threads=yes",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(HERE / "bench_moves.py"),
        *extra,
    ]
    environment = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        command, env=environment, capture_output=True, text=True, check=True, cwd=HERE.parent
    )
    moves = int(done.stdout.split(" moves;")[0])
    # Thread 01 is the event loop; the others draw deals' ends.
    summary = re.search(r"^summary: (\d+)", Path(f"{out}-01").read_text(), re.MULTILINE)
    assert summary is not None, f"no summary in {out}-01"
    return int(summary.group(1)), moves


def per_move(extra: list[str]) -> tuple[float, int]:
    """Instructions a move in the event loop, and the moves they were counted over."""
    with tempfile.TemporaryDirectory() as workdir:
        opening, _ = counted([*extra, "--moves", "0"], Path(workdir))
        whole, moves = counted(extra, Path(workdir))
    return (whole - opening) / moves, moves


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
    for model, extra in MODELS.items():
        count, moves = per_move(extra)
        counts[model] = round(count)
        line = f"{model} hands: {count / 1e6:.3f} million instructions a move ({moves} moves)"
        if model in baseline and not options.update:
            ratio = count / baseline[model]
            line += f", {ratio:.3f}x the baseline's {baseline[model] / 1e6:.3f} million"
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
