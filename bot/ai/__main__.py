"""``python -m bot.ai arena VARIANT --a strong --b greedy --games N --players P``.

``arena ... --record FILE`` keeps level A's share of each game's win; ``paired
NEW OLD`` compares two such records of the same games (the same game, table,
levels, seeds and number), played by two versions of the code, game by game.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from bot.ai import DEFAULT_SECONDS, levels
from bot.ai.arena import Arena, paired
from engine import DominoError, get_variant


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.ai", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    arena = commands.add_parser("arena", help="play level A against level B and show win rates")
    arena.add_argument("variant", help="tyaga, kozel, baghdad or three_guns (or an alias)")
    arena.add_argument("--a", default="strong", choices=levels(), help="the level in one seat")
    arena.add_argument("--b", default="greedy", choices=levels(), help="the level in the others")
    arena.add_argument("--games", type=int, default=100, help="matches (or deals) to play")
    arena.add_argument("--players", type=int, help="table size (default: the game's smallest)")
    arena.add_argument("--seed", type=int, default=0, help="the first match's seed")
    arena.add_argument("--deals", action="store_true", help="count deal wins, one deal a game")
    arena.add_argument(
        "--seconds", type=float, default=DEFAULT_SECONDS, help="time allowance per decision"
    )
    arena.add_argument(
        "--worlds",
        type=int,
        help="think over this many possible worlds a decision instead of for a time",
    )
    arena.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a table option"
    )
    arena.add_argument("--record", metavar="FILE", help="write A's share of each game's win")
    pair = commands.add_parser("paired", help="compare two records of the same games")
    pair.add_argument("new", help="a record written by arena --record")
    pair.add_argument("old", help="a record of the same games by another version")
    args = parser.parse_args(argv)
    if args.command == "paired":
        return _paired(args.new, args.old)
    try:
        game = get_variant(args.variant)
    except DominoError as exc:
        parser.error(str(exc))
    options: dict[str, str | int] = {}
    for text in args.option:
        key, sep, value = text.partition("=")
        if not sep:
            parser.error(f"--option {text}: write KEY=VALUE")
        options[key] = value  # the engine reads it, as it reads a chat's (engine.options)
    players = args.players or game.min_players
    if args.games < 1:
        parser.error("--games must be at least 1")
    if args.worlds is not None and args.worlds < 1:
        parser.error("--worlds must be at least 1")
    table = Arena(
        game.name, players, args.a, args.b, options, args.deals, args.seconds, args.worlds
    )
    unit = "deals" if args.deals else "matches"
    print(f"{game.title}, {players} players, {args.games} {unit}, seed {args.seed}:")
    try:
        tallies = table.run(args.games, args.seed, report=lambda text: print(text, flush=True))
    except DominoError as exc:
        print(f"python -m bot.ai: {exc}", file=sys.stderr)
        return 2
    for tally in tallies:
        print(tally.line(players))
    if args.record:
        games = {"variant": game.name, "players": players, "a": args.a, "b": args.b}
        games |= {"seed": args.seed, "games": args.games, "deals": args.deals, "options": options}
        thought = {"seconds": args.seconds, "worlds": args.worlds}
        record = {"games": games, "thought": thought, "shares": tallies[0].shares}
        with open(args.record, "w", encoding="utf-8") as file:
            json.dump(record, file)
    return 0


def _paired(new_path: str, old_path: str) -> int:
    with open(new_path, encoding="utf-8") as file:
        new = json.load(file)
    with open(old_path, encoding="utf-8") as file:
        old = json.load(file)
    if new["games"] != old["games"]:
        print(
            f"python -m bot.ai: not the same games: {new['games']} and {old['games']}",
            file=sys.stderr,
        )
        return 2
    mean, low, high = paired(new["shares"], old["shares"])
    level, count = new["games"]["a"], len(new["shares"])
    rates = [sum(record["shares"]) / count for record in (new, old)]
    print(
        f"{level} won {rates[0]:.1%} of {count} games in {new_path} and {rates[1]:.1%} in "
        f"{old_path}: paired difference {mean * 100:+.1f} points (95% CI {low * 100:+.1f} "
        f"to {high * 100:+.1f})"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
