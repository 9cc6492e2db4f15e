"""Pictures of a game drawn with Pillow: the table, and a player's own hand.

Platform-neutral: a picture is PNG bytes, which every adapter can send. The
table is drawn from its model (:class:`~bot.model.table.TableView`), a hand
from that seat's own model (:class:`~bot.model.hand.HandView`); see :mod:`bot.picture.table` and
:mod:`bot.picture.hand`; :mod:`bot.picture.screens` draws them for the screens
the core sends. It may import :mod:`bot.model` and :mod:`bot.views`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import cache

from PIL import Image

from bot.model.hand import HandView
from bot.model.table import TableView
from bot.picture.hand import hand_picture
from bot.picture.table import table_picture
from bot.views.i18n import Translator, translator
from engine.state import Hands

__all__ = ["hand_png", "png", "table_png"]


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes, in the 256 colours of :func:`learnt_palette`: a picture is a
    few flat colours and the soft edges between them, which such a palette keeps to
    the eye, and it encodes in a fraction of the processor time of full colour, at a
    third of the size (``bench/bench_pictures.py``). A light compression level: the
    felt's flat colour packs well anyway, and the stronger levels cost twice the time
    for a few kilobytes."""
    buffer = io.BytesIO()
    opaque = image if image.mode == "RGB" else image.convert("RGB")
    mapped = opaque.quantize(palette=learnt_palette(), dither=Image.Dither.NONE)
    mapped.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()


@cache
def learnt_palette() -> Image.Image:
    """The 256 colours every picture is stored in, learnt once a process from the sample
    positions of every game (some 200 ms): the colours a picture uses and the soft edges
    between them. Learning each picture's own palette instead took most of the time of
    drawing it; mapping onto this one takes a tenth of that, and no pixel ends further
    from its drawn colour than in a palette of its own. (The colours pictures are drawn
    in are named in :mod:`bot.picture.palette`.)"""
    from bot.picture.samples import gallery  # it draws with this package

    _ = translator("en")
    drawn = [
        table_picture(_, s.table, s.names, s.status, s.revealed).convert("RGB") for s in gallery()
    ]
    montage = Image.new("RGB", (max(d.width for d in drawn), sum(d.height for d in drawn)))
    top = 0
    for picture in drawn:
        montage.paste(picture, (0, top))
        top += picture.height
    return montage.quantize(256, method=Image.Quantize.FASTOCTREE)


def table_png(
    translator: Translator,
    table: TableView,
    names: Sequence[str],
    status: Sequence[str] = (),
    revealed: Hands | None = None,
) -> bytes:
    return png(table_picture(translator, table, names, status, revealed))


def hand_png(
    translator: Translator, hand: HandView, heading: str, status: str, *, ringed: bool = True
) -> bytes:
    return png(hand_picture(translator, hand, heading, status, ringed=ringed))
