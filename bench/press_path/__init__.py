"""What ``bench/bench_core.py`` measures with: a Redis server of its own and what is sent to
it (:mod:`.server`), tables with people pressing at every seat (:mod:`.tables`), and the
open loop that sends their presses at a fixed rate (:mod:`.open_loop`)."""
