"""The whole rule-file schema: the language's sections with the `play:` fragment the
family contracts declare."""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from ..engine.contract import play_schema
from ..engine.families import CONTRACTS
from ..language.schema import (
    editor_schema_with,
    examples_file_schema_with,
    ruleset_schema_with,
)


@lru_cache(maxsize=1)
def ruleset_schema() -> dict[str, Any]:
    return ruleset_schema_with(play_schema(list(CONTRACTS.values())))


def examples_file_schema() -> dict[str, Any]:
    return examples_file_schema_with(ruleset_schema())


@lru_cache(maxsize=1)
def editor_schema() -> dict[str, Any]:
    """The schema editors read (integer keys, children of `extends`): see
    rulesdsl.language.schema.editor_schema_with. The validator checks `ruleset_schema()`."""
    return editor_schema_with(ruleset_schema())


def schema_json() -> str:
    """The editor schema as `rulesdsl schema` prints it, `rulesdsl new` writes it and
    rulesets/ruleset.schema.json holds it."""
    return json.dumps(editor_schema(), indent=2, ensure_ascii=False)
