"""The screens drawn for stored games, kept so that the next write compares with them
instead of drawing the old ones again."""

from __future__ import annotations

from collections import OrderedDict

from bot.model.contract import Screen
from bot.model.decision import Game
from bot.model.table import TableView
from bot.table.models import table_model


class ShownScreens:
    """The screens drawn for stored games, by game id, version and seat (``None``:
    the table), so that the next write compares its screens with these instead of
    drawing the old ones again; and the tables' models they were drawn from, so that a
    version's table, its picture and its deal's end are drawn from one model. A stored
    game's version names one state of it, so an entry never goes stale."""

    def __init__(self, size: int = 4096) -> None:
        self._size = size
        self._screens: OrderedDict[tuple[str, int, int | None], Screen] = OrderedDict()
        self._models: OrderedDict[tuple[str, int], TableView | None] = OrderedDict()

    def model(self, game: Game) -> TableView | None:
        """The model of ``game``'s table (None for a lobby), built once for a version."""
        key = (game.doc.id, game.version)
        if key in self._models:
            return self._models[key]
        made = self._models[key] = table_model(game)
        while len(self._models) > self._size:
            self._models.popitem(last=False)
        return made

    def get(self, game: Game, seat: int | None) -> Screen | None:
        return self._screens.get((game.doc.id, game.version, seat))

    def put(self, game: Game, seat: int | None, screen: Screen) -> None:
        self._screens[(game.doc.id, game.version, seat)] = screen
        while len(self._screens) > self._size:
            self._screens.popitem(last=False)
