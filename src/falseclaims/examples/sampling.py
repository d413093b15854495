"""Draws shared by the synthetic example generators."""

from __future__ import annotations

import numpy as np


def quantile_sizes(u: np.ndarray, quartiles, lo_hi) -> np.ndarray:
    """Sizes from uniforms by log-linear interpolation through (min, Q1, median, Q3, max)."""
    knots = np.log([lo_hi[0], *quartiles, lo_hi[1]])
    return np.round(np.exp(np.interp(u, [0.0, 0.25, 0.5, 0.75, 1.0], knots))).astype(int)


def stratified(rng, k: int) -> np.ndarray:
    """k uniforms, one per stratum (i + U)/k, shuffled: sample quartiles stay on target."""
    return rng.permutation((np.arange(k) + rng.uniform(size=k)) / k)
