"""How a picture is stored: in the 256 colours of :func:`learnt_palette`, as PNG.

The PNG is put together here, a few lines over the standard library's zlib, rather
than by Pillow's writer: Pillow hands zlib one row at a time at its own fixed settings,
which cost a deal-end picture half again the instructions for a file no smaller
(``bench/bench_instructions.py``), and its save takes no zlib memory level. The file is
the plainest PNG there is (one IDAT, no filter), and Pillow reads every one back in the
tests (``tests/bot/test_picture_indexed.py``)."""

from __future__ import annotations

import struct
import zlib
from functools import cache
from typing import Final

from PIL import Image

from bot.picture.table import table_picture
from bot.views.i18n import translator

SIGNATURE: Final = b"\x89PNG\r\n\x1a\n"
PACKING: Final = (3, zlib.DEFLATED, 15, 5)
"""zlib's level, method, window and memory level for a picture's rows. The light level
3, as the felt's flat colour packs well anyway and the stronger levels cost twice the
time for a few kilobytes; and the memory level 5, whose smaller hash costs a picture
a fifth fewer instructions than the default 8 and packs it as small."""


def png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes, in the 256 colours of :func:`learnt_palette`: a picture is a
    few flat colours and the soft edges between them, which such a palette keeps to
    the eye, and it encodes in a fraction of the processor time of full colour, at a
    third of the size (``bench/bench_pictures.py``). (A picture to be sent is drawn
    in those colours straight away: see :mod:`bot.picture.indexed`.)"""
    opaque = image if image.mode == "RGB" else image.convert("RGB")
    return indexed_png(opaque.quantize(palette=learnt_palette(), dither=Image.Dither.NONE))


def indexed_png(image: Image.Image) -> bytes:
    """A picture in the colours of :func:`learnt_palette` (mode P) as PNG bytes, each
    row stored as it is, packed by zlib in one go at a light level with a small hash
    (:data:`PACKING`). Pillow's own writer hands zlib one row at a time, at its fixed
    hash size: that took half again the instructions, for no smaller file."""
    width, height = image.size
    # Each row is led by its filter type, 0 (none): a column of zeros left of the picture.
    rows = Image.new("P", (width + 1, height), 0)
    rows.paste(image, (1, 0))
    packer = zlib.compressobj(*PACKING)
    packed = packer.compress(rows.tobytes()) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices
    colours = bytes(image.getpalette() or ())
    chunks = [(b"IHDR", header), (b"PLTE", colours), (b"IDAT", packed), (b"IEND", b"")]
    return SIGNATURE + b"".join(_chunk(kind, data) for kind, data in chunks)


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data)
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


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
