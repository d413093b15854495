"""share_above/curves read only their columns of probabilities.csv, texts as categoricals:
the same shares as from the whole table, also with missing keys and unsorted rows."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.io.table_io import read_table, write_table
from falseclaims.survey.exceedance import exceedance_curve, read_for_shares, share_above


def test_shares_from_categorical_columns_equal_the_whole_table(tmp_path):
    rng = np.random.default_rng(3)
    n = 400
    probs = pd.DataFrame({
        "venue": rng.choice(["b", "a"], n), "paper_id": [f"p{i}" for i in range(n)],
        "task": rng.choice(["segmentation", "classification"], n),
        "n_test": rng.integers(10, 500, n),
        "congruence_source": rng.choice(["paper", "msd", "isic2018"], n),
        "congruence_level": rng.choice(["q3", "median", "q1"], n),
        "sd_source": rng.choice(["touchstone", "none", None], n),
        "sd_level": rng.choice(["q1", "mean", None], n),
        "probability": np.round(rng.uniform(0, 0.5, n), 3),
    })
    path = tmp_path / "probabilities.csv"
    write_table(probs, path)
    whole, part = read_table(path), read_for_shares(path)
    assert part.memory_usage(deep=True).sum() < whole.memory_usage(deep=True).sum() / 2
    for f, arg in ((share_above, [0.05, 0.1, 0.25]),
                   (exceedance_curve, {"start": 0, "stop": 0.5, "num": 11})):
        assert f(part, arg).to_csv(index=False) == f(whole, arg).to_csv(index=False)
    # the missing keys form their own groups (not dropped)
    assert share_above(part, [0.1])["sd_source"].isna().any()
