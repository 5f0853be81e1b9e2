"""The `rulesdsl` command line."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from . import __version__
from .api import FileResult, compiled_json, load, rule_files, validate_file
from .errors import Problem, RulesdslError, RulesetError
from .examples import load_examples_file, run_examples
from .language.schema import schema_json

EXIT_OK, EXIT_INVALID, EXIT_USAGE = 0, 1, 2


def _github(p: Problem) -> str:
    level = "error" if p.severity == "error" else "warning"
    message = p.format().split(": ", 1)[-1].replace("%", "%25").replace("\n", "%0A")
    return f"::{level} file={p.file},line={p.line},col={p.column}::{message}"


def cmd_validate(args: argparse.Namespace) -> int:
    files = rule_files(args.paths)
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        for m in missing:
            print(f"{m}:1:1: <root>: file not found", file=sys.stderr)
        return EXIT_USAGE if len(missing) == len(files) else EXIT_INVALID
    if not files:
        print("no rule files found", file=sys.stderr)
        return EXIT_USAGE
    results: list[FileResult] = [validate_file(f, not args.no_examples) for f in files]
    if args.format == "json":
        payload = {
            "valid": all(r.ok for r in results),
            "files": [
                {
                    "path": r.path,
                    "valid": r.ok,
                    "id": r.ruleset.id if r.ruleset else None,
                    "examples": None if r.examples is None else {
                        "passed": r.examples.passed,
                        "failed": len(r.examples.failed),
                        "deferred": r.examples.deferred,
                    },
                    "problems": [p.to_dict() for p in r.problems],
                }
                for r in results
            ],
        }
        print(json.dumps(payload, indent=2, ensure_ascii=False))
    else:
        for r in results:
            for p in r.problems:
                print(_github(p) if args.format == "github" else p.format())
        if args.format == "text":
            for r in results:
                state = "ok" if r.ok else "INVALID"
                extra = ""
                if r.examples is not None:
                    extra = f", {r.examples.passed} examples passed"
                    if r.examples.failed:
                        extra += f", {len(r.examples.failed)} failed"
                    if r.examples.deferred:
                        extra += f", {r.examples.deferred} for the engine"
                errors = sum(1 for p in r.problems if p.severity == "error")
                if errors:
                    extra += f", {errors} problem(s)"
                print(f"{state}: {r.path}{extra}")
    return EXIT_OK if all(r.ok for r in results) else EXIT_INVALID


def cmd_compile(args: argparse.Namespace) -> int:
    ruleset = load(args.ruleset)
    text = compiled_json(ruleset)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output} ({ruleset.id} {ruleset.version}, sha256 {ruleset.hash[:12]})")
    return EXIT_OK


def cmd_schema(args: argparse.Namespace) -> int:
    sys.stdout.write(schema_json() + "\n")
    return EXIT_OK


def cmd_check(args: argparse.Namespace) -> int:
    ruleset = load(args.ruleset)
    items, doc = load_examples_file(ruleset, args.examples)
    report = run_examples(ruleset, items, doc)
    for p in report.failed:
        print(p.format())
    print(f"{report.passed} passed, {len(report.failed)} failed"
          + (f", {report.deferred} for the engine" if report.deferred else ""))
    return EXIT_OK if report.ok else EXIT_INVALID


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesdsl", description="Regional card and tile games written as data.")
    parser.add_argument("--version", action="version", version=f"rulesdsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    v = sub.add_parser("validate", help="check rule files and run their examples")
    v.add_argument("paths", nargs="+", metavar="PATH", help="rule files or folders")
    v.add_argument("--format", choices=["text", "json", "github"], default="text")
    v.add_argument("--no-examples", action="store_true", help="skip running the examples")
    v.set_defaults(func=cmd_validate)
    c = sub.add_parser("compile", help="write the compiled, fully resolved ruleset as JSON")
    c.add_argument("ruleset", help="a bundled id or a rule file")
    c.add_argument("-o", "--output", help="output file (default: standard output)")
    c.set_defaults(func=cmd_compile)
    s = sub.add_parser("schema", help="print the JSON Schema of rule files")
    s.set_defaults(func=cmd_schema)
    k = sub.add_parser("check", help="run an examples file against a ruleset")
    k.add_argument("ruleset", help="a bundled id or a rule file")
    k.add_argument("--examples", required=True, metavar="FILE")
    k.set_defaults(func=cmd_check)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return args.func(args)
    except RulesetError as exc:
        for p in exc.problems:
            print(p.format(), file=sys.stderr)
        return EXIT_INVALID
    except RulesdslError as exc:
        print(f"rulesdsl: {exc}", file=sys.stderr)
        return EXIT_INVALID
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK
