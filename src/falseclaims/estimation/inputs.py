"""Input files of an estimation source, without importing pandas or SciPy.

The Snakefile calls :func:`source_input_files` while it parses the rules, so this module
stays light: every ``snakemake`` start (also ``-n`` and a rerun with nothing to do) pays for
what it imports.
"""

from __future__ import annotations

import glob as globmod
from collections.abc import Mapping
from pathlib import Path

from falseclaims.estimation.specs import SourceSpec

SOURCE_TYPES = ("msd_pairwise", "wide_per_method", "predictions_with_labels", "long",
                "claims_reloaded", "sklearn")


def read_input_table(path, columns: Mapping[str, str] | None = None):
    """An estimation input table (per-case file, (mean, SD) table, MSD pairwise r) under the
    one text-table policy (:mod:`falseclaims.io.textio`: gzip, encodings, separators, decimal
    commas): every cell as stripped text, notes in ``df.attrs["notes"]``. ``columns``:
    {their column: ours}, as a source's ``columns:`` in config."""
    from falseclaims.percase.text_table import read_text_table  # pandas

    roles = {ours: their for their, ours in (columns or {}).items()}
    return read_text_table(path, columns=roles or None)


def resolve(base: Path, p: str) -> Path:
    q = Path(p)
    return q if q.is_absolute() else base / q


def glob_files(base: Path, pattern: str) -> list[str]:
    files = sorted(globmod.glob(str(resolve(base, pattern))))
    if not files:
        raise FileNotFoundError(f"no file matches {pattern!r} (relative to {base})")
    return files


def source_input_files(config_spec: Mapping, base: str | Path = ".") -> list[str]:
    """Files a congruence or SD source (its config entry) reads (Snakemake inputs),
    relative paths kept."""
    base = Path(base)
    spec = SourceSpec.from_config(config_spec)
    kind = spec.type
    if kind in ("msd_pairwise", "long", "claims_reloaded", "mean_sd_table"):
        return [spec.path]
    if kind == "wide_per_method":
        return glob_files(base, spec.glob)
    if kind == "predictions_with_labels":
        return [spec.labels] + [f for files in spec.groups.values() for f in files]
    if kind == "sklearn":
        return []
    raise ValueError(f"unknown congruence source type {kind!r}; choose from {SOURCE_TYPES}")
