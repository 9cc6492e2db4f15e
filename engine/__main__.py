"""``python -m engine replay FILE.json`` and ``python -m engine selfplay VARIANT``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from engine.errors import DominoError
from engine.replay import load_replay, report, run
from engine.selfplay import selfplay


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    replay = commands.add_parser("replay", help="apply a replay file and print the outcome")
    replay.add_argument("file", help="a replay file (JSON); - reads standard input")
    play = commands.add_parser("selfplay", help="play random games and print their speed")
    play.add_argument("variant")
    play.add_argument("--games", type=int, default=100)
    play.add_argument("--players", type=int, default=None)
    play.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if args.command == "replay":
        return replay_command(args.file)
    return selfplay_command(args.variant, args.games, args.players, args.seed)


def replay_command(path: str) -> int:
    try:
        text = sys.stdin.read() if path == "-" else _read(path)
        outcome = run(load_replay(text))
    except (OSError, UnicodeDecodeError) as exc:
        return _invalid(f"cannot read {path}: {exc}")
    except DominoError as exc:
        return _invalid(f"{path}: {exc}")
    print(json.dumps(report(outcome), ensure_ascii=False))
    return 0 if outcome.failed_at is None else 1


def selfplay_command(variant: str, games: int, players: int | None, seed: int) -> int:
    if games < 1:
        return _invalid("--games must be at least 1")
    try:
        stats = selfplay(variant, games, players, seed)
    except DominoError as exc:
        return _invalid(str(exc))
    print(stats.summary())
    return 0


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _invalid(message: str) -> int:
    print(f"error: {message}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
