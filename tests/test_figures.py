"""The data behind each survey figure and table, checked against direct counts, hand
arithmetic, falseclaims.stats and the planner. Small inputs: the whole file runs in seconds."""

import figure_fixtures as fx
import matplotlib
import numpy as np
import pandas as pd
import pytest

from falseclaims import figures, stats, style
from falseclaims.claims import plan as planner
from falseclaims.config import source_label
from falseclaims.figures.lookup import band
from falseclaims.figures.output import write_figure
from falseclaims.survey.headline import Headline
from falseclaims.survey.populations import metric_frequency

matplotlib.use("Agg")
HEAD = Headline("paper", "median", "msd_reference", "mean")
CONG = fx.CONGRUENCE["paper"]


@pytest.fixture(scope="module")
def survey():
    t2 = fx.top2(n=(6, 8))
    prob = fx.probabilities(t2, sources=("paper", "msd"), sd_sources=("msd_reference", "other"))
    return {"papers": fx.papers(n=(12, 15)), "top2": t2, "prob": prob,
            "curves": fx.curves(prob, np.linspace(0, 0.5, 11))}


def _papers(rows):
    base = {"venue": "v", "title": "", "in_scope": True, "claims_outperformance": True,
            "bold_best": True, "statistical_test": False, "values_only_in_figures": False,
            "split": "train_test", "cv_folds": pd.NA, "n_train": 10, "n_val": pd.NA,
            "n_test": 5, "uncertainty": "none", "metrics_reported": "accuracy"}
    df = pd.DataFrame([base | r for r in rows])
    for c in ("cv_folds", "n_train", "n_val", "n_test"):
        df[c] = df[c].astype("Int64")
    return df


def test_fig5_shares_equal_a_direct_count(survey):
    fig, data = figures.fig5_exceedance(survey["curves"], HEAD)
    prob = survey["prob"]
    for (task, src, lvl), g in data.groupby(["task", "congruence_source", "congruence_level"]):
        p = prob[(prob.task == task) & (prob.congruence_source == src)
                 & (prob.congruence_level == lvl)]
        if task == "segmentation":  # headline SD only
            p = p[(p.sd_source == "msd_reference") & (p.sd_level == "mean")]
        for _, r in g.iterrows():
            assert r["share_above"] == pytest.approx((p.probability > r["cutoff"]).mean())
    # the paper's Fig 5: its own congruence only, 3 curves (Q1, median, Q3) per task panel
    assert [len(ax.lines) - 1 for ax in fig.axes] == [3, 3]  # minus the threshold line
    assert set(data["congruence_source"]) == {"paper"}
    assert set(data["sd_level"]) == {"none", "mean"}
    paper = matplotlib.colors.to_hex(style.SOURCE_COLOURS["paper"])
    for ax in fig.axes:
        curves = ax.lines[:-1]
        assert {matplotlib.colors.to_hex(ln.get_color()) for ln in curves} == {paper}
        # solid median, dotted Q1 and dashed Q3 (custom dash patterns)
        assert sorted(ln.get_linestyle() for ln in curves) == ["-", "--", "--"]
    assert set(data["congruence_level"]) == {"q1", "median", "q3"}


def test_congruence_sources_companion_has_every_source_level_in_its_colour(survey):
    fig, data = figures.fig5_congruence_sources(survey["curves"], survey["prob"], HEAD)
    assert len(fig.axes) == 6  # 2 tasks x 3 levels
    want = {s: matplotlib.colors.to_hex(c)
            for s, c in style.source_colours(["paper", "msd"]).items()}
    assert want["paper"] == style.SOURCE_COLOURS["paper"].lower()
    assert want["msd"] == style.SOURCE_COLOURS["msd"].lower()
    for ax in fig.axes:
        curves = [ln for ln in ax.lines if len(ln.get_xdata()) > 2]  # not the threshold
        assert sorted(matplotlib.colors.to_hex(ln.get_color()) for ln in curves) == \
            sorted(want.values())  # one line per source in each (task, level) panel
    assert set(data.groupby(["task", "congruence_level"])["congruence_source"].nunique()) \
        == {2}
    # clamping counts: a direct count of the classification rows
    prob = survey["prob"]
    for (src, lvl), g in data[data.task == "classification"].groupby(
            ["congruence_source", "congruence_level"]):
        p = prob[(prob.task == "classification") & (prob.congruence_source == src)
                 & (prob.congruence_level == lvl)]
        assert g["n_clamped"].iloc[0] == int(p["congruence_clamped"].sum())
        upper = p["congruence_clamped"] & (p["congruence_used"]
                                           == np.minimum(p["value_a"], p["value_b"]))
        assert g["n_clamped_upper"].iloc[0] == int(upper.sum())
    assert (data.loc[data.task == "segmentation", "n_clamped"] == 0).all()
    # the legend names each source with its share clamped
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    share = data[data.task == "classification"].groupby("congruence_source")["share_clamped"]
    for src in ("paper", "msd"):
        lo, hi = 100 * share.get_group(src).min(), 100 * share.get_group(src).max()
        # named in words, as every legend names sources (config.source_label: "MSD")
        entry = next(t for t in labels if t.startswith(f"{source_label(src)}:"))
        assert f"{lo:.0f}" in entry and f"{hi:.0f}%" in entry and "clamped" in entry


def test_sklearn_clamped_to_min_a_b_is_named_in_the_legend():
    t2 = fx.top2(n=(10, 0))
    prob = fx.probabilities(t2, sources=("paper",))
    # a source whose congruence exceeds every runner-up accuracy: always min(A, B)
    sk = prob.assign(congruence_source="sklearn", congruence_assumed=0.999,
                     congruence_used=np.minimum(prob.value_a, prob.value_b),
                     congruence_clamped=True)
    both = pd.concat([prob, sk], ignore_index=True)
    fig, data = figures.fig5_congruence_sources(fx.curves(both, [0, 0.1, 0.5]), both, HEAD)
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    assert "sklearn: clamped for 100%, mostly to min(A, B)" in labels
    assert (data.loc[data.congruence_source == "sklearn", "share_clamped"] == 1).all()


def test_figS10_headline_model_at_three_levels_and_the_others_at_their_mean(survey):
    """Fig S10 is the paper's one panel (headline SD model at Q1 / mean / Q3); the other
    SD models at their mean are its companion, figS10_sd_models."""
    fig, a = figures.figS10_sd_sensitivity(survey["curves"], HEAD)
    comp, b = figures.figS10_sd_models(survey["curves"], HEAD)
    for data in (a, b):
        assert set(data["task"]) == {"segmentation"}
        assert set(data["congruence_level"]) == {"median"}
    assert set(a["sd_source"]) == {"msd_reference"} and set(a["sd_level"]) == {"q1", "mean", "q3"}
    assert set(b["sd_source"]) == {"msd_reference", "other"} and set(b["sd_level"]) == {"mean"}
    assert len(fig.axes) == 1 and len(comp.axes) == 1
    for f, part, k in ((fig, a, 3), (comp, b, 2)):
        ax = f.axes[0]
        assert len(ax.lines) - 1 == k  # minus the threshold line
        # each line is one (source, level) of the curves
        drawn = sorted(tuple(np.round(line.get_ydata(), 9)) for line in ax.lines[:-1])
        want = sorted(tuple(np.round(100 * g.sort_values("cutoff")["share_above"].to_numpy(), 9))
                      for _, g in part.groupby(["sd_source", "sd_level"]))
        assert drawn == want
    # the same rows as the curves table: nothing recomputed
    src = survey["curves"]
    row = b[(b.sd_source == "other")].iloc[3]
    orig = src[(src.task == "segmentation") & (src.congruence_source == "paper")
               & (src.congruence_level == "median") & (src.sd_source == "other")
               & (src.sd_level == "mean") & (src.cutoff == row["cutoff"])]
    assert orig["share_above"].item() == pytest.approx(row["share_above"])


def test_fig4_uses_headline_rows_and_threshold(survey):
    _, data = figures.fig4_delta_vs_size(survey["prob"], HEAD, cutoff=0.05)
    assert len(data) == len(survey["top2"])  # one row per paper
    assert (data["above_threshold"] == (data["probability"] > 0.05)).all()
    assert set(data["congruence_level"]) == {"median"}


def test_venue_comparison_table_and_figure(survey):
    other = fx.probabilities(fx.top2("w", n=(3, 4), seed=3), sources=("paper",))
    summaries = {"v1": fx.curves(survey["prob"], [0.05, 0.3]), "w": fx.curves(other, [0.05, 0.3])}
    table = figures.venue_comparison(summaries, HEAD, {"v1": "V one"})
    row = table[(table.venue == "w") & (table.task == "classification")].iloc[0]
    p = other[(other.task == "classification") & (other.congruence_level == "median")]
    assert row["n_papers"] == 3
    assert row["share_above_0.3"] == pytest.approx((p.probability > 0.3).mean())
    tex = figures.venue_comparison_latex(table, HEAD)
    assert r"\begin{tabular}" in tex and "V one" in tex
    _, data = figures.fig5_venues({"v1": survey["curves"],
                                   "w": fx.curves(other, np.linspace(0, 0.5, 11))}, HEAD)
    assert set(data["venue_label"]) == {"v1", "w"}


def test_figS8_cross_validation_arithmetic():
    papers = _papers([
        {"paper_id": "a", "task": "classification", "split": "cv_only", "cv_folds": 5,
         "n_train": 100, "n_test": pd.NA},
        {"paper_id": "b", "task": "classification", "split": "cv_plus_test", "cv_folds": 4,
         "n_train": 90, "n_val": 10, "n_test": 50},
        {"paper_id": "c", "task": "segmentation", "split": "train_val_test", "n_train": 30,
         "n_val": 5, "n_test": 7},
        {"paper_id": "d", "task": "segmentation", "split": "cv_only", "cv_folds": pd.NA},
    ])
    _, data = figures.figS8_split_sizes(papers)
    size = data.set_index(["paper_id", "set"])["size"]
    assert size[("a", "train")] == 80 and size[("a", "test")] == 20
    assert size[("b", "train")] == 75 and size[("b", "val")] == 25 and size[("b", "test")] == 50
    assert (size[("c", "train")], size[("c", "val")], size[("c", "test")]) == (30, 5, 7)
    d = data[data.paper_id == "d"]
    assert len(d) == 1 and d["size"].isna().all() and "fold count" in d["note"].iloc[0]


def test_tables_S1_S2_counts_and_latex():
    papers = _papers([
        {"paper_id": "1", "task": "classification", "metrics_reported": "accuracy;AUC"},
        {"paper_id": "2", "task": "classification", "metrics_reported": "Accuracy; f1;accuracy"},
        {"paper_id": "3", "task": "classification", "metrics_reported": pd.NA},
        {"paper_id": "4", "task": "classification", "metrics_reported": "auc",
         "values_only_in_figures": True},  # not in the quantitative population
        {"paper_id": "5", "task": "segmentation", "metrics_reported": "dsc;hd95"},
    ])
    freq = metric_frequency(papers, "quantitative", {"accuracy": "Accuracy"})
    cls = freq[freq.task == "classification"].set_index("label")
    assert cls.loc["Accuracy", "n_papers_reporting"] == 2
    assert cls.loc["auc", "n_papers_reporting"] == 1
    assert cls.loc["(none recorded)", "n_papers_reporting"] == 1
    assert (cls["n_papers"] == 3).all()
    assert cls.loc["Accuracy", "percent"] == 66.7
    tex = figures.metric_table_latex(freq, "classification", "V")
    assert r"Accuracy & 2 & 66.7 \\" in tex and "n = 3 papers" in tex
    all_papers = metric_frequency(papers, "in_scope")
    assert all_papers[(all_papers.task == "classification")
                      & (all_papers.metric == "auc")]["n_papers_reporting"].item() == 2


def test_fig3_and_figS7_counts():
    papers = _papers([
        {"paper_id": "1", "task": "classification", "bold_best": pd.NA, "uncertainty": "ci"},
        {"paper_id": "2", "task": "classification", "statistical_test": True},
        {"paper_id": "3", "task": "classification", "in_scope": False},
        {"paper_id": "4", "task": "segmentation", "uncertainty": pd.NA},
    ])
    papers["bold_best"] = papers["bold_best"].astype("boolean")
    _, d3 = figures.fig3_reporting_practices(papers)
    bold = d3[(d3.task == "classification") & (d3.practice == "bold_best")].iloc[0]
    assert (bold.n_papers, bold.n_yes, bold.n_no, bold.n_not_recorded) == (2, 1, 0, 1)
    test = d3[(d3.task == "classification") & (d3.practice == "statistical_test")].iloc[0]
    assert test.share_yes == 0.5
    _, d7 = figures.figS7_uncertainty(papers)
    c = d7[d7.task == "classification"].set_index("uncertainty")["n"]
    assert c["ci"] == 1 and c["none"] == 1
    assert d7[(d7.task == "segmentation")].set_index("uncertainty")["n"]["not_recorded"] == 1
    bad = papers.assign(uncertainty="sometimes")
    with pytest.raises(ValueError, match="sometimes"):
        figures.figS7_uncertainty(bad)


def test_figS7_small_share_is_not_shown_as_zero_percent():
    """1 of the 201 papers reporting uncertainty gives a CI: 0.5 %, so the label says "<1%",
    never "0%" next to a count of 1; the SD sum, 200 of 201, is ">99%", not "100%"."""
    rows = [{"paper_id": str(i), "task": "segmentation", "uncertainty": "sd_runs"}
            for i in range(200)] + [{"paper_id": "200", "task": "segmentation",
                                     "uncertainty": "ci"}]
    fig, _ = figures.figS7_uncertainty(_papers(rows))
    texts = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "<1% (1 of 201)" in texts and "0% (1 of 201)" not in texts
    assert ">99% (200 of 201)" in texts and "0% (0 of 201)" in texts


def test_figS9_summary_and_size_categories(survey):
    _, data = figures.figS9_delta_distribution(survey["top2"], (50, 500))
    t2 = survey["top2"]
    for task in ("classification", "segmentation"):
        assert data[data.task == task]["delta"].mean() == pytest.approx(
            t2[t2.task == task]["delta"].mean())
    cat = dict(zip(data["n_test"], data["size_category"]))
    for n, c in cat.items():
        assert c == ("< 50" if n < 50 else "50–499" if n < 500 else "≥ 500")


def test_flow_removed_counts_and_bad_order():
    _, data = figures.flow_diagram(fx.flow())
    cls = data[data.task == "classification"]
    assert cls["n_removed"].tolist() == [0, 7, 9, 41, 26, 7]
    bad = fx.flow()
    bad.loc[2, "n_papers"] = 500
    with pytest.raises(ValueError, match="more papers"):
        figures.flow_diagram(bad)


@pytest.mark.parametrize("task", ["classification", "segmentation"])
def test_fig6_cells_equal_stats_and_highlight_equals_planner(task):
    n_grid, d_grid, level = [20, 100, 1000], [0.01, 0.03], 0.85
    observed = (90.0, 0.012)
    fig, data = figures.fig6_lookup(task, n_grid, d_grid, level, CONG[task], fx.SD_MODEL,
                                    observed=observed)
    for _, r in data.iterrows():
        for lvl in ("q1", "median", "q3"):
            c = CONG[task][lvl]
            if task == "classification":
                p = stats.prob_false_claim_classification(r.n, level, level - r.delta, c)
            else:
                sa = fx.SD_MODEL.predict(level)[0]
                sb = fx.SD_MODEL.predict(level - r.delta)[0]
                p = stats.prob_false_claim_segmentation(r.n, level, level - r.delta, sa, sb, c)
            assert r[f"p_{lvl}"] == pytest.approx(float(p.probability), rel=1e-12, abs=1e-300)
        assert r["band"] == band(r["p_median"])
    obs = data[data.observed_cell]
    assert obs[["n", "delta"]].values.tolist() == [[100, 0.01]]
    plan = planner.smallest_n(task, 0.01, level, CONG[task]["median"], sd_model=fx.SD_MODEL)
    hl = data[data.planner_cell]
    assert hl[["n", "delta"]].values.tolist() == [[plan.n, 0.01]]
    assert plan.n in data["n"].values
    # orientation of the paper's Fig 6: sizes in columns (ascending left to right), deltas in
    # rows; the observed cell left of the planner's cell in the same row
    ax = fig.axes[0]
    cols = [t.get_text() for t in ax.get_xticklabels()]
    assert cols == [f"{n:,}" + ("\n= n*" if n == plan.n else "")
                    for n in sorted(data["n"].unique())]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["0.01", "0.03"]
    assert ax.xaxis.get_label().get_text() == "Test-set size n"
    assert sorted(data["n"].unique()).index(100) < sorted(data["n"].unique()).index(plan.n)
    # the level is written on the figure
    assert f"A = {level:g}" in ax.get_title(loc="left")


def test_fig6_marks_q1_equal_to_the_median_because_both_were_clamped():
    # A = 0.85: lower bound A + B - 1 = 0.7 - delta; at delta 0.01 the median 0.67 and Q1
    # 0.47 are both raised to 0.69 (same P); at delta 0.05 Q1 is raised to 0.65 and Q3 (0.83)
    # lowered to min(A, B) = 0.80, neither equal to the median
    level, cong = 0.85, CONG["classification"]
    fig, data = figures.fig6_lookup("classification", [100, 1000], [0.01, 0.05], level, cong)
    for _, r in data.iterrows():
        lo, hi = stats.classification_congruence_bounds(level, level - r.delta)
        for lvl in ("q1", "median", "q3"):
            used = min(max(cong[lvl], float(lo)), float(hi))
            assert r[f"congruence_used_{lvl}"] == pytest.approx(used)
            assert r[f"clamped_{lvl}"] == (used != cong[lvl])
    d = data.set_index(["n", "delta"])
    assert d.loc[(100, 0.01), "q1_equals_median_clamped"]
    assert d.loc[(100, 0.01), "p_q1"] == d.loc[(100, 0.01), "p_median"]
    assert not d.loc[(100, 0.05), "q1_equals_median_clamped"]
    assert not data["q3_equals_median_clamped"].any()
    texts = [t.get_text() for t in fig.axes[0].texts]
    assert sum("†" in t for t in texts) == int(data["q1_equals_median_clamped"].sum()) == 2
    note = fig.axes[1].texts[0].get_text().replace("\n", " ").replace("\u00a0", " ")
    assert "† Q1 (or Q3) congruence moved to the same bound as the median" in note
    assert "(2 of 4 cells)" in note and "Q1 in 4, median in 2, Q3 in 2 of 4 cells" in note


def test_fig6_without_observation_has_no_highlight():
    _, data = figures.fig6_lookup("classification", [50, 500], [0.02], 0.8,
                                  CONG["classification"])
    assert not data.observed_cell.any() and not data.planner_cell.any()
    assert len(data) == 2


def test_write_figure_writes_pdf_png_csv(tmp_path, survey):
    fig, data = figures.fig4_delta_vs_size(survey["prob"], HEAD)
    written = write_figure(fig, data, tmp_path / "fig4.png")
    assert sorted(p.suffix for p in written) == [".csv", ".pdf", ".png"]
    assert pd.read_csv(tmp_path / "fig4.csv").shape[0] == len(data)


def test_latex_escaping_is_single_pass():
    from falseclaims.figures.tables import _tex_escape
    assert _tex_escape(r"IoU_{a} & 5% \x") == r"IoU\_\{a\} \& 5\% \textbackslash{}x"


def _drawn_lines(colours):
    """A figure with one wide grey gradient and short lines in the given colours (few
    pixels each: the colours a plain median cut would merge away)."""
    from falseclaims import style
    fig, ax = style.figure("single")
    ax.imshow(np.linspace(0, 1, 200)[None, :], cmap="Greys", aspect="auto",
              extent=(0, 1, 0, 1))
    for i, c in enumerate(colours):
        ax.plot([0.1, 0.15], [0.1 + 0.08 * i] * 2, color=c, lw=1.5, solid_capstyle="butt")
    return fig


@pytest.fixture
def palette_png():
    """Palette PNGs for one test (the default is full colour)."""
    from falseclaims.style import configure, settings
    before = settings()
    configure({"png_palette": True})
    yield
    configure({"png_palette": before["png_palette"]})


def test_palette_png_keeps_every_named_colour_and_its_size(tmp_path, palette_png):
    from PIL import Image

    from falseclaims.figures.output import save_figure
    from falseclaims.style import PALETTE, settings
    colours = list(PALETTE.values())
    save_figure(_drawn_lines(colours), tmp_path / "lines", formats=["png"])
    with Image.open(tmp_path / "lines.png") as img:
        assert img.mode == "P"
        counts = sorted(img.convert("RGB").getcolors(10_000), reverse=True)
    used = {rgb for _, rgb in counts}
    hexes = {"#%02X%02X%02X" % rgb for rgb in used}
    assert counts[0][1] == (255, 255, 255)  # the background stays exactly white
    # each colour exactly, although a line is a few dozen pixels next to a 200-shade gradient
    assert set(c.upper() for c in colours) <= hexes
    assert len(used) <= settings()["png_colours"] + len(colours) + 2


def test_pdf_embeds_lean_truetype_subsets_with_the_original_outlines(tmp_path):
    import io
    import re
    import zlib

    from fontTools.ttLib import TTFont
    from matplotlib import font_manager

    from falseclaims.figures.output import save_figure
    from falseclaims.style import figure
    fig, ax = figure("single")
    ax.set_title("Abc 123")
    save_figure(fig, tmp_path / "t", formats=["pdf"])
    raw = (tmp_path / "t.pdf").read_bytes()
    fonts = []
    for m in re.finditer(rb"/Length1 \d+.*?stream\n(.*?)\nendstream", raw, re.S):
        fonts.append(TTFont(io.BytesIO(zlib.decompress(m.group(1)))))
    assert fonts, "no embedded TrueType font"
    ref = TTFont(font_manager.findfont("DejaVu Sans"))
    for font in fonts:
        assert {"glyf", "loca", "hmtx", "cmap", "head"} <= set(font.keys())
        assert not {"GSUB", "GPOS", "GDEF", "kern", "MATH"} & set(font.keys())
    sub = next(f for f in fonts if "A" in f.getGlyphOrder())
    # same outline and advance width as the font file
    assert sub["glyf"]["A"].coordinates == ref["glyf"]["A"].coordinates
    assert sub["hmtx"]["A"] == ref["hmtx"]["A"]


def test_palette_png_keeps_the_hue_of_translucent_markers(tmp_path, palette_png):
    """Markers drawn with the style's MARKER_ALPHA on white keep their own colour: blue and
    green markers blended with white are nearer to each other than to their own colours, and
    a palette of median-cut shades merged them into one teal."""
    from PIL import Image

    from falseclaims import style
    from falseclaims.figures.output import save_figure

    rng = np.random.default_rng(0)
    fig, ax = style.figure("single")
    ax.imshow(np.linspace(0, 1, 200)[None, :], cmap="Greys", aspect="auto",
              extent=(0, 1, 2, 3))  # many grey shades competing for the palette
    names = ["blue", "green", "skyblue", "orange"]
    for i, name in enumerate(names):
        ax.scatter(i + rng.uniform(-0.2, 0.2, 40), rng.uniform(0, 2, 40), s=6, lw=0,
                   color=style.PALETTE[name], alpha=style.MARKER_ALPHA)
    save_figure(fig, tmp_path / "dots", formats=["png"])
    with Image.open(tmp_path / "dots.png") as img:
        used = {rgb for _, rgb in img.convert("RGB").getcolors(10_000)}
    for name in names:
        rgb = [int(style.PALETTE[name][i:i + 2], 16) for i in (1, 3, 5)]
        on_white = tuple(round(style.MARKER_ALPHA * v + (1 - style.MARKER_ALPHA) * 255)
                         for v in rgb)
        assert on_white in used, name


def test_each_source_has_one_colour_in_every_figure(survey):
    """The colour of a congruence / SD source is style.SOURCE_COLOURS's, in the companion,
    the venue facets, Fig S10 and the estimation ECDF alike."""
    from falseclaims.figures import estimation

    def hexes(lines):
        return {matplotlib.colors.to_hex(ln.get_color()) for ln in lines
                if len(ln.get_xdata()) > 2}

    fixed = {s: style.SOURCE_COLOURS[s].lower() for s in ("paper", "msd", "msd_reference")}
    assert len(set(style.SOURCE_COLOURS[s] for s in
                   ("paper", "msd", "touchstone", "isic2018", "sklearn"))) == 5
    fig, _ = figures.fig5_venue_facets({"v1": survey["curves"]}, HEAD)
    assert set().union(*(hexes(ax.lines) for ax in fig.axes)) == {fixed["paper"], fixed["msd"]}
    fig, _ = figures.figS10_sd_sensitivity(survey["curves"], HEAD)
    comp, data = figures.figS10_sd_models(survey["curves"], HEAD)
    # the headline SD model is black (Fig S10, as the paper draws it); every other SD model
    # is drawn in its colour of every figure (the companion), a source without one in a
    # spare colour
    assert hexes(fig.axes[0].lines) == {"#000000"}
    others = [s for s in dict.fromkeys(data["sd_source"]) if s != HEAD.sd_source]
    assert others
    want = {c.lower() for c in style.source_colours(others).values()} | {"#000000"}
    assert hexes(comp.axes[0].lines) == want
    pairs = pd.DataFrame({"source": np.repeat(["sklearn", "msd"], 20),
                          "kind": "classification", "congruence": np.linspace(0.3, 0.9, 40)})
    fig, _ = estimation.plot_congruence_ecdf(pairs, None)
    assert hexes(fig.axes[0].lines) == {style.SOURCE_COLOURS["sklearn"].lower(), fixed["msd"]}
    # two MSD-derived models in one figure never share a colour
    two = style.source_colours(["msd_reference", "msd"])
    assert two["msd_reference"] == fixed["msd_reference"].upper() and two["msd"] != \
        two["msd_reference"]


def test_one_layout_pass_for_both_formats_and_the_pdf_text_fits_it(tmp_path, monkeypatch):
    """save_figure lays a figure out once (by the PNG's renderer) and the PDF reuses it: its
    text, measured by the PDF renderer, stays inside the figure, long tick labels included."""
    import io

    from matplotlib import layout_engine
    from matplotlib.backends.backend_pdf import PdfFile, RendererPdf

    from falseclaims.figures.output import save_figure
    from falseclaims.style import figure

    passes = []
    real = layout_engine.do_constrained_layout
    monkeypatch.setattr(layout_engine, "do_constrained_layout",
                        lambda *a, **k: passes.append(1) or real(*a, **k))
    fig, axes = figure("double", ncols=2)
    for ax in axes:
        ax.barh(["a rather long category name", "another long label, with more words"],
                [0.3, 0.7])
        ax.set_xlabel("% of papers")
    fig.suptitle("A title across both panels")
    width, height = fig.get_size_inches()
    save_figure(fig, tmp_path / "f", formats=["pdf", "png"])
    assert len(passes) == 1
    assert (tmp_path / "f.pdf").stat().st_size and (tmp_path / "f.png").stat().st_size
    fig.set_dpi(72)  # the PDF renderer measures text in points: the figure's units when saved
    box = fig.get_tightbbox(RendererPdf(PdfFile(io.BytesIO()), 72, height, width))
    assert box.x0 >= 0 and box.y0 >= 0 and box.x1 <= width and box.y1 <= height


def test_a_pdf_cut_from_the_prepared_font_subsets_is_the_same_pdf(tmp_path, monkeypatch):
    """The job server subsets the style's fonts once (pdf_fonts.prepare); a PDF whose glyphs
    are cut from those subsets has the same bytes as one cut from the font files, and a title
    with a glyph outside them (Cyrillic) is cut from the font file, again the same bytes."""
    from matplotlib.backends import _backend_pdf_ps

    from falseclaims.figures import pdf_fonts
    from falseclaims.figures.output import save_figure
    from falseclaims.style import figure

    def draw(name, extra=""):
        fig, ax = figure("single")
        ax.set_title("Fig 6: Δ ≥ 0.01, n = 1 024 (μ ± σ), ﬁt ◆" + extra, fontweight="bold")
        ax.set_xlabel("test-set size (log scale) → 10⁻⁶…10³")
        ax.plot([1, 2], [3, 4], label="Q1/median/Q3 – ‘quoted’ “text” — 5 %")
        ax.legend()
        save_figure(fig, tmp_path / name, formats=["pdf"])
        return (tmp_path / f"{name}.pdf").read_bytes()

    monkeypatch.setattr(pdf_fonts, "_prepared", {})
    direct, direct_cyrillic = draw("direct"), draw("direct_cyrillic", " Жж")
    pdf_fonts.prepare(pdf_fonts.style_fonts())
    assert len(pdf_fonts._prepared) == 2
    cut = []
    original = _backend_pdf_ps.get_glyphs_subset
    monkeypatch.setattr(_backend_pdf_ps, "get_glyphs_subset",
                        lambda f, g: cut.append(type(f).__name__) or original(f, g))
    assert draw("prepared") == direct
    assert cut and set(cut) == {"_PreparedFontFile"}
    cut.clear()
    assert draw("prepared_cyrillic", " Жж") == direct_cyrillic
    assert "FontPath" in cut  # the bold title's font: from the font file
