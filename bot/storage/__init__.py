"""The bot's memory in Redis: every key, script and stored document."""
