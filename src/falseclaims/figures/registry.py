"""Every figure of the pipeline, declared once.

A :class:`Figure` names the file stem, the function that draws it, the result tables it
reads, its caption (``workflow/report/<caption>.rst``), its place in the Snakemake report
and the job that draws it. Everything else is derived from :data:`FIGURES`: the rules'
outputs and the final targets (``workflow/rules/common.smk: figure_outputs``), the figures
each venue job draws (:func:`falseclaims.figures.venue.venue_figures`), the report entries and
the table of docs/figures.md (``python -m falseclaims.figures.registry`` prints it;
tests/test_figure_registry.py compares).

Kept free of heavy imports: the Snakefile reads it at every start; :attr:`Figure.function`
imports the drawing module only when asked.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

# report subcategories of a venue, in the order of the menu (sorted by name): the numbers
# first, then the figures and tables in the paper's order (their "#" label)
REPORT_NUMBERS = "1 · Numbers stated in the paper"
REPORT_FIGURES = "2 · Figures and tables"
REPORT_SELECTION = "3 · Selection"

# scope: (folder of its files, report category; None: the venue's label)
SCOPES = {
    "venue": ("figures/{venue}", None),
    "comparison": ("figures/comparison", "Venue comparison"),
    "estimation": ("figures/estimation", "Congruence and SD estimation"),
    "calibration": ("figures/calibration", "Calibration"),
    "multiplicity": ("figures/multiplicity", "Multiplicity"),
    "table": ("figures/table_agreement", "Table mode"),
}
# a venue's figures are drawn by one job per family (figures reading the same tables and
# parameters), so Snakemake runs the families in parallel and editing one figure's code or
# parameters reruns only its family: family -> job
VENUE_JOBS = {family: f"venue_figures_{family}"
              for family in ("reporting", "deltas", "exceedance", "lookup")}
# the job drawing a scope's figures unless a figure names another (a venue's: its family's)
SCOPE_RULES = {
    "comparison": "venue_comparison",
    "estimation": "estimation_figures",
    "calibration": "calibration_figures",
    "multiplicity": "multiplicity_figures",
    "table": "table_agreement",
}
EXTENSIONS = ("png", "pdf", "csv")  # the PNG is in the report; PDF and CSV beside it


@dataclass(frozen=True)
class Figure:
    """One figure: ``{folder}/{name}.{png,pdf,csv}`` drawn by ``draw`` (``module.function``
    in :mod:`falseclaims.figures`; a venue's figure: called with ``call``) from ``reads``;
    in the report under ``subcategory`` with
    the label ``order`` / ``title`` (no label: listed by file name)."""

    name: str
    draw: str
    reads: tuple[str, ...]
    caption: str
    scope: str
    subcategory: str
    order: str | None = None
    title: str | None = None
    rule: str | None = None  # default: the scope's job (SCOPE_RULES)
    task: str | None = None  # a figure drawn once per task
    # the call of a venue's figure: ``draw``'s arguments in order, each a table the job reads
    # (papers, flow, top2, probabilities, exceedance), a parameter of its rule, a field of
    # one ("populations.practices": ``survey.populations.Populations``), "task" (the
    # figure's) or "tasks.found" / "tasks.analysed"
    # (the tasks of the sheet's papers / of the analysed papers: the per-task panels)
    call: tuple[str, ...] = ()
    # drawn from the venue's comparisons and probabilities: a design-only venue (no results
    # recorded, read from its flow) gets one note instead
    of_results: bool = False

    @property
    def job(self) -> str:
        return self.rule or SCOPE_RULES[self.scope]

    @property
    def folder(self) -> str:
        return SCOPES[self.scope][0]

    @property
    def category(self) -> str | None:
        """Report category; None for a venue's figures (the venue's label)."""
        return SCOPES[self.scope][1]

    @property
    def labels(self) -> dict[str, str] | None:
        return {"#": self.order, "result": self.title} if self.order else None

    @property
    def function(self):
        module, name = self.draw.rsplit(".", 1)
        return getattr(importlib.import_module(f"falseclaims.figures.{module}"), name)

    def paths(self, **wildcards) -> dict[str, str]:
        """{ext: path} of its three files (``{venue}`` left as a wildcard unless given)."""
        folder = self.folder.format(**wildcards) if wildcards else self.folder
        return {ext: f"{folder}/{self.name}.{ext}" for ext in EXTENSIONS}


def _venue(name, draw, reads, order, title, *, family=None, caption=None,
           sub=REPORT_FIGURES, **kw):
    if family:
        kw["rule"] = VENUE_JOBS[family]
    return Figure(name, draw, reads, caption or name, "venue", sub, order, title, **kw)


# a venue's figures in drawing order (the report orders them by their "#" label). The
# supplement of [Christodoulou2025] numbers its figures S7-S10 while its main text cites them
# as S1-S4 (S1 uncertainty, S2 split sizes, S3 deltas, S4 SD sensitivity): titles give both
# the folders of the tables the figures read
V, EST, MULT, CAL = ("results/{venue}/", "results/estimation/", "results/multiplicity/",
                     "results/calibration/")

FIG6_CALL = ("task", "papers", "top2", "lookup_grid", "lookup_congruence", "sd_model",
             "planner", "test_set_splits", "populations.split_sizes", "venue_label")

FIGURES: tuple[Figure, ...] = (
    _venue("fig3_reporting_practices", "practices.fig3_reporting_practices",
           (V + "validated/papers.csv",), "01", "Fig 3: reporting practices",
           family="reporting", call=("papers", "populations.practices", "tasks.found")),
    _venue("figS7_uncertainty", "practices.figS7_uncertainty", (V + "validated/papers.csv",),
           "07", "Fig S1/S7: reporting of uncertainty",
           family="reporting", call=("papers", "populations.uncertainty", "tasks.found")),
    _venue("figS8_split_sizes", "sizes.figS8_split_sizes", (V + "validated/papers.csv",),
           "08", "Fig S2/S8: train, validation and test sizes",
           family="reporting",
           call=("papers", "populations.split_sizes", "seed", "test_set_splits",
                 "tasks.found")),
    _venue("flow_diagram", "flow.flow_diagram", (V + "flow.csv",), "01", "Selection flow",
           sub=REPORT_SELECTION, family="reporting", call=("flow",)),
    _venue("figS9_delta_distribution", "deltas.figS9_delta_distribution",
           (V + "top2.csv", V + "flow.csv"),
           "06", "Fig S3/S9: differences of the top two",
           family="deltas", of_results=True,
           call=("top2", "size_categories", "seed", "tasks.analysed")),
    _venue("fig4_delta_vs_size", "delta_vs_size.fig4_delta_vs_size",
           (V + "probabilities.csv", V + "flow.csv"), "02", "Fig 4: difference vs test-set size",
           family="deltas", of_results=True,
           call=("probabilities", "headline", "cutoff", "tasks.analysed")),
    _venue("fig5_exceedance", "exceedance.fig5_exceedance",
           (V + "exceedance.csv", V + "flow.csv"),
           "03", "Fig 5: share of papers above each cutoff",
           family="exceedance", of_results=True,
           call=("exceedance", "headline", "cutoff", "tasks.analysed")),
    _venue("fig5_congruence_sources", "sources.fig5_congruence_sources",
           (V + "exceedance.csv", V + "probabilities.csv", V + "flow.csv"),
           "03b", "Fig 5 companion: congruence sources compared",
           family="exceedance", of_results=True,
           call=("exceedance", "probabilities", "headline", "cutoff", "tasks.analysed")),
    _venue("figS10_sd_sensitivity", "sd_sensitivity.figS10_sd_sensitivity",
           (V + "exceedance.csv", V + "flow.csv"), "10", "Fig S4/S10: sensitivity to the imputed SD",
           family="exceedance", of_results=True, call=("exceedance", "headline", "cutoff")),
    _venue("figS10_sd_models", "sd_sensitivity.figS10_sd_models",
           (V + "exceedance.csv", V + "flow.csv"), "10b",
           "Fig S4/S10 companion: SD models compared",
           family="exceedance", of_results=True, call=("exceedance", "headline", "cutoff")),
    _venue("fig6_lookup_classification", "lookup.fig6_of_venue",
           (V + "validated/papers.csv", V + "top2.csv", "config"),
           "04", "Fig 6a: look-up grid, classification", caption="fig6_lookup",
           task="classification", family="lookup", call=FIG6_CALL),
    _venue("fig6_lookup_segmentation", "lookup.fig6_of_venue",
           (V + "validated/papers.csv", V + "top2.csv", "config"),
           "05", "Fig 6b: look-up grid, segmentation", caption="fig6_lookup",
           task="segmentation", family="lookup", call=FIG6_CALL),
    _venue("ties", "table.ties_figure",
           (V + "eligible.csv", V + "validated/results.csv", V + "top2.csv"),
           "11", "Methods tied with each paper's winner", caption="table_ties",
           rule="table_ties"),
    Figure("fig5_venues", "exceedance.fig5_venues", (V + "exceedance.csv", V + "flow.csv"),
           "fig5_venues", "comparison", "Fig 5", "01", "Fig 5: headline curve per venue"),
    Figure("fig5_venue_facets", "exceedance.fig5_venue_facets",
           (V + "exceedance.csv", V + "flow.csv"),
           "fig5_venue_facets", "comparison", "Fig 5", "02", "Fig 5 of every venue"),
    Figure("congruence_ecdf", "estimation.plot_congruence_ecdf",
           (EST + "congruence/{source}_pairs.csv",), "estimation_congruence_ecdf", "estimation",
           "Congruence", "01", "Congruence of every source (ECDF)"),
    Figure("congruence_by_task", "estimation.plot_congruence_by_task",
           (EST + "congruence/{source}_pairs.csv",), "estimation_congruence_by_task",
           "estimation", "Congruence", "02", "Congruence by task"),
    Figure("sd_models", "estimation.plot_sd_models",
           (EST + "sd_model/{source}_mean_sd.csv", EST + "sd_model/{source}.yaml"),
           "estimation_sd_models", "estimation", "SD model", "03",
           "SD of per-case DSC against mean DSC"),
    Figure("pmf_single_vs_best", "multiplicity.pmf_figure", ("config",),
           "multiplicity_pmf", "multiplicity", "Figures", "01",
           "Fig 1: one classifier at p and at its upper limit"),
    Figure("cdf_best", "multiplicity.cdf_figure", ("config",), "multiplicity_cdf",
           "multiplicity", "Figures", "02", "Fig 2: cdf of the best of m"),
    Figure("pmf_best", "multiplicity.best_pmf_figure", ("config",), "multiplicity_pmf_best",
           "multiplicity", "Figures", "03", "Fig 3: pmf of the best of m"),
    Figure("replicate_failures", "multiplicity.replicate_figure",
           (MULT + "dependent_replicate.csv",), "multiplicity_replicate", "multiplicity",
           "Figures", "04", "Fig 4: failures of 1000 classifiers in one replicate"),
    Figure("dependent_hist", "multiplicity.dependent_figure", (MULT + "dependent_draws.csv",),
           "multiplicity_dependent", "multiplicity", "Figures", "05",
           "Dependent classifiers: the best of m"),
    Figure("calibration_curves", "calibration.calibration_curves", (CAL + "curve.csv",),
           "calibration_curves", "calibration", "Figures", "01", "Calibration curves"),
    Figure("calibration_truth", "calibration.calibration_by_truth", (CAL + "curve.csv",),
           "calibration_truth", "calibration", "Figures", "02", "The simulated truth"),
    Figure("calibration_ece", "calibration.ece_dotplot", (CAL + "ece.csv",),
           "calibration_ece", "calibration", "Figures", "03", "Expected calibration error"),
    Figure("agreement", "table.agreement_figure", ("config",), "table_agreement",
           "table", "Agreement"),
)


def figures_of(job: str) -> tuple[Figure, ...]:
    """The figures one job draws, in drawing order."""
    return tuple(f for f in FIGURES if f.job == job)


def figure(name: str) -> Figure:
    return next(f for f in FIGURES if f.name == name)


# the figures of a venue's figure jobs, in drawing order
VENUE_FIGURES = tuple(f.name for f in FIGURES if f.job in VENUE_JOBS.values())


def markdown_table() -> str:
    """The table of docs/figures.md: one row per figure."""
    rows = ["| figure | file (`.pdf`, `.png`, `.csv`) | reads | function | job | caption |",
            "|---|---|---|---|---|---|"]
    for f in FIGURES:
        reads = ", ".join(f"`{r}`" if r != "config" else "config" for r in f.reads)
        rows.append(f"| {f.title or f.name} | `{f.folder}/{f.name}` | {reads} | "
                    f"`{f.draw}` | `{f.job}` | `{f.caption}.rst` |")
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown_table(), end="")
