"""The web table: a page served by the bot that draws a game from its typed models, kept
live over a WebSocket. Moves from the page go through the core like any press; every
write of a game is published on its chat's channel, so every page of that table, on any
web worker, hears of it."""
