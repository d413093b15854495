"""Study-design sheets (no result columns) run without a task: their papers are counted
under "task not recorded" in the practice outputs and the front page says "design-only".
Expected counts are those of the small sheet below, counted by hand."""

import pandas as pd
import pytest

from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.config import Eligibility
from falseclaims.survey.eligibility import select_papers
from falseclaims.survey.front_page import front_page_html
from falseclaims.survey.reporting import practices_data
from falseclaims.tasks import NOT_RECORDED

SHEET = """\
Study,Validation,Significance test,Metrics
A 2020,train/test,yes,accuracy
B 2021,10-fold CV,no,AUC
C 2021,,no,
D 2022,hold-out,yes,F1
"""
BLOCK = {
    "papers": "design.csv", "layout": "wide_top2", "units": "auto",
    "columns": {"wide": {"Study": "paper_id", "Significance test": "statistical_test",
                         "Metrics": "metrics_reported"}},
    "constants": {"in_scope": True, "values_only_in_figures": False},
}


@pytest.fixture
def sheet(tmp_path):
    (tmp_path / "design.csv").write_text(SHEET, encoding="utf-8")
    return tmp_path


def test_a_design_only_sheet_runs_without_a_task(sheet):
    s = read_venue(BLOCK, base_dir=sheet, venue="design")
    assert list(s.papers["paper_id"]) == ["A 2020", "B 2021", "C 2021", "D 2022"]
    assert s.papers["task"].isna().all() and s.results.empty
    said = s.notes.loc[s.notes["column"] == "task", "note"].str.cat()
    assert "a study-design sheet needs no task" in said and "task not recorded" in said


def test_a_sheet_with_results_still_needs_its_task(sheet):
    (sheet / "design.csv").write_text(SHEET.replace("Metrics\n", "Metrics,Ours,Prior\n")
                                      .replace("accuracy\n", "accuracy,0.9,0.8\n"),
                                      encoding="utf-8")
    block = {**BLOCK, "columns": {"wide": {**BLOCK["columns"]["wide"],
                                           "Ours": "value_proposed", "Prior": "value_best_prior"}},
             "constants": {**BLOCK["constants"], "metric": "accuracy"}}
    with pytest.raises(SheetValidationError, match="a column 'task' \\(required"):
        read_venue(block, base_dir=sheet, venue="design")


def test_practices_and_flow_count_the_papers_under_task_not_recorded(sheet):
    s = read_venue(BLOCK, base_dir=sheet, venue="design")
    d = practices_data(s.papers, "in_scope")
    row = d[(d["task"] == NOT_RECORDED) & (d["practice"] == "statistical_test")].iloc[0]
    assert (row["n_papers"], row["n_yes"], row["n_no"]) == (4, 2, 2)
    assert set(d["task"]) == {NOT_RECORDED}
    criteria = Eligibility(metrics={"classification": ("accuracy",), "segmentation": ("dsc",)},
                           test_set_splits=("train_test",))
    sel = select_papers(s.papers, s.results, criteria, "design")
    found = sel.flow[(sel.flow["step"] == "found")].set_index("task")["n_papers"]
    assert found.to_dict() == {NOT_RECORDED: 4}
    assert sel.eligible.empty and len(sel.exclusions) == 4


def test_the_log_digest_says_no_results_once(sheet):
    """The note that a sheet has no result columns is one of the venue's notes and the
    digest's own line: the console said it twice."""
    from falseclaims.sheets.read.digest import digest, digest_html
    from falseclaims.sheets.read.wide import NO_RESULTS

    s = read_venue(BLOCK, base_dir=sheet, venue="design")
    assert (s.notes["note"] == NO_RESULTS).any()
    assert digest("design", s.papers, s.results, s.notes).count(NO_RESULTS) == 1
    page = digest_html("design", "Design", s.papers, s.results, s.notes)
    assert page.count(NO_RESULTS.replace("'", "&#39;")) == 1


def test_the_front_page_says_design_only_with_the_number_of_papers():
    numbers = pd.DataFrame([
        {"venue": "design", "task": "", "name": "design_only", "description": "d",
         "value": 4, "unit": "papers", "population": "papers found", "n_population": 4,
         "low": None, "high": None, "range": "", "paper_value": "", "paper_source": ""}])
    page = front_page_html({"design": numbers}, {"design": "A <design> venue"}, [], "x")
    assert "design-only: 4 papers, no results recorded" in page
    assert "A &lt;design&gt; venue" in page


def test_venue_facets_of_venues_without_analysed_papers_say_so():
    """Several study-design venues in one run: the venue comparison draws a panel saying
    why it is empty instead of failing (seaborn cannot facet an empty table)."""
    from falseclaims.figures.exceedance import fig5_venue_facets
    from falseclaims.survey.headline import Headline

    empty = pd.DataFrame(columns=["venue", "task", "congruence_source", "congruence_level",
                                  "sd_source", "sd_level", "cutoff", "n_papers", "n_above",
                                  "share_above"])
    fig, data = fig5_venue_facets({"a": empty, "b": empty},
                                  Headline("paper", "median", "msd_reference", "mean"),
                                  {"a": "Venue A", "b": "Venue B"})
    assert data.empty
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert texts == ["no analysed papers in any venue (Venue A, Venue B)"]


def _curves(venue: str) -> pd.DataFrame:
    cutoffs = [0.0, 0.05, 0.1, 0.5]
    return pd.DataFrame([
        {"venue": venue, "task": task, "congruence_source": "paper",
         "congruence_level": "median", "sd_source": sd, "sd_level": sd_level, "cutoff": c,
         "n_papers": 4, "n_above": 2, "share_above": 0.5}
        for task, sd, sd_level in (("classification", "none", "none"),
                                   ("segmentation", "msd_reference", "mean"))
        for c in cutoffs])


def test_an_empty_venue_facet_says_why_inside_its_frame():
    """A design-only venue beside one with results: its facets say "design-only: no results
    recorded", those of a venue without eligible papers "no eligible papers", and the words
    stay inside the facet (one line ran into the next column)."""
    from falseclaims.figures.exceedance import fig5_venue_facets
    from falseclaims.style import NO_DATA
    from falseclaims.survey.eligibility import DESIGN_ONLY_NOTE
    from falseclaims.survey.headline import Headline

    full = _curves("a")
    empty = full.iloc[0:0]
    fig, _ = fig5_venue_facets({"a": full, "b": empty, "c": full, "d": empty},
                               Headline("paper", "median", "msd_reference", "mean"),
                               {"a": "A", "b": "B", "c": "C", "d": "D"}, design_only=["d"])
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    said = {}
    for ax in fig.axes:
        for t in ax.texts:
            said.setdefault(t.get_text().replace("\n", " "), []).append((ax, t))
    assert len(said[NO_DATA]) == 2 and len(said[DESIGN_ONLY_NOTE]) == 2  # per task
    for ax, t in said[NO_DATA] + said[DESIGN_ONLY_NOTE]:
        box, frame = t.get_window_extent(renderer), ax.get_window_extent(renderer)
        assert frame.x0 <= box.x0 and box.x1 <= frame.x1, t.get_text()
    # only design-only venues: one panel saying so
    fig, data = fig5_venue_facets({"d": empty, "e": empty},
                                  Headline("paper", "median", "msd_reference", "mean"),
                                  {"d": "D", "e": "E"}, design_only=["d", "e"])
    assert [t.get_text() for ax in fig.axes for t in ax.texts] == [
        f"{DESIGN_ONLY_NOTE} (D, E)"] and data.empty


def test_the_headline_curve_per_venue_names_design_only_venues():
    """Fig 5 per venue: a design-only venue has no curve; it is named once under the title
    "design-only: no results recorded"; with design-only venues only, each panel says so."""
    from falseclaims.figures.exceedance import fig5_venues
    from falseclaims.style import NO_DATA
    from falseclaims.survey.eligibility import DESIGN_ONLY_NOTE
    from falseclaims.survey.headline import Headline

    head = Headline("paper", "median", "msd_reference", "mean")
    empty = _curves("a").iloc[0:0]
    fig, data = fig5_venues({"a": _curves("a"), "d": empty}, head, {"d": "Design D"},
                            design_only=["d"])
    texts = [t.get_text() for t in fig.texts] + [t.get_text() for ax in fig.axes
                                                 for t in ax.texts]
    assert f"{DESIGN_ONLY_NOTE}: Design D" in texts and NO_DATA not in texts
    assert set(data["venue_label"]) == {"a"}
    # the one venue with curves is named (a single venue's legend was left out)
    # (its entry followed by its analysed papers per task, "(n / n)")
    assert any(t.get_text().startswith("a (") for t in fig.legends[0].texts)
    fig, _ = fig5_venues({"d": empty}, head, design_only=["d"])
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert texts.count(DESIGN_ONLY_NOTE) == 2 and NO_DATA not in texts
    fig, _ = fig5_venues({"b": empty}, head)  # no eligible paper, not design-only
    assert [t.get_text() for ax in fig.axes for t in ax.texts].count(NO_DATA) == 2
