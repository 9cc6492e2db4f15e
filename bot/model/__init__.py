"""What every package of the core shares: the contract with the adapters (neutral
references to chats and people, the inbound events, the outbound instructions and
screens, :mod:`bot.model.contract`), the game document the store keeps
(:mod:`bot.model.gamedoc`), a flow's :class:`~bot.model.decision.Game` and
:class:`~bot.model.decision.Decision`, the button payloads (:mod:`bot.model.codec`),
the rating arithmetic (:mod:`bot.model.ratings`), and the table as typed data: what
everybody may see (:mod:`bot.model.table`), one seat's hand (:mod:`bot.model.hand`)
and what just happened (:mod:`bot.model.events`). It may import the engine and
libraries, nothing else of the core.
"""
