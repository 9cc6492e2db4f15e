"""How a picture is stored: in the 256 colours of :func:`learnt_palette`, as PNG."""

from __future__ import annotations

import io
from functools import cache

from PIL import Image

from bot.picture.table import table_picture
from bot.views.i18n import translator


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes, in the 256 colours of :func:`learnt_palette`: a picture is a
    few flat colours and the soft edges between them, which such a palette keeps to
    the eye, and it encodes in a fraction of the processor time of full colour, at a
    third of the size (``bench/bench_pictures.py``). (A picture to be sent is drawn
    in those colours straight away: see :mod:`bot.picture.indexed`.)"""
    opaque = image if image.mode == "RGB" else image.convert("RGB")
    return indexed_png(opaque.quantize(palette=learnt_palette(), dither=Image.Dither.NONE))


def indexed_png(image: Image.Image) -> bytes:
    """A picture in the colours of :func:`learnt_palette` (mode P) as PNG bytes. A light
    compression level: the felt's flat colour packs well anyway, and the stronger
    levels cost twice the time for a few kilobytes."""
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=3)
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
