"""Discord adapter: slash commands, game buttons and ephemeral hands over the core."""
