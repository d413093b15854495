"""What every `falseclaims` command shares: the bounds of numbers, the help's examples and
exit codes, and the refusal of unknown or repeated options (argparse takes the last of a
repeated option silently, and reports a mistyped option as a missing required one)."""

from __future__ import annotations

import argparse
import difflib
import re

from falseclaims.readout import WITH_SPREAD

# the largest test-set size any command accepts (check --n, plan --n-max, sota --n): beyond
# it the exact computations take minutes and gigabytes while real test sets are far smaller
MAX_N = 10**9

_CODES_0_2 = "exit codes: 0 done; 2 bad arguments or input (one line on stderr)"
EPILOGS = {
    "falseclaims": """examples:
  falseclaims check --task cls --n 500 --a 0.86 --b 0.85
  falseclaims plan --task seg --delta 0.01 --level 0.85
  falseclaims percase data/example/percase_segmentation_synthetic.csv --report report.html
  falseclaims sota --m 50 --n 1000 --p 0.8
  falseclaims sheet inspect data/example/venue_c_synthetic_messy.xlsx --write my.yaml
  falseclaims table data/example/tables/leaderboard_20.md --report report_table.html
  falseclaims serve

Every command: --help for its options, --json for one JSON object (docs/cli.md).
Keys in brackets, e.g. [Christodoulou2025], are the references listed in docs/references.md.
""" + _CODES_0_2,
    "check": """examples:
  falseclaims check --task classification --n 500 --a 0.86 --b 0.85
  falseclaims check --task seg --n 40 --a 0.90 --b 0.88 --sd-a 0.05 --sd-b 0.06
  falseclaims check --task cls --n 500 --a 0.86 --b 0.85 --decimals 2 --json

""" + _CODES_0_2,
    "plan": """examples:
  falseclaims plan --task classification --delta 0.02 --level 0.85
  falseclaims plan --task seg --delta 0.01 --level 0.85 --target 0.01 --json

exit codes: 0 every assumption found a size; 1 some did not (the message says which);
2 bad arguments or input (one line on stderr)""",
    "percase": """examples:
  falseclaims percase results.csv          (the task read from the file, or asked for)
  falseclaims percase data/example/percase_classification_synthetic.csv --all-pairs
  falseclaims percase preds.csv --task cls --labels truth.csv --all-pairs --report out.html

""" + _CODES_0_2,
    "sota": """examples:
  falseclaims sota --m 50 --n 1000 --p 0.8
  falseclaims sota --m 1e3 --n 3e3 --p 0.9 --json

""" + _CODES_0_2,
    "table": """examples:
  falseclaims table data/example/tables/latex_segmentation.tex --n 120
  falseclaims table data/example/tables/leaderboard_20.md --report report_table.html
  falseclaims table data/example/tables/miccai_two_datasets.tex --n BTCV=30,ACDC=100
  falseclaims table --dir my_tables/ --n 500 --csv claims.csv

exit codes: 0 every table read; 1 some tables or files could not be read (each listed with
its reason); 2 bad arguments, or nothing readable in a single FILE""",
    "sheet": """examples:
  falseclaims sheet inspect data/example/venue_c_synthetic_messy.xlsx
  falseclaims sheet check --venue miccai2023_synthetic --config config/config.yaml

exit codes: 0 done (check: no problem); 1 check found problems or an implausible result;
2 bad arguments or config""",
    "sheet inspect": """examples:
  falseclaims sheet inspect data/example/venue_c_synthetic_messy.xlsx
  falseclaims sheet inspect survey.xlsx --sheet extraction --venue myvenue --write myvenue.yaml

""" + _CODES_0_2,
    "sheet check": """examples:
  falseclaims sheet check --venue venue_c_synthetic
  falseclaims sheet check --venue myvenue --config myvenue.yaml --json

exit codes: 0 no problem; 1 problems found (listed by column) or an implausible result
(IMPLAUSIBLE: lines); 2 bad arguments or config""",
}

_NUMBER = re.compile(r"^-(\d|\.\d)")
_UNCOUNTED = (argparse._AppendAction, argparse._CountAction, argparse._HelpAction,
              argparse._VersionAction)


def _subparsers(parser):
    return next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)),
                None)


def _resolve(parser, name: str):
    """The action an option string means (argparse accepts unique prefixes)."""
    table = parser._option_string_actions
    if name in table:
        return table[name]
    hits = {table[o] for o in table if o.startswith("--") and o.startswith(name)}
    if len(hits) == 1 and name.startswith("--"):
        return hits.pop()
    return None if not hits else "ambiguous"


def _suggestion(root, current, name: str) -> str:
    """'; it is an option of falseclaims plan' when another command has the option (check
    --delta had been answered "did you mean --task?"), else the nearest option's name."""
    sub = _subparsers(root)
    owners = [cmd for cmd, p in (sub.choices.items() if sub else ())
              if p is not current and name in p._option_string_actions]
    if owners and name not in ("-h", "--help", "--json", "--config"):
        listed = ", ".join(owners[:-1]) + " and " * (len(owners) > 1) + owners[-1]
        return f"; it is an option of {root.prog} {listed}"
    options = [o for o in current._option_string_actions if o.startswith("--")]
    near = difflib.get_close_matches(name, options, n=1, cutoff=0.6)
    return f"; did you mean {near[0]}?" if near else ""


def refuse_unknown_and_repeated(parser: argparse.ArgumentParser, argv: list[str]) -> None:
    """Exit 2 with one line for an unknown option (with a suggestion) or a repeated one,
    before argparse would report a missing required option instead."""
    current, seen, i = parser, {}, 0
    while i < len(argv):
        token = argv[i]
        i += 1
        if token == "--":
            return
        if not token.startswith("-") or token == "-" or _NUMBER.match(token):
            sub = _subparsers(current)
            if sub is not None and token in sub.choices:
                current, seen = sub.choices[token], {}
            elif sub is not None:  # a mistyped command: its options would be unknown here
                current.error(f"argument {sub.dest}: invalid choice: '{token}' "
                              f"(choose from {', '.join(sub.choices)})")
            continue
        name = token.split("=", 1)[0]
        action = _resolve(current, name)
        if action == "ambiguous":
            continue  # argparse names the candidates
        if action is None:
            current.error(f"unknown option {name}{_suggestion(parser, current, name)} "
                          f"(see {current.prog} --help)")
        abbreviated = name not in current._option_string_actions
        if abbreviated and (elsewhere := _suggestion(parser, current, name)).startswith(
                "; it is"):  # plan --n 500 was read as --n-max 500
            full = next(o for o in action.option_strings if o.startswith("--"))
            current.error(f"{name} is not an option of {current.prog}{elsewhere}; write "
                          f"{full} in full if you meant it")
        if isinstance(action, (argparse._HelpAction, argparse._VersionAction)):
            return
        if not isinstance(action, _UNCOUNTED):
            if action.dest in seen:
                first, second = seen[action.dest], _value(argv, i, token, action)
                # KEY=VALUE pairs (table --n TM=600): the fix is one comma-separated list
                joined = (f" ({name} {first},{second})"
                          if "=" in str(first) and "=" in str(second) else "")
                current.error(f"option {name} given twice ({first} and {second}); "
                              f"give it once{joined}")
            seen[action.dest] = _value(argv, i, token, action)
        if action.nargs != 0 and "=" not in token:
            i += 1  # its value


def _value(argv, i, token, action) -> str:
    if "=" in token:
        return token.split("=", 1)[1]
    if action.nargs == 0:
        return token
    return argv[i] if i < len(argv) else "?"


def limit_text(value: int) -> str:
    """A limit as a help text or message writes it: 10**k as "10^k", others as "12,345"."""
    return f"10^{len(str(value)) - 1}" if str(value).strip("0") == "1" else f"{value:,}"


def refuse_dot_group(text: str) -> None:
    """A size such as "10.000" is 10 with a decimal point, but 10,000 where '.' groups digits
    (German, Italian, ...): refused as ambiguous rather than read as 10. Only 1-3 digits (not
    starting with 0, as a digit group) then '.' and exactly three zeros: other digits after
    the '.' are no whole number and refused as such already; "10.0" stays 10."""
    t = text.strip()
    if re.fullmatch(r"\+?[1-9]\d{0,2}\.000", t):
        whole = t.lstrip("+").split(".")[0]
        raise argparse.ArgumentTypeError(
            f"{t} is ambiguous: write {int(whole) * 1000} or {int(whole)}")


def whole_number(text: str) -> int:
    """argparse type of every count (check --n/--decimals, plan --n-max, sota --m/--n):
    :func:`falseclaims.cli.count`, and a count pasted with its spread (``100 ± 5``,
    ``1,000 (50)``) answered with the number to give (was "expected a whole number")."""
    from falseclaims.cli import count

    try:
        return count(text)
    except argparse.ArgumentTypeError:
        pasted = pasted_with_spread(text)
        if pasted is None:
            raise
    raise argparse.ArgumentTypeError(
        f"got {text!r}, a whole number with its {pasted[0]}; give it alone: "
        f"{_before_spread(text)}")


whole_number.__name__ = "count"


def bounded_count(lo: int, hi: int = MAX_N):
    """argparse type: a whole number (:func:`whole_number`) in [lo, hi]."""

    def parse(text: str) -> int:
        value = whole_number(text)
        if not lo <= value <= hi:
            raise argparse.ArgumentTypeError(
                f"expected a whole number between {lo:,} and {limit_text(hi)}; got {text}")
        return value

    parse.__name__ = "count"
    return parse




def reported_value(option: str, sd_option: str | None = None):
    """argparse type of a reported value (check --a/--b, plan, sota): every number option's
    spellings (:func:`falseclaims.cli.number`), and a value pasted with its spread
    (``0.853±0.05``) answered with the two options to give (was "expected a number")."""
    from falseclaims.cli import number

    def parse(text: str) -> float:
        m = WITH_SPREAD.match(text)
        if m is None:
            try:
                return number(text)
            except argparse.ArgumentTypeError:
                pasted = pasted_with_spread(text)
                if pasted is None:
                    raise
            kind, value, spread = pasted
            head = (f"got {text!r}, a value with its {kind}; give the value alone: "
                    f"{option} {value:.10g}")
            if sd_option is None:
                raise argparse.ArgumentTypeError(head)
            if spread is None:
                raise argparse.ArgumentTypeError(head + " (an interval is no per-case SD)")
            raise argparse.ArgumentTypeError(
                f"{head}, and for segmentation its per-case SD apart: {sd_option} "
                f"{spread:.10g} if that is what the brackets hold (an SD over runs or folds, "
                "a standard error or a confidence interval is no per-case SD)")
        # "85.3 ± 1.2 %", "85.3% ± 1.2%": the fractions to give
        scale = 100.0 if m.group(2) or m.group(4) else 1.0
        value, spread = (float(g.replace(",", ".")) / scale for g in m.group(1, 3))
        head = f"got {text!r}, a value with its spread; give the value alone: {option} {value:.10g}"
        if sd_option is None:
            raise argparse.ArgumentTypeError(head)
        raise argparse.ArgumentTypeError(
            f"{head}, and for segmentation its per-case SD apart: {sd_option} {spread:.10g} "
            "(an SD over runs or folds, or a confidence interval, is no per-case SD)")

    parse.__name__ = "number"
    return parse



def _before_spread(text: str) -> str:
    """The number typed before its spread, as typed ("1,000 ± 50" -> "1,000")."""
    from falseclaims.io.raw_table import clean_text

    return re.split(r"\s*(?:±|\+/?-|[(\[])", clean_text(str(text)).strip())[0]


def pasted_with_spread(text: str):
    """:func:`falseclaims.readout.pasted_with_spread` of the text made plain as the number
    options read it (U+2212, no-break spaces)."""
    from falseclaims.io.raw_table import clean_text
    from falseclaims.readout import pasted_with_spread as read

    return read(clean_text(str(text)))

