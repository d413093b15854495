"""Table shapes met first on the held-out real tables (docs/table.md, "Held-out check"), each
tested on a synthetic table of that shape: long (tidy) tables, a "95% CI" label in a header,
a patient-count column, a data set named in the caption and in one column's header,
snake_case metric names and per-structure columns beside a summary column."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write

from falseclaims.config import load_config
from falseclaims.table.analysis import analyse_table
from falseclaims.metrics import classify
from falseclaims.table.model import interpret_table
from falseclaims.table.readers import read_tables
from falseclaims.table.run import Options, analyse_file


@pytest.fixture(scope="module")
def cfg():
    return load_config()


LONG = ("\\begin{table}\\caption{Dice estimates with bootstrap intervals.}\n"
        "\\begin{tabular}{llrlr}\n\\toprule\n"
        "Model & Endpoint & Patients & Mean (95\\% CI) & Median \\\\\n\\midrule\n"
        "Net A & Mean Dice & 74 & 0.7523 (0.7159-0.7863) & 0.8045 \\\\\n"
        "Net A & WT HD95 & 74 & 35.8 (30.1-41.0) & 33.9 \\\\\n"
        "Net B & Mean Dice & 74 & 0.7355 (0.6916-0.7754) & 0.7975 \\\\\n"
        "Net B & WT HD95 & 74 & 21.9 (18.2-25.3) & 14.0 \\\\\n"
        "Net C & Mean Dice & 74 & 0.7560 (0.7193-0.7899) & 0.8108 \\\\\n"
        "Net C & WT HD95 & 74 & 31.9 (27.0-36.6) & 25.1 \\\\\n"
        "\\bottomrule\n\\end{tabular}\\end{table}\n")
WIDE = ("\\begin{tabular}{lrr}\nModel & Mean Dice & WT HD95 \\\\\n"
        "Net A & 0.7523 & 35.8 \\\\\nNet B & 0.7355 & 21.9 \\\\\nNet C & 0.7560 & 31.9 \\\\\n"
        "\\end{tabular}\n")


MEAN = "tabular 1: Dice estimates with bootstrap intervals. [Mean (95% CI)]"
MEDIAN = "tabular 1: Dice estimates with bootstrap intervals. [Median]"


def _metrics(res):
    return [(t["table"], m["column"], m.get("n"), m["winner"]) for t in res["tables"]
            for m in t["metrics"]]


def test_long_table_is_read_as_methods_by_metrics(cfg, tmp_path):
    """Model x Endpoint rows: the models are the methods (never the endpoints), the n column
    is the n, and the "%" of "95% CI" does not make 0.7523 a percentage."""
    res = analyse_file(_write(tmp_path, "long.tex", LONG), cfg, Options())
    got = _metrics(res)
    assert got[:2] == [(MEAN, "Mean Dice", 74, "Net C"),
                       (MEAN, "WT HD95", 74, "Net B")]
    # the medians are a second reading, after the means
    assert got[2:] == [(MEDIAN, "Mean Dice", 74, "Net C"),
                       (MEDIAN, "WT HD95", 74, "Net B")]
    dice = res["tables"][0]["metrics"][0]
    assert dice["units"] == "fraction"
    assert {m["method"] for m in dice["methods"]} == {"Net A", "Net B", "Net C"}
    assert res["tables"][0]["metrics"][1]["direction"] == "lower"


def test_long_table_gives_the_probabilities_of_the_same_table_printed_wide(cfg, tmp_path):
    """The pivot is only a reading: the long table and the same numbers printed as methods x
    metrics give identical P(false claim)."""
    long = analyse_file(_write(tmp_path, "long.tex", LONG), cfg, Options())
    wide = analyse_file(_write(tmp_path, "wide.tex", WIDE), cfg, Options(n=74))
    a = long["tables"][0]["metrics"][0]["methods"]
    b = wide["tables"][0]["metrics"][0]["methods"]
    assert [(m["method"], m.get("p_false_claim")) for m in a] == \
        [(m["method"], m.get("p_false_claim")) for m in b]
    assert any(m.get("p_false_claim") is not None for m in a)


def test_two_label_columns_naming_data_sets_are_not_a_long_table(cfg, tmp_path):
    """Only an endpoint column that names a metric in every row makes a table long: a
    data-set column (BTCV, ACDC) is read as before, never pivoted into metrics."""
    f = _write(tmp_path, "g.tex", "\\begin{tabular}{llr}\nMethod & Data & Dice \\\\\n"
               "A & BTCV & 0.80 \\\\\nB & BTCV & 0.82 \\\\\nA & ACDC & 0.91 \\\\\n"
               "B & ACDC & 0.90 \\\\\n\\end{tabular}\n")
    res = analyse_file(f, cfg, Options(n={"BTCV": 30, "ACDC": 100}))
    assert not any("long format" in note for t in res["tables"] for note in t["notes"])
    assert [m["column"] for t in res["tables"] for m in t["metrics"]] == ["Dice", "Dice"]


@pytest.mark.parametrize("header", ["Dice (95\\% CI)", "Dice, mean (95\\% bootstrap CI)"])
def test_percent_of_a_confidence_interval_label_is_not_the_unit(cfg, tmp_path, header):
    f = _write(tmp_path, "t.tex", f"\\begin{{tabular}}{{lc}}\nMethod & {header} \\\\\n"
               "A & 0.81 (0.78-0.84) \\\\\nB & 0.79 (0.76-0.82) \\\\\n\\end{tabular}\n")
    [col] = interpret_table(read_tables(f)[0], cfg, n=50).metrics
    assert (col.units, col.values) == ("fraction", [0.81, 0.79])


def test_a_percent_header_still_marks_percent(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\nMethod & Dice (\\%) \\\\\n"
               "A & 81.0 \\\\\nB & 79.0 \\\\\n\\end{tabular}\n")
    [col] = interpret_table(read_tables(f)[0], cfg, n=50).metrics
    assert (col.units, col.values) == ("percent", [0.81, 0.79])


def test_patient_count_column_is_the_test_set_size_not_a_score(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{table}\\caption{Dice on the test set.}\n"
               "\\begin{tabular}{lrc}\nMethod & Patients & Dice \\\\\n"
               "A & 74 & 0.75 \\\\\nB & 74 & 0.73 \\\\\n\\end{tabular}\\end{table}\n")
    t = interpret_table(read_tables(f)[0], cfg)
    assert [c.column for c in t.metrics] == ["Dice"]
    assert (t.n, t.n_source) == (74, "column 'Patients'")


def test_caption_group_belongs_to_the_column_that_names_it(cfg, tmp_path):
    """The caption names TNBC because a column is TNBC: the Dice column beside it must not
    get TNBC's n (11); with no size for it, it is ranked and the reason names the groups."""
    f = _write(tmp_path, "t.tex", "\\begin{table}\\caption{Dice per model. TNBC is transfer "
               "Dice.}\n\\begin{tabular}{lcc}\nModel & Dice (\\%) & TNBC Dice (\\%) \\\\\n"
               "A & 96.60 & 8.07 \\\\\nB & 96.85 & 2.94 \\\\\n\\end{tabular}\\end{table}\n")
    res = analyse_file(f, cfg, Options(n={"BBBC039": 50, "TNBC": 11}))
    dice, tnbc = res["tables"][0]["metrics"]
    assert (dice["n"], dice["winner"]) == (None, "B")
    assert "no --n group names this column" in dice["no_probability"]
    assert (tnbc["n"], tnbc["winner"]) == (11, "A")


@pytest.mark.parametrize("header,direction", [("wt_hd95_mm", "lower"),
                                              ("et_lesion_wise_dice", "higher"),
                                              ("tc_surface_dice", "higher"),
                                              ("F_1", "higher"), ("BF1 (%)", "higher")])
def test_snake_case_and_boundary_f1_names(spellings, header, direction):
    assert classify(header, spellings).direction == direction


def test_summary_column_names_the_metric_of_per_structure_columns(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lrrrr}\n"
               "model & mem\\_allocation & Liver & Fat & mDice \\\\\n"
               "A & 2.41 & 76.92 & 74.64 & 64.01 \\\\\nB & 13.33 & 74.12 & 77.78 & 64.03 \\\\\n"
               "C & 13.96 & 58.97 & 66.47 & 53.13 \\\\\n\\end{tabular}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=30)
    assert [(c.column, c.task, c.units) for c in t.metrics] == [
        ("Liver", "segmentation", "percent"), ("Fat", "segmentation", "percent"),
        ("mDice", "segmentation", "percent")]
    assert "mDice" in t.metrics[0].task_source
    res = analyse_table(t, cfg)
    assert [m["winner"] for m in res["metrics"]] == ["A", "B", "B"]


@pytest.mark.parametrize("header,row_a,row_b", [
    # two named metrics: which one Aorta holds is not said
    ("Method & DSC & HD95 & Aorta", "A & 0.80 & 20.1 & 0.85", "B & 0.82 & 18.0 & 0.84"),
    # a column on another scale than the summary is not a structure of it
    ("Method & Slices & Mean Dice", "A & 120 & 0.80", "B & 140 & 0.82"),
])
def test_no_summary_reading_without_one_summary_on_one_scale(cfg, tmp_path, header, row_a,
                                                             row_b):
    f = _write(tmp_path, "t.tex", f"\\begin{{tabular}}{{lccc}}\n{header} \\\\\n{row_a} \\\\\n"
               f"{row_b} \\\\\n\\end{{tabular}}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=30)
    assert "Aorta" not in [c.column for c in t.metrics]
    assert "Slices" not in [c.column for c in t.metrics]


def test_subgroup_and_category_columns_give_one_comparison_per_category(cfg, tmp_path):
    """Three label columns printed in every row (Subgroup, Category, Model): the model is the
    label that changes from row to row; each category is its own test subset with the n of
    its Patients column, never merged with another category of the same size."""
    rows = [("grade", "HGG", "A", 59, 0.8078), ("grade", "HGG", "B", 59, 0.8118),
            ("burden", "small", "A", 24, 0.7355), ("burden", "small", "B", 24, 0.7461),
            ("burden", "large", "A", 24, 0.7507), ("burden", "large", "B", 24, 0.7502)]
    body = "".join(f"{s} & {c} & {m} & {n} & {v} \\\\\n" for s, c, m, n, v in rows)
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lllrr}\n"
               f"Subgroup & Category & Model & Patients & Mean Dice \\\\\n{body}\\end{{tabular}}\n")
    res = analyse_file(f, cfg, Options())
    got = [(t["table"], m["n"], m["winner"]) for t in res["tables"] for m in t["metrics"]]
    assert got == [("tabular 1 [grade / HGG]", 59, "B"), ("tabular 1 [burden / small]", 24, "B"),
                   ("tabular 1 [burden / large]", 24, "A")]


def test_bracketed_interval_after_the_value_is_ignored_and_noted(cfg, tmp_path):
    f = _write(tmp_path, "t.tex", "\\begin{tabular}{lc}\nMethod & Dice [95\\% CI] \\\\\n"
               "A & 0.931 [0.913, 0.947] \\\\\nB & 0.935 [0.917, 0.951] \\\\\n\\end{tabular}\n")
    t = interpret_table(read_tables(f)[0], cfg, n=50)
    [col] = t.metrics
    assert (col.units, col.values) == ("fraction", [0.931, 0.935])
    assert any("[0.913, 0.947]" in note for note in col.notes + t.notes)
