"""One figure style for every plot: journal sizes, colour-blind-safe palette, fonts.

Widths follow common journal columns (single 85 mm, double 175 mm). The palette is
Okabe & Ito (2008), "Color Universal Design". ``configure(style_cfg)`` applies the
``style:`` block of config/config.yaml. Text is rendered literally (no mathtext), so a
method or venue name containing ``$`` prints as typed. Writing files:
:func:`falseclaims.figures.output.write_figure`.
"""

from __future__ import annotations

import math
import warnings

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, LogLocator  # noqa: E402

# seaborn 0.13 box plots pass matplotlib's deprecated ``vert``; harmless, keep the logs clean
warnings.filterwarnings("ignore", message="vert: bool was deprecated",
                        category=matplotlib.MatplotlibDeprecationWarning)

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
# traffic-light bands of the paper's Fig 6 ("red (>10%), orange (5–10%), green (<5%)"): the
# Okabe-Ito vermillion and orange, and a light tint of its green (same hue, 158 vs 164
# degrees). The full Okabe-Ito green (#009E73) has the grayscale of the vermillion (106 vs
# 119 of 255): printed in gray, red and green cells looked alike. Now red 119 < orange 162 <
# green 202 in grayscale, and in a deuteranope's or protanope's view (Machado et al. 2009)
# too (129 / 168 / 206 and 105 / 151 / 213); black cell text reads on all three
# (tests/test_figs3.py)
BAND_COLOURS = {"high": "#D55E00", "medium": "#E69F00", "low": "#A8DCC9"}
HIGHLIGHT = "#C8C8C8"  # Fig 6's gray cells (framed in black: told from green by the frame)
TASK_COLOURS = {"classification": PALETTE["blue"], "segmentation": PALETTE["orange"],
                "not_recorded": PALETTE["green"]}  # tasks.NOT_RECORDED: design-only sheets
# one colour per congruence / SD source, the same in every figure (Fig 5 and its companion,
# venue facets, estimation figures, Fig S10). An SD model derived from the same data as a
# congruence source shares its colour (msd_reference: MSD). Sources not named here get the
# SPARE colours in the order they are listed (config `congruence.use` / `sd_model.use`).
SOURCE_COLOURS = {
    "paper": PALETTE["blue"],
    "msd": PALETTE["orange"],
    "msd_reference": PALETTE["orange"],
    "touchstone": PALETTE["green"],
    "isic2018": PALETTE["purple"],
    "sklearn": PALETTE["vermillion"],
    # the alternative SD models fitted on the same MSD pairs (segmentation only)
    "msd_anchored": PALETTE["skyblue"],
    "msd_ols": PALETTE["purple"],
    "msd_gamma_log": PALETTE["gray"],
}
SPARE_COLOURS = [PALETTE[k] for k in ("yellow", "black")]
# opacity of every scatter/strip marker (overlaps show density); the PNG palette keeps each
# named colour at this opacity on white (figures.output), so markers keep their hue
MARKER_ALPHA = 0.6
LEVEL_STYLES = {"q1": ":", "median": "-", "mean": "-", "q3": "--"}
# the same line styles as seaborn ``dashes`` (on/off lengths; "" = solid)
LEVEL_DASHES = {"q1": (1, 1.5), "median": "", "mean": "", "q3": (4, 2)}
OTHER_DASH = (4, 1.5, 1, 1.5)
NO_DATA = "no analysed papers"  # the front page's and the console's words

_SETTINGS: dict = {}  # the `style:` block of config/config.yaml, read when first needed


def _settings() -> dict:
    """The active settings: the packaged ``style:`` block (the one source of the defaults:
    figures drawn by the commands use it too), updated by :func:`configure`."""
    if not _SETTINGS:
        from falseclaims.config import packaged_block

        _SETTINGS.update(packaged_block("style"))
    return _SETTINGS


def configure(style_cfg: dict | None) -> None:
    """Override defaults with the config's ``style:`` block, then apply."""
    if style_cfg:
        unknown = set(style_cfg) - set(_settings())
        if unknown:
            raise ValueError(f"unknown style keys {sorted(unknown)}; allowed {sorted(_SETTINGS)}")
        _settings().update(style_cfg)
    apply_style()


def apply_style() -> None:
    fs = float(_settings()["font_size"])
    plt.rcParams.update(
        {
            "font.family": _settings()["font_family"],
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
            "savefig.dpi": _settings()["dpi"],
            "pdf.fonttype": 42,  # editable text in vector output
            "svg.fonttype": "none",
            "lines.linewidth": 1.2,
            "axes.linewidth": 0.6,
            # deterministic files: no creation date in PDF metadata
            "pdf.compression": 6,
            # names from users' sheets ("$", "_") print literally
            "text.parse_math": False,
            "axes.formatter.use_mathtext": False,
        }
    )


def figure(width: str = "single", height: float | None = None, nrows: int = 1,
           ncols: int = 1, **kwargs):
    """A figure of journal column width; ``height`` in mm (default: golden ratio)."""
    if width not in ("single", "double"):
        raise ValueError(f"width must be 'single' or 'double'; got {width!r}")
    apply_style()
    w = _settings()[f"{width}_width_mm"] * MM
    h = (height * MM) if height is not None else w / 1.618 * (nrows if width == "single" else 1)
    kwargs.setdefault("layout", "constrained")
    return plt.subplots(nrows, ncols, figsize=(w, h), **kwargs)


def settings() -> dict:
    """The active style settings (dpi, formats, widths, font)."""
    return dict(_settings())


def source_colours(sources) -> dict[str, str]:
    """Colour of each source, in order: its ``SOURCE_COLOURS`` entry unless an earlier
    source of the list took that colour (two MSD-derived SD models in one figure), else the
    next colour not yet used (``SPARE_COLOURS``, then the rest of ``CYCLE``)."""
    out: dict[str, str] = {}
    spare = [c for c in (*SPARE_COLOURS, *CYCLE) if c not in SOURCE_COLOURS.values()]
    spare += [c for c in SOURCE_COLOURS.values() if c not in spare]
    for s in dict.fromkeys(sources):
        fixed = SOURCE_COLOURS.get(s)
        if fixed is not None and fixed not in out.values():
            out[s] = fixed
            continue
        free = [c for c in spare if c not in out.values()] or spare
        out[s] = free[0]
    return out


def level_dashes(levels) -> dict:
    """seaborn ``dashes`` for congruence / SD levels (dotted Q1, solid median, dashed Q3)."""
    return {lvl: LEVEL_DASHES.get(lvl, OTHER_DASH) for lvl in levels}


_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def decade_label(exponent: int) -> str:
    """The tick label of a decade: ``10³`` in plain text (mathtext is off)."""
    return "10" + str(int(exponent)).translate(_SUPERSCRIPT)


def log_ticks(axis) -> None:
    """Decade ticks labelled 10⁰, 10¹, ... on a log-scaled axis (``ax.xaxis``/``ax.yaxis``)."""
    axis.set_major_locator(LogLocator(base=10))
    axis.set_major_formatter(FuncFormatter(
        lambda v, _pos: decade_label(round(math.log10(v))) if v > 0 else ""))
    axis.set_minor_formatter(FuncFormatter(lambda v, _pos: _minor_label(axis, v)))


def _minor_label(axis, v: float) -> str:
    """A narrow log axis (under 1.5 decades) would show one decade label or none: label its
    2x and 5x minor ticks too (``20``, ``50``)."""
    lo, hi = sorted(axis.get_view_interval())
    if v <= 0 or lo <= 0 or math.log10(hi / lo) > 1.5:
        return ""
    mantissa = v / 10 ** math.floor(math.log10(v) + 1e-9)
    return f"{v:g}" if round(mantissa, 6) in (2, 5) else ""


def no_data(ax, text: str = NO_DATA) -> None:
    """An empty panel that says why it is empty."""
    ax.text(0.5, 0.5, text, transform=ax.transAxes, ha="center", va="center",
            color=PALETTE["gray"], fontsize="large")
    # tick_params, not set_xticks([]): shared axes would lose the other panels' ticks too
    ax.tick_params(left=False, bottom=False, labelleft=False, labelbottom=False)
    ax.set_xlabel("")
    for spine in ax.spines.values():
        spine.set_visible(False)
