"""Coverage-guided fuzzing of the rule-file reader and compiler with atheris (optional).

    pip install atheris
    mkdir -p /tmp/rulesdsl-corpus && cp rulesets/*.yaml rulesets/extra/*.yaml /tmp/rulesdsl-corpus/
    python tests/fuzz/atheris_target.py /tmp/rulesdsl-corpus -max_total_time=600 -timeout=10

Bytes → load_yaml → compile_document. Any exception other than RulesetError, a problem
without a location, a timeout (-timeout) or an RSS over -rss_limit_mb is a crash that
libFuzzer saves as crash-*/timeout-* for `rulesdsl validate` to replay.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

with atheris.instrument_imports():
    from rulesdsl.compiler import compile_document
    from rulesdsl.errors import RulesetError
    from rulesdsl.language.yamlio import load_yaml


def TestOneInput(data: bytes) -> None:  # noqa: N802 (atheris' name)
    try:
        compile_document(load_yaml(data, "fuzz.yaml"))
    except RulesetError as exc:
        assert exc.problems, "a RulesetError without problems"
        for p in exc.problems:
            assert p.line >= 1 and p.column >= 1 and p.message.strip(), p


def main() -> None:
    atheris.Setup(sys.argv, TestOneInput)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
