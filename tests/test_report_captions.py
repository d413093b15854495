"""Every report caption renders with the shipped config and with configs that drop optional
sources (a user's config without the scikit-learn or MSD source must still give a report)."""
import copy
import types
from pathlib import Path

import jinja2
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CAPTIONS = sorted((ROOT / "workflow" / "report").glob("*.rst"))
CONFIG = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))


class _Wildcards(dict):
    """Like Snakemake's wildcards: by key and by attribute."""
    __getattr__ = dict.__getitem__


def _render(path, config):
    # Snakemake renders captions with jinja2 and a `snakemake` object carrying the config
    # (the main page workflow.rst also gets the list of report `files`)
    env = jinja2.Environment(undefined=jinja2.StrictUndefined)
    venue = next(iter(config["venues"]))
    wildcards = _Wildcards(venue=venue)
    smk = types.SimpleNamespace(config=config, wildcards=wildcards, params={})
    return env.from_string(path.read_text(encoding="utf-8")).render(snakemake=smk, files=[])


def _without(*sources):
    cfg = copy.deepcopy(CONFIG)
    for kind, name in sources:
        cfg["estimation"][kind].pop(name)
    return cfg


@pytest.mark.parametrize("config", [
    CONFIG,
    _without(("congruence_sources", "sklearn"), ("congruence_sources", "isic2018")),
    _without(("sd_sources", "msd")),
], ids=["shipped", "no-sklearn-no-isic", "no-msd-sd"])
def test_every_caption_renders(config):
    assert len(CAPTIONS) > 20
    for path in CAPTIONS:
        text = _render(path, config)
        assert text.strip(), path.name


def test_dropped_source_is_not_described():
    text = _render(ROOT / "workflow/report/estimation_congruence_ecdf.rst",
                   _without(("congruence_sources", "sklearn")))
    assert "scikit-learn" not in text and "ISIC 2018" in text
