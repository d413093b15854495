"""Table patterns of round 41 (docs/table.md, "Round 41"), each on a small synthetic input,
expected values by hand or from a second run that gives the expected input plainly: a given
``--n`` beside a size the table prints (single file and ``--dir``), HTML files in a folder,
metric names with a PDF's ligatures, a table pasted with spaces between its cells, options
against a column's name, a bold method name, one SD bound for every command, the HTML
report's words, and the segmentation leaderboards' VS / MD / MHD and Youden's index."""

from __future__ import annotations

from pathlib import Path

import pytest
from table_files import write_table_file as _write
from test_table_patterns13 import _md

from falseclaims.cli import main
from falseclaims.config import load_config
from falseclaims.metrics import classify
from falseclaims.table.readers import TableReadError
from falseclaims.table.run import Options, analyse_dir, analyse_file

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _metrics(cfg, path, **opt) -> list[dict]:
    return [m for t in analyse_file(path, cfg, Options(**opt))["tables"] for m in t["metrics"]]


def _spellings(cfg):
    from falseclaims.config import Analysis
    return Analysis.from_config(cfg).eligibility.metrics


# ---------------------------------------------------------------- 1. --n beside the table's n
_ACC = [["A", "0.91"], ["B", "0.89"]]
_CAPTION = "## Accuracy on the held-out test set (n = 120)"


def test_a_given_n_replacing_the_caption_n_is_said(cfg, tmp_path):
    f = _write(tmp_path, "c.md", _md(["Method", "Accuracy"], _ACC, title=_CAPTION))
    [m] = _metrics(cfg, f, n=400)
    assert m["n"] == 400  # one file: the given size decides (as before) ...
    assert any("--n 400 replaces n = 120" in x for x in m["notes"])  # ... and is said
    [same] = _metrics(cfg, f, n=120)
    assert not any("replaces" in x for x in same["notes"])  # control: the same size


def test_under_dir_the_tables_own_n_decides(cfg, tmp_path):
    """docs/table.md: under --dir a bare --n serves the tables without a size of their own.
    By hand: the caption's table gets the probability of n = 120, the other one of 400."""
    _write(tmp_path, "c.md", _md(["Method", "Accuracy"], _ACC, title=_CAPTION))
    _write(tmp_path, "plain.md", _md(["Method", "Accuracy"], _ACC))
    _write(tmp_path, "head.md", _md(["Method", "Internal (n=500) Accuracy"], _ACC))
    res = analyse_dir(tmp_path, cfg, Options(n=400))
    by_file = {Path(t["file"]).name: t["metrics"][0] for t in res["tables"]}
    assert {k: m["n"] for k, m in by_file.items()} == {"c.md": 120, "plain.md": 400,
                                                       "head.md": 500}
    (tmp_path / "x").mkdir()
    plain = _write(tmp_path / "x", "p.md", _md(["Method", "Accuracy"], _ACC))
    alone = {n: _metrics(cfg, plain, n=n)[0] for n in (120, 400)}
    assert by_file["c.md"]["p_runner_up"] == alone[120]["p_runner_up"]
    assert by_file["plain.md"]["p_runner_up"] == alone[400]["p_runner_up"]
    assert any("--n 400 not used" in x for x in by_file["c.md"]["notes"])


def test_under_dir_the_text_output_says_the_n_not_used(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    _write(d, "c.md", _md(["Method", "Accuracy"], _ACC, title=_CAPTION))
    assert main(["table", "--dir", str(d), "--n", "400"]) == 0
    out = capsys.readouterr().out
    assert "note: --n 400 not used for this column: the table gives n = 120" in out


def test_under_dir_an_n_column_beside_a_given_n_is_said(cfg, tmp_path):
    rows = [["A", "0.91", "300"], ["B", "0.89", "300"]]
    _write(tmp_path, "n.md", _md(["Method", "Accuracy", "n"], rows))
    [t] = analyse_dir(tmp_path, cfg, Options(n=400))["tables"]
    assert t["metrics"][0]["n"] == 300
    assert any(x.startswith("--n 400 not used") for x in t["notes"])


# ---------------------------------------------------------------- 2. HTML files in --dir
_HTML = ("<html><body><h2>Results</h2><table><caption>Accuracy on the test set (n = 200)"
         "</caption><tr><th>Method</th><th>Accuracy</th></tr><tr><td>A</td><td>0.91</td></tr>"
         "<tr><td>B</td><td>0.89</td></tr></table></body></html>\n")


def test_html_files_are_read_alone_and_in_a_folder(cfg, tmp_path):
    f = _write(tmp_path, "page.html", _HTML)
    _write(tmp_path, "page2.htm", _HTML)
    [m] = _metrics(cfg, f)
    assert (m["winner"], m["n"]) == ("A", 200)
    res = analyse_dir(tmp_path, cfg, Options())
    assert sorted(Path(t["file"]).name for t in res["tables"]) == ["page.html", "page2.htm"]
    assert not res["skipped"]


def test_a_report_falseclaims_wrote_is_not_swept_as_a_table(tmp_path, capsys):
    d = tmp_path / "d"
    d.mkdir()
    _write(d, "page.html", _HTML)
    assert main(["table", "--dir", str(d), "--report", str(d / "report.html")]) == 0
    capsys.readouterr()
    assert main(["table", "--dir", str(d), "--json"]) == 0
    import json
    res = json.loads(capsys.readouterr().out)["result"]
    assert [Path(t["file"]).name for t in res["tables"]] == ["page.html"]
    assert any("report.html (a report falseclaims wrote" in s for s in res["skipped"])


# ---------------------------------------------------------------- 3. PDF copies
def test_ligatures_of_a_pdf_copy_name_the_metric(cfg):
    sp = _spellings(cfg)
    assert classify("Speciﬁcity", sp) == classify("Specificity", sp)
    assert classify("Speciﬁcity", sp).direction == "higher"
    err = classify("Classiﬁcation error rate", sp)
    assert (err.direction, err.task, err.complement) == ("lower", "classification", True)


def test_a_ligature_header_is_read_in_a_table(cfg, tmp_path):
    rows = [["A", "0.91", "0.80"], ["B", "0.89", "0.85"]]
    [acc, spec] = _metrics(cfg, _write(tmp_path, "l.md", _md(["Method", "Accuracy",
                                                               "Speciﬁcity"], rows)), n=100)
    assert (spec["winner"], spec["direction"]) == ("B", "higher")


def test_a_table_pasted_with_runs_of_spaces_is_read_when_its_columns_line_up(cfg, tmp_path):
    text = "Method        Accuracy   AUC\nResNet-50     0.812      0.90\nOurs          0.845      0.88\n"
    [acc, auc] = _metrics(cfg, _write(tmp_path, "p.csv", text), n=200)
    [ref, _] = _metrics(cfg, _write(tmp_path, "r.csv", text.replace("  ", " ").replace(
        "  ", " ").replace("  ", " ").replace("  ", " ").replace(" ", ",")), n=200)
    assert (acc["winner"], auc["winner"]) == ("Ours", "ResNet-50")
    assert acc["p_runner_up"] == ref["p_runner_up"]
    # no name over the method column: the header is one cell short
    [blank, _] = _metrics(cfg, _write(tmp_path, "b.csv", text.replace("Method", "      ")),
                          n=200)
    assert blank["p_runner_up"] == ref["p_runner_up"]


def test_a_table_pasted_with_single_spaces_gets_a_hint(cfg, tmp_path):
    text = "Method Accuracy AUC\nResNet 50 0.812 0.90\nOurs 0.845 0.88\n"
    with pytest.raises(TableReadError, match="tabs or commas.*Markdown pipe table"):
        analyse_file(_write(tmp_path, "p.csv", text), cfg, Options(n=200))
    with pytest.raises(TableReadError, match="pasted from a PDF"):
        analyse_file(_write(tmp_path, "p.md", text), cfg, Options(n=200))


# ---------------------------------------------------------------- 4. options against names
_ACC3 = [["A", "0.91"], ["B", "0.89"], ["C", "0.80"]]


def test_task_against_the_column_name_is_said(cfg, tmp_path):
    f = _write(tmp_path, "a.md", _md(["Method", "Accuracy"], _ACC3))
    [m] = _metrics(cfg, f, n=100, task="segmentation")
    [plain] = _metrics(cfg, f, n=100)
    assert m["task"] == "classification" and m["p_runner_up"] == plain["p_runner_up"]
    assert "--task segmentation not used for it: the name says classification" in \
        m["task_source"]


def test_metric_kind_against_the_column_name_is_followed_and_said(cfg, tmp_path):
    [m] = _metrics(cfg, _write(tmp_path, "a.md", _md(["Method", "Accuracy"], _ACC3)), n=100,
                   metrics=["Accuracy=dice"])
    [dice] = _metrics(cfg, _write(tmp_path, "d.md", _md(["Method", "Dice"], _ACC3)), n=100)
    assert m["task"] == "segmentation" and m["p_runner_up"] == dice["p_runner_up"]
    assert "the option decides; the column's name says higher is better, classification" in \
        m["task_source"]
    [same] = _metrics(cfg, _write(tmp_path, "e.md", _md(["Method", "Accuracy"], _ACC3)), n=100,
                      metrics=["Accuracy=accuracy"])
    assert "option decides" not in same["task_source"]  # control: the option agrees


def test_a_bold_method_name_is_the_claimed_winner(cfg, tmp_path):
    rows = [["A", "0.91"], ["**Ours**", "0.89"], ["C", "0.80"]]
    [m] = _metrics(cfg, _write(tmp_path, "b.md", _md(["Method", "Accuracy"], rows)), n=100)
    assert m["winner"] == "A"  # the values decide
    assert m["winner_source"] == "best value (a bold method name marks another method)"
    assert any("a bold method name marks Ours (0.89)" in x for x in m["notes"])
    rows[0][0], rows[1][0] = "**A**", "Ours"
    [agree] = _metrics(cfg, _write(tmp_path, "c.md", _md(["Method", "Accuracy"], rows)), n=100)
    assert agree["winner_source"] == "best value (a bold method name agrees)"
    every = [[f"**{r[0].strip('*')}**", r[1]] for r in rows]
    [none] = _metrics(cfg, _write(tmp_path, "e.md", _md(["Method", "Accuracy"], every)), n=100)
    assert none["winner_source"] == "best value (no bold mark)"  # a bold name column


def test_the_table_asks_the_engine_for_the_sd_bound(cfg, tmp_path, monkeypatch):
    """One engine: the table refuses an SD exactly when engine.sd_bound_note says it is
    impossible (here made to say so of every SD)."""
    rows = [["A", "0.85 ± 0.05"], ["B", "0.83 ± 0.06"]]
    f = _write(tmp_path, "s.md", _md(["Method", "Dice"], rows))
    assert _metrics(cfg, f, n=50, pm_over="test")[0]["winner"] == "A"
    seen = []

    def always(name, mean, sd, decimals=None):
        seen.append((mean, sd, decimals))
        return f"SD of {name} = {sd:g} is impossible (an SD of at most 0.01, by test)"

    monkeypatch.setattr("falseclaims.table.model.sd_bound_note", always)
    with pytest.raises(ValueError, match="at most 0.01"):
        _metrics(cfg, f, n=50, pm_over="test")
    assert seen[0] == (0.85, 0.05, 2)


# ---------------------------------------------------------------- 5. report words, docs
def test_the_html_report_names_the_sd_model_as_the_pipeline_does(tmp_path, capsys):
    f = _write(tmp_path, "d.md", _md(["Method", "Dice"], _ACC3))
    d = tmp_path / "sweep"
    d.mkdir()
    _write(d, "d.md", _md(["Method", "Dice"], _ACC3))
    _write(d, "notes.txt", "not a table\n")
    assert main(["table", str(f), "--n", "50", "--report", str(tmp_path / "r.html")]) == 0
    assert main(["table", "--dir", str(d), "--n", "50", "--report", str(tmp_path / "s.html")]
                ) == 0
    capsys.readouterr()
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert "SD model MSD reference" in page and "msd_reference" not in page
    sweep = (tmp_path / "s.html").read_text(encoding="utf-8")
    assert "notes.txt (not a table file)" in sweep


def test_the_docs_csv_column_list_holds_verdict():
    docs = " ".join((REPO / "docs" / "table.md").read_text(encoding="utf-8").split())
    assert "p_low, p_high, verdict, tier_size" in docs


# ---------------------------------------------------------------- 6. vocabulary
def test_segmentation_leaderboard_abbreviations(cfg, tmp_path):
    """ADAM: DSC | MHD | VS; CADA: IoU | HD | MD (tables_heldout16). By hand: MHD and MD
    lower, VS higher (a fraction)."""
    adam = [["Jun Ma", "0.41", "8.96", "0.50"], ["Yuexiang Li", "0.40", "8.67", "0.48"],
            ["De Feo", "0.28", "18.13", "0.39"]]
    ms = _metrics(cfg, _write(tmp_path, "a.md", _md(["Team", "DSC", "MHD", "VS"], adam)), n=50)
    got = {m["column"]: (m["direction"], m["winner"]) for m in ms}
    assert got == {"DSC": ("higher", "Jun Ma"), "MHD": ("lower", "Yuexiang Li"),
                   "VS": ("higher", "Jun Ma")}
    assert next(m for m in ms if m["column"] == "VS")["units"] == "fraction"
    cada = [["Mediclouds", "0.758", "2.866", "1.618"], ["Jun Ma", "0.759", "4.967", "3.535"]]
    ms = _metrics(cfg, _write(tmp_path, "c.md", _md(["Team", "IoU", "HD", "MD"], cada)), n=50)
    assert {m["column"]: (m["direction"], m["winner"]) for m in ms}["MD"] == ("lower",
                                                                            "Mediclouds")


def test_vs_and_md_alone_are_no_metric(cfg, tmp_path):
    """Control: without a segmentation metric beside them, VS and MD name no metric."""
    rows = [["A", "0.91", "0.5"], ["B", "0.89", "0.7"]]
    ms = _metrics(cfg, _write(tmp_path, "v.md", _md(["Method", "Accuracy", "VS"], rows)), n=50)
    assert [m["column"] for m in ms] == ["Accuracy"]
    sp = _spellings(cfg)
    assert not classify("MD", sp).known and not classify("VS", sp).known


def test_youden_index_is_higher_is_better_and_not_bounded(cfg, tmp_path):
    rows = [["Day 3", "0.293"], ["Day 5", "0.387"], ["Day 7", "0.474"]]
    [m] = _metrics(cfg, _write(tmp_path, "y.md", _md(["Landmark", "Youden Index"], rows)))
    assert (m["direction"], m["winner"], m["units"]) == ("higher", "Day 7", "as printed")
