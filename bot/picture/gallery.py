"""``python -m bot.picture.gallery DIR``: the sample positions of every game
as PNG files in DIR (``make pictures`` writes them into ``docs/pictures``)."""

from __future__ import annotations

import sys
from pathlib import Path

from bot.picture import table_png
from bot.picture.samples import gallery
from bot.views.i18n import translator


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bot.picture.gallery DIR", file=sys.stderr)
        return 2
    folder = Path(argv[0])
    folder.mkdir(parents=True, exist_ok=True)
    _ = translator("en")
    for sample in gallery():
        path = folder / f"{sample.name}.png"
        path.write_bytes(table_png(_, sample.table, sample.names, sample.status, sample.revealed))
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
