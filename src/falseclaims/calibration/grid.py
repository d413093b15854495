"""Size of the calibration study: ``calibration.grid`` picks ``quick`` (default) or ``full``.

``full`` is the ``calibration:`` block as written (the study of docs/calibration.md);
``quick`` replaces its size keys by those under ``calibration.quick`` (fewer chunks, test
sizes and comparisons), for a run of seconds. Kept free of NumPy/SciPy imports: the
Snakefile calls :func:`resolve_grid` while it parses the rules.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping

GRIDS = ("quick", "full")
# keys of `calibration.quick` and where they go in the block
QUICK_KEYS = {"chunks": ("chunks",), "comparisons_per_cell": ("comparisons_per_cell",),
              "classification_n_test": ("classification", "n_test"),
              "segmentation_n_test": ("segmentation", "n_test")}


def resolve_grid(block: Mapping) -> dict:
    """The ``calibration:`` block with the chosen grid's sizes in place (``grid`` and
    ``quick`` removed). A block without ``grid`` is used as written (``full``)."""
    out = copy.deepcopy(dict(block))
    grid = out.pop("grid", "full")
    quick = out.pop("quick", None)
    if grid not in GRIDS:
        raise ValueError(f"calibration.grid must be one of {GRIDS}; got {grid!r}")
    if grid == "quick":
        if not quick:
            raise ValueError("calibration.grid is 'quick' but calibration.quick is missing")
        for key, value in quick.items():
            if key not in QUICK_KEYS:
                raise ValueError(f"calibration.quick.{key}: unknown key; expected one of "
                                 f"{sorted(QUICK_KEYS)}")
            *parents, last = QUICK_KEYS[key]
            target = out
            for p in parents:
                target = target[p]
            target[last] = copy.deepcopy(value)
    return out
