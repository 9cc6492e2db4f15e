"""Each platform's side of the bot: its updates turned into the core's inbound events, and the
core's outbound instructions rendered and delivered within the platform's limits."""
