"""Command line: ``falseclaims check | plan | percase | sota | sheet``.

Each verb lives in its own module with ``register(subparsers)``; the handler it sets
returns an exit code. Bad arguments give a one-line error and exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import sys

VERBS = ("check", "plan", "percase", "sota", "sheet")


class UsageError(Exception):
    """Raised by a verb for bad arguments; printed on one line, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="falseclaims",
        description="How likely is a published outperformance claim to be false?",
        epilog="Keys in brackets, e.g. [Christodoulou2025], are the references listed in "
               "docs/references.md.",
    )
    sub = parser.add_subparsers(dest="verb", required=True)
    for verb in VERBS:
        importlib.import_module(f"falseclaims.cli.{verb}").register(sub)
    for p in (parser, *sub.choices.values()):
        one_line_errors(p)
    return parser


def one_line_errors(parser: argparse.ArgumentParser) -> None:
    """Argument errors as one line on stderr with exit code 2 (argparse would print the
    usage block first)."""

    def error(message: str):
        print(f"{parser.prog}: error: {message}", file=sys.stderr)
        sys.exit(2)

    parser.error = error


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.handler(args) or 0)
    except (UsageError, ValueError, FileNotFoundError) as exc:
        print(f"falseclaims {args.verb}: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # output piped into e.g. `head`
        sys.stderr.close()
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
