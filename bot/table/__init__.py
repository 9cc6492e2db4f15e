"""What a command, a press or a deadline does to a chat's game."""
