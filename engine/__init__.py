"""The rules of four domino games, pure and immutable.

>>> from engine import new_match, legal_moves, apply
>>> state = new_match("kozel", 3, seed=7)
>>> state, events = apply(state, legal_moves(state)[0])
"""

from engine.api import (
    apply,
    legal_moves,
    new_match,
    next_deal,
    own_hand,
    public_view,
    resolve,
    variant_of,
    view,
    went_out,
)
from engine.errors import (
    BadFixture,
    BadMoveText,
    BadOption,
    BadTile,
    DominoError,
    GameOver,
    IllegalMove,
    NotYourTurn,
    UnknownVariant,
)
from engine.moves import DONE, DRAW, PASS, End, Kind, Move, format_move, parse_move
from engine.options import OptionSpec
from engine.public import (
    BaghdadPublic,
    Caravan,
    GunsPublic,
    KozelPublic,
    Phase,
    Public,
    TyagaPublic,
)
from engine.state import DealEnd, DealResult, Event, Fixture, Placed, State, View
from engine.tiles import DOUBLE_SIX, THREE_GUNS_SET, Tile
from engine.variant import Unit, Variant, all_variants, get_variant

__all__ = [
    "DONE",
    "DOUBLE_SIX",
    "DRAW",
    "PASS",
    "THREE_GUNS_SET",
    "BadFixture",
    "BadMoveText",
    "BadOption",
    "BadTile",
    "BaghdadPublic",
    "Caravan",
    "DealEnd",
    "DealResult",
    "DominoError",
    "End",
    "Event",
    "Fixture",
    "GameOver",
    "GunsPublic",
    "IllegalMove",
    "Kind",
    "KozelPublic",
    "Move",
    "NotYourTurn",
    "OptionSpec",
    "Phase",
    "Placed",
    "Public",
    "State",
    "Tile",
    "TyagaPublic",
    "Unit",
    "UnknownVariant",
    "Variant",
    "View",
    "all_variants",
    "apply",
    "format_move",
    "get_variant",
    "legal_moves",
    "new_match",
    "next_deal",
    "own_hand",
    "parse_move",
    "public_view",
    "resolve",
    "variant_of",
    "view",
    "went_out",
]
