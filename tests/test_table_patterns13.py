"""Table patterns of blind batch 13 (docs/table.md, "Batch 13"), each on a small synthetic
table of that shape, winners and directions by hand: rows told apart only by check-mark
columns under a sparse stage column, a caption whose metric word names the training
protocol ("val-loss protocol"), and LiTS surface distances (RMSD, MSSD)."""

from __future__ import annotations

import pytest
from table_files import write_table_file as _write

from falseclaims.config import Analysis, load_config
from falseclaims.metrics import classify
from falseclaims.table.run import Options, analyse_file


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _md(header: list[str], rows: list[list[str]], title: str = "## Results") -> str:
    line = lambda cells: "| " + " | ".join(cells) + " |"  # noqa: E731
    return "\n".join([title, "", line(header), line(["---"] * len(header)),
                      *(line(r) for r in rows)]) + "\n"


# by hand: the best accuracy is the fine-tuned model WITH the second input (0.834); the
# zero-shot model with it (0.663) is only the best of its stage. Stage names a group on its
# first row, but no method is in two stages: one comparison. A blank under "Gaze" is "not
# used", never the check mark of the row above.
_STAGES = _md(["Stage", "Method", "Video", "Gaze", "Accuracy"], [
    ["Baseline", "CLIP baseline", "✅", "", "0.727"],
    ["Zero-shot", "VLM-7B", "✅", "", "0.629"],
    ["", "VLM-7B", "✅", "✅", "0.663"],
    ["", "VLM-2B", "✅", "", "0.591"],
    ["Fine-tuned", "VLM-2B LoRA", "✅", "", "0.755"],
    ["", "VLM-2B LoRA", "✅", "✅", "**0.834**"],
    ["", "GroundVQA", "✅", "", "0.788"],
])


def test_rows_told_apart_by_check_marks_are_one_comparison_named_by_their_marks(cfg, tmp_path):
    """Before, the stage column was taken for groups of "the same methods" (a name repeated
    inside a stage), the check marks became group labels ("Zero-shot / ✅ / ✅") and the
    zero-shot row at 0.663 was named a winner; the repeated names were numbered ``(2)``."""
    res = analyse_file(_write(tmp_path, "s.md", _STAGES), cfg, Options(n=300))
    [t] = res["tables"]
    [m] = t["metrics"]
    assert m["winner"] == "Fine-tuned / VLM-2B LoRA / Gaze"
    names = [x["method"] for x in m["methods"]]
    # the rows without the mark carry no "Gaze" (a blank does not continue the row above)
    assert "Zero-shot / VLM-2B" in names and "Fine-tuned / VLM-2B LoRA" in names
    assert len(names) == 7 and not any("(2)" in n or "✅" in n for n in names)


def test_a_stage_column_over_the_same_methods_still_splits_the_table(cfg, tmp_path):
    """The control: the same methods under each stage (a name on the stage's first row)
    are groups, one comparison each (by hand: B wins stage S, A wins stage T)."""
    text = _md(["Stage", "Method", "Accuracy"], [
        ["S", "A", "0.80"], ["", "B", "0.85"], ["", "C", "0.70"],
        ["T", "A", "0.90"], ["", "B", "0.88"], ["", "C", "0.75"]])
    res = analyse_file(_write(tmp_path, "g.md", text), cfg, Options(n=300))
    won = {t["table"].rsplit("[", 1)[-1].rstrip("]"): t["metrics"][0]["winner"]
           for t in res["tables"]}
    assert won == {"S": "B", "T": "A"}


# methods as columns (transposed on request), a heading naming the selection protocol: the
# bold marks the HIGHEST value of each row, the heading's "loss" would rank the lowest first
_PROTOCOL = _md(["Cohort", "PathQ", "SurvPath", "SNN"], [
    ["STAD", "0.486", "**0.610**", "0.454"],
    ["HNSC", "0.484", "0.515", "**0.547**"],
    ["BLCA", "0.622", "0.597", "0.550"],
], title="## Experiment 5: multi-cohort (val-loss protocol, seed 0)")


def test_a_loss_named_as_the_training_protocol_is_not_the_tables_metric(cfg, tmp_path):
    """Before, "val-loss protocol" in the heading made every column lower-is-better: SNN
    (0.454) and SurvPath (0.515) were named winners against the authors' bold, silently. The
    heading names no metric of the table: unread, saying why."""
    res = analyse_file(_write(tmp_path, "p.md", _PROTOCOL), cfg, Options(n=100, transpose=True),
                       strict=False)
    assert not res["tables"]
    assert "unknown metric" in res["unreadable"][0]["reason"]


def test_a_caption_direction_the_bold_contradicts_in_every_column_is_refused(cfg, tmp_path):
    """A caption word that reads as a metric ("Test loss") while the bold sits on the highest
    value of every column it marks: the direction is unclear, every column taken from the
    caption is refused (the unbolded BLCA too), never ranked the other way round."""
    text = _PROTOCOL.replace("(val-loss protocol, seed 0)", "(test loss)")
    res = analyse_file(_write(tmp_path, "c.md", text), cfg, Options(n=100, transpose=True),
                       strict=False)
    assert not res["tables"]
    assert "bold mark is on the highest value" in res["unreadable"][0]["reason"]


def test_a_caption_direction_the_bold_agrees_with_is_kept(cfg, tmp_path):
    """The control: bold on the lowest value under a caption naming a loss: read, lower is
    better (by hand: SNN wins STAD 0.454, PathQ wins HNSC 0.484)."""
    text = _md(["Cohort", "PathQ", "SurvPath", "SNN"], [
        ["STAD", "0.486", "0.610", "**0.454**"], ["HNSC", "**0.484**", "0.515", "0.547"]],
        title="## Test loss per cohort")
    [t] = analyse_file(_write(tmp_path, "k.md", text), cfg,
                       Options(n=100, transpose=True))["tables"]
    assert {m["column"]: (m["direction"], m["winner"]) for m in t["metrics"]} == {
        "STAD": ("lower", "SNN"), "HNSC": ("lower", "PathQ")}


@pytest.mark.parametrize("header", ["RMSD", "MSSD", "RMSD (mm)"])
def test_lits_surface_distances_are_lower_is_better(cfg, header):
    """Root mean square and maximum symmetric surface distance (LiTS tables): were unknown."""
    spellings = Analysis.from_config(cfg).eligibility.metrics
    assert classify(header, spellings).direction == "lower"


@pytest.mark.parametrize("text, named", [
    ("+--------+------+\n| Method | Dice |\n+========+======+\n| A      | 0.80 |\n"
     "+--------+------+\n| B      | 0.85 |\n+--------+------+\n", "reStructuredText grid table"),
    ("| Method | Dice |\n|--------+------|\n| A      | 0.80 |\n| B      | 0.85 |\n",
     "Org-mode table"),
])
def test_a_table_of_another_markup_in_a_markdown_file_is_named_in_the_refusal(cfg, tmp_path,
                                                                              text, named):
    """Table mode reads pipe tables and HTML tables; a grid table or an Org table pasted into
    a README is refused naming its markup (before: only "no pipe table"), never read wrong."""
    with pytest.raises(ValueError, match=named):
        analyse_file(_write(tmp_path, "r.md", "## Results\n\n" + text), cfg, Options(n=50))


# batch 13b: a French README prints every value with a decimal comma (by hand: Jev wins F1
# 0,94 and AUC 1,00; the baselines tie at 0,80 in F1)
_FRENCH = _md(["Méthode", "F1", "AUC", "ECE"], [
    ["Jev", "**0,94**", "1,00", "0,12"],
    ["`max_level>=7`", "0,80", "0,50", "0,20"],
    ["`sum_levels>=30`", "0,80", "0,25", "–"],
], title="## Premiers résultats (12 clusters)")


def test_decimal_commas_that_cannot_be_thousands_are_read_as_decimal_points(cfg, tmp_path):
    """Before: "no numeric column" (the whole table refused). ``0,94`` cannot be a count
    grouped by thousands (two digits after the comma, a zero before it): read as 0.94, with
    a note per column."""
    [t] = analyse_file(_write(tmp_path, "f.md", _FRENCH), cfg, Options(n=12))["tables"]
    got = {m["column"]: (m["winner"], m["methods"][0]["value"]) for m in t["metrics"]}
    assert got["F1"] == ("Jev", 0.94) and got["AUC"] == ("Jev", 1.0)
    assert got["ECE"][0] == "Jev"
    assert any("decimal comma" in n for n in t["notes"])


def test_a_column_whose_commas_may_group_thousands_is_not_read_as_decimals(cfg, tmp_path):
    """The control: ``1,234`` may be a count grouped by thousands; such a column is never
    turned into 1.234 (it stays no number, as before)."""
    text = _md(["Method", "Dice", "Code"], [["A", "0.91", "1,234"], ["B", "0.89", "2,468"]])
    [t] = analyse_file(_write(tmp_path, "t.md", text), cfg, Options(n=100))["tables"]
    assert [m["column"] for m in t["metrics"]] == ["Dice"]
    assert not any("decimal comma" in n for n in t["notes"])


@pytest.mark.parametrize("header, ignored", [("Risk Std ↓", False), ("Risk Std", True),
                                             ("SD", True)])
def test_a_spread_column_with_an_arrow_is_a_metric(cfg, header, ignored):
    """``Risk Std ↓``: the SD of the per-image risk, ranked by the authors' arrow (before:
    never scored as an SD column). Without an arrow a spread column stays unscored."""
    spellings = Analysis.from_config(cfg).eligibility.metrics
    kind = classify(header, spellings)
    assert bool(kind.ignore) is ignored
    assert ignored or kind.direction == "lower"


@pytest.mark.parametrize("head, names", [
    ("estrutura", ["Lung_R", "Heart", "Esophagus"]),      # Portuguese: structures
    ("órganos", ["Hígado", "Bazo", "Riñón"]),             # Spanish: organs
    ("case_id", ["4DLUNG-104", "4DLUNG-116", "4DLUNG-115"]),
    ("Patient ID", ["P01", "P02", "P03"]),
])
def test_rows_named_structures_or_cases_in_any_language_are_not_ranked(cfg, tmp_path, head,
                                                                       names):
    """One model's results per structure or per test case (a Portuguese README's
    ``estrutura``, a ``case_id`` column): no competitors. Before, the first structure or case
    was named the "winner" (the decimal commas of the real tables had hidden this: they made
    the tables unreadable). Refused, saying why."""
    rows = [[x, f"0.{90 - 3 * i}", f"{5 + i}.1"] for i, x in enumerate(names)]
    res = analyse_file(_write(tmp_path, "p.md", _md([head, "Dice", "HD95 (mm)"], rows)), cfg,
                       Options(n=60), strict=False)
    assert not res["tables"]
    assert "test cases, not methods" in res["unreadable"][0]["reason"]


def test_an_n_column_with_its_own_size_on_every_row_is_refused_naming_it(cfg, tmp_path):
    """``Stage | n | DSC`` with 1453 and 1448 (five empty cases left out of stage 2): no
    test set two rows share. Before, each row became a "group" of one and the table was
    refused as "needs at least 2 method rows; found 1"; now the refusal names the n column
    and its sizes (the comparison needs one test set)."""
    text = _md(["Stage", "n", "DSC", "HD95 (mm)"], [["Stage 1", "1453", "0.651", "18.46"],
                                                    ["Stage 2", "1448", "**0.730**", "**9.28**"]])
    res = analyse_file(_write(tmp_path, "n.md", text), cfg, Options(), strict=False)
    assert not res["tables"]
    reason = res["unreadable"][0]["reason"]
    assert "test-set sizes differ" in reason and "1453" in reason


def test_an_n_column_in_runs_of_rows_still_splits_the_table(cfg, tmp_path):
    """The control: sizes in runs (270, 270, 153, 153) are two test sets, one comparison each
    (by hand: B wins on the first, D on the second)."""
    text = _md(["Method", "n", "Dice"], [["A", "270", "0.80"], ["B", "270", "0.85"],
                                         ["C", "153", "0.70"], ["D", "153", "0.75"]])
    res = analyse_file(_write(tmp_path, "r.md", text), cfg, Options())
    assert sorted(t["metrics"][0]["winner"] for t in res["tables"]) == ["B", "D"]


@pytest.mark.parametrize("header", ["Précision", "Rappel", "Sensibilité", "Especificidad",
                                    "Sensibilidade (%)"])
def test_scores_named_in_french_spanish_or_portuguese_are_higher_is_better(cfg, header):
    """Precision, recall, sensitivity, specificity as a French, Spanish or Portuguese README
    names them (before: unknown metric)."""
    spellings = Analysis.from_config(cfg).eligibility.metrics
    assert classify(header, spellings).direction == "higher"


@pytest.mark.parametrize("head, names", [
    ("Prompt Noise $\\delta$", ["$\\delta = 0.00$", "$\\delta = 0.05$", "$\\delta = 0.10$"]),
    ("Setting", ["σ=0.1", "σ=0.2", "σ=0.5"]),
    ("GT lesion size", ["Small", "Medium", "Large"]),
    ("Split", ["Fold0 validation", "Local test"]),
])
def test_rows_that_are_settings_strata_or_splits_of_one_model_are_not_ranked(cfg, tmp_path,
                                                                            head, names):
    """Batch 13c: one model under four prompt-noise levels (rows ``δ = 0.05``), per lesion-size
    stratum under ``GT lesion size``, on ``Fold0 validation`` and ``Local test``: ranked
    before (the noise-free row "won"), now refused saying why."""
    rows = [[x, f"0.{93 - 3 * i}", f"{56 + 9 * i}.1"] for i, x in enumerate(names)]
    res = analyse_file(_write(tmp_path, "s.md", _md([head, "Mean Dice", "Mean HD95"], rows)),
                       cfg, Options(n=519), strict=False)
    assert not res["tables"], res["tables"][0]["metrics"][0]["winner"] if res["tables"] else ""


@pytest.mark.parametrize("names", [["U-Net", "nnU-Net (k = 5)"], ["λ-Net", "Ours"]])
def test_methods_with_a_parameter_in_their_name_are_still_ranked(cfg, tmp_path, names):
    """The control: a method whose name carries a parameter, beside one that does not, is a
    method (by hand: the first row wins)."""
    rows = [[x, f"0.{90 - 3 * i}"] for i, x in enumerate(names)]
    [t] = analyse_file(_write(tmp_path, "m.md", _md(["Method", "Dice"], rows)), cfg,
                       Options(n=50))["tables"]
    assert t["metrics"][0]["winner"] == names[0]


# batch 13d: each strategy twice, without and with an option (✗ / ✓); by hand: the best AUC
# is "Sup-con (ours)" with the option (0.68), the best specificity "Contrastive" without (80.59)
_OPTION_PAIRS = _md(["Training strategy", "Distillation", "AUC", "Specificity (%)"], [
    ["Supervised", "✗", "0.60 ± 0.07", "59.72"],
    ["Supervised", "✓", "0.64 ± 0.05", "59.35"],
    ["Contrastive", "✗", "0.62 ± 0.02", "**80.59**"],
    ["Contrastive", "✓", "0.63 ± 0.07", "77.75"],
    ["Sup-con", "✗", "0.62 ± 0.09", "53.86"],
    ["**Sup-con (ours)**", "**✓**", "**0.68 ± 0.08**", "66.57"],
])


def test_a_column_of_check_marks_is_never_the_method_column(cfg, tmp_path):
    """Before, the ✗ / ✓ column (it changes on every row) was taken for the method column,
    the strategies for groups of it: winners named "✓" and "✗", silently. The strategies name
    the methods, the checked column is added to the name."""
    [t] = analyse_file(_write(tmp_path, "o.md", _OPTION_PAIRS), cfg, Options(n=200))["tables"]
    won = {m["column"]: m["winner"] for m in t["metrics"]}
    assert won == {"AUC": "Sup-con (ours) / Distillation", "Specificity (%)": "Contrastive"}
    assert len(t["metrics"][0]["methods"]) == 6
