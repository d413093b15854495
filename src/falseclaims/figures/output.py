"""The one writer of every figure: vector PDF + PNG (via the active style) + the data as CSV.

Plotting functions return ``(figure, data)`` and never write files; pipeline scripts and the
CLI pass the pair here.
"""

from __future__ import annotations

import io
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
from PIL import Image

from falseclaims.figures.pdf_fonts import pdf_font_subsets
from falseclaims.io.table_io import write_table
from falseclaims.style import BAND_COLOURS, MARKER_ALPHA, PALETTE, TASK_COLOURS, settings

_SUFFIXES = (".pdf", ".png", ".csv", ".svg")


def figure_base(path) -> Path:
    """``path`` without its figure extension: ``figures/v/fig4.png`` -> ``figures/v/fig4``."""
    path = Path(path)
    return path.with_suffix("") if path.suffix in _SUFFIXES else path


def save_figure(fig, base, formats=None, dpi: int | None = None) -> list[Path]:
    """Write ``base.<fmt>`` for each format (style ``formats``); no timestamps, so the same
    figure gives the same bytes. Closes the figure.

    The layout (constrained layout: text sizes decide the margins) is computed once, by the
    PNG's renderer, and every other format reuses it: each format computing its own had
    matplotlib draw the figure four times for two formats, and the layout passes were about
    a quarter of the figure jobs' CPU (docs/benchmarks.md). The PNG's renderer decides
    because its text, hinted on whole pixels, is the larger: the PDF's layout reused for the
    PNG cut long tick labels off, the PNG's reused for the PDF leaves the same margins with
    a little more room."""
    base = figure_base(base)
    base.parent.mkdir(parents=True, exist_ok=True)
    style = settings()
    formats = list(formats or style["formats"])
    dpi = dpi or style["dpi"]
    written = {}
    for fmt in sorted(formats, key=lambda f: f != "png"):
        out = base.with_suffix(f".{fmt}")
        if fmt == "png" and style["png_palette"]:
            _save_palette_png(fig, out, dpi, style["png_colours"])
        else:
            meta = {"CreationDate": None} if fmt == "pdf" else {"Software": None} \
                if fmt == "png" else {}
            with pdf_font_subsets():
                fig.savefig(out, dpi=dpi, metadata=meta)
        # the first format's draw placed everything: the others draw without a layout pass
        fig.set_layout_engine("none")
        written[fmt] = out
    plt.close(fig)
    return [written[fmt] for fmt in formats]


def _save_palette_png(fig, out: Path, dpi: int, colours: int) -> None:
    """PNG with a palette of ``colours`` colours (style ``png_colours``): plots use few
    colours, so this looks the same at a fraction of the bytes (the HTML report embeds every
    PNG). The palette: the style's named colours, kept exactly (a line drawn in few pixels,
    e.g. only in a legend, would otherwise merge into a neighbouring hue), each of them as a
    marker of the style's MARKER_ALPHA on white (markers keep their hue: two hues blended
    with white can be nearer to each other than to their own colour), and median-cut shades
    of the pixels far from all of these (anti-aliasing, text on a coloured band, any other
    colour). Each pixel becomes its nearest palette colour (exact Euclidean distance in RGB,
    ties to the first); no dithering: deterministic, and white stays exactly white."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, pil_kwargs={"compress_level": 0})
    buf.seek(0)
    with Image.open(buf) as img:
        rgb = np.asarray(img.convert("RGB"), dtype=np.int32)
    fixed = _named_colours()
    fixed += [c for c in _on_white(fixed, MARKER_ALPHA) if c not in fixed]
    keys = (rgb[..., 0] << 16) | (rgb[..., 1] << 8) | rgb[..., 2]
    uniq, inverse = np.unique(keys.ravel(), return_inverse=True)
    cols = np.stack([uniq >> 16, (uniq >> 8) & 255, uniq & 255], axis=1)
    far = _squared_distances(cols, fixed).min(axis=1) > _NEAR ** 2
    palette = fixed + _median_cut_shades(rgb.reshape(-1, 3)[far[inverse]],
                                         max(colours - len(fixed), 0), fixed)
    nearest = _squared_distances(cols, palette).argmin(axis=1)
    img = Image.fromarray(nearest.astype(np.uint8)[inverse].reshape(keys.shape), mode="P")
    img.putpalette([v for c in palette for v in c])
    img.save(out, format="png", optimize=True)


# a pixel this close (Euclidean, RGB) to a fixed palette colour needs no shade of its own
_NEAR = 24


def _squared_distances(cols: np.ndarray, palette: list) -> np.ndarray:
    pal = np.asarray(palette, dtype=np.int32)
    return ((cols[:, None, :] - pal[None, :, :]) ** 2).sum(axis=2)


def _median_cut_shades(pixels: np.ndarray, k: int, exclude: list) -> list:
    """Up to ``k`` colours for ``pixels`` (rows of RGB) by Pillow's median cut."""
    if k == 0 or len(pixels) == 0:
        return []
    img = Image.fromarray(pixels.astype(np.uint8).reshape(1, -1, 3), mode="RGB")
    shades = img.quantize(colors=k, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    values = shades.getpalette()
    used = sorted(i for _, i in shades.getcolors())
    return [c for c in (tuple(values[3 * i:3 * i + 3]) for i in used) if c not in exclude]


def _on_white(colours: list[tuple[int, int, int]], alpha: float) -> list[tuple[int, int, int]]:
    """Each colour drawn with opacity ``alpha`` on white."""
    return sorted({tuple(round(alpha * v + (1 - alpha) * 255) for v in c) for c in colours})


def _named_colours() -> list[tuple[int, int, int]]:
    """Black, white and every named colour of the style (palette, bands, tasks), as RGB."""
    hexes = ["#FFFFFF", "#000000", *PALETTE.values(), *BAND_COLOURS.values(),
             *TASK_COLOURS.values()]
    return sorted({tuple(int(h[i:i + 2], 16) for i in (1, 3, 5)) for h in hexes})


def write_figure(fig, data, base, formats=None) -> list[Path]:
    """``base`` without extension (or any of its outputs): base.{pdf,png} + base.csv."""
    base = figure_base(base)
    written = save_figure(fig, base, formats)
    write_table(data, base.with_suffix(".csv"))
    return [*written, base.with_suffix(".csv")]
