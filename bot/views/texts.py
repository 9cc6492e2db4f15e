"""Words the core shows about the game: tiles, moves, engine errors, option help.

Engine errors carry a code, a reason and parameters besides their English
text; this module turns them into the player's language. An error this module
does not know still gets a translated sentence, never the engine's English.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final, Literal

from bot.model.parts import Laid
from bot.views.i18n import N_, Translator
from engine import (
    BadMoveText,
    BadOption,
    DominoError,
    GameOver,
    IllegalMove,
    Kind,
    Move,
    Tile,
    Unit,
    UnknownVariant,
    get_variant,
)
from engine.options import ascii_number
from engine.tiles import BY_INDEX


def tile_text(tile: Tile | str) -> str:
    """``[6|4]``: how a tile is written on every screen."""
    if isinstance(tile, str):
        try:
            parsed = Tile.parse(tile)
        except DominoError:
            return tile
        return _TILE_TEXTS[parsed.index]
    return _TILE_TEXTS[tile.index]


_TILE_TEXTS: Final = tuple(f"[{tile.hi}|{tile.lo}]" for tile in BY_INDEX)
"""Each tile as :func:`tile_text` writes it, by its index: written once, as every hand
and table drawn writes a few dozen."""


def placed_text(placed: Laid) -> str:
    """A tile on the line, as seen from L to R; ``×`` marks a tile laid across."""
    return f"[{placed.left}|{placed.right}]{'×' if placed.across else ''}"


def tiles_text(tiles: tuple[Tile, ...] | list[Tile]) -> str:
    return " ".join(tile_text(t) for t in tiles)


def move_label(_: Translator, move: Move) -> str:
    """A short button label for a move."""
    kind, tile = move.kind, move.tile
    if kind is Kind.DRAW:
        return _("Draw")
    if kind is Kind.PASS:
        return _("Pass")
    if kind is Kind.DONE:
        return _("End turn")
    assert tile is not None
    if kind is Kind.STEAL:
        return _("Steal with %(tile)s", tile=tile_text(tile))
    assert kind is Kind.PLAY or move.second is not None
    if kind is Kind.RECOVER:
        assert move.second is not None
        return _("Recover: %(a)s %(b)s", a=tile_text(tile), b=tile_text(move.second))
    if kind is Kind.DOUBLE:
        assert move.second is not None
        return f"◀ {tile_text(tile)} + {tile_text(move.second)} ▶"
    text = tile_text(tile) + ("×" if move.across else "")
    if move.end == "L":
        return f"◀ {text}"
    if move.end == "R":
        return f"{text} ▶"
    return text


def move_sentence(_: Translator, name: str, move: Move) -> str:
    """A whole sentence for the table's history: ``Anna played [6|4] on the right``.

    Each kind of move has its own template with the player's name in it, so a
    translation may put the name and the verb wherever its grammar wants them.
    """
    kind, tile = move.kind, move.tile
    if kind is Kind.DRAW:
        return _("%(name)s drew a tile", name=name)
    if kind is Kind.PASS:
        return _("%(name)s passed", name=name)
    if kind is Kind.DONE:
        return _("%(name)s ended the turn", name=name)
    assert tile is not None
    shown = tile_text(tile)
    if kind is Kind.STEAL:
        return _("%(name)s stole the caravan with %(tile)s", name=name, tile=shown)
    if kind is Kind.RECOVER or kind is Kind.DOUBLE:
        assert move.second is not None
        second = tile_text(move.second)
        if kind is Kind.RECOVER:
            return _(
                "%(name)s recovered a caravan with %(a)s and %(b)s", name=name, a=shown, b=second
            )
        return _(
            "%(name)s played %(a)s on the left and %(b)s on the right", name=name, a=shown, b=second
        )
    if move.end is None:
        return _("%(name)s led with %(tile)s", name=name, tile=shown)
    if move.across:
        if move.end == "L":
            return _("%(name)s laid %(tile)s across on the left", name=name, tile=shown)
        return _("%(name)s laid %(tile)s across on the right", name=name, tile=shown)
    if move.end == "L":
        return _("%(name)s played %(tile)s on the left", name=name, tile=shown)
    return _("%(name)s played %(tile)s on the right", name=name, tile=shown)


# -- engine errors -------------------------------------------------------------------

_REASONS: Final[Mapping[str, str]] = {
    "does_not_fit": N_("%(tile)s doesn't fit"),
    "not_in_hand": N_("%(tile)s is not in your hand"),
    "must_play": N_("You hold a tile that fits: play it"),
    "must_draw": N_("The boneyard still has tiles: draw"),
    "boneyard_empty": N_("The boneyard is empty"),
    "no_draw": N_("There is no drawing in this game"),
    "forced_lead": N_("This deal opens with %(tile)s"),
    "only_drawn_tile": N_("After a draw you may play only the tile you drew"),
    "ambiguous": N_("%(tile)s fits both ends: choose one"),
    "no_end": N_("%(tile)s fits both ends: choose one"),
    "not_your_turn": N_("It is not your turn"),
    "double_move_off": N_("The double move is off in this game"),
    "no_steal": N_("The caravan's ends do not call for %(tile)s"),
    "no_recover": N_("There is no caravan those handcuffs can recover"),
    "not_thief": N_("%(tile)s is not a thief"),
    "not_handcuffs": N_("Those tiles are not a pair of handcuffs"),
    "camel_played": N_("Your camel is down: steal, recover or end the turn"),
    "extra_not_now": N_("A thief or handcuffs go only right after your own camel"),
    "nothing_to_end": N_("There is nothing to end yet: play, draw or pass"),
}


def error_text(_: Translator, error: DominoError) -> str:
    """The player's-language sentence for an engine error."""
    params = {k: tile_text(str(v)) if k == "tile" else v for k, v in error.params.items()}
    if isinstance(error, GameOver):
        return _("The match is over") if params.get("what") == "match" else _("This deal is over")
    if isinstance(error, IllegalMove):
        template = _REASONS.get(error.reason)
        if template is not None and _fills(template, params):
            return _(template, **params)
        return _("That move is not allowed now")
    if isinstance(error, BadOption):
        return option_error(_, params)
    if isinstance(error, UnknownVariant):
        return _("There is no game called %(name)s. Games: %(known)s", **params)
    if isinstance(error, BadMoveText):
        return _("That is not a move")
    return _("That is not allowed")


def _fills(template: str, params: Mapping[str, object]) -> bool:
    names = [part.split(")")[0] for part in template.split("%(")[1:]]
    return all(name in params for name in names)


def option_error(_: Translator, params: Mapping[str, object]) -> str:
    option = params.get("option")
    variant = str(params.get("variant", ""))
    if option == "players":
        span = players_span(_, variant)
        if "known" in params:  # players=N typed as if it were an option
            return _(
                "The players are whoever sits down: %(game)s is played by %(span)s players.",
                game=variant_title(_, variant),
                span=span,
            )
        return _(
            "%(game)s is played by %(span)s players, not %(value)s.",
            game=variant_title(_, variant),
            span=span,
            value=params.get("value"),
        )
    if option == "match":
        return _(
            "match=%(value)s does not work: write deals:N with an even N (deals:6) "
            "or target:N with the points to reach (target:100).",
            value=params.get("value"),
        )
    if option == "no_double":  # said in words: a lobby's settings button may meet it too
        return _(
            "When nobody holds a double, the highest [x|0] can lead only if the highest "
            "double is to lead the deal."
        )
    if "known" in params:
        return _(
            "There is no option %(option)s. Options: %(known)s",
            option=option,
            known=params["known"],
        )
    if "choices" in params:
        return _("%(option)s must be one of: %(choices)s", option=option, choices=params["choices"])
    if params.get("whole_number"):
        return _("%(option)s must be a whole number", option=option)
    if "low" in params and "high" in params:
        return _(
            "%(option)s must be from %(low)s to %(high)s",
            option=option,
            low=params["low"],
            high=params["high"],
        )
    if "players" in params:
        return _(
            "%(option)s=%(value)s does not work with %(players)s players",
            option=option,
            value=params.get("value"),
            players=params["players"],
        )
    return _(
        "%(option)s=%(value)s does not go with the other options",
        option=option,
        value=params.get("value"),
    )


# -- options, levels and units -----------------------------------------------------

OPTION_HELP: Final[Mapping[str, str]] = {
    "hand_size": N_("tiles dealt to each player"),
    "opening": N_("who leads: any tile, the highest double, or the 6-6"),
    "no_double": N_("when the highest double must lead and nobody holds a double"),
    "target": N_("points that end the match"),
    "double_move": N_("two doubles on both ends in one move"),
    "blank_double": N_("when a 0-0 left in hand counts 25"),
    "teams": N_("partners sit opposite and share a score (4 players)"),
    "match": N_("deals:N (an even number of deals) or target:N (points)"),
}

# How the lobby and its settings buttons name each option, before its value.
OPTION_LABELS: Final[Mapping[str, str]] = {
    "hand_size": N_("Tiles dealt to each player"),
    "opening": N_("First tile"),
    "no_double": N_("If nobody holds a double"),
    "target": N_("Points that end the match"),
    "double_move": N_("Two doubles in one move"),
    "blank_double": N_("A double blank left in hand counts 25"),
    "teams": N_("Teams of partners sitting opposite"),
    "match": N_("Match length"),
}

# The named choices of the options, in words (``on`` and ``off`` are said as for settings).
OPTION_VALUES: Final[Mapping[str, str]] = {
    "any": N_("any tile"),
    "highest_double": N_("the highest double"),
    "double_six": N_("the [6|6]"),
    "reshuffle": N_("deal again"),
    "blank": N_("the highest [x|0] leads"),
    "always": N_("always"),
    "alone": N_("only as the last tile"),
    "on": N_("on"),
    "off": N_("off"),
}

LEVEL_NAMES: Final[Mapping[str, str]] = {
    "random": N_("random"),
    "greedy": N_("greedy"),
    "strong": N_("strong"),
}


def option_help(_: Translator, name: str) -> str:
    template = OPTION_HELP.get(name)
    return _(template) if template is not None else name


def option_label(_: Translator, name: str) -> str:
    """An option's name as people read it (``First tile``), for the lobby."""
    template = OPTION_LABELS.get(name)
    return _(template) if template is not None else name


def option_value_words(_: Translator, value: object) -> str:
    """An option's value as people read it: a named choice in words, a match length
    (``deals:6``, ``target:101``) as deals or points, a number as it is."""
    text = str(value)
    template = OPTION_VALUES.get(text)
    if template is not None:
        return _(template)
    kind, _sep, number = text.partition(":")
    n = ascii_number(number) if kind in ("deals", "target") else None
    if n is not None and kind == "deals":
        return _.ngettext("%(n)d deal", "%(n)d deals", n)
    if n is not None and kind == "target":
        return _.ngettext("to %(n)d point", "to %(n)d points", n)
    return text


def level_name(_: Translator, level: str) -> str:
    template = LEVEL_NAMES.get(level)
    return _(template) if template is not None else level


def computer_name(_: Translator, level: str) -> str:
    """How the computers of ``level`` are named where they are rated, in the language
    of the screen that names them."""
    return _("Computer (%(level)s)", level=level_name(_, level))


def players_span(_: Translator, name: str) -> str:
    """How many players a game takes: ``2``, or ``2 to 4``."""
    variant = get_variant(name)
    low, high = variant.min_players, variant.max_players
    return str(low) if low == high else _("%(low)d to %(high)d", low=low, high=high)


def score_words(translator: Translator, variant: str, n: int) -> str:
    """``12 points`` (``1 token`` in Three Guns, where the score is tokens held)."""
    return unit_words(
        translator, "tokens" if get_variant(variant).unit is Unit.TOKENS else "points", n
    )


def unit_words(translator: Translator, unit: Literal["points", "tokens"], n: int) -> str:
    """``12 points`` or ``1 token``, in the unit a table's model scores in."""
    if unit == "tokens":
        return translator.ngettext("%(n)d token", "%(n)d tokens", n)
    return translator.ngettext("%(n)d point", "%(n)d points", n)


def board_figures(translator: Translator, variant: str, n: int) -> str:
    """What a player's matches of one game add up to, in the words its table scores
    with: how often he was Kozel's goat, tokens in Three Guns, points elsewhere."""
    if get_variant(variant).lower_wins:  # the board counts the matches he lost as the goat
        return translator.ngettext("the goat %(n)d time", "the goat %(n)d times", n)
    return score_words(translator, variant, n)


VARIANT_TITLES: Final[Mapping[str, str]] = {
    "tyaga": N_("Tyaga (Draw)"),
    "kozel": N_("Kozel (the goat)"),
    "baghdad": N_("Thief of Baghdad"),
    "three_guns": N_("Three Guns"),
}


def variant_title(_: Translator, name: str) -> str:
    template = VARIANT_TITLES.get(name)
    if template is not None:
        return _(template)
    try:
        return get_variant(name).title
    except DominoError:
        return name
