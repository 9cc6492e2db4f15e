"""The platform-neutral core, in packages that import one way: :mod:`bot.model` at the
bottom, then :mod:`bot.ai` and :mod:`bot.views`, :mod:`bot.storage` and
:mod:`bot.picture`, :mod:`bot.table`, and :mod:`bot.app` on top
(``tests/bot/test_packages.py`` holds the rule). ``bot/__main__.py`` is the
composition root.
"""
