"""End to end: the full default pipeline on the shipped example, in a temporary copy."""

import re
import shutil
import subprocess
import sys

import pandas as pd
import pytest
import yaml

from falseclaims.figures.registry import FIGURES
from falseclaims.stats import prob_false_claim_classification
from falseclaims.survey.probabilities import join_inputs

pytestmark = pytest.mark.pipeline


@pytest.fixture(scope="module")
def run(example_run):
    """The example, run once for the session (conftest.py)."""
    return example_run


def test_console_is_short_and_ends_with_where_to_look(run):
    """A clean run prints under 100 lines, none of them a dict repr, a shell-command
    placeholder or a wall of text, and its last line names the headline and the report."""
    lines = (run / "console.txt").read_text().splitlines()
    assert len(lines) < 100, "\n".join(lines)
    assert not [line for line in lines if len(line) > 400 or "Shell command" in line
                or "{'" in line]
    assert "summary.csv" in lines[-1] and "snakemake --report report.html" in lines[-1]
    # the headline itself, per venue and task, above that line
    head = next(i for i, line in enumerate(lines) if line.startswith("Headline: "))
    assert all(" papers): > 5%: " in line or "design-only: " in line
               for line in lines[head + 1:-1]), lines[head:]


def test_every_paper_is_eligible_or_excluded(run):
    venue = run / "results" / "miccai2023_synthetic"
    papers = pd.read_csv(venue / "validated" / "papers.csv")
    eligible = pd.read_csv(venue / "eligible.csv")
    excl = pd.read_csv(venue / "exclusions.csv")
    assert len(eligible) + len(excl) == len(papers)
    assert set(eligible.paper_id).isdisjoint(excl.paper_id)
    # the synthetic example exercises every eligibility branch
    assert {"out_of_scope", "values_only_in_figures", "no_distinct_test_set",
            "fewer_than_two_methods", "missing_test_size"} <= set(excl.reason)
    flow = pd.read_csv(venue / "flow.csv")
    last = flow[flow.step == "test_size"].set_index("task")["n_papers"]
    assert last.to_dict() == eligible.task.value_counts().to_dict()


def test_probabilities_recomputed_independently(run):
    venue = run / "results" / "miccai2023_synthetic"
    top2 = pd.read_csv(venue / "top2.csv")
    probs = join_inputs(pd.read_csv(venue / "probabilities.csv"), top2,
                        pd.read_csv(venue / "congruence.csv"),
                        pd.read_csv(venue / "sd_imputed.csv"))
    assert set(probs.paper_id) == set(top2.paper_id)
    assert probs.probability.between(0, 0.5).all()
    cls = probs[(probs.task == "classification") & (probs.congruence_source == "paper")]
    again = prob_false_claim_classification(cls.n_test, cls.value_a, cls.value_b,
                                            cls.congruence_assumed).probability
    assert again == pytest.approx(cls.probability.to_numpy(), rel=1e-8)


def test_summary_matches_direct_count(run):
    venue = run / "results" / "miccai2023_synthetic"
    probs = pd.read_csv(venue / "probabilities.csv")
    summ = pd.read_csv(venue / "summary.csv")
    head = summ[(summ.congruence_source == "paper") & (summ.congruence_level == "median")
                & summ.sd_level.isin(["mean", "none"]) & (summ.cutoff == 0.05)]
    for _, row in head.iterrows():
        sel = probs[(probs.task == row.task) & (probs.congruence_source == "paper")
                    & (probs.congruence_level == "median")
                    & (probs.sd_source == row.sd_source) & (probs.sd_level == row.sd_level)]
        assert row.n_papers == len(sel)
        assert row.share_above == pytest.approx((sel.probability > 0.05).mean())


def test_headline_shares_resemble_the_paper(run):
    """The synthetic survey is drawn from [Christodoulou2025]'s marginals: 86% of classification and
    53% of segmentation papers above 5% at median congruence. A synthetic sample of this
    size lands within a broad band of those values."""
    summ = pd.read_csv(run / "results" / "miccai2023_synthetic" / "summary.csv")
    head = summ[(summ.congruence_source == "paper") & (summ.congruence_level == "median")
                & summ.sd_level.isin(["mean", "none"]) & (summ.cutoff == 0.05)
                & summ.sd_source.isin(["msd_reference", "none"])].set_index("task")
    assert head.loc["classification", "share_above"] == pytest.approx(0.86, abs=0.15)
    assert head.loc["segmentation", "share_above"] == pytest.approx(0.53, abs=0.15)


def _planned(work, *args) -> dict[str, int]:
    """{rule: jobs} of a dry run (the job blocks, which the default profile hides)."""
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--quiet", "progress",
                           *args], cwd=work, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-4000:]
    rules = re.findall(r"^(?:local)?rule (\w+):$", proc.stdout + proc.stderr, re.M)
    return {r: rules.count(r) for r in set(rules)}


@pytest.mark.parametrize("edit, family", [
    ("figures:\n  size_categories: [60, 600]\n", "venue_figures_deltas"),
    ("lookup_grid:\n  bands: [0.05, 0.2]\n", "venue_figures_lookup"),
])
def test_editing_a_figure_parameter_reruns_only_its_family(run, tmp_path, edit, family):
    """A venue's figures are drawn by one job per family, each with only its parameters:
    after a complete run, editing a parameter of one family plans that family's job of each
    venue and no other figure job."""
    assert _planned(run) == {}
    edited = tmp_path / "edit.yaml"
    edited.write_text(edit, encoding="utf-8")
    planned = _planned(run, "--configfile", str(edited))
    venues = len(yaml.safe_load((run / "config" / "config.yaml").read_text())["venues"])
    figure_jobs = {f.job for f in FIGURES}  # other steps may read the same key (numbers)
    assert {r: n for r, n in planned.items() if r in figure_jobs} == {family: venues}


def test_messy_venue_every_row_accounted_for(run):
    """Venue C runs untouched: skipped rows noted with a reason, bad cells excluded."""
    venue = run / "results" / "venue_c_synthetic"
    notes = pd.read_csv(venue / "validated" / "notes.csv", dtype=str, keep_default_na=False)
    skipped = notes[notes["note"].str.contains("skipped")]
    for reason in ("repeated header row skipped", "formula row skipped",
                   "skipped by skip_rows_where", "empty row skipped"):
        assert skipped["note"].str.contains(reason, regex=False).any(), reason
    assert (skipped["row"] != "").all()
    papers = pd.read_csv(venue / "validated" / "papers.csv", dtype=str, keep_default_na=False)
    eligible = pd.read_csv(venue / "eligible.csv", dtype=str, keep_default_na=False)
    excl = pd.read_csv(venue / "exclusions.csv", dtype=str, keep_default_na=False)
    assert len(eligible) + len(excl) == len(papers)
    bad = excl[excl["reason"] == "invalid_cell"]
    assert len(bad) == 3
    for detail in bad["detail"]:  # file, row, column, value and the expected form
        assert "venue_c_synthetic_messy.xlsx, sheet 'survey', row " in detail
        assert ", column '" in detail and "got '" in detail and "expected" in detail
    flow = pd.read_csv(venue / "flow.csv")
    removed = (flow[flow.step == "found"].set_index("task")["n_papers"]
               - flow[flow.step == "valid_cells"].set_index("task")["n_papers"])
    assert removed.sum() == 3


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
# appended to a copy of the report: after it has rendered, collect the text of every text
# node inside the first 1400 x 1000 screen into <pre id="first-screen">
FIRST_SCREEN = """<script>window.addEventListener("load", () => setTimeout(() => {
  const seen = [], walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const range = document.createRange();
    range.selectNodeContents(walk.currentNode);
    const b = range.getBoundingClientRect(), text = walk.currentNode.textContent.trim();
    if (text && b.width > 0 && b.bottom > 0 && b.top < innerHeight && b.left < innerWidth)
      seen.push(text);
  }
  const pre = document.createElement("pre");
  pre.id = "first-screen";
  pre.textContent = seen.join("\\n");
  document.body.appendChild(pre);
}, 500));</script>"""


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed (.ci/run installs it)")
def test_report_front_page_shows_the_headline_numbers(run, tmp_path):
    """`snakemake --report` opened in headless Chromium: the first screen shows, for every
    venue and task, the share (count) above each cutoff of numbers.csv, and the paper's
    values beside the example's; categories are venue labels, not keys."""
    import html
    import re

    import yaml

    proc = subprocess.run([sys.executable, "-m", "snakemake", "--report", "report.html"],
                          cwd=run, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-4000:]
    page = tmp_path / "report.html"
    page.write_text((run / "report.html").read_text(encoding="utf-8") + FIRST_SCREEN,
                    encoding="utf-8")
    dom = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                          "--disable-dev-shm-usage", "--window-size=1400,1000",
                          "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
                         capture_output=True, text=True, timeout=180).stdout
    found = re.search(r'<pre id="first-screen">(.*?)</pre>', dom, re.S)
    assert found, dom[-2000:]
    screen = html.unescape(found.group(1))
    cfg = yaml.safe_load((run / "config" / "config.yaml").read_text(encoding="utf-8"))
    # a warning above the headline names the venue's key in the command it gives
    # (`sheet check --venue KEY`); everywhere else the venue is its label
    shown = re.sub(r"Implausible result:.*?(?=Share of analysed papers)", "", screen, flags=re.S)
    for venue, vcfg in cfg["venues"].items():
        assert vcfg["label"] in shown and venue not in shown
    numbers = pd.read_csv(run / "results" / "miccai2023_synthetic" / "numbers.csv")
    head = numbers[numbers.name.str.startswith("share_above_")]
    assert len(head) == 2 * len(cfg["analysis"]["cutoffs"])
    for r in head.itertuples():
        assert f"{100 * r.value:.0f}% ({round(r.value * r.n_population)})" in screen, r
    for r in head[head.paper_value.notna()].itertuples():  # the paper's 86% / 53% / 58% / 25%
        assert f"{100 * float(r.paper_value):.0f}%" in screen


def test_the_real_venue_has_its_headline_on_the_front_page(run):
    """The default run's real venue (data/real/dl-eeg-roy2019: a published review's papers
    and results tables) is on the front page with the headline of its 5 analysed papers,
    the ones tests/test_real_venue.py checks by hand, and its practice numbers are those
    counted by hand in the CSV (27 of the 154 papers recording it name a statistical test;
    tests/test_real_sheets.py)."""
    out = run / "results" / "dl_eeg_roy2019"
    numbers = pd.read_csv(out / "numbers.csv")
    numbers = numbers[numbers.task == "classification"].set_index("name")
    assert numbers.loc["papers_found", "value"] == 156
    assert numbers.loc["papers_analysed", "value"] == 5
    assert set(pd.read_csv(out / "eligible.csv").paper_id) == {
        "Chiarelli2018", "Lee2018", "Schirrmeister2017a", "Xu2016", "Zhang2017a"}
    stat = numbers.loc["share_statistical_test"]
    assert stat["value"] == pytest.approx(27 / 154) and stat["n_population"] == 154
    page = (run / "results" / "front_page.html").read_text(encoding="utf-8")
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    # the venue's one task row: its shares end where the next words begin (a one-task
    # venue has no segmentation row)
    row = re.search(r"DL-EEG review \(Roy et al\. 2019\), real sheet[^C]*Classification 5 "
                    r"(.*?)(?= [A-Za-z]|$)", text)
    assert row, text[:2000]
    for r in numbers[numbers.index.str.startswith("share_above_")].itertuples():
        assert f"{100 * r.value:.0f}% ({round(r.value * r.n_population)})" in row.group(1)
