"""The one writer of every figure: vector PDF + PNG (via the active style) + the data as CSV.

Plotting functions return ``(figure, data)`` and never write files; pipeline scripts and the
CLI pass the pair here.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib.pyplot as plt
from PIL import Image

from falseclaims.pipeline import write_table
from falseclaims.style import settings

_SUFFIXES = (".pdf", ".png", ".csv", ".svg")


def figure_base(path) -> Path:
    """``path`` without its figure extension: ``figures/v/fig4.png`` -> ``figures/v/fig4``."""
    path = Path(path)
    return path.with_suffix("") if path.suffix in _SUFFIXES else path


def save_figure(fig, base, formats=None, dpi: int | None = None) -> list[Path]:
    """Write ``base.<fmt>`` for each format (style ``formats``); no timestamps, so the same
    figure gives the same bytes. Closes the figure."""
    base = figure_base(base)
    base.parent.mkdir(parents=True, exist_ok=True)
    style = settings()
    written = []
    for fmt in formats or style["formats"]:
        out = base.with_suffix(f".{fmt}")
        if fmt == "png" and style["png_palette"]:
            _save_palette_png(fig, out, dpi or style["dpi"])
        else:
            meta = {"CreationDate": None} if fmt == "pdf" else {"Software": None} \
                if fmt == "png" else {}
            fig.savefig(out, dpi=dpi or style["dpi"], metadata=meta)
        written.append(out)
    plt.close(fig)
    return written


def _save_palette_png(fig, out: Path, dpi: int) -> None:
    """PNG with a 256-colour palette: plots use few colours, so this looks the same at about a
    third of the bytes (the HTML report embeds every PNG). Median cut, no dithering:
    deterministic."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    buf.seek(0)
    with Image.open(buf) as img:
        rgb = img.convert("RGB")
    rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                 dither=Image.Dither.NONE).save(out, format="png", optimize=True)


def write_figure(fig, data, base, formats=None) -> list[Path]:
    """``base`` without extension (or any of its outputs): base.{pdf,png} + base.csv."""
    base = figure_base(base)
    written = save_figure(fig, base, formats)
    write_table(data, base.with_suffix(".csv"))
    return [*written, base.with_suffix(".csv")]
