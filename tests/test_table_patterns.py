"""Table patterns met on the development corpus of real tables (docs/table.md, "Real
tables"), each tested on a synthetic table of that shape: row groups marked by a sparsely
filled label column (a name on a group's first row, blanks below), well-known metrics
without a model (AURC, ECE, BWT, FWT) and FLOPs/parameter counts printed with a unit suffix."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write

from falseclaims.config import load_config
from falseclaims.metrics import classify
from falseclaims.table.report import format_text, html_report
from falseclaims.table.run import Options, analyse_file
from falseclaims.table.cells import parse_printed_cell, plain_text


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _tex(header: str, rows: list[str], caption: str = "Results on the test set.") -> str:
    body = "".join(f"{r} \\\\\n" for r in rows)
    cols = "l" * (header.count("&") + 1)
    return (f"\\begin{{table}}\\caption{{{caption}}}\n\\begin{{tabular}}{{{cols}}}\n"
            f"\\toprule\n{header} \\\\\n\\midrule\n{body}\\bottomrule\n\\end{{tabular}}"
            "\\end{table}\n")


# the teacher (0.95) beats every student; within each student group the winner is by hand:
# S: B (0.871 > 0.866 > 0.860), T: C (0.842 > 0.835 > 0.830); ECE lower: S: A, T: B
_STUDENTS = _tex("Student & Method & ACC & ECE", [
    "-- & Teacher & 0.950 & 0.020",
    "-- & Small & 0.850 & 0.050",
    "-- & Tiny & 0.820 & 0.060",
    "\\textbf{S} & A & 0.866 & 0.031",
    " & B & 0.871 & 0.045",
    " & C & 0.860 & 0.052",
    "\\textbf{T} & A [x=1] & 0.830 & 0.070",
    " & B & 0.835 & 0.041",
    " & C & 0.842 & 0.066",
])


def _winners(res) -> dict:
    return {(t["table"].rsplit("[", 1)[-1].rstrip("]"), m["column"]): m["winner"]
            for t in res["tables"] for m in t["metrics"]}


def test_a_sparse_label_column_splits_the_table_into_its_groups(cfg, tmp_path):
    """The Student column names a group on its first row only: each group is its own
    comparison (winners by hand above), and the teacher row is never ranked with a group."""
    res = analyse_file(_write(tmp_path, "s.tex", _STUDENTS), cfg, Options(n=1000))
    won = _winners(res)
    assert won[("S", "ACC")] == "B" and won[("T", "ACC")] == "C"
    assert won[("S", "ECE")] == "A" and won[("T", "ECE")] == "B"
    for t in res["tables"]:
        names = {x["method"] for m in t["metrics"] for x in m["methods"]}
        assert "Teacher" not in names or not names & {"A", "B", "C"}
    assert "Teacher" not in won.values() or all(
        k[0] == "--" for k, v in won.items() if v == "Teacher")


def test_labels_on_first_rows_over_different_methods_stay_one_comparison(cfg, tmp_path):
    """Method families (a label on each family's first row, no method in two families):
    one comparison of all methods, as with section rows naming families, and a note names
    the column so that a reader can split it if the groups are data sets."""
    text = _tex("Family & Method & ACC", [
        "CNN & A & 0.80", " & B & 0.82", "ViT & C & 0.85", " & D & 0.81"])
    res = analyse_file(_write(tmp_path, "f.tex", text), cfg, Options(n=1000))
    assert [m["winner"] for t in res["tables"] for m in t["metrics"]] == ["C"]
    assert any("column 'Family' labels groups of rows" in n for n in res["tables"][0]["notes"])


@pytest.mark.parametrize("header, direction", [
    ("AURC", "lower"), ("E-AURC", "lower"), ("ECE", "lower"), ("ECE (%)", "lower"),
    ("BWT", "higher"), ("Backward transfer", "higher"), ("FWT", "higher"),
    ("Forward transfer", "higher")])
def test_calibration_and_continual_learning_metrics(spellings, header, direction):
    kind = classify(header, spellings)
    assert (kind.direction, kind.task, kind.ignore) == (direction, None, "")


def test_negative_backward_transfer_is_ranked_without_a_probability(cfg, tmp_path):
    """BWT is negative when a method forgets: the least negative wins (by hand: B, -0.10),
    no model exists, so no P(false claim); AURC (lower) beside it: C (0.030)."""
    text = _tex("Method & BWT & AURC", [
        "A & -0.35 & 0.041", "B & -0.10 & 0.052", "C & -0.22 & 0.030"])
    res = analyse_file(_write(tmp_path, "b.tex", text), cfg, Options(n=500))
    got = {m["column"]: m for t in res["tables"] for m in t["metrics"]}
    assert got["BWT"]["winner"] == "B" and got["AURC"]["winner"] == "C"
    assert all(x.get("p_false_claim") is None for m in got.values() for x in m["methods"])


def test_counts_with_a_unit_suffix_are_named_as_not_read(cfg, tmp_path):
    """``107G`` FLOPs and ``114M`` parameters: not numbers of a metric; the note names both
    columns and why, and the metric beside them is read."""
    text = _tex("Method & mAP$\\uparrow$ & Flops$\\downarrow$ & Params$\\downarrow$", [
        "A & 65.6 & 107G & 114M", "B & 63.2 & 27G & 28M", "C & 66.1 & 7.4G & 5.7M"])
    res = analyse_file(_write(tmp_path, "c.tex", text), cfg, Options(n=500))
    [t] = res["tables"]
    assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("mAP", "C")]
    note = next(n for n in t["notes"] if "not read as metrics" in n)
    assert "'Flops↓', 'Params↓' (counts with a unit suffix" in note


# two data sets (a Domain label on each group's first row) of the same four methods, each a
# pair of text columns (Expl., Win.); lower is better. By hand: D1: Inf "IG time" (0.12),
# Cx "SG ---" (0.60); D2: Inf "IG freq" (0.02), Cx "SG ---" (0.28)
_DOMAINS = _tex("Domain & Expl. & Win. & Inf $\\downarrow$ & Cx $\\downarrow$", [
    "D1 & SG & --- & 0.13 & \\textbf{0.60}",
    " & IG & time & \\textbf{0.12} & 0.77\\textsuperscript{*}",
    " & IG & freq & 0.88 & 0.72",
    " & Sal & time & 0.73 & 0.91",
    "D2 & SG & --- & 0.04 & \\textbf{0.28}",
    " & IG & time & 0.21 & 0.64",
    " & IG & freq & \\textbf{0.02} & 0.33",
    " & Sal & time & 0.36 & 0.90",
])


def test_a_sparse_label_column_splits_methods_named_by_two_columns(cfg, tmp_path):
    """The method is two text columns (``IG`` + ``time``) and the data set a label on each
    group's first row: one comparison per data set, never the eight rows ranked together."""
    res = analyse_file(_write(tmp_path, "d.tex", _DOMAINS), cfg, Options())
    won = {(t["table"].rsplit("[", 1)[-1].rstrip("]"), m["column"]): m["winner"]
           for t in res["tables"] for m in t["metrics"]}
    assert won == {("D1", "Inf"): "IG / time", ("D1", "Cx"): "SG",
                   ("D2", "Inf"): "IG / freq", ("D2", "Cx"): "SG"}
    assert all(len(m["methods"]) == 4 for t in res["tables"] for m in t["metrics"])


@pytest.mark.parametrize("header", ["ARI", "NMI", "FMI", "AMI", "Adjusted Rand index",
                                    "Normalized mutual information", "Fowlkes-Mallows index"])
def test_clustering_agreement_metrics_are_higher_is_better(spellings, header):
    kind = classify(header, spellings)
    assert (kind.direction, kind.task, kind.ignore) == ("higher", None, "")


def test_clustering_table_is_ranked_per_column(cfg, tmp_path):
    """ARI/NMI/FMI beside ACC (a clustering ablation): by hand, ARI and ACC: C; NMI: A."""
    text = _tex("Variant & ARI & NMI & ACC", [
        "A & 0.7248 $\\pm$ 0.0005 & \\textbf{0.7940 $\\pm$ 0.0024} & 0.7669 $\\pm$ 0.0031",
        "B & 0.0003 $\\pm$ 0.0027 & 0.0260 $\\pm$ 0.0027 & 0.3074 $\\pm$ 0.0085",
        "C & \\textbf{0.7391 $\\pm$ 0.0364} & 0.7891 $\\pm$ 0.0242 & 0.7891 $\\pm$ 0.0324"])
    res = analyse_file(_write(tmp_path, "k.tex", text), cfg, Options(n=366))
    got = {m["column"]: m["winner"] for t in res["tables"] for m in t["metrics"]}
    assert got == {"ARI": "C", "NMI": "A", "ACC": "C"}


def test_a_table_environment_left_open_still_gives_its_caption(cfg, tmp_path):
    """An excerpt whose ``\\end{table}`` is not in the file (it ends after the caption):
    the caption names the metric (AP) of columns named only by category and difficulty."""
    text = ("\\begin{table}[t!]\n\\begin{tabular}{l|cc}\n\\toprule\n"
            "& \\multicolumn{2}{c}{Pedestrian} \\\\\n\\multirow{-2}{*}{Methods} & Easy & Hard \\\\\n"
            "\\midrule\nA & 1.28 & 0.51 \\\\\nB & \\textbf{15.86} & \\textbf{9.06} \\\\\n"
            "C & 7.24 & 4.11 \\\\\n\\bottomrule\n\\end{tabular}\n"
            "\\caption{3D detection on the test set. We report BEV AP$|_{R_{40}}$ metrics.}\n")
    res = analyse_file(_write(tmp_path, "o.tex", text), cfg, Options(n=3769))
    got = {m["column"]: (m["winner"], m["direction"]) for t in res["tables"] for m in t["metrics"]}
    assert got == {"Pedestrian Easy": ("B", "higher"), "Pedestrian Hard": ("B", "higher")}


def test_a_caption_naming_a_metric_per_data_set_reads_each_column(cfg, tmp_path):
    """The caption names two metrics, one clause each: 'OASIS and Abd CT report Dice (higher
    is better), NLST reports TRE': OASIS and Abd CT are Dice (by hand: B, C), never the TRE's
    direction; the change columns (后向变化 = backward change) are differences, not scored."""
    caption = ("Final results and backward change. OASIS and Abd CT report Dice (higher is "
               "better); NLST reports TRE (lower is better).")
    text = _tex("Method & OASIS & Abd CT & NLST TRE & 后向变化 OASIS", [
        "A & 0.598 & 0.311 & 7.932 & -- ", "B & 0.743 & 0.358 & 2.662 & $-0.395$",
        "C & 0.659 & 0.364 & 3.836 & $-0.083$"], caption=caption)
    res = analyse_file(_write(tmp_path, "r.tex", text), cfg, Options(n=100))
    got = {m["column"]: (m["winner"], m["direction"]) for t in res["tables"] for m in t["metrics"]}
    assert got == {"OASIS": ("B", "higher"), "Abd CT": ("C", "higher"),
                   "NLST TRE": ("B", "lower")}
    assert any("'后向变化 OASIS' (a difference" in n for t in res["tables"] for n in t["notes"])


def test_a_number_in_another_metric_is_left_out_with_a_note(cfg, tmp_path):
    """``3.7 MAE`` in an accuracy column is a result in another metric: left out (noted,
    naming the method and line), never refused as 'not a number' nor read as 3.7 %; by hand
    the winner among the accuracies is C (63.96)."""
    text = _tex("Method & Age (Acc. \\%) UTKFace", [
        "B & 63.34", "A & 3.7 MAE", "C & 63.96"])
    res = analyse_file(_write(tmp_path, "m.tex", text), cfg, Options(n=3000))
    [t] = res["tables"]
    [m] = t["metrics"]
    assert m["winner"] == "C" and {x["method"] for x in m["methods"]} == {"B", "C"}
    assert any("A: '3.7 MAE' in 'Age (Acc. %) UTKFace' is another metric (MAE)" in n
               for n in m.get("notes", []) + t["notes"])


def test_an_ellipsis_marks_a_missing_result(cfg, tmp_path):
    """``...`` (a table note: "the result was unavailable") is a missing value, as ``-``:
    the column is read over the other methods (by hand: C, 97.62)."""
    text = _tex("Method & Gender (Acc. \\%) UTKFace", [
        "A & 95.73", "B & ...", "C & 97.62", "D & \\ldots"])
    res = analyse_file(_write(tmp_path, "e.tex", text), cfg, Options(n=3000))
    [m] = res["tables"][0]["metrics"]
    assert m["winner"] == "C" and {x["method"] for x in m["methods"]} == {"A", "C"}


_THREE = ("\\begin{tabular}{lll}\n\\cline{2-3}\n & \\textbf{Housing} & \\textbf{Iris} \\\\ \\hline\n"
          "\\multicolumn{1}{l|}{\\textbf{A}} & 0.97; 0.98; 0.99 & 0.96; 0.94; 1.00 \\\\\n"
          "\\multicolumn{1}{l|}{\\textbf{B}} & 0.99; 0.97; 0.99 & 0.89; 0.89; 1.00 \\\\\n"
          "\\multicolumn{1}{l|}{\\textbf{C}} & 1.00; 0.95; 0.99 & - \\\\ \\hline\n"
          "\\end{tabular}\n")


def test_three_values_in_one_cell_become_three_columns(cfg, tmp_path):
    """``0.97; 0.98; 0.99``: three results per cell, never a header row; the refusal names
    each column (nothing says what they measure), and a --metric choice reads one (by hand:
    Housing value 1: C, 1.00; value 2: A, 0.98)."""
    f = _write(tmp_path, "three.tex", _THREE)
    with pytest.raises(ValueError, match=r"unknown metric in column\(s\) 'Housing \(value 1 of 3\)'"
                                         r", 'Housing \(value 2 of 3\)'"):
        analyse_file(f, cfg, Options(n=200))
    res = analyse_file(f, cfg, Options(n=200, metrics=["Housing (value 1 of 3)=higher",
                                                       "Housing (value 2 of 3)=higher"]))
    got = {m["column"]: m["winner"] for t in res["tables"] for m in t["metrics"]}
    assert got == {"Housing (value 1 of 3)": "C", "Housing (value 2 of 3)": "A"}


def test_an_impossible_sd_not_used_as_a_per_case_sd_leaves_the_mean_read(cfg, tmp_path):
    """``0.811 ± 0.79`` (a misprint for 0.079: at 0.811 an SD is at most 0.392): with the ±
    values not taken as per-case SDs the mean is read and the SD noted; with --pm-over test
    the column is refused, as before. By hand the winner is C (0.811)."""
    text = _tex("Method & Dice", ["A & $0.537\\pm0.204$", "B & $0.808\\pm0.087$",
                                  "C & $0.811\\pm0.79$"])
    f = _write(tmp_path, "sd.tex", text)
    [m] = analyse_file(f, cfg, Options(n=30))["tables"][0]["metrics"]
    assert m["winner"] == "C"
    assert any("± 0.79 is impossible for a mean of 0.811" in n for n in m["notes"])
    with pytest.raises(ValueError, match="± 0.79 is impossible for a mean of 0.811"):
        analyse_file(f, cfg, Options(n=30, pm_over="test"))


@pytest.mark.parametrize("header, spread", [("SE", True), ("SEM", True), ("COCO-Val SE", True),
                                            ("Standard error", True), ("Se (%)", False)])
def test_a_standard_error_column_is_never_scored(spellings, header, spread):
    """SE/SEM (capitals) and 'standard error' are spreads; 'Se' may be a sensitivity."""
    assert bool(classify(header, spellings).ignore) is spread


def test_a_caption_clause_about_a_spread_column_gives_it_no_metric(cfg, tmp_path):
    """'Columns SE show the standard error of MAE estimates': the SE columns stay unscored
    (never ranked as MAE); MAE by hand: B (12.1)."""
    text = _tex("Method & COCO-Val MAE & COCO-Val SE", ["A & 14.3 & 1.2", "B & 12.1 & 0.9"],
                caption="Object counting. Columns SE show the standard error of MAE estimates.")
    [t] = analyse_file(_write(tmp_path, "se.tex", text), cfg, Options(n=100))["tables"]
    assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("COCO-Val MAE", "B")]


def test_an_overall_average_beside_accuracy_columns_is_their_average(cfg, tmp_path):
    """'Overall Average' names no metric, but every other column is an accuracy on the
    same scale: it is their average, an accuracy (by hand: B, 84.04); beside a Dice and an
    HD95 column an 'Average' stays unknown."""
    text = _tex("Model & Emotion Acc & Avg. Age Acc & \\textbf{Overall Average}", [
        "A & 84.32 & 61.28 & 81.05", "B & 90.83 & 63.72 & \\textbf{84.04}"],
        caption="Summary of model average performance (\\%).")
    [t] = analyse_file(_write(tmp_path, "avg.tex", text), cfg, Options(n=3068))["tables"]
    got = {m["column"]: (m["winner"], m["task"]) for m in t["metrics"]}
    assert got["Overall Average"] == ("B", "classification")
    mixed = _tex("Model & Dice & HD95 & Average", ["A & 0.81 & 5.1 & 0.70", "B & 0.84 & 4.2 & 0.72"])
    [t] = analyse_file(_write(tmp_path, "mix.tex", mixed), cfg, Options(n=30))["tables"]
    assert "Average" not in {m["column"] for m in t["metrics"]}


def test_a_value_with_its_interval_on_a_second_line_of_a_makecell(cfg, tmp_path):
    """``\\makecell{85.3 \\\\ {\\tiny [84.0, 86.6]}}``: the value with its 95% CI printed
    below it is the value (the CI noted), never 'no numeric column'; by hand: B (85.3)."""
    text = _tex("Model & TN3K", [
        "A & \\makecell{81.8 \\\\ {\\tiny [80.2, 83.5]}}",
        "B & \\makecell{\\textbf{85.3} \\\\ {\\tiny [84.0, 86.6]}}",
        "C & \\makecell{84.5 \\\\ {\\tiny [83.5, 85.5]}}"], caption="Dice (\\%) on TN3K.")
    [m] = analyse_file(_write(tmp_path, "mc.tex", text), cfg, Options(n=100))["tables"][0][
        "metrics"]
    assert m["winner"] == "B" and len(m["methods"]) == 3


def test_two_tables_side_by_side_take_their_methods_from_their_own_name_column(cfg, tmp_path):
    """``Segmentation & Dice & HD95 & Classification & AUROC & AUPRC``: the AUROC column's
    methods are the Classification names, never the Segmentation names of the same row (by
    hand: Dice S3 85.31, HD95 S3 8.303, AUROC C3 0.888, AUPRC C2 0.936)."""
    text = _tex("Segmentation & Dice$\\uparrow$ & HD95$\\downarrow$ & Classification & "
                "AUROC$\\uparrow$ & AUPRC$\\uparrow$", [
                    "S1 & 84.84 & 9.028 & C1 & 0.873 & 0.793",
                    "S2 & 85.18 & 8.483 & C2 & 0.853 & 0.936",
                    "S3 & 85.31 & 8.303 & C3 & 0.888 & 0.877"])
    res = analyse_file(_write(tmp_path, "sbs.tex", text), cfg, Options(n=100))
    got = {m["column"]: m["winner"] for t in res["tables"] for m in t["metrics"]}
    assert got == {"Dice": "S3", "HD95": "S3", "AUROC": "C3", "AUPRC": "C2"}
    for t in res["tables"]:
        names = {x["method"] for m in t["metrics"] for x in m["methods"]}
        assert names <= {"S1", "S2", "S3"} or names <= {"C1", "C2", "C3"}
    # a Venue column after a Year column is no second table: no metric between them
    text = _tex("Method & Year & Venue & Dice", ["A & 2021 & MICCAI & 0.81",
                                                 "B & 2022 & TMI & 0.84", "C & 2023 & MedIA & 0.80"])
    res = analyse_file(_write(tmp_path, "venue.tex", text), cfg, Options(n=100))
    assert [(m["column"], m["winner"]) for t in res["tables"] for m in t["metrics"]] == [
        ("Dice", "B")]


def test_a_unit_printed_in_every_cell_is_the_column_unit(cfg, tmp_path):
    """``6.4\\,mm`` in every HD95 cell (no unit in the header): the number is read, the unit
    noted; HD95 lower is better, by hand: C (3.6)."""
    text = _tex("Modelo & Dice WT & HD95", [
        "A & 0.78 & 6.4\\,mm", "B & 0.82 & 5.1\\,mm", "C & \\textbf{0.90} & \\textbf{3.6}\\,mm"])
    res = analyse_file(_write(tmp_path, "mm.tex", text), cfg, Options(n=100))
    [t] = res["tables"]
    got = {m["column"]: (m["winner"], m["direction"]) for m in t["metrics"]}
    assert got["Dice WT"] == ("C", "higher")
    assert [k for k in got if k.startswith("HD95")] and got[
        next(k for k in got if k.startswith("HD95"))] == ("C", "lower")
    assert any("mm" in n and "HD95" in n for n in t["notes"])


def test_a_tabular_closed_by_its_table_environment_is_read_with_a_note(cfg, tmp_path):
    """A source whose ``\\end{tabular}`` is missing (``\\hline\\hline`` then
    ``\\end{table*}``): the rows up to ``\\end{table*}`` are the table, noted; by hand the
    DSC winner is B (0.6889). Without the table environment's end it stays refused."""
    body = ("\\begin{table*}\n\\caption{Ablation.}\n\\begin{tabular}{c|cc}\n\\hline\n"
            "Model & DSC$\\uparrow$ & MAE(HU)$\\downarrow$ \\\\\n\\hline\n"
            "A & 0.5918 & 44.8 \\\\\nB & 0.6889 & 46.9 \\\\\n\\hline\\hline\n")
    res = analyse_file(_write(tmp_path, "open.tex", body + "\\end{table*}\n"), cfg,
                       Options(n=100))
    [t] = res["tables"]
    assert {m["column"]: m["winner"] for m in t["metrics"]}["DSC"] == "B"
    assert any("no \\end{tabular}" in n for n in t["notes"])
    with pytest.raises(ValueError, match="the file ends inside the table"):
        analyse_file(_write(tmp_path, "cut.tex", body), cfg, Options(n=100))


def test_makebox_options_are_not_part_of_a_header(cfg, tmp_path):
    """``\\makebox[0.05\\textwidth][c]{Aorta}`` is the header ``Aorta``."""
    text = _tex("\\makebox[0.01\\textwidth][c]{Methods} & \\makebox[0.05\\textwidth][c]{DSC}",
                ["A & 76.85", "B & 85.50"])
    [t] = analyse_file(_write(tmp_path, "mb.tex", text), cfg, Options(n=12))["tables"]
    assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("DSC", "B")]


_ORGANS = ["A & 80.00 & 20.0 & 85.00 & 90.00 & {} ", "B & 82.00 & 15.0 & 84.00 & 92.00 & {}",
           "C & 81.00 & 18.0 & 86.00 & 91.00 & {}"]


def test_columns_whose_row_mean_is_the_dsc_column_are_dice(cfg, tmp_path):
    """Synapse-style: ``DSC`` and ``HD`` name metrics, the organ columns do not; the organ
    columns' mean is the DSC of every row (A: (85+90+65)/3 = 80.00, B: 82.00, C: 81.00), so
    they are Dice (by hand: Aorta C 86, Liver B 92, Spleen B 70). When the mean is no column
    (Spleen 10/12/11) nothing says what they hold: unknown, as before."""
    header = "Methods & DSC$\\uparrow$ & HD$\\downarrow$ & Aorta & Liver & Spleen"
    rows = [r.format(v) for r, v in zip(_ORGANS, ("65.00", "70.00", "66.00"))]
    [t] = analyse_file(_write(tmp_path, "syn.tex", _tex(header, rows)), cfg,
                       Options(n=12))["tables"]
    got = {m["column"]: (m["winner"], m["direction"]) for m in t["metrics"]}
    assert got == {"DSC": ("B", "higher"), "HD": ("B", "lower"), "Aorta": ("C", "higher"),
                   "Liver": ("B", "higher"), "Spleen": ("B", "higher")}
    rows = [r.format(v) for r, v in zip(_ORGANS, ("10.00", "12.00", "11.00"))]
    [t] = analyse_file(_write(tmp_path, "syn2.tex", _tex(header, rows)), cfg,
                       Options(n=12))["tables"]
    assert {m["column"] for m in t["metrics"]} == {"DSC", "HD"}


def test_a_caption_listing_data_sets_with_english_commas_reads_each_clause(cfg, tmp_path):
    """'OASIS, Abd CT and Abd MR-CT report Dice (higher is better), NLST reports TRE (lower
    is better)': only English commas, no semicolon; each data set takes its own clause's
    metric (by hand: OASIS B 0.743, Abd CT C 0.364 higher; NLST B 2.662 lower)."""
    caption = ("Registration results. OASIS, Abd CT and Abd MR-CT report Dice (higher is "
               "better), NLST reports TRE (lower is better).")
    text = _tex("Method & OASIS & Abd CT & NLST", [
        "A & 0.598 & 0.311 & 7.932", "B & 0.743 & 0.358 & 2.662", "C & 0.659 & 0.364 & 3.836"],
        caption=caption)
    res = analyse_file(_write(tmp_path, "c.tex", text), cfg, Options(n=100))
    got = {m["column"]: (m["winner"], m["direction"]) for t in res["tables"] for m in t["metrics"]}
    assert got == {"OASIS": ("B", "higher"), "Abd CT": ("C", "higher"), "NLST": ("B", "lower")}


def test_a_first_data_row_of_another_metric_is_no_header(cfg, tmp_path):
    """The first data row prints only results in another metric (``A & 3.7 MAE & 2.1
    MAE``): it is a data row, never joined into the header (the columns stay 'Age ...',
    method A is left out of each column with a note); by hand: Age B 63.96, Emotion C 91.21."""
    text = _tex("Method & Age (Acc. \\%) UTKFace & Emotion (Acc. \\%) RAF-DB", [
        "A & 3.7 MAE & 2.1 MAE", "B & 63.96 & 90.06", "C & 63.34 & 91.21"])
    [t] = analyse_file(_write(tmp_path, "mae.tex", text), cfg, Options(n=3000))["tables"]
    got = {m["column"]: m["winner"] for m in t["metrics"]}
    assert got == {"Age (Acc. %) UTKFace": "B", "Emotion (Acc. %) RAF-DB": "C"}
    assert any("A: '3.7 MAE'" in n for m in t["metrics"] for n in m["notes"] + t["notes"])


def test_repeated_modifier_rows_are_named_after_the_row_above(cfg, tmp_path):
    """Each baseline followed by a row named only ``+BED-Loss`` (the same name under every
    baseline): the row is that baseline with the loss, ``TransUNet +BED-Loss``, never
    ``+BED-Loss (2)``; by hand the DSC winner is TransUNet +BED-Loss (82.77)."""
    text = _tex("Models & DSC(\\%)", ["MedFormer & 81.55", "\\textbf{+BED-Loss} & 82.03",
                                      "TransUNet & 82.15", "\\textbf{+BED-Loss} & 82.77"])
    [t] = analyse_file(_write(tmp_path, "bed.tex", text), cfg, Options(n=100))["tables"]
    [m] = t["metrics"]
    assert m["winner"] == "TransUNet +BED-Loss"
    assert {x["method"] for x in m["methods"]} == {"MedFormer", "MedFormer +BED-Loss",
                                                   "TransUNet", "TransUNet +BED-Loss"}


# ---------------------------------------------------------------- batch 7 (README tables)
@pytest.mark.parametrize("name", ["SEN", "SPE", "clDice", "clDice (%)", "Cldice↑"])
def test_readme_abbreviations_of_bounded_scores_are_known(spellings, name):
    """SEN / SPE (sensitivity, specificity) and clDice (centreline Dice, Shit et al. 2021)
    head README tables of medical imaging results: higher is better, a score in [0, 1]."""
    kind = classify(name, spellings)
    assert kind.direction == "higher" and kind.bounded and not kind.ignore


@pytest.mark.parametrize("name", ["Task A AUC drop", "Dice drop", "AUC drop (pts)"])
def test_a_metric_drop_is_a_difference_not_the_metric(spellings, name):
    """``Task A AUC drop`` (semantic minus masked) is a difference of two results: ranking
    it as an AUC would crown the method that lost most."""
    assert classify(name, spellings).ignore


def _md(header: list[str], rows: list[list[str]], title: str = "## Results") -> str:
    line = lambda cells: "| " + " | ".join(cells) + " |"  # noqa: E731
    return "\n".join([title, "", line(header), line(["---"] * len(header)),
                      *(line(r) for r in rows)]) + "\n"


def test_a_row_number_column_does_not_hide_metrics_as_rows(cfg, tmp_path):
    """``| # | Metric | U-Net | Ours | Delta |`` with rows numbered 1..n: the numbers are
    no data; the metric names (second column) make the table metrics x methods, the Delta
    column is no method. By hand: Dice Ours (0.981 > 0.974), HD ↓ Ours (14.1 < 15.1),
    Recall U-Net (0.996 > 0.994)."""
    text = _md(["#", "Metric", "U-Net", "Ours", "Delta"], [
        ["1", "Dice", "0.974", "0.981", "+0.007"], ["2", "HD ↓", "15.1", "14.1", "−1.0"],
        ["3", "Recall", "0.996", "0.994", "−0.002"]])
    [t] = analyse_file(_write(tmp_path, "idx.md", text), cfg, Options(n=100))["tables"]
    got = {m["column"]: m["winner"] for m in t["metrics"]}
    assert got == {"Dice": "Ours", "HD": "Ours", "Recall": "U-Net"}
    assert {x["method"] for m in t["metrics"] for x in m["methods"]} == {"U-Net", "Ours"}


def test_rows_each_pairing_a_data_set_with_its_metric_are_one_table_each(cfg, tmp_path):
    """``| Dataset | Metric | U-Net | UNet++ | Improvement |``, one row per data set, each
    with its own metric: the methods are the value columns, every row is its own
    comparison, and data sets are never ranked as methods (Liver 'beating' Colon polyp).
    By hand: UNet++ wins every row; the Improvement column is no method."""
    text = _md(["Dataset", "Metric", "U-Net", "UNet++", "Improvement"], [
        ["Cell nuclei", "IoU", "90.52", "92.07", "+1.55"],
        ["Colon polyp", "Dice", "71.10", "74.32", "+3.22"],
        ["Liver", "Dice", "94.31", "95.74", "+1.43"]])
    res = analyse_file(_write(tmp_path, "pairs.md", text), cfg, Options(n=100))
    got = {(t["table"].rsplit("[", 1)[-1].rstrip("]"), m["column"]): m["winner"]
           for t in res["tables"] for m in t["metrics"]}
    assert got == {("Cell nuclei", "IoU"): "UNet++", ("Colon polyp", "Dice"): "UNet++",
                   ("Liver", "Dice"): "UNet++"}
    for t in res["tables"]:
        assert {x["method"] for m in t["metrics"] for x in m["methods"]} == {"U-Net", "UNet++"}


@pytest.mark.parametrize("name", ["Kappa", "Cohen's kappa", "MCC"])
def test_agreement_coefficients_reaching_minus_one_are_no_bounded_score(spellings, name):
    """Cohen's kappa and MCC lie in [-1, 1]: higher is better, but not a proportion in
    [0, 1], so never modelled as one (ranked as printed, like the adjusted Rand index)."""
    kind = classify(name, spellings)
    assert kind.direction == "higher" and not kind.bounded


# ---------------------------------------------------------------- batch 7b
@pytest.mark.parametrize("header", ["Fωβ", "Sα", "mE", "maxE", "S-measure", r"$S_\alpha$",
                                    r"$E_\phi^{mean}$", r"$F^w_\beta$", r"mean $E_\xi$"])
def test_polyp_and_saliency_measures_are_known_scores(spellings, header):
    """Polyp-segmentation leaderboards print the saliency measures of PraNet (Fan et al.
    2020): S-measure, (mean / max) E-measure, weighted F-measure; higher is better, each in
    [0, 1]."""
    kind = classify(plain_text(header), spellings)
    assert kind.direction == "higher" and kind.bounded


def test_a_method_and_its_daggered_variant_keep_their_names(cfg, tmp_path):
    """``MedSliM`` and ``MedSliM†`` (a variant the footnote explains) are two methods: the
    mark stays in the name, never ``MedSliM (2)``. By hand the AUC winner is MedSliM† (0.75)."""
    text = _md(["Model", "AUC"], [["MRNet", "0.60"], ["MedSliM", "0.70"], ["MedSliM†", "0.75"]])
    [t] = analyse_file(_write(tmp_path, "dag.md", text), cfg, Options(n=100))["tables"]
    [m] = t["metrics"]
    assert m["winner"] == "MedSliM†"
    assert {x["method"] for x in m["methods"]} == {"MRNet", "MedSliM", "MedSliM†"}


def test_metres_and_degrees_printed_in_every_cell_are_the_column_unit(cfg, tmp_path):
    """``0.064 m`` and ``0.095 °/m`` in every cell (trajectory errors): the numbers are read
    and the unit joins the header, noted; by hand B has the lower error in both columns."""
    text = _md(["Sensor", "Position error", "Rotation error"], [
        ["A", "0.064 m", "0.095 °/m"], ["B", "0.027 m", "0.056 °/m"], ["C", "0.042 m", "0.086 °/m"]])
    [t] = analyse_file(_write(tmp_path, "m.md", text), cfg, Options(n=100))["tables"]
    got = {m["column"]: (m["winner"], m["direction"]) for m in t["metrics"]}
    assert got == {"Position error (m)": ("B", "lower"), "Rotation error (°/m)": ("B", "lower")}


@pytest.mark.parametrize("first", ["", "Sensor"])
def test_one_metric_word_shared_by_two_columns_is_no_method_grid(cfg, tmp_path, first):
    """``| | Liver Dice | Kidney Dice |`` over rows of methods (a blank first header, as in
    most LaTeX tables) and ``Sensor | Position error | Rotation error``: the prefixes are
    structures or quantities, never methods compared within each row. By hand: Liver Dice
    Ours (0.93), Kidney Dice nnU-Net (0.89)."""
    a, b = ("Liver Dice", "Kidney Dice")
    text = _md([first, a, b], [["U-Net", "0.91", "0.85"], ["Ours", "0.93", "0.88"],
                               ["nnU-Net", "0.92", "0.89"]])
    res = analyse_file(_write(tmp_path, "lk.md", text), cfg, Options(n=100))
    got = {m["column"]: m["winner"] for t in res["tables"] for m in t["metrics"]}
    assert got == {a: "Ours", b: "nnU-Net"}


def test_a_data_set_column_still_pivots_methods_paired_with_one_metric(cfg, tmp_path):
    """``Dataset | PCE Dice | Ours Dice``: the first header says the rows are data sets, so
    each row compares PCE with Ours (by hand: Ours on ACDC 0.86, PCE on BTCV 0.70)."""
    text = _md(["Dataset", "PCE Dice", "Ours Dice"], [["ACDC", "0.77", "0.86"],
                                                     ["BTCV", "0.70", "0.66"]])
    res = analyse_file(_write(tmp_path, "ds.md", text), cfg, Options(n=100))
    got = {t["table"].rsplit("[", 1)[-1].rstrip("]"): t["metrics"][0]["winner"]
           for t in res["tables"]}
    assert got == {"ACDC": "Ours", "BTCV": "PCE"}


def test_a_bold_line_above_a_readme_table_titles_it(cfg, tmp_path):
    """Two tables under one heading, each titled by a bold line (``**DESS E1**``) or a
    ``📊 Table 2.`` line: each is named by its own title (selectable with --table), not
    ``heading`` and ``heading (2)``; a plain paragraph above a table is no title (the heading
    names it)."""
    rows = [["A", "0.61"], ["B", "0.66"]]
    text = ("## SKM-TEA\n\nSome prose about both tables.\n\n**DESS E1**\n\n"
            + _md(["Model", "Macro AUC"], rows, title="")
            + "\n📊 Table 2. Results on echo 2\n" + _md(["Model", "Macro AUC"], rows, title="")
            + "\nA plain paragraph.\n\n" + _md(["Model", "Macro AUC"], rows, title=""))
    names = [t["table"] for t in analyse_file(_write(tmp_path, "t.md", text), cfg,
                                              Options(n=100))["tables"]]
    assert names == ["DESS E1", "Table 2. Results on echo 2", "SKM-TEA"]


def test_rows_named_only_by_numbers_are_settings_not_methods(cfg, tmp_path):
    """``Labeling Ratio | ProPL mDice | Gain``: one method at three labelled fractions; the
    rows 1/16, 1/8, 1/4 are settings, never ranked as methods ("1/4 beats 1/16")."""
    text = _md(["Labeling Ratio", "ProPL mDice", "Gain over Runner-up"], [
        ["1/16", "80.35%", "+0.97%"], ["1/8", "82.56%", "+2.2%"], ["1/4", "83.70%", "+1.32%"]])
    res = analyse_file(_write(tmp_path, "r.md", text), cfg, Options(n=100), strict=False)
    assert not res["tables"]
    assert "named only by numbers" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("header", ["Sensitivity@1FP", "Sensitivity at 1 FP/scan",
                                    "Recall@8FPs", "Sens. @ 0.125 FPs/scan"])
def test_an_operating_point_in_false_positives_does_not_flip_the_metric(spellings, header):
    """FROC operating points (lung-nodule detection): the sensitivity at 1 false positive
    per scan is still a sensitivity, higher is better; "FP" named as the operating point
    must not make it lower-is-better (it did: a silent wrong direction)."""
    assert classify(plain_text(header), spellings).direction == "higher"


@pytest.mark.parametrize("header", ["Non-pos. Jac.", "|J|<0 (%)", r"\%$|J_{\phi}|\leq 0$",
                                    "NJD", "SDlogJ", "Folding (%)", "Jacobian det. < 0",
                                    "RAVD", "FPPI"])
def test_registration_folding_and_count_measures_are_lower_is_better(spellings, header):
    """Registration regularity (folded voxels: a non-positive Jacobian determinant; the SD
    of its log), the relative absolute volume difference and false positives per image:
    lower is better. "Non-pos. Jac." was read as a Jaccard (higher)."""
    assert classify(plain_text(header), spellings).direction == "lower"


@pytest.mark.parametrize("header", ["NCC", "LNCC", "CPM", "FROC"])
def test_registration_similarity_and_froc_scores_are_higher_is_better(spellings, header):
    assert classify(plain_text(header), spellings).direction == "higher"


def test_readme_cells_keep_link_text_and_read_html_breaks_entities_and_code(cfg, tmp_path):
    """README cells: ``[nnU-Net](https://...)`` is the method nnU-Net, ``🥇 **Ours**`` is
    Ours, ``0.91<br>(0.02)`` a value with its SD on a second line, ``0.93 &plusmn; 0.01``
    and a code span ``0.92`` numbers. By hand: Dice winner Ours (0.95), runner-up nnU-Net."""
    text = _md(["Method", "Dice"], [["[nnU-Net](https://github.com/MIC-DKFZ/nnUNet)", "0.93 &plusmn; 0.01"],
                                    ["🥇 **Ours**", "**0.95**<br>(0.02)"],
                                    ["[TransUNet](http://x.y) [12]", "`0.92`"]])
    [t] = analyse_file(_write(tmp_path, "l.md", text), cfg, Options(n=100))["tables"]
    [m] = t["metrics"]
    order = [(x["method"], x["value"]) for x in m["methods"]]
    assert order == [("Ours", 0.95), ("nnU-Net", 0.93), ("TransUNet [12]", 0.92)]


def test_a_bounded_column_mixing_percent_and_fraction_values_is_not_ranked_blind(cfg, tmp_path):
    """``AUC`` printed 95.1 for A and 0.96 for B: ranked as printed A wins, read as one
    scale B (96 > 95.1) does: the column is not read, naming the cells. With 0.50 instead
    (50 or 0.5: last either way) it is ranked, with a note; by hand A wins."""
    bad = _md(["Method", "AUC", "Accuracy"], [["A", "95.1", "91.2"], ["B", "0.96", "89.0"],
                                              ["C", "93.0", "88.0"]])
    [t] = analyse_file(_write(tmp_path, "bad.md", bad), cfg, Options(n=100))["tables"]
    assert [m["column"] for m in t["metrics"]] == ["Accuracy"]
    assert any("'AUC'" in n and "0.96" in n for n in t["notes"])
    ok = bad.replace("0.96", "0.50")
    [t] = analyse_file(_write(tmp_path, "ok.md", ok), cfg, Options(n=100))["tables"]
    auc = next(m for m in t["metrics"] if m["column"] == "AUC")
    assert auc["winner"] == "A" and any("ranked as printed" in n for n in auc["notes"])


def test_a_readme_second_header_row_under_group_names_is_joined(cfg, tmp_path):
    """``| | ACDC | | Synapse | |`` over ``| Method | Dice | HD95 | Dice | HD95 |`` (a pipe
    table has one header row; READMEs print the second as the first row): columns ACDC Dice,
    ACDC HD95, Synapse Dice, Synapse HD95. By hand: ACDC Dice B (0.91), ACDC HD95 A (1.5),
    Synapse Dice A (0.80), Synapse HD95 B (18.0)."""
    text = _md(["", "ACDC", "", "Synapse", ""], [["Method", "Dice", "HD95", "Dice", "HD95"],
                                                ["A", "0.90", "1.5", "0.80", "20.1"],
                                                ["B", "0.91", "1.7", "0.78", "18.0"]])
    res = analyse_file(_write(tmp_path, "g.md", text), cfg, Options(n=100))
    got = {m["column"]: m["winner"] for t in res["tables"] for m in t["metrics"]}
    assert got == {"ACDC Dice": "B", "ACDC HD95": "A", "Synapse Dice": "A",
                   "Synapse HD95": "B"}


@pytest.mark.parametrize("extra", [["Improvement", "+2.2", "-1.2"], ["Δ (Ours − U-Net)", "+2.2", "-1.2"],
                                   ["Std", "1.1", "0.6"], ["p-value", "0.003", "0.02"],
                                   ["Mean", "86.2", "4.7"]])
def test_rows_of_differences_statistics_and_p_values_are_no_methods(cfg, tmp_path, extra):
    """An Improvement / Δ / Std / Mean / p-value row below the methods is no method: ranked,
    -1.2 "won" the lower-is-better HD95 and a p-value of 0.02 did too. By hand: Ours wins
    both columns (87.3 > 85.1, 4.1 < 5.3)."""
    text = _md(["Method", "Dice (%)", "HD95 (mm)"], [["U-Net", "85.1", "5.3"],
                                                    ["Ours", "87.3", "4.1"], extra])
    [t] = analyse_file(_write(tmp_path, "x.md", text), cfg, Options(n=100))["tables"]
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {"Dice (%)": "Ours",
                                                                "HD95 (mm)": "Ours"}
    assert {x["method"] for m in t["metrics"] for x in m["methods"]} == {"U-Net", "Ours"}


@pytest.mark.parametrize("header", ["Error reduction (%)", "Relative error reduction",
                                    "Loss reduction", "Dice gap", "Accuracy gap",
                                    "Dice increase"])
def test_reductions_gaps_and_increases_are_differences(spellings, header):
    """"Error reduction" is a gain (read as an error it was lower-is-better: the method that
    reduced the error most lost); "Accuracy gap" a difference between two results (read as
    an accuracy, higher). Neither is a score of one method."""
    assert classify(plain_text(header), spellings).ignore


def test_one_minus_a_score_is_lower_is_better(spellings):
    """``1 - Dice`` is the complement of Dice (it was read as Dice: higher is better)."""
    assert classify(plain_text("1 - Dice"), spellings).direction == "lower"


_HTML = """# Leaderboard

#### Test set (ID)

<div>
<table>
  <tr><th rowspan="2">Methods</th><th colspan="2">CRAG</th><th colspan="2">GlaS</th></tr>
  <tr><td>F1</td><td>HD</td><td>F1</td><td>HD</td></tr>
  <tr><td>A</td><td>0.80</td><td>160.1</td><td>0.85</td><td>90.0</td></tr>
  <tr><td><strong>B</strong></td><td><b>0.83</b></td><td>170.2</td><td>0.84</td><td>80.5</td></tr>
  <tr><td>C<br>Net</td><td>0.79</td><td>150.3</td><td></td><td></td></tr>
</table>
</div>
"""


def test_an_html_table_in_a_readme_is_read_with_its_spans_and_heading(cfg, tmp_path):
    """READMEs and challenge pages print HTML ``<table>`` where a pipe table cannot hold a
    data set over several metric columns (``rowspan``/``colspan``); the file was refused
    ("no pipe table"). By hand: CRAG F1 B (0.83), CRAG HD C Net (150.3), GlaS F1 A (0.85),
    GlaS HD B (80.5); rows not sorted by value; the table named by the heading above it."""
    res = analyse_file(_write(tmp_path, "h.md", _HTML), cfg, Options(n=100))
    [t] = res["tables"]
    assert "Test set (ID)" in t["table"]
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {
        "CRAG F1": "B", "CRAG HD": "C Net", "GlaS F1": "A", "GlaS HD": "B"}
    f1 = next(m for m in t["metrics"] if m["column"] == "CRAG F1")
    assert [x["bold"] for x in f1["methods"]][0] is True  # <b>0.83</b>: bold, the winner


def test_a_row_of_one_text_across_the_value_columns_is_a_note(cfg, tmp_path):
    """``Statistical test & \\multicolumn{3}{l}{$t=22.14$, $p<0.001$}`` below the methods:
    a remark, not a method; the whole table was refused ("... is not a number"). By hand:
    Ours wins Dice (98.8 > 89.3) and Recall (0.988 > 0.902)."""
    text = _tex("Method & Dice (\\%) & Recall", [
        "3D U-Net & 89.3 & 0.902", "Ours & 98.8 & 0.988",
        "Statistical test & \\multicolumn{2}{l}{$t=22.14$, $p < 0.001$ (paired $t$-test)}"])
    [t] = analyse_file(_write(tmp_path, "n.tex", text), cfg, Options(n=100))["tables"]
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {"Dice (%)": "Ours",
                                                                "Recall": "Ours"}
    assert any("Statistical test" in n and "a note" in n for n in t["notes"])


@pytest.mark.parametrize("header", ["SRCC", "PLCC", "SROCC", "KRCC", "ICC",
                                    "Spearman's rho", "Pearson r"])
def test_correlation_coefficients_are_higher_is_better_and_unbounded(spellings, header):
    """Agreement with reference scores (image-quality assessment): SRCC/PLCC were unknown
    metrics, the table unread. They reach -1, so never a score in [0, 1]."""
    kind = classify(plain_text(header), spellings)
    assert kind.direction == "higher" and not kind.bounded


def test_a_signed_number_in_parentheses_is_a_change_not_an_sd(cfg, tmp_path):
    """``0.8100 (+3.90\\%)``: the gain over the baseline, never an SD (an SD has no sign);
    its % made the fraction column "percent". An unsigned ``0.81 (0.02)`` stays an SD. By
    hand: Full wins F1 (0.872)."""
    cell = parse_printed_cell(r"\textbf{0.8720 (+12.10\%)}")
    assert (cell.value, cell.sd, cell.percent, cell.ignored) == (0.872, None, False,
                                                                "(+12.10%)")
    assert parse_printed_cell("0.81 (0.02)").sd == 0.02
    text = _tex("Configuration & F1-Macro", ["Baseline & 0.7810",
                                              "+ LoRA & 0.8100 (+3.90\\%)",
                                              "Full & \\textbf{0.8720 (+12.10\\%)}"])
    [t] = analyse_file(_write(tmp_path, "g.tex", text), cfg, Options(n=100))["tables"]
    [m] = t["metrics"]
    assert (m["winner"], m["units"]) == ("Full", "fraction")


def test_a_percent_sign_in_a_distance_column_is_not_its_unit(cfg, tmp_path):
    """``ASSD`` printed ``0.86%`` (a README's typo: a surface distance is in mm or voxels):
    ranked as printed with a note, never "percent". VOE in % stays percent. By hand: B wins
    both (lower)."""
    text = _md(["Model", "VOE", "ASSD"], [["A", "9.80%", "1.00%"], ["B", "8.41%", "0.86%"]])
    [t] = analyse_file(_write(tmp_path, "p.md", text), cfg, Options(n=100))["tables"]
    got = {m["column"]: (m["winner"], m["units"]) for m in t["metrics"]}
    assert got == {"VOE": ("B", "percent"), "ASSD": ("B", "as printed")}
    assd = next(m for m in t["metrics"] if m["column"] == "ASSD")
    assert any("distance" in n for n in assd["notes"])


@pytest.mark.parametrize("raw, value", [("1,234.5", 1234.5), ("−1,234.5", -1234.5),
                                        ("1,234,567", 1234567.0), ("1,234", None),
                                        ("0,853", None), ("1,23.4", None)])
def test_thousands_separators_are_read_only_where_unambiguous(raw, value):
    """``1,234.5`` (a decimal point after the groups) and ``1,234,567`` (two groups) are
    grouped thousands; a lone ``1,234`` may be 1.234 with a decimal comma: not read."""
    assert parse_printed_cell(raw).value == value


@pytest.mark.parametrize("names", [["Fold0", "Fold1", "Fold2"], ["Fold 1", "Fold 2", "Fold 3"],
                                   ["Run 1", "Run 2", "Run 3"], ["Seed-1", "Seed-2", "Seed-3"],
                                   ["Case 12", "Case 13", "Case 14"]])
def test_rows_that_are_folds_runs_or_cases_are_not_ranked_as_methods(cfg, tmp_path, names):
    """A baseline's cross-validation table (``Fold0 .. Fold4`` and ``Avg``, one 3D U-Net):
    ranked, "Fold3" won Dice (a silent misreading of a real README table). The table is
    refused, naming the rows; methods named with a number (``U-Net 2``) still rank."""
    rows = [[n, f"0.8{k}", f"0.7{k}"] for k, n in enumerate(names)] + [["Avg", "0.81", "0.71"]]
    text = _md(["Subtask", "DSC", "NSD"], rows)
    res = analyse_file(_write(tmp_path, "f.md", text), cfg, Options(n=100), strict=False)
    assert not res["tables"]
    assert "folds, runs or cases" in res["unreadable"][0]["reason"]
    ok = _md(["Method", "DSC"], [["U-Net 2", "0.80"], ["Ours 3", "0.85"]])
    [t] = analyse_file(_write(tmp_path, "m.md", ok), cfg, Options(n=100))["tables"]
    assert t["metrics"][0]["winner"] == "Ours 3"


def test_a_nested_or_unclosed_html_table_is_read_as_its_outer_table(cfg, tmp_path):
    """A table inside a cell of another was cut at the inner ``</table>`` (the outer rows
    lost: "no numeric column"); a table without ``</table>`` was not found. The inner table's
    text is no part of the outer cell; the unclosed one is read to the end, noted. By hand:
    A wins Dice (0.9 > 0.8) in both."""
    nested = ("<table><tr><td>Method</td><td>Dice</td></tr><tr><td>A<table><tr><td>x</td></tr>"
              "</table></td><td>0.9</td></tr><tr><td>B</td><td>0.8</td></tr></table>\n")
    unclosed = "<table><tr><th>Method</th><th>Dice</th></tr><tr><td>A</td><td>0.9</td></tr>" \
               "\n<tr><td>B</td><td>0.8</td></tr>\n"
    for name, text in (("n.md", nested), ("u.md", unclosed)):
        [t] = analyse_file(_write(tmp_path, name, text), cfg, Options(n=100))["tables"]
        assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("Dice", "A")]
    assert any("no </table>" in n for n in t["notes"])


def test_rows_the_header_calls_data_sets_are_not_ranked_as_methods(cfg, tmp_path):
    """``| Data | SegResNet | DiNTS | Ref DSC |`` with one row per task: methods as columns
    and a reference column; "Ref DSC" was read as a metric over the DATA SETS ("T09 Spleen"
    won, silently). As printed, rows under a ``Data`` / ``Task`` / ``Organ`` header are no
    methods: refused, pointing at --transpose. A ``Method`` header still ranks."""
    text = _md(["Data", "SegResNet", "DiNTS", "Ref DSC"], [
        ["T01 Brain Tumour", "74.7%", "67.9%", "61.3%"], ["T09 Spleen", "96.5%", "52.6%", "96.0%"],
        ["T10 Colon", "34.0%", "13.6%", "56%"]])
    res = analyse_file(_write(tmp_path, "d.md", text), cfg, Options(n=100), strict=False)
    assert not res["tables"]
    assert "are data sets" in res["unreadable"][0]["reason"]
    ok = text.replace("| Data |", "| Method |")
    [t] = analyse_file(_write(tmp_path, "m.md", ok), cfg, Options(n=100))["tables"]
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {"Ref DSC": "T09 Spleen"}


def test_spaces_between_digits_in_tex_math_are_ignored_as_tex_does():
    """``$\\mathbf{0 . 3 5 0}$`` (a paper converted from PDF to Markdown) typesets as 0.350:
    TeX math ignores spaces. It was "not a number" and the whole column unread. Outside
    math ``0 . 3 5`` stays no number."""
    cell = parse_printed_cell(r"$\mathbf{0 . 3 5 0}$")
    assert (cell.value, cell.decimals, cell.bold) == (0.35, 3, True)
    assert parse_printed_cell(r"$1 . 0 6^{*}$").value == 1.06
    assert parse_printed_cell("0 . 3 5").value is None


def test_a_column_where_every_method_has_the_same_value_is_not_read(cfg, tmp_path):
    """A real table printing 1.000 for all three models in every column named the first row
    the "winner" of each. Equal values have no winner: the column is not read, with the
    reason; a table of only such columns is refused. By hand: B wins Dice (0.91 > 0.90)."""
    text = _tex("Model & AUROC & Dice", ["A & $1.000 \\pm 0.000$ & 0.90",
                                         "B & $1.000 \\pm 0.000$ & 0.91",
                                         "C & $1.000 \\pm 0.000$ & 0.90"])
    [t] = analyse_file(_write(tmp_path, "e.tex", text), cfg, Options(n=100))["tables"]
    assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("Dice", "B")]
    assert any("AUROC" in n and "same value 1.000" in n for n in t["notes"])
    only = _tex("Model & AUROC & F1", ["A & 1.000 & 0.5", "B & 1.000 & 0.5"])
    res = analyse_file(_write(tmp_path, "o.tex", only), cfg, Options(n=100), strict=False)
    assert not res["tables"]
    assert "no winner" in res["unreadable"][0]["reason"]


def test_a_negative_distance_is_not_ranked(cfg, tmp_path):
    """``HD95 (mm)`` with ``−1.0`` in one row "won" (lower is better), silently; a Hausdorff
    or surface distance is never below 0, so the column is not read, with the reason; a
    signed distance is best nearest 0, not lowest: not read either. Dice beside them is
    read. By hand: B wins Dice (0.86 > 0.85)."""
    text = _md(["Method", "Dice", "HD95 (mm)", "Mean signed surface distance"],
               [["A", "0.85", "−1.0", "-0.3"], ["B", "0.86", "3.2", "0.4"]])
    [t] = analyse_file(_write(tmp_path, "h.md", text), cfg, Options(n=100))["tables"]
    got = {m["column"]: m["winner"] for m in t["metrics"]}
    assert got == {"Dice": "B"}
    assert any("HD95" in n and "negative" in n for n in t["notes"])
    assert any("signed" in n and "nearest 0" in n for n in t["notes"])


def test_a_bounded_score_out_of_its_range_is_not_ranked(cfg, tmp_path):
    """``Sensitivity (%)`` 101.5 won; ``AUC`` 1.5 beside 0.91 and 0.93 won "as printed (the
    small ones as small percents)"; an AUROC "generalisation gap" row of -0.0114 .. -0.0777
    was ranked (LR won). A score in [0, 100] or [0, 1] outside it is a misprint or no score:
    the column is not read, with the reason. Kappa (may be negative) is read. By hand: B
    wins Kappa (0.74)."""
    text = _md(["Method", "AUC", "Sensitivity (%)", "Kappa"],
               [["A", "0.91", "85.0", "0.71"], ["B", "0.93", "101.5", "0.74"],
                ["C", "1.5", "80.0", "-0.10"]])
    [t] = analyse_file(_write(tmp_path, "r.md", text), cfg, Options(n=100))["tables"]
    assert [(m["column"], m["winner"]) for m in t["metrics"]] == [("Kappa", "B")]
    assert any("Sensitivity" in n and "'101.5' is outside [0, 100]" in n for n in t["notes"])
    assert any("'AUC'" in n and "1.5" in n for n in t["notes"])
    gap = _md(["Method", "AUROC"], [["LR", "-0.0114"], ["MLP", "-0.0777"]])
    res = analyse_file(_write(tmp_path, "g.md", gap), cfg, Options(n=100), strict=False)
    assert "outside [0, 1]" in res["unreadable"][0]["reason"]


def test_a_data_set_column_printed_once_per_group_splits_or_refuses(cfg, tmp_path):
    """``| Dataset | Model | Dice |`` with ``BraTS 2021`` on a group's first row and blanks
    below: the data-set column was taken as the method column (as many names as the
    models), the methods named "BraTS 2021 / Ours" and BraTS 2021 ranked against BraTS 2024
    in one column (silently). The same models in each group: one table per data set; other
    models in each: refused (different test sets). By hand: B wins both data sets."""
    text = _md(["Dataset", "Model", "Dice"], [["**BraTS 2021**", "A", "0.90"], ["", "B", "0.91"],
                                             ["**BraTS 2024**", "A", "0.84"], ["", "B", "0.86"]])
    tables = analyse_file(_write(tmp_path, "s.md", text), cfg, Options(n=100))["tables"]
    assert [[m["winner"] for m in t["metrics"]] for t in tables] == [["B"], ["B"]]
    assert ["2021" in tables[0]["table"], "2024" in tables[1]["table"]] == [True, True]
    other = text.replace("| A | 0.84", "| C | 0.84").replace("| B | 0.86", "| D | 0.86")
    res = analyse_file(_write(tmp_path, "o.md", other), cfg, Options(n=100), strict=False)
    assert not res["tables"]
    assert "names data sets" in res["unreadable"][0]["reason"]


def test_a_test_column_of_scores_is_no_test_set_size(cfg, tmp_path):
    """``Train`` / ``Test`` under each data set, cells ``79.37\\% $\\pm$ 0.00\\%``: "Test"
    was taken for a test-set size column and the table refused ("test-set size ... is not a
    number"). A column of percentages or mean ± SD is a score; a ``Test`` column of whole
    numbers stays the n. By hand: B wins Test accuracy (85.2 > 79.4)."""
    text = _tex("Method & Train & Test", [
        "A & 95.76\\% $\\pm$ 0.00\\% & 79.37\\% $\\pm$ 0.00\\%",
        "B & 100.00\\% $\\pm$ 0.00\\% & 85.21\\% $\\pm$ 0.00\\%"], caption="Accuracy.")
    res = analyse_file(_write(tmp_path, "t.tex", text), cfg, Options(n=100), strict=False)
    assert not any("test-set size" in u["reason"] for u in res["unreadable"])
    [t] = res["tables"]
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {"Train": "B", "Test": "B"}
    sized = _tex("Method & Accuracy & Test", ["A & 0.80 & 120", "B & 0.85 & 120"])
    [t] = analyse_file(_write(tmp_path, "n.tex", sized), cfg, Options())["tables"]
    assert t["n"] == 120


def test_fractions_under_a_percent_header_are_not_read_as_percent(cfg, tmp_path):
    """``Dice (%)`` over 0.85 and 0.87 was read as 0.85 % Dice (the probability computed on
    Dice 0.0085). A % header over values that are all at most 1 is fractions or tiny
    percents: not read, with the reason and the option; a % header over 85.0 stays percent.
    By hand: B wins Dice (87.0)."""
    small = _md(["Method", "Dice (%)"], [["A", "0.85"], ["B", "0.87"]])
    res = analyse_file(_write(tmp_path, "s.md", small), cfg, Options(n=100), strict=False)
    assert "header says % but every value is at most 1" in res["unreadable"][0]["reason"]
    big = _md(["Method", "Dice (%)"], [["A", "85.0"], ["B", "87.0"]])
    [t] = analyse_file(_write(tmp_path, "b.md", big), cfg, Options(n=100))["tables"]
    assert [(m["winner"], m["units"]) for m in t["metrics"]] == [("B", "percent")]


def test_a_tie_at_the_top_is_reported_as_a_tie_not_as_the_first_row(cfg, tmp_path):
    """``0.955 ± 0.034`` and ``0.955 ± 0.033`` (two fusions of a liver-tumour paper) share the
    best AUC: the first row was named the winner (a note only). A tie at the top has no
    winner: reported as ``A = B`` with the tied methods listed, the runner-up the best method
    outside the tie. By hand: C (0.951) is next; in the Dice column (model) the same.
    A single best value keeps its winner."""
    text = _md(["Model", "AUC", "Dice", "Acc"],
               [["A", "0.955", "0.90", "0.80"], ["B", "0.955", "0.90", "0.82"],
                ["C", "0.951", "0.88", "0.79"]])
    [t] = analyse_file(_write(tmp_path, "t.md", text), cfg, Options(n=100))["tables"]
    by = {m["column"]: m for m in t["metrics"]}
    for col in ("AUC", "Dice"):
        assert by[col]["winner"] == "A = B" and by[col]["tied_at_top"] == ["A", "B"]
        assert by[col]["runner_up"] == "C"
        assert by[col]["winner_source"].startswith("tie at the top")
    assert by["Acc"]["winner"] == "B" and by["Acc"]["tied_at_top"] == []
    res = analyse_file(_write(tmp_path, "t.md", text), cfg, Options(n=100))
    assert format_text(res).count("no single winner: A = B") == 2
    assert " ".join(html_report(res).split()).count("no single winner: <b>A = B</b>") == 2


def test_a_count_before_its_rate_is_read_as_the_rate():
    """``5/103 = 0.049`` and ``45/56 (80.4%)`` (sensitivity as count and rate): the cell was
    no number and the table refused. The rate is read when the count rounds to it (5/103 =
    0.0485 -> 0.049; 45/56 = 80.36 % -> 80.4 %); a rate its count contradicts stays no
    number."""
    for raw, value, percent in (("5/103 = 0.049", 0.049, False), ("45/56 (80.4%)", 80.4, True),
                                ("83/103 = 80.6%", 80.6, True), ("0/103 = 0.000", 0.0, False)):
        cell = parse_printed_cell(raw)
        assert (cell.value, cell.percent) == (value, percent)
        assert cell.ignored == raw.split()[0]
    assert parse_printed_cell("45/56 (90.4%)").value is None
    assert parse_printed_cell("5/103 = 0.06").value is None
    assert parse_printed_cell("45/56").value is None


def test_a_metric_glued_to_its_qualifier_is_read(cfg):
    """``ObjF1`` / ``ObjDice`` (object-level F1 and Dice of gland segmentation) were unknown
    metrics: a lower-case run then a capital splits the words (``Obj F1``), tried only when
    the whole name is unknown (``clDice``, ``mDice`` unchanged). Object-level Dice is not the
    per-case Dice the model assumes: higher is better, no model."""
    spell = cfg["analysis"]["metrics"]
    obj = classify("ObjDice", spell)
    assert (obj.direction, obj.task, obj.bounded) == ("higher", None, True)
    assert classify("ObjF1", spell).direction == "higher"
    assert classify("ObjHD", spell).direction == "lower"
    assert classify("mDice", spell).task == "segmentation"
    assert classify("clDice", spell).task is None


def test_normalised_and_percentage_errors_are_lower_is_better(cfg):
    """``NMSE`` beside PSNR / SSIM in MRI reconstruction tables (fastMRI) was an unknown
    metric, the column unread; so were NRMSE and MAPE."""
    spell = cfg["analysis"]["metrics"]
    for name in ("NMSE", "NRMSE", "4× NMSE", "MAPE (%)", "sMAPE"):
        assert classify(name, spell).direction == "lower", name


def test_folded_is_a_lower_is_better_registration_measure(cfg):
    """``Folded`` (the share of folded voxels, ``0.00 %``) in registration README tables was an
    unknown metric (batch 10c; changed after it was measured)."""
    spell = cfg["analysis"]["metrics"]
    for name in ("Folded", "Folded (%)", "% folded voxels"):
        assert classify(name, spell).direction == "lower", name


def test_underscores_inside_a_markdown_name_are_part_of_it():
    """``mbasTrainer__nnUNetResEncUNetMPlans`` (a trainer name) lost its ``__`` as if they
    were Markdown bold, and its value cells were marked bold: CommonMark opens and closes
    ``__`` emphasis only at a word's edge."""
    assert plain_text("mbasTrainer__nnUNet__3d") == "mbasTrainer__nnUNet__3d"
    assert plain_text("__Ours__") == "Ours"
    assert not parse_printed_cell("mbas__3d").bold and parse_printed_cell("__0.91__").bold


def test_a_label_budget_column_splits_the_table_by_budget(cfg, tmp_path):
    """Semi-supervised tables print ``Scans used: Labeled | Unlabeled`` beside each method:
    the fully supervised V-Net (80 labelled scans) was ranked against methods trained on 8,
    and won (found by a probe of that common shape). One table per budget; a budget with one
    row is not read ("needs at least 2 method rows"). By hand: at 8 labelled Ours (89.12)
    beats MC-Net (87.71); at 16 MC-Net (90.34) beats DTC (89.42)."""
    text = _tex("Method & Labeled & Unlabeled & Dice (\\%)", [
        "V-Net & 80 & 0 & 91.14", "V-Net & 8 & 0 & 79.99",
        "\\multicolumn{4}{l}{\\textit{Semi-supervised}}",
        "DTC & 8 & 72 & 87.51", "MC-Net & 8 & 72 & 87.71", "Ours & 8 & 72 & 89.12",
        "DTC & 16 & 64 & 89.42", "MC-Net & 16 & 64 & 90.34"])
    res = analyse_file(_write(tmp_path, "b.tex", text), cfg, Options(n=20), strict=False)
    won = {t["table"].rsplit("[", 1)[-1].rstrip("]"): t["metrics"][0]["winner"]
           for t in res["tables"]}
    assert won == {"Labeled = 8": "Ours", "Labeled = 16": "MC-Net"}
    assert [u["table"].rsplit("[", 1)[-1] for u in res["unreadable"]] == ["Labeled = 80]"]
    unl = _tex("Method & Unlabeled & Dice (\\%)", ["A & 0 & 80.0", "B & 72 & 85.0"])
    [t] = analyse_file(_write(tmp_path, "u.tex", unl), cfg, Options(n=20))["tables"]
    assert t["metrics"][0]["winner"] == "B"


def test_a_row_of_operating_points_or_factors_under_the_header_is_a_header_row(cfg, tmp_path):
    """FROC tables print the operating points (``0.125 & 0.25 & ... & 8``) under a
    ``\\multicolumn`` header, beside a ``\\multirow`` CPM: the row was read as a method named
    "Method" that won the column at 1 FP/scan (value 1). Reconstruction tables print the
    acceleration (``4$\\times$``) above PSNR / SSIM: the table was refused (no header row).
    Both rows are header rows when a rule closes the header. By hand: Ours wins every
    column but 4 FPs (B, 0.918)."""
    froc = ("\\begin{tabular}{lcccc}\\toprule\n\\multirow{2}{*}{Method} & \\multicolumn{3}{c}"
            "{Sensitivity at FPs/scan} & \\multirow{2}{*}{CPM} \\\\\n & 1 & 2 & 4 & \\\\\n"
            "\\midrule\nA & 0.864 & 0.902 & 0.917 & 0.834 \\\\\nB & 0.865 & 0.893 & 0.918 & "
            "0.842 \\\\\nOurs & 0.888 & 0.907 & 0.916 & 0.864 \\\\\n\\bottomrule\n\\end{tabular}\n")
    [t] = analyse_file(_write(tmp_path, "f.tex", froc), cfg, Options(n=100))["tables"]
    won = {m["column"]: m["winner"] for m in t["metrics"]}
    assert won == {"Sensitivity at FPs/scan 1": "Ours", "Sensitivity at FPs/scan 2": "Ours",
                   "Sensitivity at FPs/scan 4": "B", "CPM": "Ours"}
    rec = ("\\begin{tabular}{lcccc}\\toprule\n\\multirow{2}{*}{Method} & \\multicolumn{2}{c}"
           "{4$\\times$} & \\multicolumn{2}{c}{8$\\times$} \\\\\n\\cmidrule(lr){2-3}"
           "\\cmidrule(lr){4-5}\n & PSNR & SSIM & PSNR & SSIM \\\\\n\\midrule\n"
           "A & 31.87 & 0.782 & 29.81 & 0.712 \\\\\nOurs & 32.61 & 0.799 & 30.58 & 0.733 \\\\\n"
           "\\bottomrule\n\\end{tabular}\n")
    [t] = analyse_file(_write(tmp_path, "r.tex", rec), cfg, Options(n=100))["tables"]
    assert {m["column"]: m["winner"] for m in t["metrics"]} == {
        "4× PSNR": "Ours", "4× SSIM": "Ours", "8× PSNR": "Ours", "8× SSIM": "Ours"}


def test_a_test_set_size_printed_in_a_column_header_is_its_n(cfg, tmp_path):
    """``Internal (n=500)`` and ``External (n=200)`` over AUC and ACC: the table was refused
    ("no test-set size: give --n"). Each column takes the n its header prints; a given --n
    still decides, with a note naming the printed one."""
    text = _tex("Model & Internal (n=500) ACC (\\%) & External (n=1,024) ACC (\\%)", [
        "A & 84.2 & 79.5", "B & 86.4 & 80.1"])
    [t] = analyse_file(_write(tmp_path, "n.tex", text), cfg, Options())["tables"]
    assert [(m["n"], m["winner"]) for m in t["metrics"]] == [(500, "B"), (1024, "B")]
    [t] = analyse_file(_write(tmp_path, "n.tex", text), cfg, Options(n=100))["tables"]
    assert [m["n"] for m in t["metrics"]] == [100, 100]
    assert any("the header prints n = 500" in note for note in t["metrics"][0]["notes"])


def test_a_label_budget_after_the_method_name_splits_the_table(cfg, tmp_path):
    """``U-Net (100%)``, ``UA-MT (10%)``, ``Ours (10%)``, ``Ours (5%)`` in one column: the
    fully supervised U-Net won Dice against the 10% and 5% methods. One table per budget,
    like (val) / (test) marks; a signed change ``(+2.3%)`` is no budget. By hand: Ours wins
    at 10% (88.79) and at 5% (87.93); the 100% budget has one row (not read)."""
    text = _tex("Method & Dice (\\%)", [
        "U-Net (100\\%) & 91.44", "U-Net (10\\%) & 79.41", "UA-MT (10\\%) & 81.65",
        "Ours (10\\%) & 88.79", "U-Net (5\\%) & 47.83", "Ours (5\\%) & 87.93"])
    res = analyse_file(_write(tmp_path, "m.tex", text), cfg, Options(n=20), strict=False)
    assert {t["table"].rsplit("[", 1)[-1].rstrip("]"): t["metrics"][0]["winner"]
            for t in res["tables"]} == {"10%": "Ours (10%)", "5%": "Ours (5%)"}
    assert [u["table"].rsplit("[", 1)[-1] for u in res["unreadable"]] == ["100%]"]
    gains = _tex("Method & Dice (\\%)", ["A & 80.0", "B (+2.3\\%) & 82.3", "C (+1.0\\%) & 81.0"])
    [t] = analyse_file(_write(tmp_path, "g.tex", gains), cfg, Options(n=20))["tables"]
    assert t["metrics"][0]["winner"] == "B (+2.3%)"


def test_huge_counts_and_header_sizes_are_refused_plainly(cfg, tmp_path):
    """A count or a header size of 5,000 digits (``1/999...9 = 0.0``, ``Dice (n=999...9)``)
    made Python's int() raise "Exceeds the limit (4300 digits)" and the whole file was
    refused with that message: such a cell is no number and such a size is ignored, so the
    table is read or refused for its real reason (no test-set size)."""
    big = "9" * 5000
    cells = _md(["Model", "Sens", "Dice"], [["A", f"1/{big} = 0.0", "0.8"],
                                           ["B", "2/3 = 0.667", "0.9"]])
    res = analyse_file(_write(tmp_path, "c.md", cells), cfg, Options(n=10), strict=False)
    assert [m["column"] for t in res["tables"] for m in t["metrics"]] == ["Dice"]
    header = _md(["Model", f"Dice (n={big})"], [["A", "0.8"], ["B", "0.9"]])
    res = analyse_file(_write(tmp_path, "h.md", header), cfg, Options(), strict=False)
    assert "no test-set size" in res["unreadable"][0]["reason"]
    assert "4300" not in res["unreadable"][0]["reason"]


def test_a_score_under_a_labeled_header_or_one_mark_per_row_is_no_budget(cfg, tmp_path):
    """Budgets repeat: several methods share one. A column "Dice (labeled)" of scores that
    differ from row to row, or names each with its own parenthesised number, must not split
    the table into one-row tables (nothing would be read). By hand: C wins both."""
    scores = _tex("Method & Dice (labeled) & Dice (unlabeled)", [
        "A & 80 & 70", "B & 82 & 71", "C & 85 & 74", "D & 81 & 72"])
    [t] = analyse_file(_write(tmp_path, "s.tex", scores), cfg, Options(n=20))["tables"]
    assert [m["winner"] for m in t["metrics"]] == ["C", "C"]
    marks = _tex("Method & Dice (\\%)", ["A (10\\%) & 80.0", "B (20\\%) & 81.0",
                                          "C (30\\%) & 85.0"])
    [t] = analyse_file(_write(tmp_path, "m.tex", marks), cfg, Options(n=20))["tables"]
    assert t["metrics"][0]["winner"] == "C (30%)"


def test_a_unit_in_every_cell_is_read_when_the_best_cell_is_bold(cfg, tmp_path):
    """``**0.12 mm**`` (Markdown) and ``\\textbf{0.12 mm}`` (LaTeX): the unit sits inside
    the bold mark. The column was left unread ("no number in the column") because the unit
    was cut only at the very end of a cell. By hand: B has the lowest ASSD, and it is bold."""
    md = _md(["Method", "ASSD"], [["A", "0.31 mm"], ["B", "**0.12 mm**"], ["C", "0.20 mm"]])
    tex = _tex("Method & ASSD", ["A & 0.31 mm", "B & \\textbf{0.12 mm}", "C & 0.20 mm"])
    for name, text in (("u.md", md), ("u.tex", tex)):
        [t] = analyse_file(_write(tmp_path, name, text), cfg, Options(n=20))["tables"]
        [m] = t["metrics"]
        assert (m["column"], m["direction"], m["winner"]) == ("ASSD (mm)", "lower", "B")
        assert "bold agrees" in m["winner_source"]


@pytest.mark.parametrize("head", ["Region", "noise", "Class", "Lesion size", "Condition",
                                  "Spacing (mm)", "Voxel spacing", "Resolution",
                                  "Slice thickness (mm)"])
def test_rows_named_regions_classes_or_test_conditions_are_not_ranked(cfg, tmp_path, head):
    """One method's results per region, class or input condition (``| Region | Dice raw |
    Dice cleaned |``, ``| noise | SSIM | PSNR |`` under one model's title): the rows are no
    competitors, and ranking them named the easiest region or the noise-free input the
    "winner", silently; so were the voxel spacings of one prediction (``| Spacing (mm) | Dice |
    HD95 |``, batch 12e). Refused, naming the column."""
    text = _md([head, "Dice", "HD95 (mm)"], [["first", "0.988", "3.4"], ["second", "0.820", "105.6"],
                                             ["third", "0.797", "130.9"]])
    res = analyse_file(_write(tmp_path, "r.md", text), cfg, Options(n=5), strict=False)
    assert not res["tables"]
    assert f"the rows of {head!r} are" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("head", ["Method", "Size"])
def test_rows_under_a_method_header_are_still_ranked(cfg, tmp_path, head):
    """The control: the same values under ``Method``, or ``Size`` (model variants: Small,
    Base, Large), are methods (by hand: first wins Dice and HD95)."""
    text = _md([head, "Dice", "HD95 (mm)"], [["first", "0.988", "3.4"], ["second", "0.820", "105.6"],
                                             ["third", "0.797", "130.9"]])
    [t] = analyse_file(_write(tmp_path, "m.md", text), cfg, Options(n=5))["tables"]
    assert [m["winner"] for m in t["metrics"]] == ["first", "first"]


def test_a_footnote_row_below_the_results_names_the_metric_like_a_caption(cfg, tmp_path):
    """``\\multicolumn{3}{l}{All figures are accuracy (\\%) ...}`` after the last result row
    says what unnamed columns (Overall, Physics) measure, as a caption would; it was skipped
    as a section row and the columns were left unread. By hand: C wins Overall, A Physics.
    A heading row above results (a section) is still only skipped."""
    rows = ["\\multicolumn{3}{l}{\\textit{Baselines}}", "A & 35.5 & 44.0", "B & 28.6 & 36.2",
            "\\multicolumn{3}{l}{\\textit{Ours}}", "C & 53.9 & 40.1"]
    foot = "\\multicolumn{3}{l}{\\footnotesize All figures are accuracy (\\%) on the val set.}"
    text = _tex("Model & Overall & Physics", rows + [foot], caption="Main results.")
    [t] = analyse_file(_write(tmp_path, "f.tex", text), cfg, Options(n=217))["tables"]
    assert [(m["column"], m["direction"], m["winner"]) for m in t["metrics"]] == [
        ("Overall", "higher", "C"), ("Physics", "higher", "A")]
    bare = _tex("Model & Overall & Physics", rows, caption="Main results.")
    res = analyse_file(_write(tmp_path, "b.tex", bare), cfg, Options(n=217), strict=False)
    assert not res["tables"] and "unknown metric" in res["unreadable"][0]["reason"]


def test_a_test_set_size_printed_in_the_caption_is_its_n(cfg, tmp_path):
    """``n = 100`` in a Markdown heading, or ``internal (n=412) and external (n=198)`` in a
    LaTeX caption over two test sets side by side, is the test-set size (the table was
    refused for want of --n). Counts of runs or readers are not; --n still wins."""
    md = _md(["Method", "Accuracy"], [["A", "91.0"], ["B", "89.5"]],
             title="## Results (n = 100 test images)")
    res = analyse_file(_write(tmp_path, "a.md", md), cfg, Options())
    [t] = res["tables"]
    assert t["metrics"][0]["n"] == 100
    assert "n = 100 (printed in the caption)" in format_text(res)
    [t] = analyse_file(_write(tmp_path, "a.md", md), cfg, Options(n=40))["tables"]
    assert t["metrics"][0]["n"] == 40
    tex = ("\\begin{table}\\caption{Results on the internal (n=412) and external (n=198) test "
           "sets.}\n\\begin{tabular}{lcc}\n\\toprule\nMethod & Internal AUC & External AUC \\\\\n"
           "\\midrule\nA & 0.91 & 0.86 \\\\\nB & 0.90 & 0.87 \\\\\n\\bottomrule\n\\end{tabular}"
           "\\end{table}\n")
    [t] = analyse_file(_write(tmp_path, "s.tex", tex), cfg, Options())["tables"]
    assert {m["column"]: m["n"] for m in t["metrics"]} == {"Internal AUC": 412,
                                                           "External AUC": 198}
    runs = _md(["Method", "Accuracy"], [["A", "91.0"], ["B", "89.5"]],
               title="## Results (mean of n = 5 runs)")
    res = analyse_file(_write(tmp_path, "r.md", runs), cfg, Options(), strict=False)
    assert not res["tables"] and "no test-set size" in res["unreadable"][0]["reason"]


def test_a_count_of_test_items_in_the_caption_is_its_n(cfg, tmp_path):
    """``(Dice %, 12 test scans)``, ``the testing set includes 20 scans``: one count of test
    items is the n. A count without the word test (``trained on 300 patients``) or two of
    them is not: the table is refused for want of --n, as before."""
    rows = ["A & 80.1", "B & 82.4"]
    for caption, n in (("Ablation on BTCV (Dice \\%, 12 test scans).", 12),
                       ("16 labeled and 64 unlabeled scans; the testing set includes 20 scans.",
                        20), ("Registration on OASIS (38 test pairs).", 38)):
        text = _tex("Method & Dice", rows, caption=caption)
        [t] = analyse_file(_write(tmp_path, "c.tex", text), cfg, Options())["tables"]
        assert t["metrics"][0]["n"] == n
    for caption in ("Dice (\\%), trained on 300 patients.", "12 test scans and 30 test scans."):
        text = _tex("Method & Dice", rows, caption=caption)
        res = analyse_file(_write(tmp_path, "d.tex", text), cfg, Options(), strict=False)
        assert not res["tables"] and "no test-set size" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("title", ["## Results (n = 10^6 pixels)", "## Results (N = 1e6)",
                                   "## Results (n = 2.5 mm)"])
def test_a_caption_number_that_is_no_whole_size_is_not_the_n(cfg, tmp_path, title):
    """``n = 10^6``, ``N = 1e6``, ``n = 2.5``: not a test-set size of 10, 1 or 2 (the
    table is refused for want of --n)."""
    md = _md(["Method", "Accuracy"], [["A", "91.0"], ["B", "89.5"]], title=title)
    res = analyse_file(_write(tmp_path, "x.md", md), cfg, Options(), strict=False)
    assert not res["tables"] and "no test-set size" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("names", [
    ["**Internal test** (n=631)", "**External, Messidor-2** (n=1,744)"],   # real README (batch 12b)
    ["Internal (n=412)", "External (n=120)"],
    ["Train", "Validation", "Test"],
    ["Training set", "Test set"],
    ["Internal validation", "External test"],
])
def test_rows_that_are_data_splits_of_one_model_are_not_ranked(cfg, tmp_path, names):
    """One model's results on its data splits or test sets (rows ``Internal test (n=631)``,
    ``External, Messidor-2 (n=1,744)`` under an empty header; ``Train / Validation / Test``):
    no competitors. Before, the internal test set was named the "winner" over the external
    one, silently (or a row ``Test`` was taken for an n row and the table failed on
    "test-set size '0.85'"). Refused, saying why."""
    rows = [[x, f"0.{90 - 3 * i}", f"0.{88 - 4 * i}"] for i, x in enumerate(names)]
    text = _md(["", "AUC", "Dice"], rows)
    res = analyse_file(_write(tmp_path, "s.md", text), cfg, Options(n=50), strict=False)
    assert not res["tables"]
    assert "data splits or test sets" in res["unreadable"][0]["reason"]


@pytest.mark.parametrize("names", [["External attention", "Internal attention", "U-Net"],
                                   ["Test-time augmentation", "Baseline"],
                                   ["Internal", "External"]])
def test_methods_named_like_splits_are_still_ranked(cfg, tmp_path, names):
    """The control: methods whose names begin with a split word (``External attention``,
    ``Test-time augmentation``) and bare ``Internal`` / ``External`` without an n or a
    test-set word stay methods (by hand: the first row wins both columns)."""
    rows = [[x, f"0.{90 - 3 * i}", f"0.{88 - 4 * i}"] for i, x in enumerate(names)]
    [t] = analyse_file(_write(tmp_path, "m.md", _md(["Method", "AUC", "Dice"], rows)), cfg,
                       Options(n=50))["tables"]
    assert [m["winner"] for m in t["metrics"]] == [names[0], names[0]]


def test_section_rows_naming_supervision_regimes_split_the_table(cfg, tmp_path):
    """``\\multicolumn{4}{c}{Fully supervised}`` over the upper bound (U-Net trained on all
    labels) and ``Semi-supervised`` over the compared methods: different methods under each
    heading, so the rows were ranked together and the fully supervised upper bound (91.0) was
    named the winner over the semi-supervised ``Ours`` (89.1), silently; a ``Type`` column of
    the same regimes already splits the table. By hand: Ours wins the semi-supervised Dice,
    U-Net (100%) the supervised block."""
    tex = _tex("Method & Dice (\\%) & HD95 (mm)", [
        "\\multicolumn{3}{c}{Fully supervised}",
        "U-Net (all labels) & 91.0 & 4.1", "U-Net (10\\% labels) & 80.2 & 9.9",
        "\\multicolumn{3}{c}{Semi-supervised}",
        "MT & 85.3 & 7.7", "UA-MT & 86.0 & 7.1", "\\textbf{Ours} & \\textbf{89.1} & \\textbf{5.2}"])
    res = analyse_file(_write(tmp_path, "s.tex", tex), cfg, Options(n=20))
    winners = {t["table"]: [m["winner"] for m in t["metrics"]] for t in res["tables"]}
    semi = [w for name, w in winners.items() if "Semi-supervised" in name]
    assert semi == [["Ours", "Ours"]], winners
    assert len(res["tables"]) == 2


def test_section_rows_naming_architectures_still_rank_together(cfg, tmp_path):
    """The control: headings ``CNN-based`` / ``Transformer-based`` group different methods of
    one comparison; ranked together (by hand: Ours, in the second block, wins)."""
    tex = _tex("Method & Dice (\\%) & HD95 (mm)", [
        "\\multicolumn{3}{c}{CNN-based}", "U-Net & 80.1 & 9.0", "nnU-Net & 84.0 & 6.0",
        "\\multicolumn{3}{c}{Transformer-based}", "TransUNet & 82.0 & 7.0", "Ours & 85.5 & 5.5"])
    [t] = analyse_file(_write(tmp_path, "c.tex", tex), cfg, Options(n=20))["tables"]
    assert [m["winner"] for m in t["metrics"]] == ["Ours", "Ours"]


def test_two_values_per_cell_named_by_the_caption_are_two_columns(cfg, tmp_path):
    """``T1ce | T2`` headers (modalities) over ``0.912 / 28.2`` with the pair named only in
    the caption ("Per-modality performance (SSIM / PSNR)"): refused before ("the header does
    not name both"); each column is now read as two, named from the caption. By hand: C has
    the best SSIM in T1ce (0.925) and B the best PSNR (29.4); T2: C, C."""
    tex = _tex("Method & T1ce & T2", ["A & 0.871 / 26.1 & 0.879 / 26.5",
                                      "B & 0.918 / 29.4 & 0.919 / 28.6",
                                      "C & 0.925 / 28.2 & 0.925 / 29.8"],
               caption="Per-modality harmonization performance (SSIM / PSNR).")
    [t] = analyse_file(_write(tmp_path, "p.tex", tex), cfg, Options(n=20))["tables"]
    got = {m["column"]: (m["direction"], m["winner"]) for m in t["metrics"]}
    assert got == {"T1ce SSIM": ("higher", "C"), "T1ce PSNR": ("higher", "B"),
                   "T2 SSIM": ("higher", "C"), "T2 PSNR": ("higher", "C")}


def test_a_caption_pair_that_names_no_two_metrics_does_not_split_cells(cfg, tmp_path):
    """The control: a caption whose only pair is no two metrics ("train / test split") leaves
    two-value cells refused, as before."""
    tex = _tex("Method & T1ce", ["A & 0.871 / 26.1", "B & 0.918 / 29.4"],
               caption="Results (train / test split).")
    res = analyse_file(_write(tmp_path, "q.tex", tex), cfg, Options(n=20), strict=False)
    assert not res["tables"]
    assert "does not name both" in res["unreadable"][0]["reason"]


def test_a_table_inside_an_html_comment_is_not_read(tmp_path):
    # a README's commented-out old results above the live table: the old winner had been
    # compared silently, the live table ignored
    text = ("# Results\n\n<!--\n| Method | Dice |\n|---|---|\n| Old | 0.99 |\n| Other | 0.50 |"
            "\n-->\n\n| Method | Dice |\n|---|---|\n| A | 0.86 |\n| B | 0.85 |\n| C | 0.80 |\n")
    from falseclaims.table.readers import read_tables
    path = tmp_path / "readme.md"
    path.write_text(text, encoding="utf-8")
    tables = read_tables(path)
    assert len(tables) == 1
    assert [r[0] for r in tables[0].rows][-3:] == ["A", "B", "C"]
    assert "Old" not in str(tables[0].rows)
    assert any("line 3: a table inside an HTML comment" in n for n in tables[0].notes)


@pytest.mark.parametrize("tex, said", [
    ("\\begin{tabular}{lc}\nMethod & Dice \\\\\n\\input{rows}\n\\end{tabular}\n", "\\input{rows}"),
    ("\\begin{table}\n\\csvreader[tabular=lc]{results.csv}{}{\\csvcoli & \\csvcolii}\n"
     "\\end{table}\n", "{results.csv}"),
])
def test_latex_rows_from_another_file_are_refused_naming_it(tmp_path, tex, said):
    # were "no numeric column" / "found 1 method row" / "no \begin{tabular}"
    from falseclaims.table.readers import TableReadError, read_tables
    path = tmp_path / "t.tex"
    path.write_text(tex, encoding="utf-8")
    with pytest.raises(TableReadError, match="another file") as exc:
        read_tables(path)
    assert said in str(exc.value)


def test_an_input_outside_the_tabular_changes_nothing(tmp_path):
    from falseclaims.table.readers import read_tables
    path = tmp_path / "t.tex"
    path.write_text("\\input{preamble}\n\\begin{tabular}{lc}\nMethod & Dice \\\\\nA & 0.86 \\\\\n"
                    "B & 0.85 \\\\\n\\includegraphics{fig} \\\\\n\\end{tabular}\n",
                    encoding="utf-8")
    assert len(read_tables(path)) == 1
