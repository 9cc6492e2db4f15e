"""Words and screens: translations, texts, the table, hands, the lobby."""
