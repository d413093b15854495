"""One voice in the figures and the front page (round voice2).

Was: Fig 5's congruence-sources companion named its sources by their config keys ("msd")
and the estimation SD figure said "config msd_reference", where the front page and the
other legends say "MSD reference" (config.source_label); the numbers table described the
test set needed as "P(false claim) <= target at the multiplier delta" (internal words, no
values); the grey range under the median test-set size said nowhere what it spans; the ties
figure wrote its cutoff "P ≥ 0.05" where every other output writes "5%"; the venue
comparison's legend gave no number of papers behind each venue's curves."""

import json
import re
from dataclasses import replace
from html import unescape

import figure_fixtures as fx
import matplotlib
import numpy as np
import pandas as pd
import pytest
from test_fidelity_round35 import _numbers
from test_figures_companion import _sd_inputs
from test_numbers import CFG
from test_report_captions import CONFIG, ROOT, _render

from falseclaims import figures
from falseclaims.cli import main
from falseclaims.config import source_label
from falseclaims.figures import estimation as ef
from falseclaims.figures.table import ranked_intervals, ties_figure
from falseclaims.survey.front_page import front_page_html
from falseclaims.survey.headline import Headline

matplotlib.use("Agg")
HEAD = Headline("paper", "median", "msd_reference", "mean")


def _texts(fig) -> list[str]:
    return [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]


# ---------------------------------------------------------------- P1: sources in words
def test_congruence_sources_legend_names_sources_as_the_rest_does():
    prob = fx.probabilities(fx.top2(n=(6, 8)), sources=("paper", "msd"))
    fig, _ = figures.fig5_congruence_sources(fx.curves(prob, np.linspace(0, 0.5, 11)),
                                             prob, HEAD)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert [s.split(":")[0] for s in labels] == ["paper", source_label("msd")] == [
        "paper", "MSD"], labels


def test_estimation_sd_figure_names_the_config_models_in_words():
    pairs, _, model = _sd_inputs()
    ref = replace(model, source="msd_reference")
    fig, _ = ef.plot_sd_models(pairs, {"msd": model, "touchstone": model}, reference=ref,
                               compare={"msd_ols": replace(model, source="msd_ols")})
    joined = " ".join(_texts(fig))
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert any(t.startswith("config's MSD reference (") for t in legend), legend
    assert any(t.startswith("config's MSD ols (") for t in legend), legend
    assert "msd_reference" not in joined and "msd_ols" not in joined
    assert [ax.get_title().split(":")[0] for ax in fig.axes if ax.get_title()] == [
        "MSD", "touchstone"]


def test_estimation_sd_caption_names_the_models_as_its_figure():
    text = _render(ROOT / "workflow/report/estimation_sd_models.rst", CONFIG)
    ref = CONFIG["estimation"]["figures"]["sd_reference"]
    assert f'"{source_label(ref)}"' in text
    for key in [ref, *CONFIG["estimation"]["figures"].get("sd_compare", [])]:
        assert key not in text, key


# ---------------------------------------------------------------- P3, P4: the numbers table
def _front_rows(numbers: pd.DataFrame) -> dict[str, str]:
    """The front page's numbers table as {description: the row's text}."""
    html = front_page_html({"v": numbers}, {"v": "V"}, ["v"], "median congruence")
    table = html.split('<table class="fc">')[2].split("</table>")[0]
    rows = [" ".join(unescape(re.sub(r"<[^>]+>", " ", r)).split())
            for r in table.split("<tr>")[2:]]
    out = {}
    for d in numbers["description"].drop_duplicates():
        out[d] = next(r for r in rows if r.startswith(d))
    return out


@pytest.mark.parametrize("target, delta, words", [
    (0.05, 0.01, "≤ 5% at Δ = 0.01"), (0.1, 0.02, "≤ 10% at Δ = 0.02")])
def test_test_set_needed_is_described_with_the_configs_values(target, delta, words):
    cfg = CFG | {"planner": CFG["planner"] | {"target": target},
                 "lookup_grid": CFG["lookup_grid"] | {"multiplier_delta": delta}}
    d = _numbers(cfg)
    needed = d[d["name"] == "n_needed"]
    assert set(needed["description"]) == {f"smallest test set with P(false claim) {words}"}
    assert needed["population"].str.startswith(f"Δ = {delta:g}, ").all()
    assert needed["population"].str.endswith(f"target {100 * target:g}%").all()
    page = " ".join(_front_rows(d))
    for internal in ("<=", "multiplier delta", "target at"):
        assert internal not in page, internal


def test_grey_range_under_the_median_test_set_size_says_what_it_is():
    d = _numbers(CFG)
    share = d[d["name"] == "share_above_0.05"]  # a second cutoff, the same range
    d = pd.concat([d, share.assign(name="share_above_0.1", description="P(false claim) > 10%")],
                  ignore_index=True)
    rows = _front_rows(d)
    median = rows["median test-set size"]
    # classification sizes 40, 100, 70, 250, 900, 5, 3000 of the papers with a test split
    assert re.search(r"\d+–\d[\d,]*", median), median
    assert "grey: smallest and largest size" in median, median
    # the headline shares' grey range says once what it spans, then refers to it
    shares = [r for k, r in rows.items() if k.startswith("P(false claim) >")]
    assert len(shares) == 2
    assert "grey: one factor at a time" in shares[0] and "grey: range as above" in shares[1]
    # numbers without a range get no grey note
    assert "grey" not in rows["papers found"]


# ---------------------------------------------------------------- P6: one form of the cutoff
def test_ties_figure_writes_the_cutoff_as_a_percent():
    ties = pd.DataFrame({"venue": "v", "paper_id": ["a", "b"], "task": "classification",
                         "n_tied": [1, 2], "cutoff": 0.05})
    fig, _ = ties_figure(ties, "A venue")
    label = fig.axes[0].get_xlabel()
    assert "(P ≥ 5%)" in label and "0.05" not in label, label


def test_ranked_intervals_write_the_cutoff_as_a_percent(tmp_path, capsys):
    path = tmp_path / "t.md"
    path.write_text("| Method | Dice |\n|---|---|\n| A | 0.86 |\n| B | 0.85 |\n| C | 0.80 |\n",
                    encoding="utf-8")
    assert main(["table", str(path), "--n", "50", "--json"]) in (0, 1)
    metric = json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"][0]
    fig, _ = ranked_intervals(metric)
    label = fig.axes[0].get_xlabel()
    assert f"(P ≥ {100 * metric['cutoff']:g}%)" in label and "0.05)" not in label, label


# ---------------------------------------------------------------- P5: papers per venue
def test_venue_comparison_legend_gives_the_papers_per_venue_and_task():
    one = fx.curves(fx.probabilities(fx.top2(n=(6, 8)), sources=("paper",)),
                    np.linspace(0, 0.5, 11))
    two = fx.curves(fx.probabilities(fx.top2(n=(3, 0), seed=2), sources=("paper",)),
                    np.linspace(0, 0.5, 11))
    n_one = one.groupby("task")["n_papers"].max()
    fig, _ = figures.fig5_venues({"v": one, "w": two}, HEAD, {"v": "Venue V", "w": "Venue W"})
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert f"Venue V ({n_one['classification']} / {n_one['segmentation']})" in legend, legend
    n_two = two.groupby("task")["n_papers"].max()
    assert f"Venue W ({n_two['classification']} / –)" in legend, legend
    assert "venue (analysed papers, a / b):" in legend
