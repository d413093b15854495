"""Drafting failures met on the seventh blind batch of real review sheets (docs/sheets.md,
"Seventh held-out check (blind)"), each reproduced on a small synthetic sheet of the same
pattern (invented values): a paper attribute with a few levels ('Paper Readability': Ok /
Low / Good) taken for the paper id, a count of a paper's figures taken for the test-set
size, and a reviewer's mark ('Put 1 if the reviewer has commented on ... statistical
significance', one column per review) taken for the paper's statistical test."""

from __future__ import annotations

from falseclaims.sheets import read_venue
from sheet_drafting import drafted as _drafted, write_rows as _write

_LEVELS = ["Ok", "Low", "Good", "Excellent"]


def test_a_paper_attribute_with_a_few_levels_is_never_the_paper_id(tmp_path):
    """An anonymised reproducibility survey (one row per paper, no id): 'Paper
    Readability' matched the id header word 'paper'; its four levels became 255 'papers'
    numbered 'Low (2)', 'Low (3)', ..."""
    rows = [["Reproduced", "Year", "Paper Readability", "Pages"]]
    rows += [["Yes" if i % 3 else "No", 1990 + i, _LEVELS[i % 4], 8 + i] for i in range(24)]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["wide"]["Paper Readability"] != "paper_id"
    assert block.get("id") != "{Paper Readability}"


def test_a_paper_attribute_guard_keeps_a_repeated_id_of_a_long_table(tmp_path):
    """The guard: an id header ('Reference (first author, year)') over few distinct cells
    is the id of a long table (one row per method), not an attribute of the paper."""
    rows = [["Reference (first author, year)", "Method", "Dice", "Split", "n_test"]]
    for p in range(4):
        rows += [[f"S{p}", m, 0.8 + k / 100, "train/test", 40] for k, m in
                 enumerate(["ours", "unet", "vnet", "attn"])]
    _, block = _drafted(_write(tmp_path, rows))
    assert block["columns"]["papers"]["Reference (first author, year)"] == "paper_id"
    assert len(read_venue(dict(block), base_dir=".", venue="v").papers) == 4


def test_a_count_of_figures_or_tables_is_no_test_set_size(tmp_path):
    """'Conceptualization Figures' (0, 3, 4, 12, ...) was drafted as n_test: 198 of 255
    papers refused for 'a test set of at least 2 cases'."""
    rows = [["Study", "Conceptualization Figures", "Number of Tables", "Accuracy",
             "Best prior accuracy"]]
    rows += [[f"S{i}", [0, 3, 4, 12, 1, 15][i], [2, 0, 11, 1, 3, 5][i], 0.9, 0.88]
             for i in range(6)]
    _, block = _drafted(_write(tmp_path, rows))
    wide = block["columns"]["wide"]
    assert wide["Conceptualization Figures"] == "ignore"
    assert "n_test" not in wide.values()


def test_a_reviewers_mark_is_not_the_papers_statistical_test(tmp_path):
    """A rating sheet of the reviews of each paper: 'Put 1 if the reviewer has commented
    on ... error bars or statistical significance' was drafted as the paper's
    statistical_test; 'sheet check' passed with the share of reviews that mention error
    bars standing for the share of papers that test their claim."""
    rows = [["Paper ID", "Put 1 if the reviewer has commented on error bars or "
             "statistical significance", "Code link"]]
    rows += [[f"{i:03d}-Paper{i}", i % 2, f"https://example.org/{i}"] for i in range(10)]
    _, block = _drafted(_write(tmp_path, rows))
    assert "statistical_test" not in block["columns"]["wide"].values()


def test_one_name_on_a_column_per_review_gives_no_paper_role(tmp_path):
    """The same header on three columns (one block per review): none of them is the
    paper's statistical test; which is the paper's is the user's to say."""
    name = "Error bars or statistical significance"
    rows = [["Paper ID", "Code", name, "Code", name, "Code", name]]
    rows += [[f"P{i}", 1, i % 2, 0, (i + 1) % 2, 1, 0] for i in range(10)]
    _, block = _drafted(_write(tmp_path, rows))
    assert "statistical_test" not in block["columns"]["wide"].values()
    s = read_venue(dict(block), base_dir=".", venue="v")
    assert len(s.papers) == 10
