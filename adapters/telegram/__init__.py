"""Telegram: group tables with inline buttons, hands in the private chat with the bot."""
