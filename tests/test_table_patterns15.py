"""Table patterns of blind batch 15 and the known limits of batch 14 (docs/table.md,
"Batch 15"), each on a small synthetic table of that shape, winners and directions by hand:
an inter-observer row (a human reference, not a method), a metric whose header names its
interval in brackets (``C-index [95% CI boot]``), decimal commas written the LaTeX way
(``0{,}887``) and cells a note below the table calls not comparable (``3.57*``)."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write
# the same Markdown helper as batch 13's patterns
from test_table_patterns13 import _md

from falseclaims.config import Analysis, load_config
from falseclaims.metrics import classify
from falseclaims.table.run import Options, analyse_file


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _one(cfg, tmp_path, name, text, n=62) -> dict:
    [t] = analyse_file(_write(tmp_path, name, text), cfg, Options(n=n))["tables"]
    return t


# by hand: Interobserver (two human annotators) is best everywhere; of the two models,
# nnU-Net wins Dice (0.82 > 0.76) and both distances (13.73 < 16.82, 4.10 < 5.23) - the
# peritoneal-region README of batch 15, where the tool named "Interobserver" the winner
_OBSERVER = ["Model", "Dice Score", "HD95 (mm)", "ASD (mm)"]
_OBSERVER_ROWS = [["**nnU-Net**", "**0.82 ± 0.15**", "13.73 ± 12.03", "4.10 ± 5.03"],
                  ["SwinUNETR", "0.76 ± 0.18", "16.82 ± 14.21", "5.23 ± 6.12"]]


@pytest.mark.parametrize("reference", ["Interobserver", "Inter-observer variability",
                                       "Inter-rater agreement", "Intra-observer (rater 1)",
                                       "Inter-annotator"])
def test_an_inter_observer_row_is_a_reference_not_the_winner(cfg, tmp_path, reference):
    text = _md(_OBSERVER, _OBSERVER_ROWS + [[reference, "0.88 ± 0.02", "11.7 ± 3.3",
                                             "2.5 ± 0.6"]])
    t = _one(cfg, tmp_path, "obs.md", text)
    got = {m["column"]: m["winner"] for m in t["metrics"]}
    assert got == {"Dice Score": "nnU-Net", "HD95 (mm)": "nnU-Net", "ASD (mm)": "nnU-Net"}
    assert any(reference in n and "human reference" in n for n in t["notes"])


def test_a_radiologist_row_is_still_a_competitor(cfg, tmp_path):
    """The control: a model against radiologists is a genuine comparison (by hand: the
    radiologist's 0.91 is the best AUC)."""
    text = _md(["Reader", "AUC"], [["Model", "0.88"], ["Radiologist 1", "0.91"],
                                   ["Radiologist 2", "0.85"]])
    [m] = _one(cfg, tmp_path, "rad.md", text)["metrics"]
    assert m["winner"] == "Radiologist 1"


@pytest.mark.parametrize("header", ["C-index [95% CI boot]", "AUC [95% CI]",
                                    "Dice [95% CI, bootstrap]"])
def test_a_metric_with_its_interval_in_brackets_is_the_metric(cfg, header):
    """``C-index [95% CI boot]`` was read as a spread column (never scored), as ``95% CI``
    alone is; ``AUC (95% CI)`` was already the metric."""
    kind = classify(header, Analysis.from_config(cfg).eligibility.metrics)
    assert kind.direction == "higher" and not kind.ignore


@pytest.mark.parametrize("header", ["95% CI", "CI [lower, upper]", "SD [mm]"])
def test_an_interval_or_sd_column_is_still_a_spread(cfg, header):
    kind = classify(header, Analysis.from_config(cfg).eligibility.metrics)
    assert kind.ignore.startswith("an SD/spread column")


def test_a_bracketed_ci_column_is_ranked_with_its_tie(cfg, tmp_path):
    """By hand: 0.632 twice at the top of the C-index (the NSCLC survival table)."""
    text = _md(["Model", "C-index [95% CI boot]", "IBS"], [
        ["No Clinical", "0.626 [0.583–0.665]", "0.1748"],
        ["+ Labs", "0.632 [0.587–0.675]", "0.1746"],
        ["+ NLP raw", "0.632 [0.591–0.672]", "0.1736"]])
    t = _one(cfg, tmp_path, "ci.md", text, n=247)
    got = {m["column"]: m for m in t["metrics"]}
    assert sorted(got["C-index [95% CI boot]"]["tied_at_top"]) == ["+ Labs", "+ NLP raw"]
    assert (got["IBS"]["direction"], got["IBS"]["winner"]) == ("lower", "+ NLP raw")


# by hand: pes_trf 0.927 best, pes_dql 0.896 second (the Spanish thesis table of batch 15)
_LATEX_COMMA = r"""\begin{tabular}{lc}
\toprule
Modelo & Dice \\
\midrule
\texttt{pes\_ql}  & 0{,}887 \\
\texttt{pes\_dql} & 0{,}896 \\
\textbf{\texttt{pes\_trf}} & \textbf{0{,}927} \\
\bottomrule
\end{tabular}
"""


def test_latex_decimal_commas_are_read(cfg, tmp_path):
    [m] = _one(cfg, tmp_path, "comma.tex", _LATEX_COMMA, n=64)["metrics"]
    assert (m["winner"], m["units"]) == ("pes_trf", "fraction")
    assert sorted(x["value"] for x in m["methods"]) == [0.887, 0.896, 0.927]


def test_latex_thousands_groups_are_not_decimal_commas(cfg, tmp_path):
    """The control: ``1{,}234`` groups thousands (a count), never 1.234."""
    text = _LATEX_COMMA.replace("0{,}887", "1{,}234")
    res = analyse_file(_write(tmp_path, "k.tex", text), cfg, Options(n=64), strict=False)
    assert not [x for t in res["tables"] for m in t["metrics"] for x in m["methods"]
                if x["value"] == 1.234]
    assert res["unreadable"]


# by hand: the rows marked * follow another protocol (the note below the table); 3.57* is
# the lowest HD95 and was named the winner (the parotid ablation of batch 14); among the
# rows of one protocol E5 (5.24) is the best, ref (5.25) second
_MARKED = _md(["Experiment", "Dice", "HD95 (mm)"], [
    ["ref", "**0.8187**", "5.25"], ["E5", "0.8202", "5.24"], ["E1", "0.8117", "5.52"],
    ["P0", "0.7434", "3.57*"], ["E3", "0.7373", "3.78*"]])


@pytest.mark.parametrize("note", [
    "`*` isotropic HD95 (Phase-1 protocol) — never compare these to the anisotropic rows.",
    "\\* Different evaluation protocol; not directly comparable.",
    "Values marked with * are not comparable with the other rows.",
    "† computed on another protocol (not comparable)"])
def test_cells_a_note_calls_not_comparable_are_left_out(cfg, tmp_path, note):
    text = _MARKED
    if note.startswith("†"):
        text = text.replace("3.57*", "3.57†").replace("3.78*", "3.78†")
    t = _one(cfg, tmp_path, "mark.md", text + "\n" + note + "\n", n=43)
    got = {m["column"]: (m["winner"], m["runner_up"]) for m in t["metrics"]}
    assert got == {"Dice": ("E5", "ref"), "HD95 (mm)": ("E5", "ref")}
    [hd] = [m for m in t["metrics"] if m["column"] == "HD95 (mm)"]
    assert sorted(x["method"] for x in hd["methods"]) == ["E1", "E5", "ref"]
    assert any("left out" in n and "3.57" in n and "not comparable" in n for n in hd["notes"])


def test_a_marked_cell_without_such_a_note_is_still_ranked(cfg, tmp_path):
    """The control: ``*`` as a significance mark (the note says so) ranks as before."""
    text = _MARKED + "\n\\* p < 0.05 against the reference (Wilcoxon).\n"
    t = _one(cfg, tmp_path, "sig.md", text, n=43)
    got = {m["column"]: m["winner"] for m in t["metrics"]}
    assert got == {"Dice": "E5", "HD95 (mm)": "P0"}


def test_only_one_comparable_value_left_refuses_the_column(cfg, tmp_path):
    """Every literature row marked, one row of this work's protocol: nothing to compare."""
    text = _md(["Method", "Dice"], [["Ours", "0.85"], ["Li et al.*", "0.88*"],
                                    ["Chen et al.*", "0.90*"]])
    res = analyse_file(_write(tmp_path, "lit.md", text + "\n* Different protocol, not "
                                                         "directly comparable.\n"),
                       cfg, Options(n=43), strict=False)
    assert not res["tables"] and "at least 2" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("cell", ["<0.001", "< 0.01", "≤0.005"])
def test_a_bound_in_a_metric_column_is_refused_as_a_bound(cfg, tmp_path, cell):
    """``<0.001`` in an MSE column was refused as "not a number"; it is a bound (the value
    lies below it), never a value: still refused, saying so. Dice is read (A, 0.91)."""
    text = _md(["Model", "Dice", "MSE"], [["A", "0.91", cell], ["B", "0.85", "0.003"],
                                         ["C", "0.80", "0.010"]])
    t = _one(cfg, tmp_path, "lt.md", text, n=100)
    assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("Dice", "A")]
    [why] = [n for n in t["notes"] if n.startswith("not read") and "MSE" in n]
    assert "a bound (below" in why


# the thesis ledger of batch 15b: planned numbers under a heading that says so; ranked, the
# planned "Work2" row was named the winner of Mean DSC and HD95
_PLANNED = [["ViL-UNet", "85.12", "12.49"], ["Full SSSM", "85.34", "12.78"],
            ["Work2", "86.54", "10.61"]]


@pytest.mark.parametrize("title", ["### Work2 Internal Placeholder Comparison",
                                   "## Results (dummy values until the runs finish)"])
def test_a_table_of_placeholder_values_is_refused(cfg, tmp_path, title):
    text = _md(["Model", "Mean DSC", "HD95"], _PLANNED, title=title)
    res = analyse_file(_write(tmp_path, "ph.md", text), cfg, Options(n=12), strict=False)
    assert not res["tables"]
    [u] = res["unreadable"]
    assert "not results to rank" in u["reason"]


def test_the_same_numbers_under_a_results_heading_are_ranked(cfg, tmp_path):
    """The control: by hand Work2 has the best Mean DSC (86.54) and HD95 (10.61)."""
    t = _one(cfg, tmp_path, "res.md", _md(["Model", "Mean DSC", "HD95"], _PLANNED), n=12)
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {"Mean DSC": "Work2",
                                                              "HD95": "Work2"}


# the same shape in a paper's LaTeX source: the note in a tablenotes block or a footnotesize
# line after the tabular, the marks as $^\dagger$ / $^*$
_MARKED_TEX = r"""\begin{table}
\caption{Ablation on the locked test set.}
\begin{tabular}{lcc}
\toprule
Experiment & Dice & HD95 (mm) \\
\midrule
ref & \textbf{0.8187} & 5.25 \\
E5 & 0.8202 & 5.24 \\
P0 & 0.7434 & 3.57$^{MARK}$ \\
E3 & 0.7373 & 3.78$^{MARK}$ \\
\bottomrule
\end{tabular}
NOTE
\end{table}
"""


@pytest.mark.parametrize("mark, note", [
    (r"\dagger", r"\footnotesize{$^\dagger$ Isotropic protocol; not directly comparable.}"),
    ("*", "\\begin{tablenotes}\n\\item[*] Evaluated under another protocol.\n"
          "\\end{tablenotes}")])
def test_a_latex_note_below_the_tabular_leaves_the_marked_cells_out(cfg, tmp_path, mark, note):
    text = _MARKED_TEX.replace("MARK", mark).replace("NOTE", note)
    t = _one(cfg, tmp_path, "mark.tex", text, n=43)
    got = {m["column"]: m["winner"] for m in t["metrics"]}
    assert got == {"Dice": "E5", "HD95 (mm)": "E5"}


def test_a_latex_significance_note_leaves_the_marked_column_ranked(cfg, tmp_path):
    """The control: by hand P0 (3.57) has the lowest HD95."""
    text = _MARKED_TEX.replace("MARK", "*").replace("NOTE", r"\footnotesize{$^*$ $p<0.05$.}")
    t = _one(cfg, tmp_path, "sig.tex", text, n=43)
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {"Dice": "E5", "HD95 (mm)": "P0"}


# batch 15c: a prompt-evaluation report prints the confusion matrix beside the metrics; FP and
# FN were ranked as lower-is-better metrics (model_4b "won" FP with 0)
_CONFUSION = _md(["Variant", "n", "TP", "TN", "FP", "FN", "Sensitivity", "F1"], [
    ["model_15b", "81", "30", "7", "2", "42", "41.7%", "0.577"],
    ["model_4b", "81", "14", "9", "0", "58", "19.4%", "0.326"]])


def test_confusion_matrix_counts_are_not_metrics(cfg, tmp_path):
    t = _one(cfg, tmp_path, "cm.md", _CONFUSION, n=81)
    assert sorted(m["column"] for m in t["metrics"]) == ["F1", "Sensitivity"]
    assert any("'FP'" in n and "confusion matrix" in n for n in t["notes"])


def test_false_positives_per_scan_alone_are_still_a_metric(cfg, tmp_path):
    """The control: a detection table's FP column (no TP / TN beside it) is ranked lowest
    first (by hand: B, 1.2)."""
    text = _md(["Method", "Sensitivity", "FP"], [["A", "0.91", "2.5"], ["B", "0.88", "1.2"],
                                                 ["C", "0.85", "3.1"]])
    got = {m["column"]: (m["direction"], m["winner"]) for m in _one(cfg, tmp_path, "fp.md",
                                                                     text)["metrics"]}
    assert got["FP"] == ("lower", "B")


def test_italic_cells_under_an_italic_not_comparable_note_are_read(cfg, tmp_path):
    """The control: ``*87.41*`` is a Markdown italic (second best), and an italic note line
    that says another table is not directly comparable marks nothing (by hand: B wins)."""
    text = _md(["Method", "Dice"], [["A", "*87.41*"], ["B", "**88.74**"], ["C", "86.50"]])
    note = "*Note: these numbers are not directly comparable to Table 2.*\n"
    [m] = _one(cfg, tmp_path, "it.md", text + "\n" + note, n=12)["metrics"]
    assert m["winner"] == "B" and len(m["methods"]) == 3
