"""read_venue: one venue's extraction sheets -> validated, normalised papers/results/notes."""

from __future__ import annotations

import copy
import logging
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from falseclaims.config_validation import ConfigError, config_problems, schema_path
from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets.read.counts import derive_counts
from falseclaims.sheets.read.columns import (
    NOTES_OUT, PAPERS, PAPERS_OUT, RESULTS, RESULTS_OUT, SCALE_RANGES, SPECS, metric_scale,
)
from falseclaims.sheets.read.digest import digest
from falseclaims.sheets.read.errors import Problem, SheetValidationError, not_a_sheet_file
from falseclaims.io.raw_reader import RawTable, read_raw_table
from falseclaims.io.xlsx import merged_across_problems
from falseclaims.sheets.read.lenient import exclude_bad_cells
from falseclaims.sheets.read.normalise import map_columns, parse_columns, parse_records
from falseclaims.sheets.read.plain import frame_of_columns, plain_results
from falseclaims.sheets.read.prepare import (
    apply_overrides, combine_header, figure_rows_long, prepare_cells, reshape_columns,
)
from falseclaims.sheets.read.records import SheetRecord
from falseclaims.sheets.read.rows import (
    fold_name, generate_ids, group_long_rows, group_paper_rows, resolve_column, skip_rows,
)
from falseclaims.sheets.read.rules import compile_rules
from falseclaims.sheets.read.schema import check_table, load_schema
from falseclaims.sheets.read.sizes import join_sizes
from falseclaims.sheets.read.units import attach_cell_sd, convert_units
from falseclaims.sheets.read.venue import Venue
from falseclaims.sheets.read.wide import (check_wide_columns, expand_parts,
                                          lacks_metric_and_task, wide_to_long)

__all__ = ["Sheets", "read_venue", "check_venue_config", "digest", "notes_frame"]

log = logging.getLogger("falseclaims.sheets")


@dataclass
class Sheets:
    """Normalised tables of one venue (columns: docs/architecture.md)."""

    papers: pd.DataFrame
    results: pd.DataFrame
    notes: pd.DataFrame


def check_venue_config(venue_cfg: dict, venue: str = "") -> None:
    """Validate one venue entry against falseclaims/schemas/venues.schema.yaml (the same
    check and messages as the pipeline's config validation)."""
    problems = config_problems({venue or "venue": venue_cfg}, schema_path("venues"))
    if problems:
        raise ConfigError([f"venues.{p}" for p in problems], "config")


def read_venue(venue_cfg: dict, base_dir: str | Path = ".", venue: str = "",
               metrics: Mapping[str, Sequence[str]] | None = None) -> Sheets:
    """Read, clean, convert and validate one venue's sheets.

    Raises SheetValidationError listing every problem (file, sheet, row, column, value,
    expected); everything accepted but changed is listed in ``notes``. ``metrics``: {task:
    the names of its primary metric} (config ``analysis.metrics``, as
    ``config.Eligibility.metrics``): with ``group_rows_by_id`` in the long layout, a
    paper's comparison is taken from a block of a primary metric before any other.
    """
    # a deep copy: the caller's block (the pipeline's config) is never changed
    cfg = copy.deepcopy({"layout": "long", "units": "auto", **(venue_cfg or {})})
    check_venue_config(cfg, venue)
    v = Venue.from_config(cfg)
    where = f"config venues.{venue}" if venue else "the venue's config"
    skip_rules = v.skip_rows_where
    if isinstance(v.id, str) and v.id.startswith("TODO"):  # a draft's question, unanswered
        raise FalseclaimsInputError(f"{where}.id: still to fix (sheet inspect asked): "
                                    f"{v.id.removeprefix('TODO').lstrip(': ')}")
    if v.id == "row" and v.layout == "long":
        raise FalseclaimsInputError(f"{where}: id: row needs layout: wide_top2 (row numbers "
                                    "cannot link results rows to their papers); use a "
                                    "template such as \"{Authors} {Year}\" naming columns of "
                                    "both tables")
    if v.layout == "long":
        ptab, rtab, precs, rrecs, plain = _read_long(v, Path(base_dir), where, venue,
                                                     metrics)
        tables = [ptab, rtab]
    else:
        ptab, precs, rrecs = _read_wide(v, Path(base_dir), where, venue)
        rtab, tables, plain = ptab, [ptab], None
    for col in skip_rules:
        if all(resolve_column(t, str(col)) is None
               and str(col) not in getattr(t, "skip_columns_found", ()) for t in tables
               if t.header):
            tables[0].problem(None, str(col), None, f"a column of the sheet (named in {where} "
                              "skip_rows_where)")
    _check_rule_columns(v, tables[0], where)
    rrecs = expand_parts(rrecs, rtab)
    attach_cell_sd(rrecs, rtab)
    if plain is None:  # a plain results table has been converted and checked
        convert_units(rrecs, rtab, v.units, where)
    _check_rows(precs, rrecs, ptab, rtab)

    papers = _frame(precs, PAPERS, PAPERS_OUT, ptab, venue)
    _check_schema(papers, precs, ptab, load_schema("papers"))
    if plain is None:
        results = _frame(rrecs, RESULTS, RESULTS_OUT, rtab, venue)
        _check_schema(results, rrecs, rtab, load_schema("results"))
    else:
        results = plain

    if v.on_bad_cell == "exclude":
        papers, results = exclude_bad_cells(papers, results, precs, rrecs, ptab, rtab)
    _note_unused_sds(results, rrecs, rtab)
    problems: list[Problem] = [p for t in tables for p in t.problems]
    if problems:
        raise SheetValidationError(problems, venue)
    notes = notes_frame(tables, venue)
    log.info("%s", digest(venue, papers, results, notes))
    return Sheets(papers=papers, results=results, notes=notes)


def _read_table(v: Venue, base: Path, kind: str, where: str, venue: str):
    """A raw table after the venue's row and column steps, and its {their: ours} mapping."""
    file, sheet = v.file(kind)
    header_row, header_rows = v.header(kind)
    path = base / file
    if odd := not_a_sheet_file(path, str(file)):
        raise SheetValidationError([odd], venue)
    t = read_raw_table(path, sheet, header_row, display=str(file))
    if laid_out := merged_across_problems(t.problems):
        raise SheetValidationError(laid_out, venue)  # not a table: nothing further to check
    if v.on_bad_cell == "exclude":
        t.problem_cap = None  # each bad cell excludes its paper: every one is needed
    if kind != "results":
        _say_header_only(t, venue)
    if header_rows == 2 and t.header:
        combine_header(t, path, sheet, header_row)
    apply_overrides(t, v.cell_overrides, kind == "results", where)
    skip_rows(t, v.skip_rows_where, where)
    mapping = reshape_columns(t, v.columns.get(kind) or {},
                              v.split_cells if kind != "results" else None, where)
    id_spec = v.id
    # id: row numbers the rows even where every column is ignored (a header-less rest)
    if id_spec and (t.header or (id_spec == "row" and t.rows)):
        dedupe = kind != "results" and not v.group_rows_by_id
        made = generate_ids(t, id_spec, dedupe=dedupe)
        if made is not None:
            mapping[made] = "paper_id"
    return t, mapping


def _read_long(v: Venue, base: Path, where: str, venue: str,
               metrics: Mapping[str, Sequence[str]] | None = None):
    """(papers table, results table, papers records, results records, plain results
    frame or None) of the long layout."""
    constants = v.constants
    ptab, pmap = _read_table(v, base, "papers", where, venue)
    rtab, rmap = _read_table(v, base, "results", where, venue)
    pidx, ptheir = map_columns(ptab, "papers", pmap, where)
    ridx, rtheir = map_columns(rtab, "results", rmap, where)
    derive_counts(rtab, ridx, rtheir, "long")
    join_sizes(ptab, pidx, ptheir, v.sizes, base, where)
    prepare_cells(ptab, pidx, ptheir, v.derive, "long")
    prepare_cells(rtab, ridx, rtheir, v.derive, "long")
    figure_rows_long(ptab, pidx, ptheir, rtab, ridx)
    values, rules = compile_rules(v.values, v.cells, ptab, where)
    precs = parse_records(ptab, "papers", pidx, ptheir, constants, where, values, rules,
                          release_rows=True)
    rparsed = parse_columns(rtab, "results", ridx, rtheir, constants, where, values,
                            rules, release_rows=True)
    paper_ids = {r["paper_id"] for r in precs if r.get("paper_id") is not None}
    plain = plain_results(rparsed, rtab, paper_ids, v.units, venue)
    rrecs = [] if plain is not None or rparsed is None else rparsed.records()
    if v.group_rows_by_id:
        primary = {m.strip().lower() for names in (metrics or {}).values() for m in names}
        precs, rrecs = group_long_rows(precs, rrecs, ptab, rtab, primary)
    return ptab, rtab, precs, rrecs, plain


def _read_wide(v: Venue, base: Path, where: str, venue: str):
    """(the table, papers records, results records) of the wide top-2 layout."""
    constants = v.constants
    wtab, wmap = _read_table(v, base, "wide", where, venue)
    widx, wtheir = map_columns(wtab, "wide", wmap, where)
    derive_counts(wtab, widx, wtheir, "wide_top2")
    has_results = check_wide_columns(wtab, widx, constants, where)
    join_sizes(wtab, widx, wtheir, v.sizes, base, where)
    prepare_cells(wtab, widx, wtheir, v.derive, "wide_top2")
    values, rules = compile_rules(v.values, v.cells, wtab, where)
    if has_results and lacks_metric_and_task(widx, constants):
        has_results = False  # one problem said it (check_wide_columns): no row repeats it
    wrecs = parse_records(wtab, "wide", widx, wtheir, constants, where, values, rules,
                          release_rows=True, optional=() if has_results else ("task",))
    if v.group_rows_by_id:
        wrecs = group_paper_rows(wrecs, wtab)
    scoped = "in_scope" in widx or "in_scope" in constants
    precs, rrecs = wide_to_long(wrecs, wtab, has_results, scoped)
    return wtab, precs, rrecs


def _note_unused_sds(results: pd.DataFrame, rrecs: list[SheetRecord], rtab: RawTable) -> None:
    """A reported SD is used only when it is over the test set (analysis
    use_reported_sd_over); one whose sd_over is unknown would be replaced silently."""
    unused = results[results["sd"].notna() & results["sd_over"].isna()]
    their = {(r.row, r.get("method")): r.name("sd") for r in rrecs}
    for row, method, sd in zip(unused["source_row"], unused["method"], unused["sd"]):
        rtab.note(int(row), their.get((row, method), "sd"), f"{sd:g}",
                  f"reported SD {sd:g} not used (an SD is imputed): sd_over is unknown; if it "
                  "is over the test set, add constants: {sd_over: test} or map a column to "
                  "sd_over")


# notes that change what is analysed (rows skipped, papers excluded, values read from a
# rule or a default) against notes that only say how a cell was read
_CHANGES = re.compile(
    r"skipped|excluded|not used|dropped|only in figures|replaced by|derived|computed|"
    r"need results|constant |no \w+ value|generated id|cut into|folds \(config|"
    r"auto-detected|imputed|"
    r"ids generated|absent", re.I)
_OPTIONAL = ("title", "n_train", "n_val", "cv_folds", "metrics_reported", "bold_best",
             "sd_proposed", "sd_best_prior", "name_proposed", "name_best_prior",
             "n_test_proposed", "n_test_best_prior", "values_compared", "sd")
_QUIET = re.compile(r"^(?:column )?'(?P<a>[^']*)' read as '(?P<b>[^']*)'$|"
                    r"^column '(?P<c>" + "|".join(_OPTIONAL) + r")' absent; left missing$")


def notes_frame(tables: list[RawTable], venue: str) -> pd.DataFrame:
    """notes.csv: every note but case folding and absent optional columns, with its
    ``kind``: "changes results" or "informational"."""
    rows = []
    for t in tables:
        for n in t.notes:
            m = _QUIET.match(n["note"] or "")
            if m and (m["c"] or m["a"].lower() == m["b"]):
                continue
            kind = "changes results" if _CHANGES.search(n["note"] or "") else "informational"
            rows.append({**n, "venue": venue, "kind": kind})
    notes = pd.DataFrame(rows, columns=NOTES_OUT)
    notes = notes.astype({c: "string" for c in NOTES_OUT if c != "row"})
    notes["row"] = notes["row"].astype("Int64")
    return notes


def _say_header_only(t: RawTable, venue: str) -> None:
    """A papers sheet with only its header: noted and logged (its figures will be empty)."""
    if t.header and not len(t.rows) and not t.problems:
        text = (f"the sheet has only its header (row {t.header_row}): the venue has no "
                "papers, its tables and figures will be empty")
        t.note(None, None, None, text)
        logging.getLogger("falseclaims.sheets").warning("%s%s: %s", t.file,
                                                        f" ({venue})" if venue else "", text)


def _check_rule_columns(v: Venue, table: RawTable, where: str) -> None:
    """values:/cells: keys must name our columns of this layout (a rule for no column
    would be silently unused)."""
    specs = [SPECS["wide"]] if v.layout == "wide_top2" else [SPECS["papers"],
                                                                 SPECS["results"]]
    kinds = {c: k for spec in specs for c, k in spec.items()}
    for col in v.values or {}:
        if col not in kinds:
            table.problem(None, f"values.{col}", None,
                          f"a column of the {v.layout} layout in {where} values: "
                          f"({', '.join(kinds)})")
    for col in v.cells or {}:
        if kinds.get(col) not in ("measure", "number", "compared"):
            ok = [c for c, k in kinds.items() if k in ("measure", "number", "compared")]
            table.problem(None, f"cells.{col}", None,
                          f"a metric value or SD column in {where} cells: ({', '.join(ok)})")


def _frame(records: list[SheetRecord], spec: dict, out_cols: list[str], table: RawTable,
           venue: str) -> pd.DataFrame:
    data = {c: [r.get(c) for r in records] for c in spec if c in out_cols}
    return frame_of_columns(data, [r.row for r in records], spec, out_cols, table, venue)


def _check_schema(df: pd.DataFrame, records: list[SheetRecord], table: RawTable, schema: dict):
    for i, col, value, expected in check_table(df, schema):
        if i is None:  # a column-level contract breach: a bug here, not in the sheet
            raise AssertionError(f"normalised table breaks its schema: {col}: {expected}")
        rec = records[i]
        if col in rec.bad:
            continue  # already reported when the cell was parsed
        table.problem(rec.row, rec.name(col), value, expected, cell=True)


def _check_n_test(rec: SheetRecord, table: RawTable) -> None:
    """n_test >= 2, the paper named (the probability of a false claim needs two cases)."""
    n = rec.get("n_test")
    if isinstance(n, int) and n < 2 and "n_test" not in rec.bad:
        table.problem(rec.row, rec.name("n_test"), n,
                      f"a test set of at least 2 cases (paper {rec.get('paper_id')!r}: the "
                      "probability of a false claim needs n_test >= 2)", cell=True)
        rec.mark_bad("n_test")


def _repeated_method(rec: SheetRecord, key: tuple, first: tuple, rtab: RawTable) -> None:
    """A paper x method x metric given twice: that paper's problem (cell=True, so that
    on_bad_cell: exclude excludes the paper, not the sheet)."""
    row, name, column = first
    method = rec.get("method")
    same = "" if name == method else f", as {name!r} once case and spaces are ignored"
    if row == rec.row and column != rec.name("method"):  # wide: both names in one row
        expected = (f"different method names in columns {column!r} and "
                    f"{rec.name('method')!r} (paper {key[0]!r}, metric {key[2]!r}: both "
                    f"{name!r}{same}; the proposed method cannot be its own best prior)")
    else:
        expected = (f"one row per paper x method x metric (paper {key[0]!r}, metric "
                    f"{key[2]!r} already in row {row}{same})")
    rtab.problem(rec.row, rec.name("method"), method, expected, cell=True)


def _fold_id(pid) -> str:
    return re.sub(r"[\s_.\-]+", "", str(pid)).casefold()


def _folded_ids(listed) -> dict[str, str]:
    """{id with case, spaces, '_', '-' and '.' ignored: the papers table's id}: a results id
    matching one ('Aggarwal_2019' for 'Aggarwal 2019') is named in its problem, never
    matched silently (two papers may be spelled alike)."""
    folded: dict[str, str] = {}
    for known in listed:
        folded.setdefault(_fold_id(known), known)
    return folded


def _check_rows(precs, rrecs, ptab: RawTable, rtab: RawTable) -> None:
    """Uniqueness, per-metric ranges, cv folds and results -> papers references."""
    first: dict[str, int] = {}
    dup_rows: set[int] = set()  # wide layout: their results rows repeat the same error
    for rec in precs:
        pid = rec.get("paper_id")
        if pid is None:
            continue
        if pid in first:
            ptab.problem(rec.row, rec.name("paper_id"), pid,
                         f"a unique paper_id (duplicate of row {first[pid]})")
            rec.mark_bad("paper_id")
            dup_rows.add(rec.row)
        else:
            first[pid] = rec.row
        _check_n_test(rec, ptab)
        split, folds = rec.get("split"), rec.get("cv_folds")
        if split in ("cv_only", "cv_plus_test") and folds is not None and folds < 2:
            ptab.problem(rec.row, rec.name("cv_folds"), folds,
                         f"at least 2 folds for split {split!r}", cell=True)
            rec.mark_bad("cv_folds")
    seen: dict[tuple, tuple] = {}
    folded = None  # built at the first results id the papers table lacks
    for rec in rrecs:
        method = rec.get("method")
        # 'Ours' and 'ours ' are one method written twice: refused like an exact repeat
        key = (rec.get("paper_id"), fold_name(method), rec.get("metric"))
        if None not in key:
            if key in seen and rtab is ptab and rec.row in dup_rows:
                pass  # the duplicate paper id of this row is the one problem
            elif key in seen:
                _repeated_method(rec, key, seen[key], rtab)
                rec.mark_bad("method")
            else:
                seen[key] = (rec.row, method, rec.name("method"))
        _check_n_test(rec, rtab)
        if rec.get("paper_id") is not None and precs is not None and rec["paper_id"] not in first:
            if "paper_id" not in rec.bad:
                folded = folded if folded is not None else _folded_ids(first)
                near = folded.get(_fold_id(rec["paper_id"]))
                rtab.problem(rec.row, rec.name("paper_id"), rec["paper_id"],
                             f"a paper_id listed in the papers table ({ptab.file}"
                             + (f", sheet '{ptab.sheet}'" if ptab.sheet else "") + ")"
                             + (f"; {near!r} is listed: the same id with other spaces, "
                                "'_', '-' or '.'? write the ids alike in both tables"
                                if near else ""))
        if rec.get("metric") and rec.get("value") is not None \
                and "value" not in rec.bad:
            scale = metric_scale(rec["metric"])
            lo, hi, text = SCALE_RANGES[scale]
            v = rec["value"]
            if not lo <= v <= hi:
                hint = "" if scale != "signed" else (
                    " (kappa/MCC are never converted from percent"
                    + (f"; if {v:g} is percent, write {v / 100:.10g})" if abs(v) <= 100 else ")"))
                rtab.problem(rec.row, rec.name("value"), v,
                             f"{text} for metric {rec['metric']!r}{hint}", cell=True)
                rec.mark_bad("value")
            sd = rec.get("sd")
            if sd is not None and sd >= 0 and scale not in ("distance", "decibel") \
                    and sd > 1:
                what = ("fraction-scale metric {!r} (after unit conversion)"
                        if scale == "fraction" else "metric {!r} on [-1, 1]")
                rtab.problem(rec.row, rec.name("sd"), sd,
                             f"an SD <= 1 for the {what.format(rec['metric'])}", cell=True)
                rec.mark_bad("sd")
