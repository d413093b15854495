"""`falseclaims sheet inspect | check`: start and check the mapping of a survey sheet.

``inspect FILE`` prints the header row found, each column's guessed role with example
cells and a draft venue block for config/config.yaml. ``check --venue V`` validates one
venue's sheets as the pipeline would and prints the problems grouped by column, the first
three of each kind. Both check the result's plausibility (:mod:`falseclaims.plausibility`):
``check`` prints IMPLAUSIBLE lines and exits 1; a draft says NOT READY TO RUN at its top
and ``inspect`` prints STILL TO FIX. Exit code 0: no problem; 1: problems found (or an
implausible result); 2: bad arguments or config.
"""

from __future__ import annotations

import re
from pathlib import Path

from falseclaims.cli import UsageError
from falseclaims.config import Eligibility, find_config, load_config, missing_files, venue_files


def register(sub) -> None:
    p = sub.add_parser("sheet", help="inspect a survey sheet or check a venue's mapping",
                       description="Draft the config block of a survey's extraction sheet "
                                   "(inspect), then check it as the pipeline will read "
                                   "it (check).")
    verbs = p.add_subparsers(dest="sheet_verb", required=True, title="commands",
                             metavar="command")
    i = verbs.add_parser("inspect", help="guess the roles of a sheet's columns and draft a "
                                         "venue block for config/config.yaml",
                         description="Print the header row found, each column's guessed role "
                                     "with example cells and a draft venue block for "
                                     "config/config.yaml (data/README.md, 'Swapping in a real "
                                     "sheet'). Needs no config.")
    i.add_argument("file", help="the sheet (.csv, .tsv, .tab, .txt, .xlsx or .xlsm)")
    i.add_argument("--sheet", help="sheet of an XLSX workbook (default: the first)")
    i.add_argument("--venue", default="my_venue", help="venue key of the draft block")
    i.add_argument("--json", action="store_true", help="write JSON instead of text")
    i.add_argument("--header-row", type=int, metavar="N",
                   help="the header is row N (the lower row of a two-row header); default: "
                        "found after title rows")
    i.add_argument("--header-rows", type=int, choices=(1, 2),
                   help="2: rows N-1 and N form the header (names combined); with "
                        "--header-row")
    i.add_argument("--other-table", metavar="FILE",
                   help="long layout: the other table (results for a papers table, papers "
                        "for a results table); default: another sheet of the workbook or a "
                        "file named alike with 'papers'/'results' swapped")
    i.add_argument("--other-sheet", metavar="NAME",
                   help="the sheet of --other-table (or of FILE) holding the other table")
    i.add_argument("--sizes", metavar="SIZES",
                   help="test-set sizes in another table (CSV/TSV/XLSX, one row per data set: "
                        "name and size): the draft joins it on the sheet's data-set column")
    i.add_argument("--write", metavar="DRAFT.yaml",
                   help="write a complete config (run_venues + this venue) that "
                        "`snakemake --configfile DRAFT.yaml` runs; never over the sheet(s) "
                        "read, and over the project's config/config.yaml or any existing "
                        "file only with --force")
    i.add_argument("--html", metavar="PAGE",
                   help="write a review page: each column's role, evidence and example "
                        "cells, the first papers as the pipeline will read them, every "
                        "plausibility warning (same overwrite rules as --write)")
    i.add_argument("--force", action="store_true",
                   help="let --write replace an existing file (never the sheet read)")
    i.set_defaults(handler=run_inspect)
    c = verbs.add_parser("check", help="validate one venue's sheets (as the pipeline's "
                                       "first step) and list the problems by column",
                         description="Validate the sheets of one venue of the config's "
                                     "venues: block as the pipeline's first step does and "
                                     "list the problems grouped by column, then check that "
                                     "the result is plausible (config/README.md, "
                                     "## plausibility).")
    c.add_argument("--venue", required=True, help="a key of venues: in the config")
    c.add_argument("--config", help="config file defining the venue, e.g. the file of "
                                    "`sheet inspect --write` or of `snakemake --configfile` "
                                    "(default: $FALSECLAIMS_CONFIG, else "
                                    "./config/config.yaml); sheet paths are read as the "
                                    "pipeline reads them, from the working directory (else "
                                    "from the config's project folder)")
    c.add_argument("--show", type=int, default=3,
                   help="examples shown per kind of problem (default 3)")
    c.add_argument("--json", action="store_true", help="write JSON instead of text")
    c.set_defaults(handler=run_check)
    from falseclaims.cli import one_line_errors
    one_line_errors(p, ("inspect", "check"))
    for q in (i, c):
        one_line_errors(q)


def run_inspect(args) -> int:
    from falseclaims.sheets.draft.draft import draft_config
    from falseclaims.sheets.draft.inspect import inspect_sheet

    _check_inspect_args(args)
    try:
        g = inspect_sheet(args.file, args.sheet, args.header_row, args.header_rows)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    other = None
    if args.other_table or args.other_sheet:
        from falseclaims.sheets.draft.draft_long import find_other_table
        if args.other_table and not Path(args.other_table).is_file():
            raise UsageError(_not_a_file(args.other_table))
        other = find_other_table(g, args.other_table, args.other_sheet)
    # sheet paths in a config are relative to the checkout Snakemake runs in
    absolute = Path(args.file).is_absolute() or not Path("config", "config.yaml").is_file()
    from falseclaims.plausibility import judge_draft

    d = draft_config(g, args.venue, str(Path(args.file).resolve()) if absolute else args.file,
                     other, judge_draft)
    if args.sizes:
        from falseclaims.sheets.draft.sizes_draft import draft_sizes
        d = draft_sizes(d, g, args.sizes, args.venue)
    _write_outputs(args, g, d)
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of
        cols = [{"letter": c.letter, "name": c.name, "role": c.role, "why": c.why,
                 "hints": list(c.hints), "examples": list(c.examples)} for c in g.columns]
        emit("sheet inspect", inputs_of(args),
             {"file": str(g.file), "sheet": g.sheet, "header_row": g.header_row,
              "n_rows": g.n_rows, "units": g.units, "columns": cols,
              "draft": d.text, "remarks": list(d.remarks),
              "still_to_fix": [str(p) for p in d.problems],
              "implausible": [{"check": f.check, "message": f.message, "key": f.key}
                              for f in d.findings]})
        return 0
    _print_inspect(args, g, d)
    return 0


def _not_a_file(path) -> str:
    """Why ``path`` (no regular file) cannot be read: '-', a folder, a pipe or a device
    (each was "no such file"), or nothing."""
    from falseclaims.io.textio import require_regular_file

    try:
        require_regular_file(path, "sheet file (CSV, TSV or XLSX)")
    except ValueError as exc:
        return str(exc)
    return f"no such file: {path}"


def _check_inspect_args(args) -> None:
    if not Path(args.file).is_file():
        raise UsageError(_not_a_file(args.file))
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", args.venue):
        raise UsageError(f"--venue {args.venue!r}: a venue key is letters, digits, '_', '.' "
                         "and '-', starting with a letter or digit")
    for option, name in (("--sheet", args.sheet), ("--other-sheet", args.other_sheet)):
        if name is not None and not name.strip():  # was: the first sheet, unsaid
            raise UsageError(f"{option}: got an empty name; expected a sheet of the workbook "
                             "(leave the option out for the first sheet)")
    if args.header_row is not None and args.header_row < 1:
        raise UsageError("--header-row must be at least 1")
    if args.header_rows and args.header_row is None:
        raise UsageError("--header-rows needs --header-row N (the lower header row)")
    if args.write and args.html and Path(args.write).resolve() == Path(args.html).resolve():
        raise UsageError("--write and --html name the same file")


def _write_outputs(args, g, d) -> None:
    """The draft (--write) and the review page (--html), never over a sheet read."""
    block = d.config["venues"][args.venue]
    inputs = [Path(args.file)] + [Path(block[k]) for k in ("papers", "results")
                                  if isinstance(block.get(k), str)]
    for target in (args.write, args.html):
        if target:
            _refuse_overwrite(Path(target), inputs, args.force)
    if args.write:
        Path(args.write).write_text(d.text, encoding="utf-8")
    if args.html:
        from falseclaims.sheets.draft.review import review_html
        from falseclaims.survey.eligibility import step_label

        Path(args.html).write_text(review_html(g, d, args.venue, step_label), encoding="utf-8")


def _print_inspect(args, g, d) -> None:
    rows = (f"header rows {g.header_row - 1}-{g.header_row} (names combined)"
            if g.header_rows == 2 else f"header row {g.header_row}")
    print(f"{g.file}" + (f", sheet '{g.sheet}'" if g.sheet else "")
          + f": {rows}, {g.n_rows} data rows")
    if g.read_as:
        print(f"  read as: {g.read_as}")
    for t in g.title_rows:
        print(f"  title row skipped: {t}")
    for w in g.warnings:
        print(f"  WARNING: {w}")
    print(f"{'col':<4} {'header':<24} {'guessed role':<20} examples")
    for c in g.columns:
        ex = " | ".join(e[:30] for e in c.examples)
        print(f"{c.letter:<4} {c.name[:24]:<24} {c.role + ('' if c.sure else ' ?'):<20} {ex}")
        print(f"{'':<4} {'':<24} ({c.why})")
        for h in c.hints:
            print(f"{'':<4} {'':<24} hint: {h}")
    print(f"\nunits guess: {g.units}")
    for r in d.remarks:
        print(f"  {r}")
    if d.problems:
        print("STILL TO FIX (the draft is not ready to run):")
    for p in d.problems:
        print(f"  still to fix: {p}")
    print("\n# draft venue block (edit it; data/README.md, 'Swapping in a real sheet'):")
    print(d.text, end="")
    if args.write:
        print(f"\nwritten: {args.write}; {_run_advice(args.write)}")
    if args.html:
        print(f"review page: {args.html}")


def _checkout() -> Path | None:
    """The checkout holding the workflow (an editable install), or None."""
    import falseclaims

    root = Path(falseclaims.__file__).resolve().parents[2]
    return root if (root / "Snakefile").is_file() else None


def _run_advice(draft: str) -> str:
    """The command that runs the draft from here. The draft is one venue merged over the
    project's complete config/config.yaml; without one (a folder of one's own) the
    pipeline refuses to start, so the steps to make this folder a project come first."""
    run = f"snakemake --cores 2 --configfile {draft}"
    here = Path.cwd()
    if (here / "Snakefile").is_file() and (here / "config" / "config.yaml").is_file():
        return f"run: {run}"
    root = _checkout()
    src = str(root) if root else "/path/to/falseclaims"
    steps = ("" if (here / "config" / "config.yaml").is_file() else
             f"mkdir -p config data && cp {src}/config/config.yaml config/ && "
             f"cp -r {src}/data/external data/ && ")
    return (f"this folder is no checkout: run the draft with the checkout's workflow "
            f"(README, 'Where to run it'):\n  {steps}{run} -s {src}/Snakefile")


def _refuse_overwrite(target: Path, inputs: list[Path], force: bool) -> None:
    """--write (and --html) never replaces a sheet it read; the project's config or any other existing
    file only with --force."""
    if target.is_dir():
        raise UsageError(f"{target}: is a directory, expected a file name")
    if any(target.exists() and p.exists() and target.samefile(p) for p in inputs):
        raise UsageError(f"{target}: that is the sheet being read; write the draft "
                         "to a new file")
    if target.resolve() == (Path.cwd() / "config" / "config.yaml").resolve() \
            and not target.exists():
        raise UsageError(f"{target}: the project's config must be complete (the draft holds "
                         "one venue and run_venues only): write the draft to a new file, "
                         "e.g. --write myvenue.yaml, and run it with --configfile")
    if force or not target.exists():
        return
    config = find_config()
    if config is not None and target.samefile(config):
        raise UsageError(f"{target}: that is the project's config (the draft holds "
                         "one venue and run_venues only); write a new file and run it with "
                         "--configfile, or pass --force to replace it")
    raise UsageError(f"{target}: the file exists; choose a new name or pass --force "
                     "to replace it")


def run_check(args) -> int:
    from falseclaims.sheets import SheetValidationError, read_venue
    from falseclaims.sheets.draft.inspect import group_problems

    if args.show < 1:
        raise UsageError("--show must be at least 1")
    if find_config(args.config) is None:
        raise UsageError(f"no config file found (no --config, $FALSECLAIMS_CONFIG unset, no "
                         f"config/config.yaml in {Path.cwd()}); pass the file that defines "
                         f"venue {args.venue!r} with --config FILE")
    cfg = load_config(args.config)
    venues = cfg.get("venues") or {}
    if args.venue not in venues:
        raise UsageError(f"--venue {args.venue!r} is not in the config's venues: "
                         f"{', '.join(venues) or '(none)'} ({find_config(args.config)})"
                         + ("" if args.config else "; a venue of your own: --config FILE, "
                            "the file `sheet inspect --write` wrote or `snakemake "
                            "--configfile` reads"))
    # relative paths from the working directory, as the pipeline reads them (one rule)
    missing = missing_files(venue_files(venues[args.venue]), ".", find_config(args.config))
    if missing:
        raise UsageError(f"venue {args.venue!r}: " + "; ".join(missing))
    try:
        s = read_venue(venues[args.venue], base_dir=".", venue=args.venue,
                       metrics=Eligibility.from_block(cfg["analysis"]).metrics)
    except SheetValidationError as exc:
        # problems of a whole column (the units key, a missing column) first: they explain
        # many cells at once
        exc.problems = sorted(exc.problems, key=lambda p: p.row is not None)
        if args.json:
            from falseclaims.cli.envelope import emit, inputs_of
            emit("sheet check", inputs_of(args),
                 {"venue": args.venue, "ok": False, "problems": [
                     line.strip() for line in group_problems(exc.problems, args.show)]})
            return 1
        print(f"venue '{args.venue}': {len(exc.problems)} problem(s)")
        for line in group_problems(exc.problems, args.show):
            print(line)
        return 1
    excluded = 0
    if "invalid_cell" in s.papers:
        excluded = int(s.papers["invalid_cell"].notna().sum())
    from falseclaims.plausibility import check_venue

    findings = check_venue(args.venue, venues[args.venue], s.papers, s.results, cfg,
                           notes=s.notes)
    if args.json:
        from falseclaims.cli.envelope import emit, inputs_of
        emit("sheet check", inputs_of(args),
             {"venue": args.venue, "ok": not findings, "problems": [],
              "implausible": [{"check": f.check, "message": f.message, "key": f.key}
                              for f in findings],
              "papers": len(s.papers), "results": len(s.results), "notes": len(s.notes),
              "excluded": excluded})
        return 1 if findings else 0
    for f in findings:
        print(f"IMPLAUSIBLE: {f}")
    state = "reads, but the result is implausible" if findings else "OK"
    changes = int((s.notes["kind"] == "changes results").sum())
    # the notes counted by kind in the words of the pipeline's log (sheets.read.digest)
    print(f"venue '{args.venue}': {state}, {len(s.papers)} papers, {len(s.results)} results "
          f"rows; {changes} notes change results, {len(s.notes) - changes} informational"
          + (f", {excluded} paper(s) to be excluded for an "
                                          "invalid cell (on_bad_cell: exclude)"
                                          if excluded else ""))
    from falseclaims.sheets.read.reader import digest

    for line in digest(args.venue, s.papers, s.results, s.notes).splitlines()[1:]:
        print(line)  # the notes that change results, by kind (as in the pipeline's log)
    skipped = s.notes["note"].str.contains("skipped", regex=False).fillna(False)
    if skipped.any():
        kinds = s.notes.loc[skipped, "note"].str.replace(r"(: column|\().*$", "", regex=True)
        print(f"  {int(skipped.sum())} row(s) skipped: " + "; ".join(
            f"{n} {k.strip()}" for k, n in kinds.value_counts(sort=False).items()))
    if excluded:
        for pid, text in s.papers.loc[s.papers["invalid_cell"].notna(),
                                      ["paper_id", "invalid_cell"]].itertuples(index=False):
            print(f"  {pid}: {text}")
    return 1 if findings else 0
