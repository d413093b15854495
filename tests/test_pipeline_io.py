"""write_table formats float columns itself (speed); the bytes must equal pandas' own."""

from __future__ import annotations

import numpy as np
import pandas as pd

from falseclaims.io.table_io import FLOAT_FORMAT, write_table, write_table_parts


def test_write_table_bytes_equal_pandas_float_format(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.normal(size=300) * 10.0 ** rng.integers(-12, 12, size=300)
    x[:12] = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, 1e16, 1e-300, 0.1 + 0.2, 2.5, -3, 1e21]
    df = pd.DataFrame({
        "f": x,
        "g": np.where(rng.random(300) < 0.3, np.nan, rng.random(300)),
        "i": rng.integers(-5, 5, 300),
        "b": rng.random(300) < 0.5,
        "s": rng.choice(["a", "b,c", 'q"uote', "", "line\nbreak", None], 300),
        "n": pd.array(rng.choice([1, 2, None], 300), dtype="Int64"),
        "t": pd.array(rng.choice(["x", None], 300), dtype="string"),
        3: rng.random(300),
    })
    write_table(df, tmp_path / "fast.csv")
    df.to_csv(tmp_path / "pandas.csv", index=False, float_format=FLOAT_FORMAT,
              lineterminator="\n")
    assert (tmp_path / "fast.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()
    write_table(df.iloc[:0], tmp_path / "empty.csv")
    df.iloc[:0].to_csv(tmp_path / "empty_pd.csv", index=False, lineterminator="\n")
    assert (tmp_path / "empty.csv").read_bytes() == (tmp_path / "empty_pd.csv").read_bytes()
    # in parts: the same bytes as the whole
    write_table_parts([df.iloc[:7], df.iloc[7:8], df.iloc[8:]], tmp_path / "parts.csv")
    assert (tmp_path / "parts.csv").read_bytes() == (tmp_path / "pandas.csv").read_bytes()
