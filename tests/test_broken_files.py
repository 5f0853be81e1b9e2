"""The corpus of broken rule files: each file under tests/broken/ holds one mistake and
states, in `# expect: LINE:COLUMN: PATH: MESSAGE` header lines, exactly what the validator
must report (in output order). Cases marked xfail are files where the validator's current
output is judged wrong; the header records the output it should give instead.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulesdsl.api import validate_file

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "broken"
FILES = sorted(BROKEN.glob("*.yaml"))

EXPECT_PREFIX = "# expect: "

# Files whose current validator output is wrong; their `# expect:` lines say what it
# should be. strict=True: when the validator is fixed, remove the entry here.
KNOWN_WRONG = {
}


def expected_lines(path: Path) -> list[str]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.startswith("#"):
            break
        if line.startswith(EXPECT_PREFIX):
            out.append(line[len(EXPECT_PREFIX):])
    return out


def formatted(path: Path) -> tuple[bool, list[str]]:
    result = validate_file(path)
    lines = []
    for p in result.problems:
        text = p.format()
        prefix = f"{p.file}:"
        assert text.startswith(prefix), text
        lines.append(text[len(prefix):])
    return result.ok, lines


def _param(path: Path):
    marks = []
    if path.name in KNOWN_WRONG:
        marks.append(pytest.mark.xfail(reason=KNOWN_WRONG[path.name], strict=True))
    return pytest.param(path, id=path.stem, marks=marks)


def test_corpus_is_large_enough():
    assert len(FILES) >= 36
    for name in KNOWN_WRONG:
        assert (BROKEN / name).is_file(), name


@pytest.mark.parametrize("path", [_param(p) for p in FILES])
def test_broken_file(path: Path):
    expected = expected_lines(path)
    assert expected, f"{path.name} has no '# expect:' header lines"
    ok, actual = formatted(path)
    assert not ok, f"{path.name} validated as ok"
    assert actual == expected


def test_cli_reports_every_broken_file_without_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "rulesdsl", "validate", "tests/broken"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stdout
    assert "Traceback" not in proc.stderr
    for path in FILES:
        assert f"INVALID: tests/broken/{path.name}" in proc.stdout, path.name
