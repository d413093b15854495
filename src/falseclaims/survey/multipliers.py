"""The test-set size multipliers of [Christodoulou2025], Results ("a 0.01 Accuracy
improvement requires a test set at least 8x larger than the median 500 images ... 10x ...
for a 0.01 DSC difference"), for one venue: the one computation behind
``fig6_multipliers.csv`` and the ``n_needed`` / ``test_size_multiplier`` rows of
``numbers.csv``, under the config block ``lookup_grid``, and the winner's level Fig 6 and
the multipliers assume (:func:`grid_level`; the paper does not state it).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from falseclaims.claims.plan import size_multipliers
from falseclaims.config import LookupGrid, Planner, from_params
from falseclaims.errors import FalseclaimsInputError
from falseclaims.sd_model import SDModel
from falseclaims.survey.populations import TEST_SET_POPULATION, distinct_test_sizes
from falseclaims.tasks import TASKS

MEDIAN_WINNER = "median_winner"  # lookup_grid.<task>.level: the venue's median winner value
INFERRED_LABEL = "level inferred from the paper's 8×/10×; not stated in the paper"


def grid_level(task: str, top2: pd.DataFrame, lookup_grid: LookupGrid | Mapping
               ) -> tuple[float, str]:
    """The winner's value A of Fig 6 and of the multipliers, and where it comes from:
    ``lookup_grid.<task>.level`` = ``median_winner`` (default) takes the venue's median
    winner value over its analysed papers (``top2.csv``), ``fallback_level`` when it has
    none; a number is used as given. [Christodoulou2025] does not state its level.
    ``lookup_grid``: a :class:`LookupGrid`, or the block as a mapping (a rule's params)."""
    grid = from_params(lookup_grid, LookupGrid).tasks[task]
    if grid.level != MEDIAN_WINNER:
        return float(grid.level), "configured level"
    v = pd.to_numeric(top2.loc[top2["task"] == task, "value_a"], errors="coerce").dropna()
    if v.empty:
        if grid.fallback_level is None:
            raise FalseclaimsInputError(
                f"config lookup_grid.{task}.fallback_level is needed: level is "
                f"{MEDIAN_WINNER} and the venue has no analysed {task} paper")
        return grid.fallback_level, "configured fallback level (no analysed paper)"
    return float(v.median()), f"median winner value of the {len(v)} analysed papers"


def venue_multipliers(papers: pd.DataFrame, top2: pd.DataFrame,
                      lookup_grid: LookupGrid | Mapping, congruence: dict,
                      sd_model: SDModel | None, planner: Planner | Mapping, splits,
                      which: str = "in_scope", venue: str = "") -> pd.DataFrame:
    """The multipliers of [Christodoulou2025], Results, for one venue: smallest n with
    P <= ``planner.target`` at Δ = ``lookup_grid.multiplier_delta`` and A =
    :func:`grid_level`, over the venue's median test-set size (:func:`distinct_test_sizes`: the
    papers of population ``which`` with a split in ``splits``), per task and congruence
    level (:func:`falseclaims.claims.plan.size_multipliers`). For a venue listed in
    ``lookup_grid.inferred_levels.venues``, second rows at the levels inferred from the
    paper's 8x / 10x (``level_source`` says which). ``lookup_grid`` and ``planner``: the
    typed objects, or their blocks as mappings (the figure rule's params)."""
    grid, plan = from_params(lookup_grid, LookupGrid), from_params(planner, Planner)
    sizes = distinct_test_sizes(papers, splits, which)
    medians = {t: (float(sizes.loc[sizes["task"] == t, "n_test"].median())
                   if (sizes["task"] == t).any() else None) for t in TASKS}
    runs = [({t: grid_level(t, top2, grid) for t in TASKS}, None)]
    if venue in grid.inferred_venues:
        runs.append(({t: (grid.inferred_levels[t], INFERRED_LABEL) for t in TASKS},
                     INFERRED_LABEL))
    out = []
    for levels, label in runs:
        t = size_multipliers(
            medians, {k: v[0] for k, v in levels.items()}, congruence, sd_model=sd_model,
            delta=grid.multiplier_delta, target=plan.target, n_max=plan.n_max,
            sd_level=grid.sd_level)
        t.insert(3, "level_source", t["task"].map(lambda k: label or levels[k][1]))
        t["median_population"] = TEST_SET_POPULATION
        out.append(t)
    return pd.concat(out, ignore_index=True)

