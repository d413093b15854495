"""``falseclaims sheet inspect FILE --html PAGE``: a page to review a drafted venue block.

For each column: the role the draft gives it, the evidence and example cells; the first
papers as the pipeline will read them with the draft (id, task, metric, methods and values,
test-set size, Δ on the primary metric, analysed or why not); every plausibility warning
(:mod:`falseclaims.plausibility`) and every problem still to fix. The page is the jinja2
template ``templates/sheet_review.html.j2``; every text is escaped.
"""

from __future__ import annotations

import jinja2
import pandas as pd

from falseclaims.sheets.draft.draft import Draft
from falseclaims.sheets.draft.draft_parts import column_key
from falseclaims.sheets.draft.inspect import SheetGuess

__all__ = ["review_html", "FIRST_PAPERS"]

FIRST_PAPERS = 25  # papers shown
_ENV = jinja2.Environment(loader=jinja2.PackageLoader("falseclaims", "templates"),
                          autoescape=True, trim_blocks=True, lstrip_blocks=True)


def _number(x, fmt: str) -> str:
    return "" if x is None or pd.isna(x) else format(x, fmt)


def _reason_words(reason: str) -> str:
    return reason.replace("_", " ")


def _papers(d: Draft, label=_reason_words) -> list[dict]:
    r = d.read
    if r is None:
        return []
    excluded = r.exclusions.set_index("paper_id")
    delta = r.comparisons.set_index("paper_id")["delta"]
    out = []
    for _, p in r.papers.head(FIRST_PAPERS).iterrows():
        pid = p["paper_id"]
        rows = r.results[r.results["paper_id"] == pid]
        n = rows["n_test"].dropna()
        n = n if len(n) else pd.Series([p.get("n_test")]).dropna()
        status = "analysed"
        if pid in excluded.index:
            e = excluded.loc[pid]
            status = f"excluded at '{label(e['reason'])}'" + (f" ({e['detail']})"
                                                              if e["detail"] else "")
        out.append({
            "id": pid, "task": "" if pd.isna(p["task"]) else p["task"],
            "metric": ", ".join(dict.fromkeys(rows["metric"].dropna().astype(str))),
            "methods": [f"{m}: {_number(v, '.4g')}" for m, v in
                        rows[["method", "value"]].itertuples(index=False)],
            "n": ", ".join(dict.fromkeys(_number(x, ".0f") for x in n)),
            "delta": _number(delta.get(pid), "+.3f"),
            "status": status, "excluded": pid in excluded.index})
    return out


def review_html(g: SheetGuess, d: Draft, venue: str, step_label=_reason_words) -> str:
    """The page. ``step_label`` gives the words of the flow step an exclusion reason fails
    (the command passes the pipeline's, :func:`falseclaims.survey.eligibility.step_label`,
    which sits above the sheet reader): the page reads as the exclusions table does."""
    block = d.config["venues"][venue]
    mapped = {}
    for table in (block.get("columns") or {}).values():
        mapped.update(table)
    id_ = block.get("id")
    columns = []
    for c in g.columns:
        key = column_key(c, g)
        role = mapped.get(key, "ignore")
        if isinstance(id_, str) and "{" + key + "}" in id_:
            role = f"paper id ({id_!s})"
        columns.append({"letter": c.letter, "name": c.name, "mapped": role, "sure": c.sure,
                        "why": c.why, "hints": c.hints, "examples": c.examples})
    read = d.read
    n_papers = 0 if read is None else read.papers["paper_id"].nunique()
    n_analysed = 0 if read is None else n_papers - read.exclusions["paper_id"].nunique()
    layout = block.get("layout", "long")
    rows = (f"rows {g.header_row - 1}-{g.header_row} (names combined)" if g.header_rows == 2
            else f"row {g.header_row}")
    if g.read_as:  # the template's header line: how a text file was read goes with it
        rows += f" (text file read as: {g.read_as})"
    return _ENV.get_template("sheet_review.html.j2").render(
        file=str(g.file), sheet=g.sheet, header=rows, n_rows=g.n_rows, units=g.units,
        venue=venue, problems=d.problems, findings=d.findings,
        still=[p for p in d.problems if p not in {str(f) for f in d.findings}],
        columns=columns, papers=_papers(d, step_label), n_papers=n_papers, n_analysed=n_analysed,
        delta_note=("the first method of a row against the best other one" if
                    layout == "wide_top2" else "the best against the runner-up: the long "
                    "layout marks no proposed method"),
        remarks=d.remarks)
