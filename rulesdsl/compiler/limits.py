"""Bounds on what a valid rule file may ask of the compiler and the engines."""

MAX_EXTENDS_DEPTH = 8
MAX_TIERS = 2000
MAX_PATTERNS = 200
MAX_DECK_CARDS = 8 * 54
# Bounds on what the shedding move generator must enumerate: every play of a composite
# whose parts repeat per step, and every filling of the wild cards in a hand, grow
# combinatorially (a run of any length with two repeating parts, or a deck of wilds,
# does not finish a hand). The bundled rulesets need one repeating part of fixed size,
# five steps and eight wild cards.
MAX_REPEATING_PARTS = 1
MAX_REPEAT_STEPS = 5
MAX_WILD_CARDS = 16  # the jokers of the largest deck (8 packs)
MAX_OPTION_VARIANTS = 16  # distinct option sets among a file's examples (each compiles once)
