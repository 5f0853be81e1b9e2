"""rulesdsl: regional card and tile games written as data.

    >>> import rulesdsl
    >>> ruleset = rulesdsl.load("path/to/my-variant.yaml")  # or a bundled id
"""

from .api import compiled_json, load, validate_file
from .errors import NotationError, Problem, RulesdslError, RulesetError
from .model.ruleset import Ruleset

__version__ = "0.1.0"

__all__ = [
    "load",
    "validate_file",
    "compiled_json",
    "Ruleset",
    "Problem",
    "RulesdslError",
    "RulesetError",
    "NotationError",
    "__version__",
]
