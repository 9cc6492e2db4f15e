"""A picture to be sent is drawn straight in the 256 colours it is stored in
(:mod:`bot.picture.indexed`): each of its pixels is the one mapping the picture drawn in
full colour onto those colours gives, in every game, language and worst position, for
the table and for a hand."""

from __future__ import annotations

import io
from collections.abc import Sequence

import pytest
from PIL import Image

import engine
from bot.model.table import position_table
from bot.picture import learnt_palette
from bot.picture.frame import Block, compose
from bot.picture.hand import hand_blocks
from bot.picture.indexed import indexed
from bot.picture.samples import LONG_NAMES, NAMES, gallery, states, worst
from bot.picture.status import status_lines
from bot.picture.stored import indexed_png
from bot.picture.table import table_blocks
from bot.views.i18n import translator
from tests.bot.hand_models import hand_model

GAMES = [("tyaga", 2), ("tyaga", 6), ("kozel", 4), ("baghdad", 2), ("three_guns", 3)]


def _same_pixels(blocks: Sequence[Block], what: str) -> None:
    drawn = compose(blocks).quantize(palette=learnt_palette(), dither=Image.Dither.NONE)
    straight = indexed(blocks)
    assert straight.mode == "P" and straight.size == drawn.size, what
    assert straight.getpalette() == drawn.getpalette(), what
    assert straight.tobytes() == drawn.tobytes(), what


@pytest.mark.parametrize("lang", ["en", "uk", "ca"])
def test_the_gallery_and_the_worst_positions_come_out_as_mapping_them_gives(lang: str) -> None:
    _ = translator(lang)
    for sample in [*gallery(), *worst()]:
        blocks = table_blocks(_, sample.table, sample.names, sample.status, sample.revealed)
        _same_pixels(blocks, f"{sample.name} in {lang}")


@pytest.mark.parametrize(("variant", "players"), GAMES)
def test_every_few_moves_of_a_match_come_out_as_mapping_them_gives(
    variant: str, players: int
) -> None:
    """The table mid-deal (the seat to move marked) and at each deal's end, with short
    names and with names cut to their width, and each seat's hand."""
    _ = translator("pl")
    for i, state in enumerate(states(variant, players, 6, limit=120)):
        if i % 6 and not state.deal_over:
            continue
        seen = engine.public_view(state)
        for names in (NAMES[:players], LONG_NAMES[:players]):
            table = position_table(seen, names)
            status = status_lines(_, table, names.__getitem__)
            blocks = table_blocks(_, table, names, status, seen.revealed)
            _same_pixels(blocks, f"{variant} state {i}")
        seat = state.turn if state.turn is not None else 0
        hand = hand_model(engine.view(state, seat))
        for ringed in (True, False):
            blocks = hand_blocks(_, hand, "Table", "Your turn", ringed=ringed)
            _same_pixels(blocks, f"{variant} hand {i}")


def test_a_picture_in_the_palettes_colours_is_read_back_from_its_png_as_it_was() -> None:
    _ = translator("en")
    for sample in [*gallery(), *worst()]:
        blocks = table_blocks(_, sample.table, sample.names, sample.status, sample.revealed)
        drawn = indexed(blocks)
        stored = Image.open(io.BytesIO(indexed_png(drawn)))
        stored.load()
        assert stored.format == "PNG" and stored.mode == "P", sample.name
        assert stored.size == drawn.size, sample.name
        assert stored.getpalette() == drawn.getpalette(), sample.name
        assert stored.tobytes() == drawn.tobytes(), sample.name
