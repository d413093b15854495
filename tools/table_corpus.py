"""Score `falseclaims table` on a corpus of real published results tables.

Each table is a folder holding ``table.tex`` (copied verbatim from the LaTeX source of a
paper; ``table.md`` / ``table.csv`` for a README's Markdown or a CSV table), ``SOURCE.md`` (repository, path, commit, license, paper) and ``truth.yaml``, the
reading a careful reader makes, checked by hand: per metric column its direction (higher or
lower is better), its unit, the winner and the runner-up (by value; the bold mark is
recorded too), the data-set group and the test-set size per group when the paper states it.

The table is run the way a new user runs it, in-process through the CLI entry
(``falseclaims table table.tex --n N --json``). A truth's match token ``tablenoK`` names the
K-th table the tool read (two tables with the same headers under one heading). A column the plain run does not read is run
once more with the one edit the truth names (``edit_args``, e.g. ``--transpose``); an
option the CLI does not know counts as not read, with the CLI's message as the reason.

Per column the verdict is ``right`` (direction, unit and winner right), ``wrong`` (read, and
at least one of them wrong) or ``unread`` (with the reason the tool gave, or none).

    python tools/table_corpus.py                      # the committed corpus
    python tools/table_corpus.py --corpus /work/corpus/tables --json scores.json

See docs/table.md, section "Real tables".
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import re
import sys
import unicodedata
from dataclasses import asdict, dataclass, field
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CORPUS = REPO / "tests" / "data" / "real_tables"
# licenses under which a table may be committed (tests/data/real_tables); others stay outside
REDISTRIBUTABLE = ("MIT", "BSD", "Apache", "CC-BY", "CC BY", "CC0")
DIRECTIONS = ("higher", "lower")
# units a score in [0, 1] or [0, 100] is read in; every other unit must not be read as one
SCORE_UNITS = ("percent", "fraction")
# units of a column ranked as printed, without assuming a scale
NEUTRAL_UNITS = (None, "", "as printed")


@dataclass
class ColumnScore:
    table: str
    column: str          # the truth's description of the column (metric, group, match)
    shape: str
    verdict: str         # right | wrong | unread (metric columns); not_scored | scored
    #                      for a column the truth's ``ignore`` says is no metric
    read_as: str = ""    # the tool's column name
    direction: str = ""  # the tool's direction
    unit: str = ""       # the tool's unit
    winner: str = ""     # the tool's winner
    expected: str = ""   # direction, unit, winner of the truth
    wrong: list = field(default_factory=list)   # which of direction/unit/winner are wrong
    reason: str = ""     # why a column was not read (the tool's words)
    named: bool = False  # the reason names the column (not only the table)
    after_edit: bool = False


def load_truth(folder: Path) -> dict:
    with open(folder / "truth.yaml", encoding="utf-8") as fh:
        truth = yaml.safe_load(fh)
    problems = check_truth(truth, folder)
    if problems:
        raise ValueError(f"{folder / 'truth.yaml'}: " + "; ".join(problems))
    return truth


def check_truth(truth: dict, folder: Path) -> list[str]:
    """Problems of a truth file (empty when it is complete)."""
    out = []
    for key in ("id", "shapes", "groups", "methods", "columns"):
        if key not in truth:
            out.append(f"missing key {key!r}")
    if out:
        return out
    if truth["id"] != folder.name:
        out.append(f"id {truth['id']!r} is not the folder name {folder.name!r}")
    for k, col in enumerate(truth["columns"], 1):
        for key in ("match", "direction", "unit", "winner"):
            if key not in col:
                out.append(f"column {k}: missing {key!r}")
        if col.get("direction") not in DIRECTIONS:
            out.append(f"column {k}: direction {col.get('direction')!r} not in {DIRECTIONS}")
        for key in ("winner", "runner_up", "bold"):
            names = col.get(key)
            for name in ([names] if isinstance(names, str) else names or []):
                if name not in truth["methods"]:
                    out.append(f"column {k}: {key} {name!r} is not a key of methods")
    if not (folder / "SOURCE.md").is_file():
        out.append("no SOURCE.md")
    if table_file(folder) is None:
        out.append(f"no {' / '.join(TABLE_FILES)}")
    return out


TABLE_FILES = ("table.tex", "table.md", "table.csv")


def table_file(folder: Path) -> Path | None:
    """The table of a corpus folder, whatever its format."""
    return next((folder / n for n in TABLE_FILES if (folder / n).is_file()), None)


def license_of(folder: Path) -> str:
    text = (folder / "SOURCE.md").read_text(encoding="utf-8")
    hit = re.search(r"^- license: (.*)$", text, re.M)
    return hit.group(1).strip() if hit else ""


def redistributable(folder: Path) -> bool:
    return license_of(folder).startswith(REDISTRIBUTABLE)


def entries(*roots: Path) -> list[Path]:
    return sorted(p.parent for root in roots for p in Path(root).glob("*/truth.yaml"))


def normalise(name: str) -> str:
    """A method or column name as compared: LaTeX markup, accents and punctuation removed,
    lower case (``\\textbf{U-Net}~\\cite{x}`` -> ``unet``)."""
    text = unicodedata.normalize("NFKD", str(name))
    text = re.sub(r"\\(?:cite[tp]?|ref)\*?\{[^}]*\}", "", text)
    text = re.sub(r"\\[a-zA-Z]+\*?", " ", text)
    return re.sub(r"[^\w+]+|_", "", text.lower())  # letters of any script, digits, +


def run_cli(argv: list[str]) -> tuple[int, str, str]:
    """``falseclaims ARGV`` in this process: exit code, stdout, stderr. The command line,
    not the library, because the corpus measures what a user of the command gets (its
    options, its refusals) and must not break when table mode's internals change."""
    from falseclaims.cli import main  # noqa: TID251 (a client of the command, see above)

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refuses an unknown option
            code = exc.code if isinstance(exc.code, int) else 2
    return code, out.getvalue(), err.getvalue()


def n_args(truth: dict) -> tuple[list[str], str]:
    """``--n`` as a reader gives it: one number, or one per data-set group."""
    sizes = {g["group"]: g.get("n") for g in truth["groups"]}
    assumed = truth.get("n_assumed")
    known = {g: n for g, n in sizes.items() if n}
    if known and assumed and len(known) < len(sizes):  # the groups the paper gives no n
        known = {g: n or assumed for g, n in sizes.items()}
    if len(set(known.values())) > 1:
        return ["--n", ",".join(f"{g}={n}" for g, n in known.items())], "per group"
    if known:
        return ["--n", str(next(iter(known.values())))], "stated"
    return (["--n", str(assumed)], "assumed") if assumed else ([], "none")


def run_table(folder: Path, truth: dict, extra: list[str] = ()) -> dict:
    """The tool's JSON result for the table (``tables``, ``unreadable``) or ``error``."""
    args, _ = n_args(truth)
    # an edit naming a file of the table's folder (--macros statistics.tex) names it by path
    extra = [str(folder / e) if (folder / e).is_file() else e for e in extra]
    argv = ["table", str(table_file(folder)), *args, *extra, "--json"]
    code, out, err = run_cli(argv)
    if code == 2 and args[:1] == ["--n"] and "=" in args[1] and not out.strip():
        # the CLI takes no per-group n: the smallest, so that direction/unit/winner are seen
        smallest = min(int(v.split("=")[1]) for v in args[1].split(","))
        argv = ["table", str(table_file(folder)), "--n", str(smallest), *extra, "--json"]
        code, out, err = run_cli(argv)
    try:
        payload = json.loads(out) if out.strip() else {}
    except json.JSONDecodeError:
        payload = {}
    result = payload.get("result", payload)
    if not result.get("tables") and not result.get("unreadable"):
        return {"tables": [], "unreadable": [], "error": err.strip() or f"exit {code}"}
    return {"tables": result.get("tables", []), "unreadable": result.get("unreadable", []),
            "error": ""}


_PATH = re.compile(r"^.*?[/\\]table\.(?:tex|md|csv),\s*")


def _own_text(metric: dict) -> str:
    """What the tool says of the column itself (name, group, metric, n), not of its table."""
    return " ".join(str(metric.get(k) or "") for k in
                    ("column", "group", "dataset", "metric_name", "metric", "n"))


def _names_column(metric: dict, tokens: list[str]) -> bool:
    """A token other than ``tableK`` is found in the column's own text: a table's name
    (``top-8 by AUC``) alone never makes its Accuracy column the AUC the truth means."""
    own = [t for t in tokens if not t.startswith("tableno")]
    return not own or any(_matches(_own_text(metric), [t]) for t in own)


def _tool_columns(result: dict) -> list[tuple[str, dict]]:
    """(searchable text, metric) for every column the tool read."""
    cols = []
    for k, table in enumerate(result["tables"], 1):
        for metric in table.get("metrics", []):
            # the n too: a tool may split rows by their n column without naming the groups
            text = _own_text(metric)
            # the table's number ("tabular 2"), not its caption: a caption names every metric;
            # nor the file's path (".../table.md" holds "md", a metric's name)
            name = _PATH.sub("", str(table.get("table", "")).split(":")[0])
            cols.append((f"{text} {name} tableno{k}", metric))
    return cols


def _matches(text: str, match: list[str]) -> bool:
    """Every token (alternatives separated by |) occurs in the text, compared normalised;
    a token of symbols only (×, +) is looked up as written."""
    flat = normalise(text)

    def hit(alt: str) -> bool:
        return normalise(alt) in flat if normalise(alt) else alt in text

    return all(any(hit(alt) for alt in token.split("|")) for token in match)


def _without_group(col: dict) -> list[str]:
    """The match tokens that do not name the column's data-set group."""
    group = normalise(col.get("group") or "")
    return [t for t in col["match"]
            if not group or not any(normalise(a) and (normalise(a) in group or group in
                                                      normalise(a)) for a in t.split("|"))]


def find_column(result: dict, col: dict, groups: list[str] = ()) -> tuple[dict | None, bool]:
    """The tool's column for a truth column, and whether it was found only without the
    data-set group (the tool merged the groups: a silent misreading). A column the tool put
    in a group of its own, or whose name holds another group of the table, is not a merge."""
    others = {normalise(g) for g in groups} - {normalise(col.get("group") or ""), ""}
    for tokens, merged in ((col["match"], False), (_without_group(col), True)):
        if merged and (tokens == col["match"] or not tokens):
            break
        hits = [m for text, m in _tool_columns(result) if _matches(text, tokens)
                and _names_column(m, tokens) and not (merged and (m.get("group") or any(o in normalise(text)
                                                             for o in others)))]
        if hits:
            # the most specific: the tool's group equal to the truth's (MedQA is inside
            # PubMedQA), then the shortest column name among the matches
            group = normalise(col.get("group") or "")
            return min(hits, key=lambda m: (bool(group) and normalise(m.get("group") or "")
                                            != group, len(str(m.get("column", ""))))), merged
    return None, False


def tool_direction(metric: dict) -> str:
    if "direction" in metric:  # "higher", "lower", or None when the tool does not know
        return metric["direction"] if metric["direction"] in DIRECTIONS else "unknown"
    if "lower_better" in metric:
        return "lower" if metric["lower_better"] else "higher"
    return "higher"  # a table mode without directions reads every column as higher-is-better


def unit_right(truth_unit: str, tool_unit: str | None) -> bool:
    """A unit claimed must be the truth's; a column left "as printed" (ranked without a
    probability, no scale assumed) is not wrong. A distance or count read as a score in
    [0, 1] or [0, 100] is."""
    if tool_unit in NEUTRAL_UNITS:
        return True
    if truth_unit in SCORE_UNITS:
        return tool_unit == truth_unit
    return tool_unit not in SCORE_UNITS


def winner_right(truth: dict, col: dict, tool_winner: str | None,
                 tied: list | None = None) -> bool:
    """The tool's winner is one the truth accepts (a list: any of them). A tie at the top the
    tool reports (``tied``, several methods at the best value) is right when every tied
    method is one the truth accepts and the truth lists more than one; a truth marked
    ``tie: true`` is right only when the tool reports the tie (never a first row named
    winner)."""
    keys = col["winner"] if isinstance(col["winner"], list) else [col["winner"]]
    accepted = {normalise(a) for k in keys for a in [k, *truth["methods"][k]]} - {""}
    if tied:
        return len(keys) > 1 and all(normalise(t) in accepted for t in tied)
    if col.get("tie"):
        return False
    return bool(tool_winner) and normalise(tool_winner) in accepted


def _reason(result: dict, col: dict) -> str:
    """Why a column was not read, in the tool's words: a note naming the column, the
    table's refusal, or the CLI's error."""
    for table in result["tables"]:
        for note in table.get("notes", []):
            if any(_matches(note, [tok]) for tok in _without_group(col) or col["match"]):
                return str(note)
    reasons = [u.get("reason", "") for u in result["unreadable"]]
    if result.get("error"):
        reasons.append(result["error"])
    return " | ".join(r for r in reasons if r)


def _describe(col: dict) -> str:
    return " / ".join(x for x in (col.get("group"), col.get("metric"),
                                  " ".join(col["match"])) if x)


def score_table(folder: Path) -> list[ColumnScore]:
    truth = load_truth(folder)
    plain = run_table(folder, truth)
    edited = None
    out = []
    for col in truth["columns"]:
        after_edit = False
        groups = [g["group"] for g in truth["groups"]]
        metric, merged = find_column(plain, col, groups)
        if metric is None and truth.get("edit_args"):
            if edited is None:
                edited = run_table(folder, truth, truth["edit_args"])
            metric, merged = find_column(edited, col, groups)
            after_edit = metric is not None
        expected = f"{col['direction']}, {col['unit']}, {col['winner']}"
        base = dict(table=truth["id"], column=_describe(col), expected=expected,
                    shape=", ".join(truth["shapes"]), after_edit=after_edit)
        if metric is None:
            reason = _reason(plain, col)
            if edited is not None and edited.get("error"):
                reason += f" | with {' '.join(truth['edit_args'])}: {edited['error']}"
            out.append(ColumnScore(verdict="unread", reason=reason, **base,
                                   named=_matches(reason, _without_group(col) or col["match"])))
            continue
        direction, unit = tool_direction(metric), metric.get("units")
        winner = str(metric.get("winner") or "")
        wrong = [what for what, ok in (
            ("direction", direction == col["direction"]),
            ("unit", unit_right(col["unit"], unit)),
            ("winner", winner_right(truth, col, winner, metric.get("tied_at_top"))),
            ("group (data sets merged into one column)", not merged)) if not ok]
        out.append(ColumnScore(verdict="wrong" if wrong else "right",
                               read_as=str(metric.get("column", "")), direction=direction,
                               unit=str(unit), winner=winner, wrong=wrong, **base))
    return out + _ignored_scores(truth, plain)


def _ignored_scores(truth: dict, result: dict) -> list[ColumnScore]:
    """The columns the truth says are no metric (``ignore``: a difference, a CI, GPU hours):
    not in the metric columns' denominator; ``not_scored`` when the tool read none of them as
    a metric (right), ``scored`` when it did (a misreading)."""
    def words(text: str) -> str:  # Δ and \Delta kept as a word: "ΔDice" is not "Dice"
        text = unicodedata.normalize("NFKD", str(text).replace("\\Delta", " delta ")
                                     .replace("Δ", " delta ")).lower()
        text = re.sub(r"\\[a-z]+\*?", " ", text)
        return " " + " ".join(re.findall(r"[^\W_]+", text)) + " "

    out = []
    for name in truth.get("ignore") or []:
        token = str(name).split(" (")[0]
        hits = [m for _, m in _tool_columns(result)
                if words(token).strip() and words(token) in words(m.get("column", ""))]
        out.append(ColumnScore(truth["id"], token, ", ".join(truth["shapes"]),
                               "scored" if hits else "not_scored",
                               read_as=str(hits[0].get("column", "")) if hits else "",
                               expected="not a metric"))
    return out


def metric_scores(scores: list[ColumnScore]) -> list[ColumnScore]:
    return [s for s in scores if s.verdict in ("right", "wrong", "unread")]


def summary(scores: list[ColumnScore]) -> dict:
    """Corpus-level counts: columns, read, direction+unit right, winner right, unread without
    a reason and unread with a reason that names the column; apart, the columns the truths
    say are no metric, and how many of them the tool did not score."""
    ignored = [s for s in scores if s.verdict in ("scored", "not_scored")]
    scores = metric_scores(scores)
    read = [s for s in scores if s.verdict != "unread"]
    unread = [s for s in scores if s.verdict == "unread"]
    return {
        "tables": len({s.table for s in scores}),
        "columns": len(scores),
        "read": len(read),
        "right": sum(s.verdict == "right" for s in scores),
        "direction_and_unit_right": sum(not {"direction", "unit"} & set(s.wrong)
                                        for s in read),
        "winner_right": sum("winner" not in s.wrong for s in read),
        "unread": len(unread),
        "unread_without_reason": sum(not s.reason.strip() for s in unread),
        "unread_reason_names_column": sum(s.named for s in unread),
        "not_metric_columns": len(ignored),
        "not_metric_not_scored": sum(s.verdict == "not_scored" for s in ignored),
    }


def score_corpus(*roots: Path) -> list[ColumnScore]:
    return [s for folder in entries(*roots) for s in score_table(folder)]


def _counts(rows: list[ColumnScore]) -> dict:
    return {v: sum(s.verdict == v for s in rows) for v in ("right", "wrong", "unread",
                                                              "not_scored", "scored")}


def scorecard(scores: list[ColumnScore]) -> str:
    lines = []
    for table in dict.fromkeys(s.table for s in scores):
        rows = [s for s in scores if s.table == table]
        counts, n = _counts(rows), len(metric_scores(rows))
        apart = counts["not_scored"] + counts["scored"]
        lines.append(f"{table}: {counts['right']} right, {counts['wrong']} wrong, "
                     f"{counts['unread']} unread of {n}" + (
                         f"; {counts['not_scored']} of {apart} no-metric columns not scored"
                         if apart else "") + f" ({rows[0].shape})")
        for s in rows:
            if s.verdict == "scored":
                lines.append(f"  SCORED {s.column!r} (the truth: not a metric) as "
                             f"{s.read_as!r}")
            if s.verdict == "wrong":
                lines.append(f"  WRONG {s.column}: read as {s.read_as!r}: {s.direction}, "
                             f"{s.unit}, winner {s.winner!r}; expected {s.expected} "
                             f"({', '.join(s.wrong)} wrong)")
        # unread columns sharing one reason (usually the table's refusal) on one line
        reasons: dict[str, list[str]] = {}
        for s in rows:
            if s.verdict == "unread":
                reasons.setdefault(s.reason or "(no reason given)", []).append(s.column)
        for reason, cols in reasons.items():
            lines.append(f"  UNREAD {'; '.join(cols)}: {reason}")
    t = summary(scores)
    cols = max(t["columns"], 1)
    lines.append(
        f"{t['tables']} tables, {t['columns']} metric columns: {t['read']} read, "
        f"{t['right']} right; direction and unit right {t['direction_and_unit_right']} "
        f"({t['direction_and_unit_right'] / cols:.0%}), winner right {t['winner_right']} "
        f"({t['winner_right'] / cols:.0%}); {t['unread']} unread, "
        f"{t['unread_without_reason']} of them without a reason, "
        f"{t['unread_reason_names_column']} with a reason that names the column; apart: "
        f"{t['not_metric_columns']} columns the truths say are no metric, "
        f"{t['not_metric_not_scored']} of them correctly not scored")
    return "\n".join(lines)


def _source(folder: Path) -> dict:
    text = (folder / "SOURCE.md").read_text(encoding="utf-8")
    field = {k: (re.search(rf"^- {k}: (.*)$", text, re.M) or [None, ""])[1].strip()
             for k in ("repository", "path", "commit", "paper")}
    field["repository"] = field["repository"].removeprefix("https://github.com/")
    return field


def markdown(scores: list[ColumnScore], *roots: Path) -> str:
    """The per-table rows of docs/table.md, section "Real tables"."""
    lines = ["| table | paper (repository, path @ commit) | shape | metric columns | right / "
             "wrong / unread | in the repository |", "|---|---|---|---|---|---|"]
    for folder in entries(*roots):
        c = _counts([s for s in scores if s.table == folder.name])
        rows = metric_scores([s for s in scores if s.table == folder.name])
        if not rows:
            continue
        src = _source(folder)
        cited = re.match(r"([^,(]+?),([^(]*?)\((\d{4})\)", src["paper"])
        several = cited and ("et al" in cited[2] or cited[2].count(",") > 1)
        paper = (f"{cited[1]}{' et al.' if several else ''} {cited[3]}" if cited
                 else src["paper"].split(" (")[0])
        path = re.match(r"`([^`]*)`, lines (\S+)", src["path"])
        where = f"`{path[1]}` l. {path[2]}" if path else src["path"]
        metrics = ", ".join(dict.fromkeys(s.column.split(" / ")[-2] if " / " in s.column
                                          else s.column for s in rows))
        shape = "; ".join(load_truth(folder)["shapes"][:3])
        cells = [f"`{folder.name}`", f"{paper}; {src['repository']} {where} @ "
                 f"{src['commit'][:7]}", shape, f"{len(rows)}: {metrics}",
                 f"{c['right']} / {c['wrong']} / {c['unread']}",
                 "yes" if redistributable(folder) else "no (license)"]
        lines.append("| " + " | ".join(x.replace("|", "\\|") for x in cells) + " |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--corpus", action="append", type=Path,
                   help=f"folder of table folders (repeatable; default {DEFAULT_CORPUS})")
    p.add_argument("--json", type=Path, help="also write the per-column scores as JSON")
    p.add_argument("--markdown", action="store_true",
                   help="print the per-table rows of docs/table.md instead of the scorecard")
    args = p.parse_args(argv)
    roots = args.corpus or [DEFAULT_CORPUS]
    scores = score_corpus(*roots)
    print(markdown(scores, *roots) if args.markdown else scorecard(scores))
    if args.json:
        args.json.write_text(json.dumps({"summary": summary(scores),
                                         "columns": [asdict(s) for s in scores]},
                                        indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
