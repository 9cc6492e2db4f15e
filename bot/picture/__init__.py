"""Pictures of a game drawn with Pillow: the table, and a player's own hand.

Platform-neutral: a picture is PNG bytes, which every adapter can send. The
table is drawn from the public part of an engine :class:`~engine.View`, a hand
from that seat's own view; see :mod:`bot.picture.table` and
:mod:`bot.picture.hand`.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from bot.i18n import Translator
from bot.picture.hand import hand_picture
from bot.picture.table import table_picture
from engine import View

__all__ = ["hand_png", "png", "table_png"]


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes, in a palette of 256 colours: a picture is a few flat
    colours and the soft edges between them, which such a palette keeps to the eye,
    and it encodes in about half the processor time of full colour, at a third of
    the size (``bench/bench_pictures.py``). A light compression level: the felt's
    flat colour packs well anyway, and the stronger levels cost twice the time for a
    few kilobytes."""
    buffer = io.BytesIO()
    opaque = image if image.mode == "RGB" else image.convert("RGB")
    opaque.quantize(256, method=Image.Quantize.FASTOCTREE).save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()


def table_png(_: Translator, view: View, names: Sequence[str], status: Sequence[str] = ()) -> bytes:
    return png(table_picture(_, view, names, status))


def hand_png(_: Translator, view: View, heading: str, status: str) -> bytes:
    return png(hand_picture(_, view, heading, status))
