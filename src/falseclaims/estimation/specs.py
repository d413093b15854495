"""A congruence or SD source of config ``estimation`` as one typed spec, read once.

The schema (schemas/estimation.schema.yaml) says which keys each ``type`` allows;
:meth:`SourceSpec.from_config` reads the validated mapping once, fills the defaults, and
the estimation code reads attributes only. One dataclass holds the union of the types'
fields (a field a type does not allow keeps its default): the readers share most of them
(``path``, ``metric``, ``case_mismatch``, ``columns``) and a per-case source serves as a
congruence source and as an SD source alike. No pandas here: the Snakefile parses specs
while it builds the rules (:func:`falseclaims.estimation.inputs.source_input_files`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields

__all__ = ["SourceSpec"]

# the case-id column a per-case file type names by default (its usual layout)
_CASE_COLUMN = {"wide_per_method": "name", "predictions_with_labels": "image"}


@dataclass(frozen=True)
class SourceSpec:
    """One entry of ``estimation.congruence_sources`` or ``estimation.sd_sources``."""

    type: str
    citation: str = ""
    # files: msd_pairwise / long / claims_reloaded / mean_sd_table read ``path``,
    # wide_per_method ``glob``, predictions_with_labels ``labels`` + ``groups``
    path: str | None = None
    glob: str | None = None
    labels: str | None = None
    groups: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    phases: tuple[int, ...] | None = None  # msd_pairwise
    case_column: str | None = None
    prediction_column: str = "predicted_lesion"
    label_column: str = "lesion"
    metric: str | None = None  # None: not set (long keeps every row; the others use dsc)
    case_mismatch: str = "error"
    min_cases: int = 3
    task: str = "task"  # claims_reloaded
    columns: Mapping[str, str] = field(default_factory=dict)  # {their column: ours}
    # sklearn
    datasets: tuple[str, ...] = ()
    models: tuple[str, ...] = ()
    test_size: float | None = None
    seed: int | None = None
    # SD sources: the fit, and the columns of a mean_sd_table
    form: str = "gamma"
    link: str = "identity"
    floor: float = 0.005
    task_column: str = "task"
    method_column: str = "method"
    mean_column: str = "mean_dsc"
    sd_column: str = "sd_dsc"
    n_column: str = "n_cases"

    @classmethod
    def from_config(cls, spec: Mapping) -> SourceSpec:
        """The spec of a validated config entry; keys the schema does not allow for its
        ``type`` are not there, so the defaults above stand for them."""
        values = dict(spec)
        kind = values["type"]
        unknown = sorted(set(values) - {f.name for f in fields(cls)})
        if unknown:
            raise ValueError(f"{kind} source: unknown key(s) {', '.join(unknown)}")
        values.setdefault("case_column", _CASE_COLUMN.get(kind))
        for key in ("phases", "datasets", "models"):
            if values.get(key) is not None:
                values[key] = tuple(values[key])
        values["groups"] = {g: tuple(files) for g, files in (values.get("groups") or {}).items()}
        values["columns"] = dict(values.get("columns") or {})
        if values.get("test_size") is not None:
            values["test_size"] = float(values["test_size"])
        values["floor"] = float(values.get("floor", cls.floor))
        return cls(**values)

    @property
    def data(self) -> str:
        """The input file or glob, as the fitted model's provenance names it."""
        return self.path or self.glob or ""
