"""The core's shared types: what a table, a hand and what just happened are, as data."""
