"""Running rulesets headless: agents, game logs (JSON Lines), referee replays, simulations."""
