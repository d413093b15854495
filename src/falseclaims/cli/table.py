"""`falseclaims table`: every claim in a published results table (docs/table.md).

Per metric column: the reported winner, P(false claim) of the winner against every other
method (the numbers of `falseclaims check`), the methods tied with it, tiers of the rest,
the multiplicity view [Mollersen2023] and the sensitivity band. Exit codes: 0 every table
read, 1 some tables or files not read (listed with the reason), 2 bad usage or input.
"""

from __future__ import annotations

import sys
from pathlib import Path

from falseclaims.cli import UsageError, check_report_path, count, output_options
from falseclaims.config import load_config
from falseclaims.tasks import TASKS

FIGURE_SUFFIXES = (".png", ".pdf", ".svg")


def register(sub) -> None:
    p = sub.add_parser(
        "table", help="every claim in a results table: winner, ties, tiers",
        description="Read a results table as published (CSV, TSV, XLSX, Markdown, LaTeX "
                    "tabular; methods as rows, metrics as columns) and report, per metric "
                    "column, the reported winner, P(false claim) against every other method, "
                    "the methods tied with the winner and tiers of the rest. Exit codes: 0 "
                    "every table read, 1 some not read (listed), 2 bad usage or input.")
    p.add_argument("file", nargs="?", metavar="FILE", help="one table file")
    p.add_argument("--dir", metavar="DIR", help="every table file under DIR: one row per claim")
    p.add_argument("--n", type=count, help="test-set size (else an n column of the table)")
    p.add_argument("--task", choices=TASKS,
                   help="task of the metric columns whose name does not tell (accuracy -> "
                        "classification, DSC/Dice -> segmentation)")
    p.add_argument("--units", default="auto", choices=["auto", "percent", "fraction"],
                   help="values in percent or fractions (default auto: a %% sign or values "
                        "above 1 mean percent; a column mixing both is refused)")
    p.add_argument("--metric", action="append", metavar="COLUMN",
                   help="analyse only this column (repeatable; header text as printed)")
    p.add_argument("--table", metavar="NAME|K",
                   help="which table of the file (caption/sheet/heading text or number)")
    p.add_argument("--cutoff", type=float,
                   help="tied = P(false claim) >= cutoff (default planner.target)")
    p.add_argument("--pm-over", default="unclear", choices=["test", "cv", "runs", "unclear"],
                   help="what the ± values are SDs over: only per-case SDs over the test set "
                        "(config analysis.use_reported_sd_over) are used, as in the survey; "
                        "otherwise SDs are imputed (default unclear)")
    output_options(p)
    p.add_argument("--csv", metavar="FILE.csv", help="also write one row per claim as CSV")
    p.add_argument("--figure", metavar="PATH", help="ranked interval figure (.png, .pdf or "
                   ".svg); several metric columns: PATH_1, PATH_2, ...")
    p.set_defaults(handler=run)


def _options(args):
    from falseclaims.table.run import Options

    if (args.file is None) == (args.dir is None):
        raise UsageError("give one table FILE or --dir DIR")
    if args.figure and Path(args.figure).suffix.lower() not in FIGURE_SUFFIXES:
        raise UsageError(f"--figure must end in {', '.join(FIGURE_SUFFIXES)}; got "
                         f"{args.figure!r}")
    if args.csv and not args.csv.lower().endswith(".csv"):
        raise UsageError(f"--csv must name a .csv file; got {args.csv!r}")
    check_report_path(args.report)
    return Options(n=args.n, task=args.task, units=args.units, metrics=args.metric,
                   table=args.table, cutoff=args.cutoff, pm_over=args.pm_over)


def run(args) -> int:
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
        from falseclaims.report import write_html
        from falseclaims.table.report import html_report
        write_html(html_report(result, figures), args.report)
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

    items = [(ti, mi, t, m) for ti, t in enumerate(result["tables"])
             for mi, m in enumerate(t["metrics"])]
    uris = {}
    for k, (ti, mi, t, m) in enumerate(items, 1):
        title = f"{Path(t['file']).name}, {t['table']}"
        if path:
            p = Path(path)
            out = p if len(items) == 1 else p.with_name(f"{p.stem}_{k}{p.suffix}")
            fig, _ = ranked_intervals(m, title)
            save_figure(fig, out.with_suffix(""), formats=[out.suffix[1:].lower()])
            print(f"figure written to {out}", file=sys.stderr)
        if for_report:
            fig, _ = ranked_intervals(m, title)
            uris[(ti, mi)] = figure_png(fig)
    return uris


def _write_csv(result: dict, path: str) -> None:
    import pandas as pd

    from falseclaims.io.table_io import write_table
    from falseclaims.table.report import BATCH_COLUMNS, batch_rows

    write_table(pd.DataFrame(batch_rows(result), columns=BATCH_COLUMNS), path)


def _batch_text(result: dict) -> str:
    from falseclaims.percase.verdict import probability_text
    from falseclaims.table.report import batch_rows

    rows = batch_rows(result)
    ok = [r for r in rows if r["status"] == "ok"]
    bad = [r for r in rows if r["status"] != "ok"]
    lines = [f"{len(ok)} claim(s) in {len({(r['file'], r['table']) for r in ok})} table(s); "
             f"{len(bad)} table(s) or file(s) not read"]
    for r in ok:
        lines.append(f"{r['file']} | {r['table']} | {r['metric']}: {r['winner']} > "
                     f"{r['runner_up']}, P = {probability_text(r['p_false_claim'], 4)}, "
                     f"tier 1 holds {r['tier_size']} of {r['m']}")
    for r in bad:
        lines.append(f"NOT READ {r['file']}" + (f" | {r['table']}" if r["table"] else "")
                     + f": {r['reason']}")
    for s in result.get("skipped", []):
        lines.append(f"skipped (not a table file): {s}")
    return "\n".join(lines)
