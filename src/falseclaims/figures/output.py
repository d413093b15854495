"""Writing a figure (PDF + PNG via :mod:`falseclaims.style`) and the data behind it (CSV)."""

from __future__ import annotations

from pathlib import Path

from falseclaims.pipeline import write_table
from falseclaims.style import save_figure


def write_figure(fig, data, base) -> list[Path]:
    """``base`` without extension (or any of its outputs): writes base.{pdf,png} + base.csv."""
    base = Path(base)
    if base.suffix in (".pdf", ".png", ".csv", ".svg"):
        base = base.with_suffix("")
    written = save_figure(fig, base)
    write_table(data, base.with_suffix(".csv"))
    return [*written, base.with_suffix(".csv")]
