"""Command line: ``falseclaims check | plan | percase | sota | sheet | table``.

Each verb lives in its own module with ``register(subparsers)``; the handler it sets
returns an exit code. Bad arguments give a one-line error and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from pathlib import Path

VERBS = ("check", "plan", "percase", "sota", "sheet", "table")
CONFIG_HELP = ("config file holding only the keys to change, merged over the defaults shipped "
               "with falseclaims (default: $FALSECLAIMS_CONFIG, else ./config/config.yaml if "
               "present; config/README.md)")


class UsageError(Exception):
    """Raised by a verb for bad arguments; printed on one line, exit code 2."""


def count(text: str) -> int:
    """argparse type for counts: an integer, also written as 1e6 or 1_000_000."""
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if not value.is_integer():
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(text) if text.strip().lstrip("+-").isdigit() else int(value)


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="falseclaims",
        description="How likely is a published outperformance claim to be false?",
        epilog="Keys in brackets, e.g. [Christodoulou2025], are the references listed in "
               "docs/references.md.",
    )
    parser.add_argument("--version", action="version", version=f"falseclaims {package_version()}")
    sub = parser.add_subparsers(dest="verb", required=True, title="commands", metavar="command")
    for verb in VERBS:
        importlib.import_module(f"falseclaims.cli.{verb}").register(sub)
    one_line_errors(parser, VERBS)
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
        if commands and message.endswith("required: command"):
            message += f" ({', '.join(commands)})"
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)

    parser.error = error


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0
    except (UsageError, ValueError, OSError) as exc:
        # input errors (bad values, config, files): one line, no traceback
        print(f"falseclaims {args.verb}: error: {_one_line(exc)}", file=sys.stderr)
        return 2


def _one_line(exc: Exception) -> str:
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        return f"{exc.filename}: {exc.strerror}"
    return str(exc)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
