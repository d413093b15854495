"""Exceedance curves: the share of papers whose probability of a false claim exceeds each
cutoff (Fig 5, the venue comparison of Fig 5; Fig S10: ``sd_sensitivity``)."""
from __future__ import annotations

import textwrap
from collections.abc import Collection

import pandas as pd
import seaborn as sns
from matplotlib.lines import Line2D

from falseclaims.levels import LEVEL_LABELS
from falseclaims.survey.eligibility import DESIGN_ONLY_NOTE
from falseclaims.survey.headline import Headline, select_headline, select_sd_headline
from falseclaims.tasks import TASK_LABELS
from falseclaims.figures.common import label_first_drawn, letter, panel_letter, \
    panel_tasks, panel_title
from falseclaims.io.table_io import numeric, require_columns
from falseclaims.style import (
    CYCLE,
    LEVEL_STYLES,
    MM,
    NO_DATA,
    PALETTE,
    figure,
    level_dashes,
    no_data,
    source_colours,
)
from falseclaims.style import settings as figure_settings
from falseclaims.tasks import TASKS

EXCEEDANCE_KEYS = ["venue", "task", "congruence_source", "congruence_level", "sd_source", "sd_level",
              "cutoff", "n_papers", "n_above", "share_above"]
EXCEEDANCE_NUMBERS = ["cutoff", "n_papers", "n_above", "share_above"]


def _style_legend(fig, colours: dict, styles: dict, colour_title: str, style_title: str,
                  wide: bool = True, name_one: bool = False):
    """One group of legend entries per encoding, each led by its name: the colours
    ("congruence source: paper, msd, ...") and the line styles ("congruence: Q1, median,
    Q3"). ``wide`` (double-width figure): one row per group; else one column per group (a
    row would not fit). Legends fill column by column, so rows are interleaved, and short
    groups are padded with blank entries. ``name_one``: a single colour is named too (the
    one venue with curves beside design-only venues)."""
    groups = []
    if len(colours) > 1 or (name_one and colours):
        groups.append([_row_name(colour_title)]
                      + [Line2D([], [], color=c, label=f"{k}") for k, c in colours.items()])
    if len(styles) > 1:
        groups.append([_row_name(style_title)]
                      + [Line2D([], [], color="black", ls=ls, label=LEVEL_LABELS.get(k, k))
                         for k, ls in styles.items()])
    if not groups:
        return
    size = max(len(g) for g in groups)
    groups = [g + [_row_name("")] * (size - len(g)) for g in groups]
    if wide:
        handles, ncols = [g[j] for j in range(size) for g in groups], size
    else:
        handles, ncols = [h for g in groups for h in g], len(groups)
    legend = fig.legend(handles=handles, loc="outside lower center", ncols=ncols,
                        handlelength=2.2, columnspacing=1.2 if wide else 2.0)
    if not wide and len(groups) == 1:
        # one group in one column ran down a third of a one-column figure: a row if it fits
        row = fig.legend(handles=handles, loc="outside lower center", ncols=size,
                         handlelength=2.2, columnspacing=1.2)
        fits = row.get_window_extent(fig.canvas.get_renderer()).width <= fig.bbox.width
        (legend if fits else row).remove()


def _row_name(text: str) -> Line2D:
    """A legend entry without a line: the name leading a row (or a blank filler)."""
    return Line2D([], [], ls="", marker="", label=f"{text}:" if text else "")


def _curve_panels(curves, group_col, style_col, panels, title_fn, cutoff, n_label,
                  colour_title, colours: dict | None = None, empty: str = NO_DATA,
                  name_one: bool = False):
    """Fig 5 / S10 / venue comparison: seaborn ``lineplot`` of the share above each cutoff,
    hue = ``group_col``, line style = ``style_col`` (steps, one line per group x level).
    ``colours``: {group: colour}; default: the colour cycle in order of appearance;
    ``empty``: what a panel without a curve says."""
    width = "double" if len(panels) > 1 else "single"
    fig, axes = figure(width, height=80 if width == "double" else 90, ncols=len(panels),
                       squeeze=False, sharey=True)
    # one colour per group across all panels, so a source keeps its colour everywhere
    colours = colours or {g: CYCLE[j % len(CYCLE)]
                          for j, g in enumerate(dict.fromkeys(curves[group_col]))}
    all_colours, all_styles = {}, {}
    for i, (ax, task) in enumerate(zip(axes[0], panels)):
        d = curves[curves["task"] == task]
        ax.set_title(title_fn(task, d))
        if len(panels) > 1:
            panel_letter(ax, i)
        ax.set_ylim(0, 100)
        if d.empty:
            no_data(ax, empty)
            continue
        groups = list(dict.fromkeys(d[group_col]))
        levels = [lvl for lvl in LEVEL_STYLES if lvl in set(d[style_col])]
        levels += [lvl for lvl in dict.fromkeys(d[style_col]) if lvl not in levels]
        all_colours.update({g: colours[g] for g in groups})
        all_styles.update({lvl: LEVEL_STYLES.get(lvl, "-.") for lvl in levels})
        tidy = d.assign(percent_above=100 * d["share_above"]).sort_values(
            [group_col, style_col, "cutoff"], kind="stable")
        sns.lineplot(data=tidy, x="cutoff", y="percent_above", hue=group_col, style=style_col,
                     hue_order=groups, style_order=levels, palette=colours,
                     dashes=level_dashes(levels), size=style_col, size_order=levels,
                     sizes={lvl: 1.3 if lvl in ("median", "mean") else 1.0 for lvl in levels},
                     estimator=None, units=None, sort=True, drawstyle="steps-post",
                     legend=False, ax=ax)
        ax.axvline(cutoff, color=PALETTE["gray"], lw=0.6, zorder=0)
        ax.set_xlim(0, float(d["cutoff"].max()))
        ax.set_ylim(0, 100)
        ax.set_xlabel("Cutoff of the probability of a false claim")
        ax.set_ylabel("")
    _style_legend(fig, all_colours, all_styles, colour_title, n_label,
                  wide=width == "double", name_one=name_one)
    drawn = [(curves["task"] == t).any() for t in panels]
    label_first_drawn(axes[0], drawn, "% of papers with P > cutoff")
    return fig


def _n_title(task, d):
    n = d["n_papers"].max() if len(d) else 0
    return panel_title(task, n)


def fig5_exceedance(exceedance: pd.DataFrame, headline: Headline, cutoff: float = 0.05,
                    tasks=None):
    """Fig 5 as [Christodoulou2025] draws it: % of papers above each cutoff at the Q1,
    median and Q3 of the headline congruence source (line style), one panel per task of
    ``tasks`` (:func:`panel_tasks`).
    Segmentation rows use the headline SD assumption. The other congruence sources:
    :func:`falseclaims.figures.sources.fig5_congruence_sources`."""
    require_columns(exceedance, EXCEEDANCE_KEYS, "exceedance")
    data = select_sd_headline(exceedance, headline)
    data = numeric(data[data["congruence_source"] == headline.congruence_source][EXCEEDANCE_KEYS],
                   EXCEEDANCE_NUMBERS)
    fig = _curve_panels(data, "congruence_source", "congruence_level", panel_tasks(tasks),
                        _n_title,
                        cutoff, f"congruence ({headline.congruence_source})",
                        "congruence source",
                        colours=source_colours([headline.congruence_source]))
    return fig, data.reset_index(drop=True)


def _empty_note(venues, design_only: Collection[str]) -> str:
    """What a panel without a curve of these venues says: a study-design sheet records no
    result (:data:`~falseclaims.survey.eligibility.DESIGN_ONLY_NOTE`), other venues have
    no eligible paper."""
    return DESIGN_ONLY_NOTE if venues and set(venues) <= set(design_only) else NO_DATA


def fig5_venues(exceedance_by_venue: dict[str, pd.DataFrame], headline: Headline,
                labels: dict[str, str] | None = None, cutoff: float = 0.05,
                design_only: Collection[str] = ()):
    """Venue comparison: one headline curve per venue, panel per task. ``design_only``: the
    venues read from a study-design sheet (:func:`falseclaims.figures.venue.is_design_only`
    of their flow): named below the panels, no curve."""
    labels = labels or {}
    parts = []
    for venue, c in exceedance_by_venue.items():
        require_columns(c, EXCEEDANCE_KEYS, f"exceedance ({venue})")
        h = select_headline(c, headline, f"exceedance ({venue})")
        parts.append(numeric(h, EXCEEDANCE_NUMBERS).assign(venue_label=labels.get(venue, venue)))
    data = pd.concat(parts, ignore_index=True) if parts else \
        pd.DataFrame(columns=[*EXCEEDANCE_KEYS, "venue_label"])
    fig = _curve_panels(data, "venue_label", "congruence_level", list(TASKS),
                        lambda t, d: TASK_LABELS[t], cutoff, "congruence",
                        f"venue (analysed papers, {' / '.join(map(letter, range(len(TASKS))))})",
                        empty=_empty_note(exceedance_by_venue, design_only),
                        # beside a venue without a curve, the one drawn is named too
                        name_one=data["venue_label"].nunique() < len(exceedance_by_venue))
    for ax, task in zip(fig.axes, TASKS):
        # under the axis title, whatever the axes' height (at a fixed axes fraction it ran
        # into the axis title when a long venue legend shortened the axes)
        ax.annotate("Headline: " + headline.describe(task).replace(", ", ",\n"),
                    xy=(0.0, 0.0), xycoords=("axes fraction", ax.xaxis.label), xytext=(0, -2),
                    textcoords="offset points", fontsize="x-small", color=PALETTE["gray"],
                    va="top")
    _venue_counts(fig, data)
    _fit_legend(fig)
    # venues without a curve beside venues with curves: named (no legend entry of their own)
    drawn = set(data["venue_label"])
    notes = {note: [labels.get(v, v) for v in exceedance_by_venue
                    if labels.get(v, v) not in drawn and (v in set(design_only)) == (
                        note == DESIGN_ONLY_NOTE)]
             for note in (DESIGN_ONLY_NOTE, NO_DATA)}
    said = "; ".join(f"{note}: " + ", ".join(names) for note, names in notes.items() if names)
    if said and drawn:
        fig.suptitle(said, fontsize="small", color=PALETTE["gray"])
    return fig, data


def _venue_counts(fig, data: pd.DataFrame) -> None:
    """Each venue's legend entry with its analysed papers per task (panel a / b): the
    curves are shares, and 43 papers weigh otherwise than 131."""
    if not fig.legends or data.empty:
        return
    n = data.groupby(["venue_label", "task"])["n_papers"].max()
    for text in fig.legends[0].texts:
        venue = text.get_text()
        if venue in set(data["venue_label"]):
            counts = [f"{int(n[venue, t])}" if (venue, t) in n.index else "–" for t in TASKS]
            text.set_text(f"{venue} ({' / '.join(counts)})")


# more venues than this: a row per venue instead of a column (the facets of six venues side
# by side were 27 mm wide: tick labels ran together and the venue names were clipped)
MAX_VENUE_COLUMNS = 4


def _fit_legend(fig, tries: int = 4) -> None:
    """A figure legend wider than the figure (many venues, long labels: one row ran off both
    edges) laid out again in as many rows as it needs."""
    for rows in range(2, 2 + tries):  # _style_legend: one row per group, here one group
        if not fig.legends:
            return
        legend = fig.legends[0]
        width = legend.get_window_extent(fig.canvas.get_renderer()).width
        if width <= fig.bbox.width:
            return
        handles = list(legend.legend_handles)
        names = [t.get_text() for t in legend.texts]
        legend.remove()
        ncols = -(-len(handles) // rows)
        fig.legend(handles=handles, labels=names, loc="outside lower center", ncols=ncols,
                   handlelength=2.2, columnspacing=1.2)


def fig5_venue_facets(exceedance_by_venue: dict[str, pd.DataFrame], headline: Headline,
                      labels: dict[str, str] | None = None, cutoff: float = 0.05,
                      design_only: Collection[str] = ()):
    """Fig 5 of every venue side by side: seaborn ``relplot`` faceted by task (rows) and venue
    (columns), hue = congruence source, line style = level; segmentation at the headline SD.
    ``design_only``: the venues read from a study-design sheet (their empty facets say so)."""
    labels = labels or {}
    parts = [numeric(select_sd_headline(c, headline)[EXCEEDANCE_KEYS], EXCEEDANCE_NUMBERS)
             .assign(venue_label=labels.get(v, v)) for v, c in exceedance_by_venue.items()]
    data = pd.concat(parts, ignore_index=True) if parts else \
        pd.DataFrame(columns=[*EXCEEDANCE_KEYS, "venue_label"])
    venues = [labels.get(v, v) for v in exceedance_by_venue]
    if data.empty:  # no venue has an analysed paper (study-design sheets): nothing to facet
        fig, axes = figure("double", height=30, squeeze=False)
        why = _empty_note(exceedance_by_venue, design_only)
        no_data(axes[0][0], (DESIGN_ONLY_NOTE if why == DESIGN_ONLY_NOTE
                             else "no analysed papers in any venue") + f" ({', '.join(venues)})")
        return fig, data
    says = {labels.get(v, v): _empty_note([v], design_only) for v in exceedance_by_venue}
    # the headline first, then as listed: the order of Fig 5's companion (not the tables'
    # alphabetical isic2018, paper, ...)
    present = set(data["congruence_source"])
    sources = [s for s in dict.fromkeys([headline.congruence_source,
                                         *data["congruence_source"]]) if s in present]
    levels = [lvl for lvl in LEVEL_STYLES if lvl in set(data["congruence_level"])]
    levels += [lvl for lvl in dict.fromkeys(data["congruence_level"]) if lvl not in levels]
    shown = {lvl: f"{LEVEL_LABELS.get(lvl, lvl)} congruence" for lvl in levels}
    tidy = data.assign(percent_above=100 * data["share_above"].astype(float),
                       task_label=data["task"].map(TASK_LABELS),
                       level=data["congruence_level"].map(shown)).rename(
        columns={"congruence_source": "congruence source"})
    width = figure_settings()["double_width_mm"] * MM
    tall = len(venues) > MAX_VENUE_COLUMNS  # a row per venue: narrow columns were unreadable
    facet = (min(width / 2.45, 55 * MM) if tall
             else min(width / (max(len(venues), 1) + 0.45), 55 * MM))  # legend on the right
    tasks_shown = [TASK_LABELS[t] for t in TASKS]
    grid = sns.relplot(
        data=tidy, kind="line", x="cutoff", y="percent_above", hue="congruence source",
        style="level", row="venue_label" if tall else "task_label",
        col="task_label" if tall else "venue_label",
        row_order=venues if tall else tasks_shown, col_order=tasks_shown if tall else venues,
        hue_order=sources, style_order=[shown[lvl] for lvl in levels],
        palette=source_colours(sources),
        dashes={shown[lvl]: d for lvl, d in level_dashes(levels).items()}, estimator=None,
        drawstyle="steps-post", linewidth=1.0,
        height=facet * (0.55 if tall else 0.9), aspect=1 / (0.55 if tall else 0.9),
        facet_kws={"sharex": True, "sharey": True, "margin_titles": not tall})
    for key, ax in grid.axes_dict.items():
        venue, task_label = key if tall else key[::-1]
        ax.axvline(cutoff, color=PALETTE["gray"], lw=0.6, zorder=0)
        ax.set_ylim(0, 100)
        if tidy[(tidy["task_label"] == task_label) & (tidy["venue_label"] == venue)].empty:
            # wrapped: one line ran over the facet's frame into the next column
            # "design-only:" kept whole: three lines, not four, fit a short facet
            ax.text(0.5, 0.5, textwrap.fill(says[venue], 12, break_on_hyphens=False),
                    transform=ax.transAxes, ha="center", va="center", color=PALETTE["gray"],
                    fontsize="small")
    if grid.legend is not None:
        grid.legend.set_title(None)
    xlabel = "Cutoff of the probability of a false claim"
    if tall:
        return _venue_rows(grid, venues, width, xlabel), data
    grid.set_titles(row_template="{row_name}", col_template="")
    for i, ax in enumerate(grid.axes.flat):  # a, b, c along the first row, then the next
        panel_letter(ax, i, y=1.05)  # short facets: 1.02 would touch the "100" tick label
    for ax, venue in zip(grid.axes[0], venues):  # long venue names wrap above their column
        ax.set_title(textwrap.fill(venue, max(12, int(facet / MM / 2.3))))  # ~2.3 mm a char
    # Fig 5's axis labels, once for the grid (too long for one facet)
    grid.set_axis_labels("", "")
    labels_xy = (xlabel, "% of papers with P > cutoff")
    added = _fit_width(grid, width, *labels_xy)
    if _titles_within_columns(grid.axes[0], venues):  # rewrapped: lay out again
        for text in added:
            text.remove()
        _fit_width(grid, width, *labels_xy)
    return grid.figure, data


def _venue_rows(grid, venues: list[str], width: float, xlabel: str):
    """The layout of many venues: a row per venue (its name, wrapped, beside the row, as
    the task rows of Fig 5's companion are named), a column per task, lettered a, b, ...
    row by row."""
    grid.set_titles(template="")
    for ax, task_label in zip(grid.axes[0], [TASK_LABELS[t] for t in TASKS]):
        ax.set_title(task_label)
    grid.set_axis_labels("", "")
    for i, ax in enumerate(grid.axes.flat):
        panel_letter(ax, i, y=1.05)
    for ax, venue in zip(grid.axes[:, 0], venues):
        ax.set_ylabel(textwrap.fill(venue, 22) + "\n% with P > cutoff", fontsize="small")
    _fit_width(grid, width, xlabel, "")
    return grid.figure


def _titles_within_columns(axes, venues: list[str]) -> bool:
    """Wrap each column title no wider than its panel, so that it keeps clear of the panel
    letter of the next column (a title wider than its panel ran into that letter); the
    width of a character depends on the font, so it is measured. True if any changed."""
    renderer = axes[0].figure.canvas.get_renderer()
    changed = False
    for ax, venue in zip(axes, venues):
        limit = ax.get_window_extent(renderer).width
        chars = max(len(line) for line in ax.get_title().splitlines() or [""])
        while chars > 8 and ax.title.get_window_extent(renderer).width > limit:
            chars -= 1
            ax.set_title(textwrap.fill(venue, chars, break_long_words=False))
            changed = True
    return changed


def _fit_width(grid, width: float, xlabel: str, ylabel: str) -> tuple:
    """relplot widens the figure by its legend: back to ``width`` (inches, the style's
    double width), the panels narrowed to leave the legend its room on the right; the axis
    labels centred under / beside the panels (returned, as figure texts)."""
    fig = grid.figure
    fig.set_size_inches(width, fig.get_size_inches()[1])
    right = 1.0
    if grid.legend is not None:
        fig.canvas.draw()
        right -= grid.legend.get_window_extent().width / fig.bbox.width + 0.02
    line = 1.6 * figure_settings()["font_size"] / 72  # one text line, inches
    w, h = fig.get_size_inches()
    fig.tight_layout(rect=(line / w, line / h, right, 1))
    boxes = [ax.get_position() for ax in grid.axes.flat]
    x0, x1 = min(b.x0 for b in boxes), max(b.x1 for b in boxes)
    y0, y1 = min(b.y0 for b in boxes), max(b.y1 for b in boxes)
    return (fig.text((x0 + x1) / 2, 0.01, xlabel, ha="center", va="bottom"),
            fig.text(0.01, (y0 + y1) / 2, ylabel, ha="left", va="center", rotation=90))
