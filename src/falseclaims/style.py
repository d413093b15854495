"""One figure style for every plot: journal sizes, colour-blind-safe palette, PDF + PNG.

Widths follow common journal columns (single 85 mm, double 175 mm). The palette is
Okabe & Ito (2008), "Color Universal Design". ``configure(style_cfg)`` applies the
``style:`` block of config/config.yaml.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MM = 1 / 25.4

# Okabe-Ito colour-blind-safe palette
PALETTE = {
    "black": "#000000",
    "orange": "#E69F00",
    "skyblue": "#56B4E9",
    "green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "purple": "#CC79A7",
    "gray": "#999999",
}
CYCLE = [PALETTE[k] for k in ("blue", "orange", "green", "vermillion", "purple", "skyblue",
                              "yellow", "black")]
# traffic-light bands of the paper's Fig 6, in colour-blind-safe tones
BAND_COLOURS = {"high": "#D55E00", "medium": "#E69F00", "low": "#009E73"}
TASK_COLOURS = {"classification": PALETTE["blue"], "segmentation": PALETTE["orange"]}
LEVEL_STYLES = {"q1": ":", "median": "-", "mean": "-", "q3": "--"}

_SETTINGS = {
    "single_width_mm": 85.0,
    "double_width_mm": 175.0,
    "font_size": 8.0,
    "dpi": 300,
    "formats": ["pdf", "png"],
    "font_family": "DejaVu Sans",
}


def configure(style_cfg: dict | None) -> None:
    """Override defaults with the config's ``style:`` block, then apply."""
    if style_cfg:
        unknown = set(style_cfg) - set(_SETTINGS)
        if unknown:
            raise ValueError(f"unknown style keys {sorted(unknown)}; allowed {sorted(_SETTINGS)}")
        _SETTINGS.update(style_cfg)
    apply_style()


def apply_style() -> None:
    fs = float(_SETTINGS["font_size"])
    plt.rcParams.update(
        {
            "font.family": _SETTINGS["font_family"],
            "font.size": fs,
            "axes.titlesize": fs + 1,
            "axes.labelsize": fs,
            "xtick.labelsize": fs - 1,
            "ytick.labelsize": fs - 1,
            "legend.fontsize": fs - 1,
            "legend.frameon": False,
            "axes.spines.top": False,
            "axes.spines.right": False,
            "axes.prop_cycle": matplotlib.cycler(color=CYCLE),
            "figure.dpi": 100,
            "savefig.dpi": _SETTINGS["dpi"],
            "pdf.fonttype": 42,  # editable text in vector output
            "svg.fonttype": "none",
            "lines.linewidth": 1.2,
            "axes.linewidth": 0.6,
            # deterministic files: no creation date in PDF metadata
            "pdf.compression": 6,
        }
    )


def figure(width: str = "single", height: float | None = None, nrows: int = 1,
           ncols: int = 1, **kwargs):
    """A figure of journal column width; ``height`` in mm (default: golden ratio)."""
    if width not in ("single", "double"):
        raise ValueError(f"width must be 'single' or 'double'; got {width!r}")
    apply_style()
    w = _SETTINGS[f"{width}_width_mm"] * MM
    h = (height * MM) if height is not None else w / 1.618 * (nrows if width == "single" else 1)
    kwargs.setdefault("layout", "constrained")
    return plt.subplots(nrows, ncols, figsize=(w, h), **kwargs)


def save_figure(fig, path_without_ext: str | Path, formats=None) -> list[Path]:
    """Write the figure as vector PDF and 300-dpi PNG (or the configured formats)."""
    base = Path(path_without_ext)
    if base.suffix in (".pdf", ".png", ".svg"):
        base = base.with_suffix("")
    base.parent.mkdir(parents=True, exist_ok=True)
    written = []
    for fmt in formats or _SETTINGS["formats"]:
        out = base.with_suffix(f".{fmt}")
        meta = {"CreationDate": None} if fmt == "pdf" else {}
        if fmt == "png":
            meta = {"Software": None}
        fig.savefig(out, dpi=_SETTINGS["dpi"], metadata=meta)
        written.append(out)
    plt.close(fig)
    return written
