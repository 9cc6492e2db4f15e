"""The parts of ``bench/bench_core.py`` that are not figures: a Redis server of its own and
what is sent to it (:mod:`.server`), and tables with people pressing at every seat
(:mod:`.tables`)."""
