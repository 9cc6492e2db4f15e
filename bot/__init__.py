"""The platform-neutral core: sessions, store, timers, computer players and views."""
