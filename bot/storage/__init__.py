"""The bot's memory in Redis: every key (:mod:`bot.storage.keys`), every script and
every stored shape. :class:`~bot.storage.store.Store` is the one door; behind it a
chat's game is read and written by compare-and-set (:mod:`bot.storage.game`, with its
deal snapshots and the writes batched per turn of the event loop), deadlines wait in
timer buckets, and the records kept beside games live in their own modules:
scoreboards, ratings, finished matches for ``history``, lookups counted, a person's
own data for ``mydata`` and ``forget``, a chat that moved; the connection to one server
or a cluster is :mod:`bot.storage.connect`. It may import :mod:`bot.model` and
:mod:`bot.views` (a kept match names its computers as the table does).
"""
