"""The per-venue digest of the notes that change results: a few lines for the log of
``validate_sheets`` and ``sheet check``, and the same counts as an HTML page of the
Snakemake report (``results/{venue}/validated/notes_digest.html``). The full list is
``notes.csv``; the digest groups the notes that change results by kind (quoted values and
numbers blanked) with one example each."""

from __future__ import annotations

import jinja2
import pandas as pd

from falseclaims.sheets.read.wide import NO_RESULTS

__all__ = ["digest", "digest_kinds", "digest_html"]


def _counts(papers: pd.DataFrame, results: pd.DataFrame, notes: pd.DataFrame) -> dict:
    n_bad = int(papers["invalid_cell"].notna().sum()) if "invalid_cell" in papers else 0
    changes = notes["note"][notes["kind"] == "changes results"]
    return {"papers": int(papers["paper_id"].nunique()), "excluded": n_bad,
            "results": len(results), "changes": len(changes),
            "informational": len(notes) - len(changes),
            "no_results": bool(changes.str.startswith("no result columns").any())}


def digest_kinds(notes: pd.DataFrame, top: int | None = 6) -> pd.DataFrame:
    """The notes that change results grouped by kind, most frequent first: columns
    ``kind``, ``n`` and the first note of the kind (``example``, ``row``, ``column``).
    ``n`` counts what the notes are about (a paper excluded for three invalid cells has
    three notes and counts once), so it agrees with the counts beside it."""
    changes = notes[notes["kind"] == "changes results"]
    kinds = (changes["note"].str.replace(r"'[^']*'", "…", regex=True)
             .str.replace(r"\s*[(:;{].*$", "", regex=True)
             .str.replace(r"\d+(\.\d+)?", "N", regex=True).str.strip())
    keep = kinds.fillna("") != ""
    frame = pd.DataFrame({"kind": kinds[keep], "example": changes["note"][keep],
                          "row": changes["row"][keep], "column": changes["column"][keep],
                          "value": (changes["value"] if "value" in changes
                                    else pd.Series(pd.NA, index=changes.index))[keep]})
    subjects = frame.drop_duplicates(["kind", "row", "column", "value"])
    n = subjects.groupby("kind", sort=False).size().rename("n")
    first = frame.drop_duplicates("kind").set_index("kind")
    out = first.join(n).reset_index()
    # most frequent first; ties in sheet order (a stable sort, as value_counts)
    out = out.sort_values("n", ascending=False, kind="stable").reset_index(drop=True)
    out = out[["kind", "n", "example", "row", "column"]]
    return out if top is None else out.head(top)


def _without_no_results(kinds: pd.DataFrame) -> pd.DataFrame:
    """The kinds but the no-results note, which the log and the page state once, above."""
    return kinds[kinds["example"] != NO_RESULTS]


def digest(venue: str, papers: pd.DataFrame, results: pd.DataFrame, notes: pd.DataFrame,
           top: int = 6) -> str:
    """A few lines for the log: papers found, results rows, and the notes that change
    results counted by kind (the full list is notes.csv)."""
    c = _counts(papers, results, notes)
    lines = [f"venue {venue or '(unnamed)'}: {c['papers']} papers found"
             + (f" ({c['excluded']} excluded for an invalid cell)" if c["excluded"] else "")
             + f", {c['results']} results rows; {c['changes']} notes change results, "
             f"{c['informational']} informational (validated/notes.csv)"]
    if c["no_results"]:
        lines.append(f"  {NO_RESULTS}")
    kinds = _without_no_results(digest_kinds(notes, None)).head(top)
    for kind, n, example in kinds[["kind", "n", "example"]].itertuples(index=False):
        # one: the note itself (a count of 1 reads as a slip); several: counted by kind
        lines.append(f"  {example}" if n == 1 else f"  {n} x {kind}{_columns_named(kind, notes)}")
    return "\n".join(lines)


def _columns_named(kind: str, notes: pd.DataFrame, most: int = 8) -> str:
    """': 'a', 'b', ...' for a kind about whole columns ("column … absent"): blanked to
    '…', the count alone would not say which columns to look at."""
    if not kind.startswith("column …"):
        return ""
    changes = notes[notes["kind"] == "changes results"]
    kinds = changes["note"].str.replace(r"'[^']*'", "…", regex=True)
    named = changes["note"][kinds.str.startswith(kind)].str.extract(r"^column '([^']*)'")[0]
    names = list(dict.fromkeys(named.dropna()))
    more = f", … ({len(names) - most} more)" if len(names) > most else ""
    return ": " + ", ".join(repr(c) for c in names[:most]) + more


# the page is package data (falseclaims/templates), like the other HTML pages
_ENV = jinja2.Environment(loader=jinja2.PackageLoader("falseclaims", "templates"),
                          autoescape=True, trim_blocks=True, lstrip_blocks=True)


def digest_html(venue: str, label: str, papers: pd.DataFrame, results: pd.DataFrame,
                notes: pd.DataFrame) -> str:
    """The digest as a page of the Snakemake report (every kind, not only the first six;
    all text escaped)."""
    kinds = _without_no_results(digest_kinds(notes, None))
    rows = [{"kind": k, "n": int(n), "example": e,
             "row": None if pd.isna(r) else int(r), "column": None if pd.isna(c) else c}
            for k, n, e, r, c in kinds.itertuples(index=False)]
    c = _counts(papers, results, notes)
    return _ENV.get_template("notes_digest.html.j2").render(
        venue=venue, label=label or venue, c=c, kinds=rows,
        no_results=NO_RESULTS if c["no_results"] else "")
