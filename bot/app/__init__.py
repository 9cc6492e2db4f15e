"""The process: the ``domino-bot`` command line in the operator's language
(:mod:`bot.app.cli`), the settings (:mod:`bot.app.config`), logging, what every command
opens before a front end runs (:mod:`bot.app.launch`: the store, an embedded Redis when
none is set, the stop signal), failures a person can fix told in one line, and the
garbage collector's tuning for a long-running process. It may import every other
package of the core; no package of the core imports it. ``bot/__main__.py``, the
composition root, starts it, and the adapters read their settings from it.
"""
