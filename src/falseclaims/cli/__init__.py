"""Command line: ``falseclaims check | plan | percase | sota | sheet | table``.

Each verb lives in its own module with ``register(subparsers)``; the handler it sets
returns an exit code. Bad arguments give a one-line error and exit code 2. Conventions of
every command (docs/cli.md): a mistyped command or option gets a "did you mean"; an
unknown option is named as such; an option given twice is refused; ``--task`` accepts the
short names of sheets (cls, seg); ``--help`` ends with examples and the exit codes; bare
``falseclaims`` prints the help; ``--json`` writes one envelope (:mod:`.envelope`).
"""

from __future__ import annotations

import argparse
import difflib
import errno
import importlib
import os
import re
import sys
import unicodedata
from pathlib import Path

from falseclaims.cli.conventions import EPILOGS, MAX_N, refuse_unknown_and_repeated
from falseclaims.readout import pasted_with_spread

VERBS = ("check", "plan", "percase", "sota", "sheet", "table", "serve")
CONFIG_HELP = ("config file holding only the keys to change, merged over the defaults shipped "
               "with falseclaims (default: $FALSECLAIMS_CONFIG, else ./config/config.yaml if "
               "present; config/README.md)")


class UsageError(Exception):
    """Raised by a verb for bad arguments; printed on one line, exit code 2."""


def task(text: str) -> str:
    """argparse type for --task: a task or a short name of sheets (cls, seg)."""
    from falseclaims.tasks import TASK_ALIASES, TASKS, metric_hint, resolve_task
    try:  # a word copied from a PDF may hold a ligature: 'classiﬁcation' (ﬁ, U+FB01)
        return resolve_task(unicodedata.normalize("NFKC", _pasted(text)))
    except ValueError:
        names = [*TASKS, *TASK_ALIASES]
        key = re.sub(r"[\s_-]+", " ", str(text)).strip().lower()
        near = difflib.get_close_matches(key, names, n=1)
        # a metric given for the task: the task it belongs to, or that it is neither
        hint = metric_hint(_pasted(text)) or (f"; did you mean {near[0]!r}?" if near else "")
        raise argparse.ArgumentTypeError(
            f"expected one of {', '.join(names)}, got {text!r}{hint}") from None


TASK_HELP = "classification (values are accuracies) or segmentation (mean DSC); cls, seg accepted"


def _pasted(text: str) -> str:
    """An option's text as typed or copied from a PDF: a minus sign U+2212, thin and
    no-break spaces, zero-width characters made plain, as the sheet and table readers make
    their cells (:func:`falseclaims.io.raw_table.clean_text`)."""
    from falseclaims.io.raw_table import clean_text
    return clean_text(text)


def count(text: str) -> int:
    """argparse type for counts: an integer, also written as 1e6 or 1_000_000, or with its
    digits grouped as a paper prints them (1 024, 1,024); "10.000" and "10,000", 10 or
    10,000, are refused as ambiguous: every option that takes a count."""
    from falseclaims.cli.conventions import refuse_dot_group
    from falseclaims.io.cells import grouped_count

    plain = _pasted(text)
    refuse_dot_group(plain)
    one_comma_group = re.fullmatch(r"\+?([1-9]\d{0,2}),000", plain)
    if one_comma_group:  # 10,000 is also 10 written with a decimal comma
        whole = int(one_comma_group.group(1))
        raise argparse.ArgumentTypeError(
            f"{plain} is ambiguous: write {whole * 1000} or {whole}")
    # digits grouped as a paper prints them (io.cells.grouped_count: table mode's and the
    # sheets' rule): no other reading is a whole number, 1,024 is not 1.024
    if (grouped := grouped_count(plain)) is not None:
        return grouped
    try:
        value = float(plain.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not value.is_integer():
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(plain) if plain.lstrip("+-").isdigit() else int(value)


def number(text: str) -> float:
    """argparse type for every float option: a decimal comma or a percent sign is named
    with the spelling to give instead (was argparse's "invalid float value"); -0 is 0 (it
    was printed "A = -0"). Copied from a PDF: a minus sign U+2212 is a minus; a value
    with its spread or interval (0.85 ± 0.09, 0.85 (0.02), 0.85 [0.80, 0.90]) is refused
    naming the one number to give (:func:`falseclaims.readout.pasted_with_spread`)."""
    t = _pasted(text)
    try:
        return float(t) + 0.0
    except ValueError:
        pass
    pasted = pasted_with_spread(t)
    if pasted is not None:  # the value alone, as a fraction when printed in percent
        kind, value, spread = pasted
        # the words of conventions.reported_value, which answers check's --a/--b
        head = f"got {text!r}, a value with its {kind}; give the value alone: {value:.10g}"
        if spread is None:
            raise argparse.ArgumentTypeError(head + " (an interval is no per-case SD)")
        raise argparse.ArgumentTypeError(
            f"{head} (an SD after the value goes to --sd-a / --sd-b of check when it is the "
            "per-case SD)")
    if re.fullmatch(r"[+-]?\d*,\d+", t):
        raise argparse.ArgumentTypeError(
            f"expected a number with a decimal point, got {text!r} (give {t.replace(',', '.')})")
    m = re.fullmatch(r"([+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+))\s*%", t)
    if m:
        value = float(m.group(1).replace(",", ".")) / 100
        raise argparse.ArgumentTypeError(
            f"expected a fraction without '%', got {text!r} (give {value:.10g})")
    raise argparse.ArgumentTypeError(f"expected a number, got {text!r}")


def congruence_value(text: str) -> float:
    """argparse type of ``--congruence`` (check, plan): one value of one's own. A level name
    (``median``: what ``falseclaims.probability`` takes, docs/api.md) is refused saying that
    the command shows every level without the option (was: "expected a number")."""
    from falseclaims.levels import CONGRUENCE_LEVELS, LEVEL_LABELS

    try:
        return number(text)
    except argparse.ArgumentTypeError:
        if _pasted(text).lower() not in CONGRUENCE_LEVELS:
            raise
    shown = ", ".join(LEVEL_LABELS[level] for level in CONGRUENCE_LEVELS)
    raise argparse.ArgumentTypeError(
        f"expected a number, got {text!r}: without --congruence every level is shown "
        f"({shown}); --congruence takes a value of your own (classification: the share of "
        "cases both methods get right; segmentation: Pearson r of the per-case DSC)")


def check_count(option: str, value: int | None, lo: int = 2, hi: int = MAX_N) -> None:
    """The same bounds for every test-set size option (--n, --n-max)."""
    if value is not None and not lo <= value <= hi:
        raise UsageError(f"{option} must be between {lo} and {hi:.0e} (a test-set size); "
                         f"got {value:.3g}")


def check_congruence(task: str, value: float | None) -> None:
    """--congruence: a both-correct share in [0, 1] (classification) or a Pearson r in
    [-1, 1] (segmentation), named as the option."""
    lo = 0.0 if task == "classification" else -1.0
    if value is not None and not lo <= value <= 1:
        raise UsageError(f"--congruence must lie in [{lo:g}, 1] for {task}; got {value:g}")


def check_report_path(path: str | None) -> None:
    """--report must name an .html file in an existing directory (checked before any work)."""
    if path is None:
        return
    p = Path(path)
    if not p.name.lower().endswith((".html", ".htm")):
        raise UsageError(f"--report must name an .html file; got {path!r}")
    if p.is_dir():
        raise UsageError(f"--report {path}: is a directory; name a file such as "
                         f"{p / 'report.html'}")
    parent = p.parent if str(p.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError(f"--report {path}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise UsageError(f"--report {path}: not writable")


def output_options(p: argparse.ArgumentParser, config: bool = True,
                   report: bool = True) -> None:
    """The options every command words alike: --config, --json (the envelope of
    docs/cli.md) and --report."""
    if config:
        p.add_argument("--config", help=CONFIG_HELP)
    p.add_argument("--json", action="store_true",
                   help="write one JSON object (the envelope of docs/cli.md) instead of text")
    if report:
        p.add_argument("--report", metavar="FILE.html", help="also write an HTML report")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="falseclaims",
        description="How likely is a published outperformance claim to be false?",
        epilog=EPILOGS["falseclaims"],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"falseclaims {package_version()}")
    sub = parser.add_subparsers(dest="verb", required=True, title="commands", metavar="command")
    for verb in VERBS:
        importlib.import_module(f"falseclaims.cli.{verb}").register(sub)
    one_line_errors(parser, VERBS)
    for name, p in sub.choices.items():
        p.epilog = EPILOGS.get(name, p.epilog)
        p.formatter_class = argparse.RawDescriptionHelpFormatter
        inner = next((a for a in p._actions if isinstance(a, argparse._SubParsersAction)),
                     None)
        for sub_name, q in (inner.choices.items() if inner else ()):
            q.epilog = EPILOGS.get(f"{name} {sub_name}", q.epilog)
            q.formatter_class = argparse.RawDescriptionHelpFormatter
        for action in p._actions:  # every --task accepts the short names of sheets
            if action.dest == "task" and action.type is None:
                action.type = task
                action.help = TASK_HELP
            if action.type is float:  # one wording for every number option
                action.type = congruence_value if action.dest == "congruence" else number
    for p in sub.choices.values():
        if "error" not in vars(p):  # a verb with commands of its own sets them (sheet)
            one_line_errors(p)
    return parser


def package_version() -> str:
    """The installed distribution's version (the package's own when run from a source tree)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("falseclaims")
    except PackageNotFoundError:
        from falseclaims import __version__
        return __version__


def one_line_errors(parser: argparse.ArgumentParser, commands: tuple = ()) -> None:
    """Argument errors as one line on stderr with exit code 2 (argparse would print the
    usage block first); a missing command lists the ``commands``."""

    def error(message: str):
        before = getattr(parser, "_before_error", None)
        if before is not None:  # a command's own hook (table: the --json envelope)
            before(message)
        elif not commands and "--json" in _ARGV:
            json_error(_command_of(parser.prog), {}, message)
        if commands and message.endswith("required: command"):
            message += f" ({', '.join(commands)})"
        bad = re.search(r"invalid choice: '([^']*)'", message)
        if bad and commands:
            near = difflib.get_close_matches(bad.group(1), commands, n=1)
            message = (f"unknown command {bad.group(1)!r}"
                       + (f"; did you mean {near[0]!r}?" if near else "")
                       + f" (commands: {', '.join(commands)})")
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)

    parser.error = error


_ARGV: list[str] = []  # the command line being parsed (argument errors with --json)


def _command_of(prog: str) -> str:
    """The envelope's command of a (sub)parser: ``falseclaims sheet inspect`` -> ``sheet
    inspect``."""
    return prog.split(" ", 1)[1] if " " in prog else prog


def json_error(command: str, inputs: dict, message: str) -> None:
    """With --json an input or argument error also writes the envelope, ``result.error``
    holding the line printed on stderr (the shape of ``table``'s, docs/cli.md)."""
    from falseclaims.cli.envelope import emit

    try:
        emit(command, inputs, {"error": message})
    except (OSError, ValueError):  # stdout closed: the stderr line still says it
        pass


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    _ARGV[:] = argv[:argv.index("--")] if "--" in argv else argv
    if not argv:  # bare `falseclaims`: the help, not an error
        parser.print_help()
        return 0
    if argv == ["sheet"]:
        parser.parse_args(["sheet", "--help"])
    refuse_unknown_and_repeated(parser, argv)
    args, extra = parser.parse_known_args(argv)
    if extra:  # argparse said "falseclaims: error: unrecognized arguments", not the command
        verb = " ".join(filter(None, (args.verb, getattr(args, "sheet_verb", None))))
        return _failed(args, f"unexpected argument {extra[0]!r} (see falseclaims {verb} "
                             "--help)")
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except (UsageError, ValueError, OSError) as exc:
        # input errors (bad values, config, files): one line, no traceback; table has
        # written its --json envelope already
        return _failed(args, _one_line(exc), envelope=args.verb != "table")
    except Exception as exc:  # a bug: one line, not a traceback (FALSECLAIMS_DEBUG=1 shows it)
        if os.environ.get("FALSECLAIMS_DEBUG"):
            raise
        if isinstance(exc, (RecursionError, MemoryError)):  # an input beyond reason
            return _failed(args, f"input too large or too deeply nested to read "
                                 f"({type(exc).__name__})")
        return _failed(args, f"unexpected {type(exc).__name__}: {_one_line(exc)} (a bug in "
                             "falseclaims; FALSECLAIMS_DEBUG=1 shows the traceback)")


def _failed(args, message: str, envelope: bool = True) -> int:
    """Exit code 2 with the one stderr line, and with --json the envelope of the error."""
    if envelope and getattr(args, "json", False):
        from falseclaims.cli.envelope import inputs_of
        command = " ".join(filter(None, (args.verb, getattr(args, "sheet_verb", None))))
        json_error(command, inputs_of(args), message)
    print(f"falseclaims {args.verb}: error: {message}", file=sys.stderr)
    return 2


def _one_line(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    if isinstance(exc, OSError) and exc.strerror:  # no file named: stdout on a full disk
        full = exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EIO)
        return f"{'writing the output: ' if full else ''}{exc.strerror} (errno {exc.errno})"
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
