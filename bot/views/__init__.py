"""Words and screens: translations (:mod:`bot.views.i18n`, catalogs in ``bot/locale``),
the texts of tiles, moves, errors, outcomes and rules, and the screens drawn from a
game: the table (:mod:`bot.views.table_screen`), a player's hand as a list of moves
(:mod:`bot.views.hand`) or as steady tile buttons (:mod:`bot.views.steady_hand`), the
lobby, the commands adapters register (:mod:`bot.views.catalog`) and a replay told
move by move. A view is a pure function of what it is given: it reads no store and
decides nothing. It may import :mod:`bot.model` and :mod:`bot.ai` (the computers'
levels, to name them).
"""
