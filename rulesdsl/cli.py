"""The `rulesdsl` command line."""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from . import __version__
from .api import compiled_json, load, validate_paths
from .compiler.examples import _context_value
from .compiler.schema import schema_json
from .errors import RulesdslError, RulesetError
from .examples import load_examples_file, run_examples

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


# Validation allocates many short-lived objects (compiled rulesets, hand tables) and frees
# few cycles: at the default threshold (700) the collector took an eighth of the run. (The
# older generations keep theirs: collecting them less often held 20 MB more for 0.03 s.)
VALIDATE_GC_THRESHOLD = 20_000


def _cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _positive(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise argparse.ArgumentTypeError(f"not a number of processes: {text!r}")
    return n


def cmd_validate(args: argparse.Namespace) -> int:
    from .problem_report import github_annotation, json_report, text_report

    before = gc.get_threshold()
    gc.set_threshold(VALIDATE_GC_THRESHOLD, *before[1:])
    try:
        results = validate_paths(args.paths, not args.no_examples, args.exclude,
                                 args.jobs if args.jobs is not None else _cpus())
    finally:
        gc.set_threshold(*before)
    if not results:
        print("no rule files found", file=sys.stderr)
        return EXIT_USAGE
    unread = [r for r in results if any(p.code == "RD101" for p in r.problems)]
    if len(unread) == len(results) and all(not Path(r.path).exists() for r in results):
        for r in results:  # nothing to validate at all: a usage error
            for p in r.problems:
                print(p.format(), file=sys.stderr)
        return EXIT_USAGE
    if args.format == "json":
        print(json.dumps(json_report(results), indent=2, ensure_ascii=False))
    elif args.format == "github":
        for r in results:
            for p in r.problems:
                print(github_annotation(p))
    else:
        sys.stdout.write(text_report(results))
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
    if args.format == "json":
        print(json.dumps({"passed": report.passed, "deferred": report.deferred,
                          "failed": [p.to_dict() for p in report.failed]},
                         ensure_ascii=False, indent=2))
        return EXIT_OK if report.ok else EXIT_INVALID
    for p in report.failed:
        print(p.format())
    print(f"{report.passed} passed, {len(report.failed)} failed"
          + (f", {report.deferred} for the engine" if report.deferred else ""))
    return EXIT_OK if report.ok else EXIT_INVALID


class _BadInput(Exception):
    """A command-line value that cannot be used (reported, exit 2)."""


def _typed_value(ruleset: Any, name: str, text: str, kind: str) -> Any:
    """A --context or --option value, read as the ruleset declares it."""
    if kind == "context":
        if name not in ruleset.context:
            raise _BadInput(f"unknown context value {name!r}; this ruleset has "
                            f"{', '.join(ruleset.context) or 'none'}")
        try:
            return _context_value(ruleset.context[name].type, text)
        except RulesdslError as exc:
            raise _BadInput(f"--context {name}: {exc}") from None
    if name not in ruleset.options:
        raise _BadInput(f"unknown option {name!r}; this ruleset has "
                        f"{', '.join(ruleset.options) or 'none'}")
    value = yaml.safe_load(text) if text.strip() else text
    spec = (ruleset.resolved.get("options") or {}).get(name) or {}
    choices = spec.get("choices") if isinstance(spec, dict) else None
    if choices is not None and value not in choices:
        raise _BadInput(f"--option {name}: {text!r} is not one of "
                        f"{', '.join(map(str, choices))}")
    return value


def _table_choices(ruleset: Any, args: argparse.Namespace) \
        -> tuple[int | None, dict[str, Any]]:
    """--players and --option NAME=VALUE of play and simulate, checked against the ruleset."""
    players = args.players
    if players is not None and players not in ruleset.player_counts:
        raise _BadInput(f"{ruleset.id} is played by "
                        f"{' or '.join(map(str, ruleset.player_counts))} players, not "
                        f"{players}")
    options = {name: _typed_value(ruleset, name, value, "option")
               for name, value in _pairs(args.option, "--option")}
    return players, options


def _pairs(values: list[str] | None, flag: str) -> list[tuple[str, str]]:
    out = []
    for v in values or []:
        name, sep, value = v.partition("=")
        if not sep or not name.strip():
            raise _BadInput(f"{flag} takes NAME=VALUE, not {v!r}")
        out.append((name.strip(), value.strip()))
    return out


def cmd_score(args: argparse.Namespace) -> int:
    from . import notation as nt
    from .engine.tiles.hand import ScoringHand
    from .engine.tiles.scoring import parse_melds, score_hand

    ruleset = load(args.ruleset)
    if ruleset.family != "tiles":
        print(f"rulesdsl: {ruleset.id} is a {ruleset.family} ruleset; score is for tile "
              "rulesets", file=sys.stderr)
        return EXIT_INVALID
    try:
        try:
            concealed = nt.parse_tiles(args.hand)
            win_tile = nt.tile_kind(args.win_tile) if args.win_tile else None
            melds = parse_melds(" ".join(args.melds or []))
            flowers = nt.parse_tiles(args.flowers) if args.flowers else []
            seat = nt.tile_kind(args.seat_wind)
        except nt.NotationError as exc:
            raise _BadInput(str(exc)) from None
        if not concealed and not melds:
            raise _BadInput("--hand holds no tiles")
        if not 27 <= seat <= 30:
            raise _BadInput(f"--seat-wind {args.seat_wind}: a seat wind is 1z-4z")
        held = concealed + ([win_tile] if win_tile is not None else []) + \
            [t for m in melds for t in m.tiles()] + flowers
        for kind in sorted(set(held)):
            copies = ruleset.deck[kind] if kind < len(ruleset.deck) else 0
            if held.count(kind) > copies:
                raise _BadInput(f"{held.count(kind)} × {nt.format_tile(kind)}, but the set "
                                f"has {copies}")
        context: dict[str, Any] = {}
        given = _pairs(args.context, "--context")
        if args.turned is not None:
            given.append(("turned", args.turned))
        for name, value in given:
            context[name] = _typed_value(ruleset, name, value, "context")
        for name, value in _pairs(args.option, "--option"):
            context[name] = _typed_value(ruleset, name, value, "option")
        missing = [n for n in ruleset.context if n not in context]
        if missing:
            raise _BadInput("this ruleset needs the context value(s) "
                            + ", ".join(missing) + " (--context NAME=VALUE"
                            + (", or --turned TILE" if "turned" in missing else "") + ")")
        winner = not args.non_winner
        if winner and win_tile is None:
            raise _BadInput("a winning hand needs --win-tile (or --non-winner)")
        win = ruleset.win or {}
        before = 3 * win.get("sets", 4) + 2 * win.get("pairs", 1) - 1 - 3 * len(melds)
        if winner and len(concealed) != before:
            raise _BadInput(f"--hand holds {len(concealed)} tiles; a winning hand holds "
                            f"{before} before the winning tile"
                            + (f" with {len(melds)} meld(s)" if melds else ""))
    except _BadInput as exc:
        print(f"rulesdsl score: {exc}", file=sys.stderr)
        return EXIT_USAGE
    hand = ScoringHand(concealed=concealed, melds=melds, exposed_flowers=flowers,
                       winner=winner, win_tile=win_tile, self_drawn=args.self_drawn,
                       kong_replacement=args.kong_replacement,
                       flower_replacement=args.flower_replacement,
                       robbed_kong=args.robbed_kong, last_tile=args.last_tile,
                       first_turn=args.first_turn, kong_discard=args.kong_discard,
                       seat_wind=seat)
    score = score_hand(ruleset, hand, context, None)
    if args.json or args.format == "json":
        shown = {k: nt.format_tile(v) if ruleset.context.get(k) is not None
                 and ruleset.context[k].type == "tile" else v for k, v in context.items()}
        print(json.dumps({"ruleset": ruleset.id, "context": shown, **score.to_dict()},
                         indent=2, ensure_ascii=False))
    else:
        print(score.explain())
    return EXIT_OK


def cmd_play(args: argparse.Namespace) -> int:
    from .headless.agents import make_agents
    from .headless.logs import play_game

    ruleset = load(args.ruleset)
    try:
        players, options = _table_choices(ruleset, args)
    except _BadInput as exc:
        print(f"rulesdsl play: {exc}", file=sys.stderr)
        return EXIT_USAGE
    if players is not None or options:
        ruleset = ruleset.variant(ruleset, players=players, options=options)
    agents = make_agents(args.agents, ruleset.players)
    if args.log_view is not None and not args.log:
        print("rulesdsl: --log-view needs --log FILE", file=sys.stderr)
        return EXIT_USAGE
    # A whole match where the ruleset has one (its sides climb levels); else a hand.
    hands = args.hands if args.hands is not None else (None if ruleset.levels is not None
                                                        else 1)
    if hands is not None and hands < 1:
        print("rulesdsl: --hands must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    as_json = args.json or args.format == "json"
    write, pictures = _writer()
    humans = [seat for seat, agent in enumerate(agents) if agent.name == "human"]
    narrator = None
    if not as_json:
        from .headless.narrate import Narrator

        write(f"[bold]{_title(ruleset)}[/] — seed {args.seed}, agents "
              f"{', '.join(a.name for a in agents)}")
        narrator = Narrator(ruleset, write, pictures, quiet=args.quiet,
                            viewer=humans[0] if len(humans) == 1 else None)
    state = play_game(ruleset, args.seed, agents, hands, args.log, view=args.log_view,
                      watch=narrator.events if narrator is not None else None)
    summary = {"ruleset": ruleset.id, "seed": args.seed, "hands": len(state.results),
               "returns": state.returns(), "results": state.results}
    if as_json:
        print(json.dumps(summary, ensure_ascii=False, sort_keys=True))
        return EXIT_OK
    returns = state.returns()
    best = max(returns)
    winners = [seat for seat, value in enumerate(returns) if value == best]
    write(f"\n[bold]{len(state.results)} hand(s) played.[/] Returns by seat: "
          + ", ".join(f"seat {s} {v:+g}" for s, v in enumerate(returns))
          + (f" — best: {', '.join(f'seat {w}' for w in winners)}"
             if len(winners) < len(returns) else ""))
    if args.log:
        write(f"log written to {args.log}")
    return EXIT_OK


def _title(ruleset: Any) -> str:
    names = ruleset.name or {}
    shown = " ".join(str(v) for v in names.values()) if isinstance(names, dict) else str(names)
    return f"{shown} ({ruleset.id})" if shown else ruleset.id


def _writer() -> tuple[Callable[[str], None], bool]:
    """How this output is written: rich markup and suit pictures on a terminal, plain text
    with card letters when piped (one notation per output)."""
    if sys.stdout.isatty():
        from rich.console import Console

        console = Console(highlight=False)
        return lambda line: console.print(line), True
    from rich.text import Text

    return lambda line: print(Text.from_markup(line).plain), False


def cmd_list(args: argparse.Namespace) -> int:
    """The bundled rulesets: id, name, family, players (read from each file's header)."""
    from .resources import bundled_rulesets

    rows = []
    for rid, path in sorted(bundled_rulesets().items()):
        try:
            head = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        except (OSError, yaml.YAMLError):
            continue  # bundled files validate in CI; a broken install shows the rest
        names = head.get("name") or {}
        count = (head.get("players") or {}).get("count")
        players = ", ".join(str(c) for c in count) if isinstance(count, list) else str(count)
        rows.append({"id": rid, "name": " ".join(str(v) for v in names.values())
                     if isinstance(names, dict) else str(names),
                     "family": head.get("family"), "players": players,
                     "extra": path.parent.name == "extra"})
    if args.format == "json":
        print(json.dumps(rows, ensure_ascii=False, indent=2))
        return EXIT_OK
    if sys.stdout.isatty():
        from rich.console import Console
        from rich.table import Table

        table = Table("id", "name", "family", "players", title="bundled rulesets")
        for r in rows:
            table.add_row(r["id"], r["name"], r["family"], r["players"])
        Console().print(table)
        return EXIT_OK
    width = max(len(r["id"]) for r in rows) if rows else 2
    fam = max((len(str(r["family"])) for r in rows), default=6)
    print(f"{'id':{width}}  {'family':{fam}}  players  name")
    for r in rows:
        print(f"{r['id']:{width}}  {r['family']!s:{fam}}  {r['players']:7}  {r['name']}")
    return EXIT_OK


def cmd_replay(args: argparse.Namespace) -> int:
    from .headless.logs import replay

    result = replay(args.log, args.ruleset)
    if args.format == "json":
        print(json.dumps({"ok": result.ok, "message": result.message,
                          "returns": result.returns if result.ok else None},
                         ensure_ascii=False))
        return EXIT_OK if result.ok else EXIT_INVALID
    if result.ok:
        print(f"{args.log}: {result.message}; returns {result.returns}")
        return EXIT_OK
    print(result.message, file=sys.stderr)
    return EXIT_INVALID


def cmd_simulate(args: argparse.Namespace) -> int:
    from .headless.report import LEGEND, comparison, print_report
    from .headless.simulate import simulate

    if args.games < 1 or args.workers < 1:
        print("rulesdsl: --games and --workers must be at least 1", file=sys.stderr)
        return EXIT_USAGE
    if args.compare_option and not args.compare:
        print("rulesdsl simulate: --compare-option needs --compare", file=sys.stderr)
        return EXIT_USAGE
    try:
        ruleset = load(args.ruleset)
        players, options = _table_choices(ruleset, args)
        if args.compare:
            # --players and --option hold for both rulesets; --compare-option for B only.
            other_rs = load(args.compare)
            other_players, other_options = _table_choices(other_rs, args)
            other_options.update({name: _typed_value(other_rs, name, value, "option")
                                  for name, value in _pairs(args.compare_option,
                                                            "--compare-option")})
            count_a = players or ruleset.players
            count_b = other_players or other_rs.players
            if count_a != count_b:
                raise _BadInput(f"cannot compare {ruleset.id} ({count_a} players) with "
                                f"{other_rs.id} ({count_b} players): both need the same "
                                "player count (--players N picks one both offer)")
    except _BadInput as exc:
        print(f"rulesdsl simulate: {exc}", file=sys.stderr)
        return EXIT_USAGE
    stats = simulate(args.ruleset, args.games, args.seed, args.workers, args.agents,
                     args.hands, backend=args.backend, players=players, options=options)
    if args.compare:
        # The same game seeds: the same deals when the two rulesets share a deck.
        other = simulate(args.compare, args.games, args.seed, args.workers, args.agents,
                         args.hands, backend=args.backend, players=other_players,
                         options=other_options)
        if args.json or args.format == "json":
            print(json.dumps({"a": stats, "b": other, "comparison": comparison(stats, other),
                              "legend": LEGEND}, ensure_ascii=False, sort_keys=True))
        else:
            print_report(stats, other)
        return EXIT_OK
    if args.json or args.format == "json":
        print(json.dumps(stats, ensure_ascii=False, sort_keys=True))
    else:
        print_report(stats)
    return EXIT_OK


def cmd_new(args: argparse.Namespace) -> int:
    import re

    from .resources import data_dir

    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,63}", args.name):
        print(f"rulesdsl: {args.name!r} is not a ruleset id; use lower-case letters, digits "
              "and '-' (e.g. my-variant)", file=sys.stderr)
        return EXIT_USAGE
    template = (data_dir("templates") / f"{args.family}.yaml").read_text(encoding="utf-8")
    text = template.replace("id: NAME", f"id: {args.name}").replace("en: NAME",
                                                                    f"en: {args.name}")
    out = Path(args.output or f"{args.name}.yaml")
    if out.exists() and not args.force:
        print(f"rulesdsl: {out} exists; use --force to overwrite", file=sys.stderr)
        return EXIT_USAGE
    out.write_text(text, encoding="utf-8")
    schema = out.parent / "ruleset.schema.json"  # what the file's modeline points editors at
    if not schema.exists():
        schema.write_text(schema_json() + "\n", encoding="utf-8")
    print(f"wrote {out}: a {args.family} ruleset that validates; edit it and run "
          f"'rulesdsl validate {out}' (editors complete it from {schema})")
    return EXIT_OK


def cmd_explain(args: argparse.Namespace) -> int:
    from rich.console import Console

    from .explain import ExplainError, explain_data, render_text, resolve_context

    ruleset = load(args.ruleset)
    flags = {"trump": args.trump, "level": args.level, "wild": args.wild}
    try:
        values, shown = resolve_context(ruleset, flags, args.set)
    except ExplainError as exc:
        print(f"rulesdsl explain: {exc}", file=sys.stderr)
        return EXIT_USAGE
    data = explain_data(ruleset, values, shown)
    if args.format == "json":
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        render_text(data, Console(highlight=False))
    return EXIT_OK


def cmd_doc(args: argparse.Namespace) -> int:
    from .rulebook import render

    if args.codes:
        from .diagnostics import codes_text

        sys.stdout.write(codes_text())
        return EXIT_OK
    if args.language is not None:
        from .resources import language_reference, reference_section

        if not args.language:
            sys.stdout.write(language_reference().read_text(encoding="utf-8"))
            return EXIT_OK
        section = reference_section(args.language)
        if section is None:
            print(f"the language reference has no section on {args.language!r}; "
                  "`rulesdsl doc --language` prints all of it", file=sys.stderr)
            return EXIT_USAGE
        sys.stdout.write(section)
        return EXIT_OK
    if args.ruleset is None:
        print("rulesdsl doc: give a ruleset, --language [TOPIC] or --codes", file=sys.stderr)
        return EXIT_USAGE
    text = render(load(args.ruleset), args.format, args.lang)
    if args.output in (None, "-"):
        sys.stdout.write(text)
    else:
        Path(args.output).write_text(text, encoding="utf-8")
        print(f"wrote {args.output}")
    return EXIT_OK


def cmd_lsp(args: argparse.Namespace) -> int:
    from .lsp import main as serve

    return serve()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulesdsl", description="Regional card and tile games written as data.")
    parser.add_argument("--version", action="version", version=f"rulesdsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    ls = sub.add_parser("list", help="list the bundled rulesets: id, family, players, name")
    ls.add_argument("--format", choices=["text", "json"], default="text",
                    help="text: a table (default); json: one object per ruleset")
    ls.set_defaults(func=cmd_list)
    v = sub.add_parser("validate", help="check rule files and run their examples")
    v.add_argument("paths", nargs="+", metavar="PATH", help="rule files or folders")
    v.add_argument("--format", choices=["text", "json", "github"], default="text",
                   help="text (default), json, or github (workflow annotations)")
    v.add_argument("--no-examples", action="store_true", help="skip running the examples")
    v.add_argument("--exclude", action="append", default=[], metavar="GLOB",
                   help="leave out files matching GLOB, from the right (`*.draft.yaml`, "
                   "`drafts/*`); repeatable")
    v.add_argument("-j", "--jobs", type=_positive, metavar="N",
                   help="validate files in N processes (default: one per CPU, on Linux; "
                   "1: in this process)")
    v.set_defaults(func=cmd_validate)
    c = sub.add_parser("compile", help="write the compiled, fully resolved ruleset as JSON")
    c.add_argument("ruleset", help="a bundled id or a rule file")
    c.add_argument("-o", "--output", help="output file (default: standard output)")
    c.set_defaults(func=cmd_compile)
    s = sub.add_parser("schema", help="print the JSON Schema of rule files")
    s.set_defaults(func=cmd_schema)
    k = sub.add_parser("check", help="run an examples file against a ruleset")
    k.add_argument("ruleset", help="a bundled id or a rule file")
    k.add_argument("--examples", required=True, metavar="FILE",
                   help="a YAML file with a top-level `examples:` list")
    k.add_argument("--format", choices=["text", "json"], default="text",
                   help="text (default) or json")
    k.set_defaults(func=cmd_check)
    sc = sub.add_parser("score", help="score a tile hand: items, base, fan, total",
                        description="Score one hand of a tile ruleset (the best reading "
                        "of its wilds is chosen and shown).",
                        epilog="example (RULESET: a bundled tile id, see `rulesdsl list`):"
                        "\n  rulesdsl score RULESET --hand 13p456m789m234s567s11z "
                        "--win-tile 2p --turned 5s",
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    sc.add_argument("ruleset", help="a bundled id or a rule file")
    sc.add_argument("--hand", required=True, help="concealed tiles before the winning tile, "
                    "e.g. 13p456m789m234s567s11z")
    sc.add_argument("--win-tile", help="the winning tile, e.g. 2p")
    sc.add_argument("--melds", action="extend", nargs="+", metavar="MELD",
                    help="exposed or declared sets: c:123m p:555z k:1111m ck:1111m "
                    "(concealed kong); repeatable")
    sc.add_argument("--flowers", help="exposed flowers and special tiles, e.g. 1f5z")
    sc.add_argument("--seat-wind", default="1z", help="1z-4z (default 1z)")
    sc.add_argument("--turned", help="the turned-up tile (shorthand for --context turned=TILE)")
    sc.add_argument("--context", action="append", metavar="NAME=VALUE",
                    help="a context value of the ruleset; repeatable")
    sc.add_argument("--option", action="append", metavar="NAME=VALUE",
                    help="an option value for this hand; repeatable")
    sc.add_argument("--self-drawn", action="store_true",
                    help="the winning tile was drawn, not claimed from a discard")
    sc.add_argument("--kong-replacement", action="store_true",
                    help="won on the tile drawn after a kong")
    sc.add_argument("--flower-replacement", action="store_true",
                    help="won on the tile drawn after a flower")
    sc.add_argument("--robbed-kong", action="store_true",
                    help="won by robbing another player's added kong")
    sc.add_argument("--last-tile", action="store_true",
                    help="no tile could be drawn after the winning one (海底)")
    sc.add_argument("--first-turn", action="store_true",
                    help="nobody had claimed a set and the winner had not discarded (天胡, 地胡)")
    sc.add_argument("--kong-discard", action="store_true",
                    help="won on a discard made after the discarder's kong (杠上炮)")
    sc.add_argument("--non-winner", action="store_true",
                    help="score the hand of a player who did not win")
    sc.add_argument("--format", choices=["text", "json"], default="text",
                    help="text (default) or json")
    sc.add_argument("--json", action="store_true", help="same as --format json")
    sc.set_defaults(func=cmd_score)
    pl = sub.add_parser("play", help="play one game headless with agents")
    pl.add_argument("ruleset", help="a bundled id (see `rulesdsl list`) or a rule file")
    pl.add_argument("--seed", type=int, default=0,
                    help="fixes the shuffle and the agents' choices (default 0)")
    pl.add_argument("--agents", default="random",
                    help="comma-separated, one per seat, or one for all: random, greedy, "
                    "human, ismcts (ismcts:500 iterations or ismcts:0.5s a move; "
                    ":greedy or :random rollouts)")
    pl.add_argument("--hands", type=int, default=None,
                    help="hands to play (default: a whole match in the trick family, "
                         "one hand otherwise)")
    pl.add_argument("--log", help="write the game log (JSON Lines) here")
    pl.add_argument("--log-view", type=int, metavar="SEAT",
                    help="log only what this seat could see")
    pl.add_argument("--json", action="store_true", help="same as --format json")
    pl.add_argument("--format", choices=["text", "json"], default="text",
                    help="text: the game told trick by trick (default); json: a summary")
    pl.add_argument("-q", "--quiet", action="store_true",
                    help="text: only each hand's result and the returns")
    pl.set_defaults(func=cmd_play)
    rp = sub.add_parser("replay", help="re-check a game log against the rules")
    rp.add_argument("log", help="a game log (JSON Lines) written by `play --log`")
    rp.add_argument("--ruleset", help="the ruleset (default: the one the log names)")
    rp.add_argument("--format", choices=["text", "json"], default="text",
                    help="text (default) or json")
    rp.set_defaults(func=cmd_replay)
    nw = sub.add_parser("new", help="write a commented starting ruleset that validates")
    nw.add_argument("name", help="the new ruleset's id, e.g. my-variant")
    nw.add_argument("--family", choices=["trick", "shedding", "tiles"], required=True,
                    help="which engine plays it: trick-taking, shedding, or tiles")
    nw.add_argument("-o", "--output", help="file to write (default NAME.yaml)")
    nw.add_argument("--force", action="store_true", help="overwrite an existing file")
    nw.set_defaults(func=cmd_new)
    sm = sub.add_parser("simulate", help="simulate many games and print statistics")
    sm.add_argument("ruleset", help="a bundled id (see `rulesdsl list`) or a rule file")
    sm.add_argument("--games", type=int, required=True, help="how many games to play")
    sm.add_argument("--seed", type=int, default=0,
                    help="game i is dealt from (seed, i): reruns give the same numbers")
    sm.add_argument("--workers", type=int, default=1,
                    help="processes to play in (the numbers do not depend on it)")
    sm.add_argument("--agents", default="random",
                    help="comma-separated, one per seat, or one for all: random, greedy, "
                    "ismcts (ismcts:500 iterations or ismcts:0.5s a move; "
                    ":greedy or :random rollouts)")
    sm.add_argument("--hands", type=int, default=1, help="hands per game (default 1)")
    sm.add_argument("--backend", choices=["local", "ray"], default="local",
                    help="local processes, or a Ray cluster (RAY_ADDRESS or a local one)")
    sm.add_argument("--compare", metavar="OTHER_RULESET",
                    help="play another ruleset (B) on the same seeds and show both side by "
                    "side, with B - A and whether it is significant at 95%%")
    sm.add_argument("--compare-option", action="append", metavar="NAME=VALUE",
                    help="an option value for the compared ruleset only (repeatable), e.g. "
                    "the same ruleset with one option changed")
    sm.add_argument("--format", choices=["text", "json"], default="text",
                    help="text: tables with 95%% confidence intervals (default); json")
    sm.add_argument("--json", action="store_true", help="same as --format json")
    for cmd in (pl, sm):
        cmd.add_argument("--players", type=int, help="one of the ruleset's player counts "
                         "(default: its first)")
        cmd.add_argument("--option", action="append", metavar="NAME=VALUE",
                         help="a value for one of the ruleset's options (repeatable)")
    sm.set_defaults(func=cmd_simulate)
    ex = sub.add_parser("explain", help="show the compiled ladder, trumps, wilds, patterns "
                        "and scoring for one hand's context")
    ex.add_argument("ruleset", help="a bundled id or a rule file")
    ex.add_argument("--trump", help="the suit-typed context value, e.g. H")
    ex.add_argument("--level", help="the rank-typed context value, e.g. 8")
    ex.add_argument("--wild", help="the tile-typed context value, e.g. 3s")
    ex.add_argument("--set", action="append", metavar="NAME=VALUE",
                    help="any context value or option; repeatable")
    ex.add_argument("--format", choices=["text", "json"], default="text",
                    help="text (default) or json")
    ex.set_defaults(func=cmd_explain)
    dc = sub.add_parser("doc", help="render a rulebook (markdown or one HTML page); or "
                        "print the language reference or the problem codes")
    dc.add_argument("ruleset", nargs="?", help="a bundled id or a rule file")
    dc.add_argument("--lang", choices=["en", "zh"], default="en",
                    help="the rulebook's language: en (default) or zh (中文)")
    dc.add_argument("--language", nargs="?", const="", metavar="TOPIC",
                    help="print the language reference, or its section on TOPIC (a key "
                    "such as patterns, play, tables)")
    dc.add_argument("--codes", action="store_true",
                    help="print the problem codes `validate` gives, and what they mean")
    dc.add_argument("--format", choices=["md", "html"], default="md",
                    help="md: markdown (default); html: one self-contained page")
    dc.add_argument("-o", "--output", help="output file (default: standard output)")
    dc.set_defaults(func=cmd_doc)
    lsp = sub.add_parser("lsp", help="the language server for editors, on standard input "
                         "and output (needs the lsp extra: pip install 'rulesdsl[lsp]'; "
                         "docs/lsp.md)")
    lsp.set_defaults(func=cmd_lsp)
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
    except Exception as exc:  # a bug in rulesdsl, not bad input: say so, without a traceback
        if os.environ.get("RULESDSL_DEBUG"):
            raise
        print(f"rulesdsl: internal error ({type(exc).__name__}: {exc}); this is a bug in "
              "rulesdsl, please report it with the file you used (RULESDSL_DEBUG=1 shows "
              "the traceback)", file=sys.stderr)
        return EXIT_INTERNAL
