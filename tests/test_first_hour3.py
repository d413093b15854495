"""A meta-researcher reads the report start to end (fresh clone, README's two commands): the
captions and the report's first page must speak as the front page and the figures do.

Was: the captions named the sources by their config keys (``msd_reference``) where the front
page, the console's headline and the figure legends say "MSD reference"; they wrote the 5%
cutoff as "5.0%" (front page: "P > 5%"), the cutoffs as fractions, the planner's limit as
10000000; three captions printed the template placeholder ``results/{venue}/`` instead of the
venue's folder, one a rule name as if it were a file, three the population key ``in_scope``."""
import re

import pandas as pd
import pytest
from test_report_captions import CAPTIONS, CONFIG, ROOT, _render

from falseclaims.config import source_label

# these two captions describe the config key `congruence.use` / `sd_model.use` itself,
# so they list its values as keys
CONFIG_TALK = {"estimation_congruence_summary.rst", "estimation_sd_summary.rst"}
SOURCES = [k for k in CONFIG["congruence"]["use"] + CONFIG["sd_model"]["use"] if "_" in k]


def _rendered():
    return {p.name: _render(p, CONFIG) for p in CAPTIONS}


def test_sources_read_as_the_front_page_and_the_figures_write_them():
    assert SOURCES, "the shipped config has sources with multi-word keys"
    texts = _rendered()
    for name, text in texts.items():
        if name in CONFIG_TALK:
            continue
        for key in SOURCES:
            assert key not in text, (name, key)
    headline_sd = CONFIG["sd_model"]["use"][0]
    for name in ["workflow.rst", "fig4_delta_vs_size.rst", "fig5_exceedance.rst",
                 "figS10_sd_models.rst", "figS10_sd_sensitivity.rst", "venue_comparison.rst"]:
        assert source_label(headline_sd) in texts[name], name


def test_percentages_as_the_front_page_writes_them():
    texts = _rendered()
    for name, text in texts.items():
        assert not re.search(r"\b\d+\.0%", text), (name, re.findall(r".{30}\d+\.0%", text))
    first = texts["workflow.rst"]
    cutoffs = ", ".join(f"{100 * c:g}%" for c in CONFIG["analysis"]["cutoffs"])
    assert f"cutoffs\n{cutoffs};" in first
    assert f"{CONFIG['planner']['n_max']:,}" in first
    assert cutoffs in texts["numbers.rst"]


@pytest.mark.parametrize("name", ["flow_diagram.rst", "notes_digest.rst", "exclusions.rst",
                                  "numbers.rst"])
def test_paths_name_the_venue_folder_not_a_placeholder(name):
    text = _render(ROOT / "workflow" / "report" / name, CONFIG)
    venue = next(iter(CONFIG["venues"]))
    assert "{venue}" not in text
    if name != "exclusions.rst":
        assert f"results/{venue}/" in text


def test_no_rule_name_or_population_key_as_words():
    texts = _rendered()
    digest = texts["notes_digest.rst"]
    venue = next(iter(CONFIG["venues"]))
    # the rule's name only inside the path of its log, which a reader can open
    assert digest.count("validate_sheets") == 1
    assert f"``logs/{venue}/validate_sheets.log``" in digest
    for name, text in texts.items():
        assert "in_scope" not in text, name


def test_console_headline_and_front_page_say_the_same_sentence(tmp_path, monkeypatch):
    """Was: the console's last lines said "is above each cutoff", the front page
    "exceeds each cutoff", over the same numbers."""
    from falseclaims.survey.front_page import closing_lines, front_page_html

    venue = next(iter(CONFIG["venues"]))
    numbers = pd.DataFrame(
        [[venue, "classification", "share_above_0.05", "P > 5%", 0.5, "share",
          "papers analysed", 10, 0.4, 0.6, "one factor at a time", "", ""]],
        columns=["venue", "task", "name", "description", "value", "unit", "population",
                 "n_population", "low", "high", "range", "paper_value", "paper_source"])
    (tmp_path / "results" / venue).mkdir(parents=True)
    numbers.to_csv(tmp_path / "results" / venue / "numbers.csv", index=False)
    monkeypatch.chdir(tmp_path)
    cfg = dict(CONFIG, run_venues=[venue])
    console = closing_lines(cfg)[0]
    page = front_page_html({venue: numbers}, {venue: "V"}, [], "x")
    sentence = "whose probability of a false claim exceeds each cutoff"
    assert sentence in console and sentence in page
