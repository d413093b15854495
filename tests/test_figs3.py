"""Round 41 (figs3): Fig 6 coloured by the paper's band rule and in colours that print in
gray and read for colour-blind readers, Fig S10 naming SD models in words, and every figure
job rerun when its drawing code changes."""

import os
import re
import subprocess
import sys
from pathlib import Path

import figure_fixtures as fx
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from matplotlib.patches import Rectangle

from falseclaims import figures, stats
from falseclaims.figures.lookup import BAND_RULES, band, lookup_data
from falseclaims.figures.registry import FIGURES, VENUE_JOBS
from falseclaims.survey.headline import Headline
from falseclaims.style import BAND_COLOURS, HIGHLIGHT

CONG = fx.CONGRUENCE["paper"]["classification"]


# ---------------------------------------------------------------- P1: the paper's band rule
def test_band_edges_follow_the_papers_caption_by_default():
    """[Christodoulou2025], Fig 6: "red (>10%), orange (5–10%), green (<5%)": a P of exactly
    5% is orange, of exactly 10% orange, just above 10% red. The other rule (a named option)
    makes exactly 5% green and changes nothing else."""
    assert [band(p) for p in (0.0, 0.0499999, 0.05, 0.07, 0.10, 0.1000001, 0.5)] == [
        "low", "low", "medium", "medium", "medium", "high", "high"]
    assert [band(p, rule="green_at_most") for p in (0.0499999, 0.05, 0.0500001, 0.10, 0.11)] \
        == ["low", "low", "medium", "medium", "high"]
    assert set(BAND_RULES) == {"paper", "green_at_most"}
    with pytest.raises(ValueError, match="band rule must be one of"):
        band(0.05, rule="inclusive")


def test_a_cell_exactly_on_the_lower_edge_is_orange_and_the_legend_says_less_than():
    """A grid cell whose P is exactly the lower band edge: the band edge is set to that
    cell's P (the example's grids hold no P of exactly 5%: nearest 4.99988% and 5.0234%).
    The P itself is checked against the closed form of falseclaims.stats; the drawn
    rectangle has the orange of the style, the legend reads "green < ..."."""
    data, _ = lookup_data("classification", [100, 1000], [0.01, 0.02], 0.846, CONG)
    cell = data[(data.n == 1000) & (data.delta == 0.02)].iloc[0]
    by_hand = stats.prob_false_claim_classification(1000, 0.846, 0.826, CONG["median"])
    assert cell.p_median == pytest.approx(float(by_hand.probability), rel=1e-10)
    edge = float(cell.p_median)
    for rule, colour in (("paper", "medium"), ("green_at_most", "low")):
        fig, d = figures.fig6_lookup("classification", [100, 1000], [0.01, 0.02], 0.846,
                                     CONG, bands=(edge, 0.4), band_rule=rule)
        on_edge = d[(d.n == 1000) & (d.delta == 0.02)].iloc[0]
        assert on_edge.band == colour
        ax = fig.axes[0]
        rect = next(p for p in ax.patches if isinstance(p, Rectangle) and p.get_xy() == (1, 1))
        assert rect.get_facecolor()[:3] == pytest.approx(to_rgb(BAND_COLOURS[colour]))
        labels = [t.get_text() for t in fig.legends[0].get_texts()] if fig.legends else [
            t.get_text() for t in fig.axes[1].get_legend().get_texts()]
        sign = "<" if rule == "paper" else "≤"
        assert f"green {sign} {100 * edge:g}%" in labels, labels


def test_the_band_rule_is_a_config_key_the_paper_by_default():
    """config lookup_grid.band_rule (schema-validated): 'paper' in the shipped config, read
    into LookupGrid; another value is refused by the schema, and a block without the key
    reads as the paper's rule."""
    from falseclaims.config import ConfigError, LookupGrid, load_config
    from falseclaims.config_validation import validate

    cfg = load_config(None)
    assert cfg["lookup_grid"]["band_rule"] == "paper"
    assert LookupGrid.from_config(cfg).band_rule == "paper"
    block = {**cfg["lookup_grid"], "band_rule": "green_at_most"}
    assert LookupGrid.from_block(block).band_rule == "green_at_most"
    assert LookupGrid.from_block({k: v for k, v in block.items()
                                  if k != "band_rule"}).band_rule == "paper"
    bad = {**cfg, "lookup_grid": {**cfg["lookup_grid"], "band_rule": "greenish"}}
    with pytest.raises(ConfigError, match="band_rule"):
        validate(bad, Path(figures.__file__).parents[1] / "schemas" / "config.schema.yaml")


# ---------------------------------------------------------------- P2: colours
# Machado, Oliveira & Fernandes (2009), "A physiologically-based model for simulation of
# color vision deficiency", severity 1.0, on linear RGB
DEUTERANOPIA = np.array([[0.367322, 0.860646, -0.227968],
                         [0.280085, 0.672501, 0.047413],
                         [-0.011820, 0.042940, 0.968881]])
PROTANOPIA = np.array([[0.152286, 1.052583, -0.204868],
                       [0.114503, 0.786281, 0.099216],
                       [-0.003882, -0.048116, 1.051998]])
# smallest grayscale step between two bands, of 255: about a seventh of the range, so a
# gray print keeps three distinct tones (the old red and green differed by 13)
MIN_GRAY_GAP = 35


def _gray(rgb) -> float:
    """Grayscale as a printer or PIL's "L" conversion: 0.299 R + 0.587 G + 0.114 B."""
    return float(np.dot([0.299, 0.587, 0.114], 255 * np.asarray(rgb)))


def _simulate(rgb, matrix) -> np.ndarray:
    c = np.asarray(rgb, float)
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    out = np.clip(matrix @ lin, 0, 1)
    return np.where(out <= 0.0031308, 12.92 * out, 1.055 * out ** (1 / 2.4) - 0.055)


@pytest.mark.parametrize("vision", ["normal", "deuteranopia", "protanopia"])
def test_fig6_bands_differ_in_gray_for_every_reader(vision):
    """Red, orange and green keep a grayscale gap of at least MIN_GRAY_GAP, in the order
    red < orange < green, as printed and as deuteranopes and protanopes see them."""
    matrix = {"deuteranopia": DEUTERANOPIA, "protanopia": PROTANOPIA}.get(vision)
    gray = {k: _gray(to_rgb(c) if matrix is None else _simulate(to_rgb(c), matrix))
            for k, c in BAND_COLOURS.items()}
    assert gray["medium"] - gray["high"] >= MIN_GRAY_GAP, gray
    assert gray["low"] - gray["medium"] >= MIN_GRAY_GAP, gray


def test_fig6_bands_keep_the_papers_hues_and_black_text_reads():
    """The paper's names: red, orange, green (hue in degrees); the cell text is black, so
    each band keeps a WCAG contrast of at least 4.5 with it."""
    import colorsys

    hue = {k: 360 * colorsys.rgb_to_hls(*to_rgb(c))[0] for k, c in BAND_COLOURS.items()}
    assert 0 <= hue["high"] < 30 and 30 <= hue["medium"] < 50 and 90 <= hue["low"] < 180, hue
    for colour in (*BAND_COLOURS.values(), HIGHLIGHT):
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
               for c in to_rgb(colour)]
        luminance = float(np.dot([0.2126, 0.7152, 0.0722], lin))
        assert (luminance + 0.05) / 0.05 >= 4.5, colour


# ---------------------------------------------------------------- P3: words, not keys
def test_figS10_and_its_companion_name_sd_models_in_words():
    """Fig 4 and the front page say "MSD reference" (config.source_label); Fig S10's title
    and its companion's legend said the config key msd_reference."""
    prob = fx.probabilities(fx.top2(n=(6, 8)), sources=("paper",),
                            sd_sources=("msd_reference", "msd_ols"))
    curves = fx.curves(prob, np.linspace(0, 0.5, 11))
    head = Headline("paper", "median", "msd_reference", "mean")
    for draw in (figures.figS10_sd_sensitivity, figures.figS10_sd_models):
        fig, _ = draw(curves, head)
        texts = [t.get_text() for t in fig.findobj(lambda a: hasattr(a, "get_text"))]
        joined = " ".join(texts)
        assert "MSD reference" in joined, draw.__name__
        assert "msd_reference" not in joined and "msd_ols" not in joined, draw.__name__
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert {"MSD reference", "MSD ols"} <= set(legend)
    # Fig 6's footnote names the SD model the same way
    fig, _ = figures.fig6_lookup("segmentation", [50, 500], [0.01], 0.85,
                                 fx.CONGRUENCE["paper"]["segmentation"], fx.SD_MODEL)
    notes = " ".join(t.get_text() for t in fig.axes[1].texts)
    assert "SD model (MSD reference, mean)" in notes and "msd_reference" not in notes, notes


# ---------------------------------------------------------------- P5: code inputs
def _planned(work: Path, env: dict) -> set[str]:
    proc = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--quiet", "progress"],
                          cwd=work, env=env, capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return set(re.findall(r"^(?:local)?rule (\w+):$", proc.stdout + proc.stderr, re.M))


def _planned_after_editing(copy, package: str, module: str) -> set[str]:
    """The jobs a dry run plans after an edit of falseclaims/<package>/<module>.py in the
    copy (its content: Snakemake ignores a newer file with the same checksum); the file is
    restored after."""
    work, env = copy
    path = work / "src" / "falseclaims" / package / f"{module}.py"
    original = path.read_text(encoding="utf-8")
    try:
        path.write_text(original + "\n# edited\n", encoding="utf-8")
        return _planned(work, env)
    finally:
        path.write_text(original, encoding="utf-8")


@pytest.fixture(scope="module")
def up_to_date_copy(tmp_path_factory):
    """A copy of the repository whose every output exists and is up to date (empty files,
    marked with ``snakemake --touch --forceall``: no job runs, every job's metadata, with its
    inputs' checksums, is recorded), importing the package from its own ``src`` so its
    drawing modules can be edited."""
    from repo_copy import copy_repo

    work = copy_repo(tmp_path_factory.mktemp("figs3") / "repo")
    assert (work / "src" / "falseclaims" / "figures" / "lookup.py").exists()
    env = {**os.environ, "PYTHONPATH": str(work / "src")}
    summary = subprocess.run([sys.executable, "-m", "snakemake", "--summary"], cwd=work,
                             env=env, capture_output=True, text=True, check=True).stdout
    for line in summary.splitlines()[1:]:
        out = work / line.split("\t")[0]
        out.parent.mkdir(parents=True, exist_ok=True)
        out.touch()
    # its closing summary (reading the empty tables) fails after the touch: not checked;
    # that nothing is left to run is
    subprocess.run([sys.executable, "-m", "snakemake", "--touch", "--forceall", "--cores", "1"],
                   cwd=work, env=env, capture_output=True, text=True, check=False)
    assert _planned(work, env) == set()
    return work, env


MODULES = sorted({f.draw.split(".")[0] for f in FIGURES})


@pytest.mark.pipeline
@pytest.mark.parametrize("module", MODULES)
def test_editing_a_drawing_module_reruns_every_job_drawing_with_it(up_to_date_copy, module):
    """Every figure job, not only a venue's four, lists its drawing modules as inputs: after
    an edit of one (its content: Snakemake ignores a newer file with the same checksum), a
    dry run plans each job drawing a figure with it, and no other figure job."""
    planned = _planned_after_editing(up_to_date_copy, "figures", module)
    jobs = {f.job for f in FIGURES if f.draw.split(".")[0] == module}
    all_jobs = {f.job for f in FIGURES}
    assert planned & all_jobs == jobs, (module, planned)
    # the brief's case: the non-venue jobs are among them where they draw with it
    assert jobs - set(VENUE_JOBS.values()) <= planned


@pytest.mark.pipeline
@pytest.mark.parametrize("module, jobs", [("numbers", {"numbers", "front_page"}),
                                          ("front_page", {"front_page"})])
def test_editing_the_numbers_or_front_page_code_reruns_their_jobs(up_to_date_copy, module,
                                                                  jobs):
    """The rules writing numbers.csv and the front page list the library module that writes
    them as an input (common.smk library_code): an edit of survey/numbers.py plans the
    numbers jobs (and the front page that reads them), of survey/front_page.py the front
    page only."""
    planned = _planned_after_editing(up_to_date_copy, "survey", module)
    assert planned - {"all"} == jobs, (module, planned)
