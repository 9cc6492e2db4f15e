"""The web table: a page served by the bot that draws a game from its typed models, kept
live over a WebSocket. Moves from the page go through the core like any press; every
write of a game is published on its chat's channel, so every page of that table, on any
web worker, hears of it.

A host process serves it with :class:`adapters.web.app.WebTable` (its core, its Redis,
the pass secret, the bot token for a Mini App, its delivery to the chat) and
:func:`adapters.web.app.web_app`; ``domino-bot web`` is :mod:`adapters.web.local`.
Nothing is imported here, so the page's frames load without aiohttp's server."""
