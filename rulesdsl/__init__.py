"""rulesdsl: regional card and tile games written as data.

    >>> import rulesdsl
    >>> ruleset = rulesdsl.load("path/to/my-variant.yaml")  # or a bundled id
"""

from .api import compiled_json, load, validate_file
from .errors import NotationError, Problem, RulesdslError, RulesetError
from .model.ruleset import Ruleset

__version__ = "0.1.0"


def env(ruleset: str | Ruleset, render_mode: str | None = None, hands: int = 1):
    """A PettingZoo AEC environment for a bundled id, a path or a compiled ruleset
    (needs the `rl` extra: pettingzoo, gymnasium). See docs/environment.md."""
    from .adapters.aec import make_env

    return make_env(ruleset, render_mode=render_mode, hands=hands)


__all__ = [
    "load",
    "env",
    "validate_file",
    "compiled_json",
    "Ruleset",
    "Problem",
    "RulesdslError",
    "RulesetError",
    "NotationError",
    "__version__",
]
