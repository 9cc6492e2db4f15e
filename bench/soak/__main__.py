"""``python -m bench.soak``: the kill soak (default) or the scale run (``scale``).
Not part of the tests: it runs for minutes and prints what it saw; its exit status
is 1 when anything was lost or doubled."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from bench.soak.kill import KillOptions, kill_soak


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.soak", description=__doc__)
    parser.add_argument("mode", nargs="?", choices=("kill", "scale"), default="kill")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--groups", type=int, default=10, help="groups playing at once")
    parser.add_argument("--minutes", type=float, default=None, help="the longest it may run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--turn-timeout", type=int, default=None, help="scale: seconds")
    parser.add_argument("--keep", type=Path, default=None, help="leave logs and data here")
    args = parser.parse_args(argv)
    if args.mode == "kill":
        options = KillOptions(
            games=args.games,
            groups=args.groups,
            minutes=args.minutes or 30.0,
            seed=args.seed,
            keep=args.keep,
        )
        return asyncio.run(kill_soak(options))
    from bench.soak.scale import ScaleOptions, scale_run

    scale = ScaleOptions(
        minutes=args.minutes or 10.0,
        groups=args.groups,
        keep=args.keep,
        turn_timeout=args.turn_timeout,
    )
    return asyncio.run(scale_run(scale))


if __name__ == "__main__":
    sys.exit(main())
