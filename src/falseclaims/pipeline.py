"""Glue between Snakemake rules and the library: logging, reading and writing tables.

Scripts call ``run_step(snakemake, func)``; ``func`` receives the snakemake object and
does one library call. Tables are written with fixed float formatting so that the same
inputs give byte-identical files.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path

import pandas as pd
import yaml

FLOAT_FORMAT = "%.10g"


def write_table_parts(parts, path) -> None:
    """Frames with the same columns written one after another as one table: the same
    bytes as ``write_table(pd.concat(parts), path)`` without holding them all."""
    for i, part in enumerate(parts):
        write_table(part, path, append=i > 0)


def write_table(df: pd.DataFrame, path, append: bool = False) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # float columns formatted here: the same text as float_format gives, ~4x faster
    # (pandas calls the format per value through several layers; 10^6-row tables)
    floats = [c for c in df.columns if df[c].dtype == "float64"]
    if floats and df.columns.is_unique:
        df = df.copy(deep=False)
        for c in floats:
            df[c] = _format_floats(df[c].to_numpy())
    df.to_csv(path, index=False, float_format=FLOAT_FORMAT, lineterminator="\n",
              mode="a" if append else "w", header=not append)


def _format_floats(values) -> list[str]:
    """``FLOAT_FORMAT % v`` per value, '' for NaN (pandas' ``na_rep``)."""
    return [FLOAT_FORMAT % v if v == v else "" for v in values.tolist()]


def read_table(path) -> pd.DataFrame:
    return pd.read_csv(path, keep_default_na=True)


def write_yaml(obj, path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        yaml.safe_dump(obj, fh, sort_keys=False)


def run_step(snakemake, func) -> None:
    """Run ``func(snakemake)`` with logging into the rule's log file."""
    log_path = snakemake.log[0] if len(snakemake.log) else None
    handlers = [logging.StreamHandler(sys.stderr)]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w"))
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True,
                        format="%(levelname)s %(name)s: %(message)s")
    # PDF font subsetting logs every glyph at INFO
    logging.getLogger("fontTools").setLevel(logging.WARNING)
    log = logging.getLogger(f"falseclaims.{snakemake.rule}")
    try:
        func(snakemake)
        log.info("done: %s", ", ".join(map(str, snakemake.output)))
    except Exception as exc:  # report the full problem in the rule log, then fail
        log.error("%s", exc)
        log.debug("%s", traceback.format_exc())
        raise
