"""`falseclaims table`: every claim in a published results table (docs/table.md).

Per metric column: the reported winner, P(false claim) of the winner against every other
method (the numbers of `falseclaims check`), the methods tied with it, tiers of the rest,
the multiplicity view [Mollersen2023] and the sensitivity band. Exit codes: 0 every table
read, 1 some tables or files not read (listed with the reason), 2 bad usage or input.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from falseclaims.cli import UsageError, count, output_options
from falseclaims.cli.conventions import MAX_N, limit_text
from falseclaims.config import load_config
from falseclaims.tasks import TASKS

FIGURE_SUFFIXES = (".png", ".pdf", ".svg")


def register(sub) -> None:
    p = sub.add_parser(
        "table", help="every claim in a results table: winner, ties, tiers",
        description="Read a results table as published (CSV, TSV, XLSX, Markdown, LaTeX "
                    "tabular; methods as rows, metrics as columns) and report, per metric "
                    "column, the reported winner, P(false claim) against every other method, "
                    "the methods tied with the winner and tiers of the rest.")
    p.add_argument("file", nargs="?", metavar="FILE", help="one table file")
    p.add_argument("--dir", metavar="DIR", help="every table file under DIR: one row per claim")
    p.add_argument("--n", type=sizes, metavar="N|GROUP=N,...",
                   help="test-set size (else an n column or row of the table); one per data "
                        "set: --n BTCV=30,ACDC=100 (a GROUP is matched in the column header, "
                        "the row group or the caption; a bare N serves the other columns)")
    p.add_argument("--task", choices=TASKS,
                   help="task of the metric columns whose name does not tell (accuracy -> "
                        "classification, DSC/Dice -> segmentation)")
    p.add_argument("--units", default="auto", choices=["auto", "percent", "fraction"],
                   help="values in percent or fractions (default auto: a %% sign or values "
                        "above 1 mean percent; a column mixing both is refused)")
    p.add_argument("--metric", action="append", metavar="COLUMN[=KIND]",
                   help="analyse only this column (repeatable; header text as printed); "
                        "COLUMN=KIND also says what it measures: dice, accuracy, error-rate, "
                        "higher, lower")
    p.add_argument("--lower-better", action="append", metavar="COLUMN",
                   help="lower is better in this column (repeatable); ranked, or analysed "
                        "with per-case SDs (--pm-over test)")
    p.add_argument("--ignore", action="append", metavar="COLUMN",
                   help="do not read this column (repeatable)")
    p.add_argument("--transpose", action="store_true",
                   help="the table has methods as columns and metrics as rows")
    p.add_argument("--macros", metavar="FILE.tex", action="append",
                   help="a LaTeX file whose \\newcommand/\\def numbers the table uses "
                        "(repeatable)")
    p.add_argument("--table", metavar="NAME|K",
                   help="which table of the file (caption/sheet/heading text or number)")
    p.add_argument("--cutoff", type=float,
                   help="a method is tied with the winner when P(false claim) >= CUTOFF "
                        "(default: the config's claim_check.interpretation.robust_below, "
                        "0.05: below it check calls a claim robust)")
    p.add_argument("--pm-over", default="unclear", choices=["test", "cv", "runs", "unclear"],
                   help="what the ± values are SDs over: only per-case SDs over the test set "
                        "(config analysis.use_reported_sd_over) are used, as in the survey; "
                        "otherwise SDs are imputed (default unclear)")
    output_options(p)
    p.add_argument("--csv", metavar="FILE.csv", help="also write one row per claim as CSV")
    p.add_argument("--figure", metavar="PATH", help="ranked interval figure (.png, .pdf or "
                   ".svg); several metric columns: PATH_1, PATH_2, ...")
    p.set_defaults(handler=run)
    _json_errors(p)


def _json_errors(p) -> None:
    """With --json, argument errors also write the envelope (stdout), as every other error
    path of the command does; the one line on stderr and exit code 2 stay
    (``cli.one_line_errors`` calls ``_before_error`` first; replacing ``p.error`` here left
    argparse's usage block above the line)."""
    parse = p.parse_known_args

    def parse_known_args(args=None, namespace=None):
        p._argv = list(args or [])
        return parse(args, namespace)

    def json_error(message: str):
        if "--json" in getattr(p, "_argv", []):
            _emit_error({"file": None}, f"error: {message}")

    p.parse_known_args, p._before_error = parse_known_args, json_error


def _emit_error(inputs: dict, message: str) -> None:
    from falseclaims.cli.envelope import emit

    emit("table", inputs, {"tables": [], "unreadable": [{"file": inputs.get("file") or
                                                          inputs.get("dir") or "",
                                                          "table": "", "reason": message}],
                           "error": message})


def sizes(text: str):
    """--n: one size, or GROUP=N pairs (``BTCV=30,ACDC=100``; a bare N for the rest)."""
    def one(t: str) -> int:
        value = count(t.strip())
        if not 2 <= value <= MAX_N:
            raise argparse.ArgumentTypeError(
                f"expected a whole number between 2 and {limit_text(MAX_N)}; got {t.strip()}")
        return value

    if "=" not in text:
        return one(text)
    out = {}
    for part in filter(None, (x.strip() for x in text.split(","))):
        key, eq, val = part.rpartition("=")
        key = key.strip() if eq else ""
        if key in out:
            raise argparse.ArgumentTypeError(f"group {key or '(default)'!r} given twice")
        out[key] = one(val)
    return out


def _options(args):
    from falseclaims.table.run import Options

    if (args.file is None) == (args.dir is None):
        raise UsageError("give one table FILE or --dir DIR")
    if args.figure and Path(args.figure).suffix.lower() not in FIGURE_SUFFIXES:
        raise UsageError(f"--figure must end in {', '.join(FIGURE_SUFFIXES)}; got "
                         f"{args.figure!r}")
    if args.csv and not args.csv.lower().endswith(".csv"):
        raise UsageError(f"--csv must name a .csv file; got {args.csv!r}")
    if args.report and not args.report.lower().endswith((".html", ".htm")):
        raise UsageError(f"--report must name an .html file; got {args.report!r}")
    from falseclaims.io.textio import require_regular_file

    if args.file:
        require_regular_file(args.file, "table file",
                             f" (every table under it: --dir {args.file})")
    for path in args.macros or []:  # read only for LaTeX tables: a CSV's was ignored unsaid
        if not Path(path).is_file():
            require_regular_file(path, "LaTeX file (--macros)")
            raise UsageError(f"--macros {path}: no such file")
    _outputs_apart(args)
    return Options(n=args.n, task=args.task, units=args.units, metrics=args.metric,
                   table=args.table, cutoff=args.cutoff, pm_over=args.pm_over,
                   lower_better=args.lower_better, ignore=args.ignore,
                   transpose=args.transpose, macros=args.macros)


def _outputs_apart(args) -> None:
    """Outputs never overwrite an input, and never a folder. Every output creates its
    folder (--csv, --figure and --report alike)."""
    from falseclaims.table.run import own_report

    inputs = [Path(x) for x in (args.file, *(args.macros or [])) if x]
    if args.dir:
        inputs.append(Path(args.dir))
    for opt, out in (("--csv", args.csv), ("--report", args.report),
                     ("--figure", args.figure)):
        if not out:
            continue
        p = Path(out)
        if p.is_dir():
            raise UsageError(f"{opt} {out}: is a directory; name a file")
        for q in inputs:
            same = p.exists() and q.exists() and p.resolve() == q.resolve()
            inside = q.is_dir() and p.resolve().is_relative_to(q.resolve()) and p.exists()
            if same or (inside and (p.suffix.lower() in {".csv", ".tsv", ".md", ".tex",
                                                         ".xlsx", ".xlsm"}
                                    or (p.suffix.lower() in {".html", ".htm"}
                                        and not own_report(p)))):
                raise UsageError(f"{opt} {out}: is an input of this run; name another file")


def run(args) -> int:
    """With --json every error also writes the envelope, with the reason, to stdout."""
    try:
        return _run(args)
    except (UsageError, ValueError, OSError, RecursionError) as exc:
        if getattr(args, "json", False):
            from falseclaims.cli.envelope import inputs_of
            _emit_error(inputs_of(args), str(exc) if not isinstance(exc, RecursionError)
                        else "input nested too deeply to read")
        if isinstance(exc, RecursionError):
            raise ValueError(f"{args.file or args.dir}: input nested too deeply to read"
                             ) from None
        raise


def _run(args) -> int:
    from falseclaims.table.run import analyse_dir, analyse_file, exit_code

    opt = _options(args)
    cfg = load_config(args.config)
    if args.dir:
        result = analyse_dir(args.dir, cfg, opt)
        result["title"] = f"folder {args.dir}"
    else:
        result = analyse_file(args.file, cfg, opt)
        result["title"] = args.file
    figures = _figures(result, args.figure, bool(args.report)) if (args.figure or args.report) \
        else {}
    if args.csv:
        _write_csv(result, args.csv)
    if args.report:
        from falseclaims.table.report import html_report
        from falseclaims.io.table_io import atomic_output
        with atomic_output(args.report) as tmp:
            tmp.write_text(html_report(result, figures), encoding="utf-8")
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of
        emit("table", inputs_of(args), result)
    elif args.dir:
        print(_batch_text(result))
    else:
        from falseclaims.table.report import format_text
        print(format_text(result))
    if not args.json:
        for done, what in ((args.csv, "rows"), (args.report, "report")):
            if done:
                print(f"{what} written to {done}")
    return exit_code(result)


def _figures(result: dict, path: str | None, for_report: bool) -> dict:
    """Draw each metric column; write it when --figure is given; PNG URIs for the report."""
    from falseclaims.figures.output import save_figure
    from falseclaims.figures.table import ranked_intervals
    from falseclaims.report import figure_png

    from falseclaims.io.table_io import atomic_output

    items = [(ti, mi, t, m) for ti, t in enumerate(result["tables"])
             for mi, m in enumerate(t["metrics"]) if m.get("probability", True)]
    uris = {}
    for k, (ti, mi, t, m) in enumerate(items, 1):
        title = f"{Path(t['file']).name}, {t['table']}"
        if path:
            p = Path(path)
            out = p if len(items) == 1 else p.with_name(f"{p.stem}_{k}{p.suffix}")
            fig, _ = ranked_intervals(m, title)
            with atomic_output(out) as tmp:
                save_figure(fig, tmp.with_suffix(""), formats=[out.suffix[1:].lower()])
            print(f"figure written to {out}", file=sys.stderr)
        if for_report:
            fig, _ = ranked_intervals(m, title)
            uris[(ti, mi)] = figure_png(fig)
    return uris


def _write_csv(result: dict, path: str) -> None:
    import pandas as pd

    from falseclaims.table.report import BATCH_COLUMNS, batch_rows
    from falseclaims.io.table_io import atomic_output, write_table

    with atomic_output(path) as tmp:
        write_table(pd.DataFrame(batch_rows(result), columns=BATCH_COLUMNS), tmp)


def _batch_text(result: dict) -> str:
    from falseclaims.percase.verdict import probability_text
    from falseclaims.table.report import batch_rows

    from falseclaims.table.cells import printable

    rows = [{k: printable(v) if isinstance(v, str) else v for k, v in r.items()}
            for r in batch_rows(result)]
    ok = [r for r in rows if r["status"] == "ok"]
    ranked = [r for r in rows if r["status"] == "ranked"]
    bad = [r for r in rows if r["status"] not in ("ok", "ranked")]
    read = {(r["file"], r["table"]) for r in ok + ranked}
    lines = [f"{len(ok)} claim(s) in {len(read)} table(s)"
             + (f", {len(ranked)} column(s) ranked without a probability" if ranked else "")
             + f"; {len(bad)} table(s) or file(s) not read"]
    said: set = set()

    def n_notes(r) -> list[str]:
        """A given --n not used, or replacing the table's size: said once per table."""
        new = [x for x in r.get("n_notes", []) if (r["file"], r["table"], x) not in said]
        said.update((r["file"], r["table"], x) for x in new)
        return [f"  note: {printable(x)}" for x in new]

    for r in ok:
        group = f" [{r['group']}]" if r["group"] else ""
        lines.append(f"{r['file']} | {r['table']} | {r['metric']}{group}: {r['winner']} > "
                     f"{r['runner_up']}, P = {probability_text(r['p_false_claim'], 4)} "
                     f"({r['verdict']}), "
                     f"tier 1 holds {r['tier_size']} of {r['m']}")
        lines += n_notes(r)
    for r in ranked:
        group = f" [{r['group']}]" if r["group"] else ""
        lines.append(f"{r['file']} | {r['table']} | {r['metric']}{group}: {r['winner']} "
                     f"best ({r['direction']} is better); {r['reason']}")
        lines += n_notes(r)
    for r in bad:
        lines.append(f"NOT READ {r['file']}" + (f" | {r['table']}" if r["table"] else "")
                     + f": {r['reason']}")
    for s in result.get("skipped", []):
        lines.append(f"skipped: {printable(s)}")
    return "\n".join(lines)
