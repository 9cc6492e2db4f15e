"""What a command, a button press or a deadline does to a chat's game, and what is
sent after it. :class:`~bot.table.sessions.Sessions` is the core's one door: it turns
an inbound event into a flow (the lobby, play, settings, steady-hand presses, typed
moves, lookups, history and reviews, a person's own data), and
:class:`~bot.table.runner.Runner` runs the flow on the game (kept at hand in
:mod:`bot.table.state_cache`), writes it, and works out which screens changed
(:mod:`bot.table.updates`); :mod:`bot.table.match_steps` holds a match's pure steps,
:mod:`bot.table.painter` draws deals' ends off the event loop. It may import
:mod:`bot.model`, :mod:`bot.views`, :mod:`bot.storage`, :mod:`bot.ai` and
:mod:`bot.picture`.
"""
