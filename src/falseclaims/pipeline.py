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


def write_table(df: pd.DataFrame, path) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, float_format=FLOAT_FORMAT, lineterminator="\n")


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
