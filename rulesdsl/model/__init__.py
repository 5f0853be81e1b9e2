"""The game model: cards, tiles, decks and compiled rulesets."""
