"""The advice `sheet inspect` writes into a draft must be followable as written: a user
who applies it gets a block that runs through `sheet check` and reads what the sheet
holds. Each pattern on a small hand-made sheet (invented values): a sheet whose task
column holds both tasks and nothing names the metric (a metric constant would give every
paper one metric whatever its task); an empty size column (described as free text, with
an empty example list); a long results table, a row per method, whose repeated paper ids
are its layout (hinted as "one paper per data set?")."""

from __future__ import annotations

import re

import pytest
import yaml

from falseclaims.cli import main
from falseclaims.sheets import read_venue
from falseclaims.sheets.read.errors import SheetValidationError
from falseclaims.sheets.draft.inspect import inspect_sheet
from sheet_drafting import drafted, write_rows

# (paper, task cell as written, proposed, best prior, test-set size)
_ROWS = [("Chen 2019", "classification", 0.91, 0.89, 500),
         ("Kim 2020", "Segmentation", 0.85, 0.84, 120),
         ("Patel 2021", "cls", 0.88, 0.86, 300),
         ("Liu 2021", "seg", 0.79, 0.78, 80),
         ("Singh 2022", "Classification", 0.93, 0.92, 1000),
         ("Garcia 2023", "segmentation", 0.82, 0.80, 60)]
# the primary metric of each task, as config/config.yaml analysis.metrics names it first
_PRIMARY = {"classification": "accuracy", "cls": "accuracy", "segmentation": "dsc",
            "seg": "dsc"}


def _merge(block: dict, edit: dict) -> dict:
    out = dict(block)
    for k, v in edit.items():
        out[k] = _merge(block.get(k) or {}, v) if isinstance(v, dict) else v
    return out


def _check(tmp_path, block: dict, capsys) -> tuple[int, str]:
    cfg = tmp_path / "venue.yaml"
    cfg.write_text(yaml.safe_dump({"run_venues": ["v"], "venues": {"v": block}}))
    code = main(["sheet", "check", "--venue", "v", "--config", str(cfg)])
    return code, capsys.readouterr().out


def test_no_metric_with_a_task_column_advises_reading_it_from_that_column(tmp_path, capsys):
    """Both tasks in the Task column, no metric anywhere: the advice is the edit mapping
    the task column to [task, metric] with a values: metric: rule per task; applied as
    written, `sheet check` passes and each paper's metric is its task's (a segmentation
    paper is never read as accuracy)."""
    rows = [["Paper", "Task", "Ours", "Best prior", "Test set size"]] + [list(r) for r in _ROWS]
    d, block = drafted(write_rows(tmp_path, rows))
    problem, = [p for p in d.problems if p.startswith("no metric")]
    assert "constants: {metric" not in problem and "[task, metric]" in problem
    edit = yaml.safe_load(re.search(r"(\{columns: .*\}\}\})", problem)[1])
    assert edit["columns"] == {"wide": {"Task": ["task", "metric"]}}
    followed = _merge(block, edit)
    code, out = _check(tmp_path, followed, capsys)
    assert code == 0 and "OK, 6 papers, 12 results rows" in out
    results = read_venue(followed, base_dir=".", venue="v").results
    got = results.groupby("paper_id")["metric"].agg(set).to_dict()
    assert got == {p: {_PRIMARY[t.lower()]} for p, t, *_ in _ROWS}


def test_no_metric_without_a_task_column_still_advises_the_constants(tmp_path, capsys):
    """The guard: no task column, so constants {metric, task} is what works; followed
    with the file's one task, check passes."""
    rows = [["Paper", "Ours", "Best prior", "Test set size"]] + \
        [[p, a, b, n] for p, _, a, b, n in _ROWS]
    d, block = drafted(write_rows(tmp_path, rows))
    problem, = [p for p in d.problems if p.startswith("no metric")]
    assert "set constants: {metric: ..., task: ...}" in problem
    followed = dict(block, constants={**block["constants"], "metric": "accuracy",
                                      "task": "classification"})
    code, out = _check(tmp_path, followed, capsys)
    assert code == 0 and "OK, 6 papers" in out


def test_an_empty_size_column_is_said_to_be_empty(tmp_path):
    """A test-set size header over no filled cell: 'empty', not 'free text (a size header
    over text cells)', and no dangling 'e.g. )' in the remark."""
    rows = [["Paper", "Task", "Metric", "Ours", "Best prior", "Test set size"]] + \
        [[p, t, _PRIMARY[t.lower()], a, b, ""] for p, t, a, b, _ in _ROWS]
    path = write_rows(tmp_path, rows)
    col = inspect_sheet(path).columns[5]
    assert col.role == "(ignore)" and "empty (no cell filled)" in col.why
    assert "free text" not in col.why and "text cells" not in col.why
    d, _ = drafted(path)
    said = [r for r in d.remarks if "'Test set size'" in r]
    assert said and all("empty" in r and "e.g." not in r for r in said)


def _long(tmp_path):
    rows = [["Paper", "Task", "Method", "Metric", "Value", "Test set size"]]
    for p, t, a, b, n in _ROWS:
        task = "classification" if _PRIMARY[t.lower()] == "accuracy" else "segmentation"
        rows += [[p, task, "Ours", _PRIMARY[task], a, n],
                 [p, task, "Baseline", _PRIMARY[task], b, n]]
    return write_rows(tmp_path, rows)


def test_a_results_table_gets_no_hint_to_group_its_repeated_ids(tmp_path, capsys):
    """A row per method: a paper's id repeats by layout. No "one paper per data set?"
    hint on the id column, no 'unsure' line per id: one line says it, and the draft reads
    the 6 papers (2 rows each)."""
    path = _long(tmp_path)
    g = inspect_sheet(path)
    pid, = [c for c in g.columns if c.role == "paper_id"]
    assert not any("group_rows_by_id" in h for h in pid.hints)
    d, block = drafted(path)
    assert not any(r.startswith("unsure: ids") for r in d.remarks)
    assert any(r.startswith("ids repeat in rows 2, 3 of column 'Paper' ('Chen 2019'; 6 ids "
                            "in all): a results table") for r in d.remarks)
    code, out = _check(tmp_path, block, capsys)
    assert code == 0 and "OK, 6 papers, 12 results rows" in out
    assert main(["sheet", "inspect", str(path)]) == 0
    assert "one paper per data set?" not in capsys.readouterr().out


def test_a_papers_table_with_ids_in_consecutive_rows_keeps_the_hint(tmp_path):
    """The guard: no method column (a paper's data sets on consecutive rows of a wide
    sheet): the hint stays."""
    rows = [["Paper", "Dataset", "Ours", "Best prior"]]
    for p, _, a, b, _n in _ROWS:
        rows += [[p, "A", a, b], [p, "B", a - 0.01, b - 0.01]]
    pid, = [c for c in inspect_sheet(write_rows(tmp_path, rows)).columns
            if c.role == "paper_id"]
    assert any("one paper per data set?" in h for h in pid.hints)


def test_the_reader_without_a_metric_names_the_task_column_way(tmp_path):
    """A hand-written block with a task column and no metric: the reader's problem names
    the [task, metric] mapping with its values: rules; followed as written (cells spelt
    as the rules name them), every paper reads with its task's metric."""
    rows = [["Paper", "Task", "Ours", "Best prior"]] + \
        [[p, "classification" if _PRIMARY[t.lower()] == "accuracy" else "segmentation", a, b]
         for p, t, a, b, _ in _ROWS]
    block = {"papers": str(write_rows(tmp_path, rows)), "layout": "wide_top2",
             "units": "fraction", "columns": {"wide": {
                 "Paper": "paper_id", "Task": "task", "Ours": "value_proposed",
                 "Best prior": "value_best_prior"}}}
    with pytest.raises(SheetValidationError) as exc:
        read_venue(block, base_dir=".", venue="v")
    said = str(exc.value)
    assert "{their task column: [task, metric]}" in said
    values = yaml.safe_load(re.search(r"with values: (\{metric: \{[^}]*\}\})", said)[1])
    block["columns"]["wide"]["Task"] = ["task", "metric"]
    got = read_venue(dict(block, values=values), base_dir=".", venue="v").results
    assert dict(zip(got["paper_id"], got["metric"])) == {
        p: _PRIMARY[t.lower()] for p, t, *_ in _ROWS}


def _bib(key: str, title: str) -> str:
    return f"@inproceedings{{{key},\n    title = \"{title}\",\n    year = \"2018\",\n}}"


_BIB = [("htut-etal-2018-grammar", "Htut 2018", "Grammar induction with neural models"),
        ("htut-etal-2018-grammar-ws", "Htut 2018", "Grammar induction with neural models"),
        ("lee-2019-repro", "Lee 2019", "Reproducing parsers"),
        ("lee-2019-tagger", "Lee 2019", "A tagger revisited"),
        ("ng-2020-mt", "Ng 2020", "Machine translation, again"),
        ("ortiz-2021-qa", "Ortiz 2021", "Question answering results"),
        ("park-2021-ner", "Park 2021", "Named entities in context")]


def test_a_bibtex_column_names_the_papers_when_authors_and_titles_repeat(tmp_path, capsys):
    """Authors repeat and two entries share a title (a workshop and a conference paper):
    the BibTeX entry of each row is the paper, its citation key the id (7 papers, not 6
    by title nor 5 by author)."""
    rows = [["bibtex", "Authors", "Title", "Venue"]] + [
        [_bib(k, t), a, t, "WS" if k.endswith("-ws") else "ACL"] for k, a, t in _BIB]
    d, block = drafted(write_rows(tmp_path, rows))
    assert block["columns"]["wide"]["bibtex"] == "paper_id"
    papers = read_venue(block, base_dir=".", venue="v").papers
    assert sorted(papers["paper_id"]) == sorted(k for k, _, _ in _BIB)
    code, out = _check(tmp_path, block, capsys)
    assert code == 0 and f"OK, {len(_BIB)} papers" in out


def test_a_unique_id_stays_beside_a_bibtex_column(tmp_path):
    """The guard: an id column already unique (and titles too) keeps the id; the BibTeX
    column is not it."""
    rows = [["bibtex", "Paper", "Title"]] + [[_bib(k, f"{t} {i}"), f"P{i}", f"{t} {i}"]
                                            for i, (k, _, t) in enumerate(_BIB)]
    _, block = drafted(write_rows(tmp_path, rows))
    assert block["columns"]["wide"]["Paper"] == "paper_id"
    assert block["columns"]["wide"].get("bibtex") != "paper_id"


def test_effect_sizes_numbered_by_id_name_the_reference_column_as_the_paper(tmp_path, capsys):
    """`ID` numbers the effect sizes (one per row) while `Full.Reference` cites the paper
    of each (4 papers over 9 rows, one written with other spacing): the one
    question names the reference column and its count; followed as written, check reads
    the 4 papers."""
    refs = ["Austin, L. H. (1987). The effects of play.", "Alman, R. E. (1992). Games.",
            "Baker, T. (2001). Violence and media.", "Chu, W. (2010). Arousal."]
    cited = [0, 0, 0, 1, 1, 2, 2, 3, 3]
    rows = [["ID", "Study.name", "Full.Reference", "Correlation", "Std.Err", "p.twotail"]]
    for i, r in enumerate(cited):
        ref = refs[r] if i != 2 else "  " + refs[r].replace(" ", "  ")
        rows.append([i + 1, f"S{i}", ref, f"0.{10 + i}", f"0.0{5 + i}", f"0.{40 + i}"])
    d, block = drafted(write_rows(tmp_path, rows))
    problem, = d.problems
    assert "I 'Full.Reference'" not in problem  # letters are the sheet's own
    assert "C 'Full.Reference' names 4 references over 9 rows" in problem
    assert "map 'Full.Reference' to paper_id and 'ID' to ignore" in problem
    wide = {k: "ignore" for k in block["columns"]["wide"]}
    wide["Full.Reference"] = "paper_id"
    followed = dict(block, group_rows_by_id=True, columns={"wide": wide})
    followed.pop("id", None)
    code, out = _check(tmp_path, followed, capsys)
    assert code == 0 and "OK, 4 papers" in out
