"""Drafting failures met on held-out check 9b (docs/sheets.md, "Held-out check 9b"), each
reproduced on a small synthetic sheet of the same pattern (invented values): effect sizes
of a meta-analysis keyed by a study number that repeats in scattered rows, each row's
study named 'Author et al. (year)' beside it, counted as one paper per effect; a
benchmark's long leaderboard (model x organ, value, rank) without a paper column whose
draft said NOT READY yet passed ``sheet check`` with every row a paper; per-case Dice
scores of one model (cases s0000, s0001, ...) read as a study-design sheet of hundreds of
papers; ``sheet check`` on a draft whose paper id is left to the user said "no paper is
read" rather than the question; a venue's sheet path that is a named pipe said "not
found"."""

from __future__ import annotations

import os

import pytest

from falseclaims.errors import FalseclaimsInputError
from falseclaims.sheets import read_venue
from sheet_drafting import drafted as _drafted, write_rows as _write


def _papers(block) -> int:
    return len(read_venue(dict(block), base_dir=".", venue="v").papers)


_STUDIES = [(5, "Gouzo et al. (2002)"), (3, "Cavan et al. (2022)"), (1, "Barre et al. (2017)"),
            (1, "Barre et al. (2017)"), (13, "Vollen et al. (1998)"), (1, "Barre et al. (2017)"),
            (3, "Cavan et al. (2022)"), (2, "Carte et al. (2005)"), (5, "Gouzo et al. (2002)"),
            (2, "Carte et al. (2005)")]


def _effects(studies):
    rows = [["ID", "ES_ID", "CognitiveFunction", "PlotLabel", "N_final", "ES_final_RT"]]
    rows += [[sid, 20 + k, ["Attention", "Memory"][k % 2], label, 10 + sid, round(0.1 * k - 0.3, 2)]
             for k, (sid, label) in enumerate(studies)]
    return rows


def test_a_study_label_on_every_row_of_a_repeated_id_groups_them(tmp_path):
    """Study numbers repeating in scattered rows, each row naming its study 'Author et al.
    (year)' the same way: read as 41 papers (the repeats numbered) of 12 studies."""
    _, block = _drafted(_write(tmp_path, _effects(_STUDIES)))
    assert block.get("group_rows_by_id") is True
    assert _papers(block) == len({s for s, _ in _STUDIES})


def test_different_study_labels_under_one_id_stay_different_papers(tmp_path):
    """The guard: one number naming two different references is two papers."""
    names = ["Adams", "Baker", "Clark", "Dixon", "Evans", "Fox", "Grant", "Hill", "Irwin", "Jones"]
    studies = [(k % 4, f"{n} et al. ({2000 + k})") for k, n in enumerate(names)]
    _, block = _drafted(_write(tmp_path, _effects(studies)))
    assert not block.get("group_rows_by_id")
    assert _papers(block) == 10


def _leaderboard():
    rows = [["model", "organ", "metric", "value", "rank"]]
    models = ["MedNeXt", "MedFormer", "STU-Net", "UNETR", "SegVol"]
    for o, organ in enumerate(("Average", "Aorta", "Liver")):
        rows += [[m, organ, "DSC", round(89.2 - 2 * k - o, 1), k + 1]
                 for k, m in enumerate(models)]
    return rows


def test_a_long_leaderboard_without_a_paper_column_is_asked_and_check_stops(tmp_path):
    """model x organ x metric, value, rank of one benchmark: the draft said NOT READY
    (no papers table) but its block read every row as a paper, so ``sheet check`` passed
    with 170 papers."""
    d, block = _drafted(_write(tmp_path, _leaderboard()))
    assert any("no paper id column" in p for p in d.problems)
    with pytest.raises(FalseclaimsInputError, match="no paper id column"):
        _papers(block)


def _cases(n=40, organs=("aorta", "liver", "spleen", "pancreas")):
    rows = [["name", *organs]]
    for i in range(n):
        rows.append([f"s{i:04d}"] + ["" if (i + j) % 7 == 0 else
                                    round(0.95 - 0.01 * ((i * 3 + j) % 20), 4)
                                    for j in range(len(organs))])
    return rows


def test_rows_of_numbered_cases_with_scores_are_asked(tmp_path):
    """Per-case Dice of one model (s0000, s0001, ... x organs): each case read as a paper
    of a study-design sheet (616 'papers'), the scores set aside."""
    d, block = _drafted(_write(tmp_path, _cases()))
    assert any("per-case" in p for p in d.problems)
    with pytest.raises(FalseclaimsInputError):
        _papers(block)


def test_numbered_study_ids_with_one_value_stay_papers(tmp_path):
    """The guard: studies numbered S001, S002, ... with a study-design column and one
    sample size are papers."""
    rows = [["study", "design", "sample_size"]]
    rows += [[f"S{i:03d}", ["RCT", "cohort"][i % 2], 40 + i] for i in range(12)]
    d, block = _drafted(_write(tmp_path, rows))
    assert not any("per-case" in p for p in d.problems)
    assert _papers(block) == 12


def test_check_of_a_draft_whose_id_is_asked_repeats_the_question(tmp_path):
    """The draft asks for the paper column (runs of classifiers, no paper id): ``sheet
    check`` said "no paper is read from the sheet" instead of the question."""
    rows = [["classifier_name", "dataset_name", "iteration", "accuracy"]]
    rows += [[c, d, it, round(0.6 + 0.01 * it, 3)] for c in ("mlp", "fcn", "resnet")
             for d in ("ArabicDigits", "AUSLAN") for it in range(3)]
    _, block = _drafted(_write(tmp_path, rows))
    with pytest.raises(FalseclaimsInputError, match="classifier_name") as e:
        _papers(block)
    assert "no paper is read" not in str(e.value)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes need POSIX")
def test_a_sheet_path_that_is_a_named_pipe_says_so(tmp_path):
    """A venue's sheet path naming a FIFO said 'expected an existing file (not found)'."""
    rows = [["Paper", "Task"]] + [[f"P{i}", "classification"] for i in range(3)]
    _, block = _drafted(_write(tmp_path, rows))
    fifo = tmp_path / "pipe.csv"
    os.mkfifo(fifo)
    with pytest.raises(FalseclaimsInputError, match="named pipe") as e:
        _papers(dict(block, papers=str(fifo)))
    assert "not found" not in str(e.value)


def test_a_sheet_path_that_is_a_folder_says_so(tmp_path):
    rows = [["Paper", "Task"]] + [[f"P{i}", "classification"] for i in range(3)]
    _, block = _drafted(_write(tmp_path, rows))
    folder = tmp_path / "sheet.csv"
    folder.mkdir()
    with pytest.raises(FalseclaimsInputError, match="folder") as e:
        _papers(dict(block, papers=str(folder)))
    assert "not found" not in str(e.value)


def test_effect_size_types_are_no_metric_and_n_no_test_set(tmp_path):
    """A replication database: ``metric_reported`` holds 'd' and 'r' (effect-size types)
    and ``N`` the study's sample: drafted as the metric column and the test-set size."""
    rows = [["effect_id", "type", "metric_reported", "size_reported", "publication_id", "N",
             "metric_converted"]]
    rows += [[10 + i, ["original", "replication"][i % 2], ["d", "r"][i % 3 == 0],
              round(0.2 + i / 20, 2), 3 + i // 2, 40 + 7 * i, ""] for i in range(10)]
    d, block = _drafted(_write(tmp_path, rows))
    roles = block["columns"]["wide"]
    assert "metric" not in roles.values()
    assert "n_test" not in roles.values()


def test_metric_names_stay_the_metric_column(tmp_path):
    """The guard: a metric column naming metrics (accuracy, AUC) stays the metric."""
    rows = [["Paper", "metric", "N"]]
    rows += [[f"P{i}", ["accuracy", "AUC"][i % 2], 100 + i] for i in range(8)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"].get("metric") == "metric"


def test_an_effect_size_header_naming_a_metric_is_no_lost_result(tmp_path):
    """'ES_final_ACC' (Cohen's d of an accuracy) was taken for accuracy values and the
    draft asked about results that would be lost."""
    rows = [["ID", "PlotLabel", "ES_final_ACC"]]
    rows += [[i // 2, f"Auth{i // 2} et al. ({2000 + i // 2})", round(0.1 * i - 0.3, 2)]
             for i in range(12)]
    d, block = _drafted(_write(tmp_path, rows))
    assert not any("results would be lost" in p for p in d.problems)
    assert "task" not in block.get("constants", {})  # no task from the 'ACC' of 'ES_final_ACC'


def _models(links):
    rows = [["model", "organization", "average_dsc", "paper"]]
    rows += [[f"Net{k}", f"Lab{k % 3}", round(89.2 - 0.7 * k, 1), u]
             for k, u in enumerate(links)]
    return rows


def test_one_row_per_method_with_its_paper_link_is_asked(tmp_path):
    """A leaderboard's models, each with its paper's arXiv link (two models share one):
    drafted as a long results table of 15 papers with one row each, and ``sheet check``
    stopped on a question about the split column."""
    links = [f"https://arxiv.org/abs/23{k:02d}.0{k}975" for k in range(9)]
    links.insert(4, links[3])
    d, block = _drafted(_write(tmp_path, _models(links)))
    assert any("one value per method" in p for p in d.problems)
    with pytest.raises(FalseclaimsInputError, match="one value per method"):
        _papers(block)


def test_papers_comparing_several_methods_stay_a_long_table(tmp_path):
    """The guard: papers of several rows each (their method and the prior ones)."""
    links = [f"https://arxiv.org/abs/23{k // 3:02d}.0{k // 3}975" for k in range(12)]
    d, _ = _drafted(_write(tmp_path, _models(links)))
    assert not any("one value per method" in p for p in d.problems)
