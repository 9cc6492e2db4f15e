"""What the terminal tells its one player about himself, in the second person.

At the terminal with one person at the keyboard, the core names him "You" and
writes its sentences about every seat the same way, for a table everyone reads:
"Won by You." and "You drew a tile", since a draw is hidden from the others.
Here the sentences about him are said to him: "You won.", "You take the deal.",
"You are the goat.", "Stolen by you with [6|0]: …" and, for his draws, the tiles he
drew, which his own hand shows him anyway ("You drew [5|2]"). A sentence is recognised
by writing it again with the core's own template, so this holds in every language.
With several people at one keyboard the screen is
shared, so nothing here applies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from bot.views.i18n import Translator

TILE = re.compile(r"\[[^\[\]|]*\|[^\[\]|]*\]")  # a tile as a sentence writes it

_GAP = "\0"  # stands in for the names while a template is taken apart
_JOIN = ", "  # how the core joins the winners' names
_GAPS = {"thief": "\0thief\0", "tiles": "\0tiles\0"}  # a caravan line's other parts
_MOST_DRAWN = 28  # a whole set: no row of draws is longer


def said_to_you(_: Translator, you: str, line: str) -> str:
    """``line`` in the second person if it announces a match or a deal ``you`` won,
    ``you`` as the goat, or a caravan ``you`` stole or recovered (``you`` as the core
    writes a name: isolated)."""
    if line == _("The deal goes to %(name)s.", name=you):
        return _("You take the deal.")
    if line == _.ngettext("The goat: %(names)s.", "The goats: %(names)s.", 1, names=you):
        return _("You are the goat.")
    stolen = _filled(_("Stolen by %(name)s with %(thief)s: %(tiles)s", name=you, **_GAPS), line)
    if stolen is not None:
        return _("Stolen by you with %(thief)s: %(tiles)s", **stolen)
    recovered = _filled(_("Recovered by %(name)s: %(tiles)s", name=you, **_GAPS), line)
    if recovered is not None:
        return _("Recovered by you: %(tiles)s", **recovered)
    before, _gap, after = _("The match is over. Won by %(names)s.", names=_GAP).partition(_GAP)
    if not (line.startswith(before) and line.endswith(after)) or len(line) <= len(before + after):
        return line
    names = line[len(before) : len(line) - len(after)].split(_JOIN)
    if you not in names:
        return line
    partners = [name for name in names if name != you]
    if partners:
        return _("The match is over. You won, with %(names)s.", names=_JOIN.join(partners))
    return _("The match is over. You won.")


def _filled(template: str, line: str) -> dict[str, str] | None:
    """What ``line`` puts where ``template`` (written with the :data:`_GAPS`) has its
    gaps, if it is that sentence."""
    pattern = re.escape(template)
    for name, gap in _GAPS.items():
        pattern = pattern.replace(re.escape(gap), f"(?P<{name}>.+)", 1)
    found = re.fullmatch(pattern, line)
    return found.groupdict() if found is not None else None


def gained_tiles(hand: Sequence[str], before: Sequence[str]) -> list[str]:
    """The tiles in the hand's lines that its lines ``before`` did not hold."""
    held = {tile for line in before for tile in TILE.findall(line)}
    return [tile for line in hand for tile in TILE.findall(line) if tile not in held]


def drawn_in_a_row(_: Translator, line: str) -> tuple[str, int] | None:
    """Who drew and how many tiles, if ``line`` is the core's sentence for one
    player's draws in a row (``Anna drew a tile``, ``Anna drew 3 tiles``)."""
    forms = [(_("%(name)s drew a tile", name=_GAP), 1)]
    forms += [
        (_.ngettext("%(name)s drew %(n)d tile", "%(name)s drew %(n)d tiles", n, name=_GAP), n)
        for n in range(2, _MOST_DRAWN + 1)
    ]
    for form, count in forms:
        before, _gap, after = form.partition(_GAP)
        if line.startswith(before) and line.endswith(after) and len(line) > len(before + after):
            return line[len(before) : len(line) - len(after)], count
    return None


def own_draws(
    _: Translator,
    you: str,
    moves: Sequence[str],
    hand: Sequence[str],
    before: Sequence[str],
    earlier: Sequence[str] = (),
) -> list[str]:
    """``moves`` with the draws named from what ``hand`` (its lines, under the heading
    that names the deal) gained since its lines ``before``, after the tiles
    ``earlier`` that the first of ``moves`` already named (it tells more draws in the
    same row); a hand of another deal gained nothing by drawing."""
    if not before or before[:1] != hand[:1]:
        return list(moves)
    return named_draws(_, you, moves, [*earlier, *gained_tiles(hand, before)])


def named_draws(_: Translator, you: str, moves: Sequence[str], drawn: Sequence[str]) -> list[str]:
    """``moves`` with the player's draws naming the tiles he drew. The hand is sorted,
    so several draws at once are told as one sentence listing them all; when the
    draws and the tiles do not tally (a deal ended in between), nothing is named."""
    found = {n: drawn_in_a_row(_, move) for n, move in enumerate(moves)}
    counts = {n: row[1] for n, row in found.items() if row is not None and row[0] == you}
    draws = sorted(counts)
    if not draws or sum(counts.values()) != len(drawn):
        return list(moves)
    told = _("You drew %(tiles)s", tiles=" ".join(drawn))
    return [told if n == draws[0] else move for n, move in enumerate(moves) if n not in draws[1:]]
