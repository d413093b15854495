"""What each page computes: the form turned into the command's arguments, the command's
answer, and what the page shows beside it (the sensitivity band and assumptions of a
check, the Fig 6 grid of a plan). Refusals come back as {field: the command's message}.
"""

from __future__ import annotations

import os
import re
import tempfile
import time
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from markupsafe import Markup

from falseclaims.web.forms import (FieldError, option_fields, options, reported_values,
                                   text)
from falseclaims.web.runner import TimeLimitExceeded, field_of, run_child, run_inline

CHECK_FIELDS = ("task", "n", "a", "b", "sd_a", "sd_b", "congruence", "decimals")
PLAN_FIELDS = ("task", "delta", "level", "congruence", "target", "n_max", "sd_level")
PERCASE_OPTIONS = ("task", "layout", "subtask", "metric", "positive", "classes", "columns",
                   "units", "case_mismatch", "a", "b")
TABLE_OPTIONS = ("n", "task", "units", "table", "cutoff", "pm_over")
PASTE_FORMATS = {"latex": ".tex", "markdown": ".md", "csv": ".csv", "tsv": ".tsv"}


@dataclass
class Outcome:
    """One answer of the page: the command's envelope and report, or the refused fields."""
    errors: dict = field(default_factory=dict)
    envelope: dict | None = None
    envelope_text: str | None = None  # the command's stdout, byte for byte
    report: str | None = None
    context: dict = field(default_factory=dict)
    units: dict | None = None  # how the typed values were read (check and plan pages)

    def refuse(self, name: str, message: str) -> "Outcome":
        self.errors.setdefault(name, message)
        return self


@lru_cache(maxsize=1)
def _env():
    import jinja2

    from falseclaims.readout import probability_text

    env = jinja2.Environment(loader=jinja2.PackageLoader("falseclaims", "templates"),
                             autoescape=True, trim_blocks=True, lstrip_blocks=True,
                             undefined=jinja2.StrictUndefined)
    env.filters["p"] = lambda v, d=3: "–" if v is None else probability_text(v, d)
    env.filters["g"] = lambda v, d=4: "–" if v is None else f"{v:.{d}g}"
    env.filters["prow"] = _row_probability
    env.filters["prange"] = _row_range
    return env


def _row_probability(row, decimals: int = 3) -> str:
    """A check result row's probability as the command line prints it: one that underflowed
    to 0 is shown as its bound ("below 1e-300"), not as 0."""
    from falseclaims.readout import probability_text

    return probability_text(row["probability"], decimals, row["probability_underflow"])


def _row_range(row, decimals: int = 3) -> str:
    """A check result row's probability range over rounding, each end as
    :func:`_row_probability` shows it."""
    from falseclaims.readout import probability_text

    lo, hi = (probability_text(p, decimals, u) for p, u in zip(
        row["probability_range"], row["probability_range_underflow"]))
    return f"[{lo}, {hi}]"


def render(template: str, **context) -> str:
    return _env().get_template(template).render(**context)


# ------------------------------------------------------------------ check
def _check_argv(form) -> tuple[list[str], str, str]:
    """``falseclaims check`` arguments of the form (without output options), the units of
    the values and why; FieldError for values the command would never see."""
    units = text(form, "units") or "auto"
    values, unit, why = reported_values(form, ("a", "b", "sd_a", "sd_b"), units, ("a", "b"))
    argv = ["check", *options(form, ("task", "n", "congruence"))]
    argv += [f"--{k.replace('_', '-')}={v}" for k, v in values.items()]
    decimals = text(form, "decimals")
    if decimals:
        if unit == "percent" and decimals.isdigit():
            decimals = str(int(decimals) + 2)  # printed 85.2 (%) = 0.852: two more as fraction
        argv.append(f"--decimals={decimals}")
    return argv, unit, why


def check_outcome(form, config: str | None) -> Outcome:
    out = Outcome()
    try:
        argv, unit, why = _check_argv(form)
    except FieldError as exc:
        return out.refuse(exc.field, str(exc))
    ans = run_inline([*argv, "--json", *_config(config)])
    if ans.error:
        return out.refuse(field_of(ans.error, option_fields(CHECK_FIELDS)), ans.error)
    out.envelope, out.envelope_text = ans.envelope, ans.stdout
    out.units = units_reading(form, unit, why)
    out.context = {"units": unit, "units_why": why, **_check_context(out.envelope, config)}
    return out


def units_reading(form, unit: str, why: str) -> dict:
    """The JSON answer's ``units``: how the page read the typed values (the command sees only
    fractions, so its envelope cannot say that 86 was read as 0.86)."""
    how = "detected" if (text(form, "units") or "auto") == "auto" else "declared"
    return {"read_as": unit, "how": how, "note": why}


def _check_context(env: dict, config: str | None) -> dict:
    """The sensitivity band, verdict colour, formula and assumptions beside the numbers."""
    from falseclaims.config import Headline, SourceCitations, configured_congruence, load_config
    from falseclaims.report import FORMULAS, IMPLAUSIBLE_COLOUR
    from falseclaims.percase.verdict import thresholds
    from falseclaims.table.analysis import pair_probability

    cfg = load_config(config)
    res, inputs = env["result"], env["inputs"]
    head = Headline.from_config(cfg)
    main = next((r for r in res["results"] if r["assumption"] == "median"), res["results"][0])
    band = pair_probability(res["task"], res["n"], res["a"], res["b"], inputs["sd_a"],
                            inputs["sd_b"], cfg, decimals=res.get("decimals"), band=True)
    cites = SourceCitations.from_config(cfg)
    # inputs that cannot all be right: no verdict colour (report.IMPLAUSIBLE_COLOUR)
    colour = IMPLAUSIBLE_COLOUR if res.get("implausible") else verdict_colour(res["verdict"])
    ctx = {"main": main, "colour": colour,
           "band": band["band"], "band_sd_levels": band["band_sd_levels"],
           "formula": Markup(FORMULAS[res["task"]]), "thresholds": thresholds(cfg),
           "congruence": configured_congruence(cfg, head.congruence_source)[res["task"]],
           "congruence_citation": cites.congruence,
           "sd_citation": None, "sd_level": head.sd_level}
    if res["task"] == "segmentation":
        ctx["sd_citation"] = cites.sd
    return ctx


def verdict_colour(label: str) -> str:
    """The colour the reports give a verdict, from the verdict as the command words it."""
    from falseclaims.report import LEVEL_COLOURS
    from falseclaims.percase.verdict import LABELS

    return LEVEL_COLOURS[{v: k for k, v in LABELS.items()}[label]]


def check_report(form, config: str | None) -> Outcome:
    """``falseclaims check --report``: the same arguments, the report file read back."""
    out = check_outcome(form, config)
    if out.errors:
        return out
    argv = _check_argv(form)[0]
    with tempfile.TemporaryDirectory(prefix="falseclaims-web-") as tmp:
        path = os.path.join(tmp, "check_report.html")
        ans = run_inline([*argv, *_config(config), f"--report={path}"])
        if ans.error:
            return out.refuse("form", ans.error)
        out.report = Path(path).read_text(encoding="utf-8")
    return out


# ------------------------------------------------------------------ plan
def plan_outcome(form, config: str | None) -> Outcome:
    out = Outcome()
    units = text(form, "units") or "auto"
    try:
        values, unit, why = reported_values(form, ("delta", "level"), units)
    except FieldError as exc:
        return out.refuse(exc.field, str(exc))
    argv = ["plan", "--json", *_config(config),
            *options(form, ("task", "congruence", "target", "n_max", "sd_level"))]
    argv += [f"--{k}={v}" for k, v in values.items()]
    ans = run_inline(argv)
    if ans.error:
        return out.refuse(field_of(ans.error, option_fields(PLAN_FIELDS)), ans.error)
    out.envelope, out.envelope_text = ans.envelope, ans.stdout
    out.units = units_reading(form, unit, why)
    out.context = {"units": unit, "units_why": why, "grid": _plan_grid(out.envelope, config)}
    return out


def _plan_grid(env: dict, config: str | None) -> dict | None:
    """The Fig 6 look-up grid (sizes x deltas, P at Q1/median/Q3 congruence) of the config's
    ``lookup_grid`` around the planned size: its delta added as a row, the size the planner
    found at the median congruence as a column (:func:`falseclaims.figures.lookup.lookup_data`,
    the function of the figure)."""
    from falseclaims.config import (LookupGrid, Planner, configured_congruence, load_config,
                                    sd_model_from_config)
    from falseclaims.figures.lookup import lookup_data

    res, inputs = env["result"], env["inputs"]
    if inputs.get("congruence") is not None:
        return None  # the grid shows the three configured congruence levels
    cfg = load_config(config)  # lookup_grid is among the packaged defaults of the commands
    grid, task = LookupGrid.from_config(cfg), res["task"]
    sizes = grid.tasks[task].n
    delta, level = float(inputs["delta"]), float(inputs["level"])
    if not 0 < level - delta:
        return None
    source = res["results"][0]["congruence_source"]
    sd_model = sd_model_from_config(cfg, inputs["sd_source"]) if task == "segmentation" \
        else None
    found = [r["n"] for r in res["results"] if r["congruence_level"] == "median" and r["found"]]
    n_obs = found[0] if found else sizes[len(sizes) // 2]
    deltas = sorted({*grid.tasks[task].delta, delta})
    deltas = [d for d in deltas if d < level]
    bands = (res["target"], max(res["target"], grid.bands[1]))  # green up to target
    data, info = lookup_data(task, sizes, deltas, level,
                             configured_congruence(cfg, source)[task], sd_model,
                             inputs["sd_level"] or Planner.from_config(cfg).sd_level,
                             observed=(n_obs, delta), target=res["target"], bands=bands,
                             n_max=res["n_max"], band_rule="green_at_most")
    ns = sorted(data["n"].unique())
    rows = []
    for d in sorted(data["delta"].unique()):
        cells = data[data["delta"] == d].set_index("n")
        rows.append({"delta": d, "mine": d == delta,
                     "cells": [cells.loc[n].to_dict() for n in ns]})
    return {"ns": ns, "rows": rows, "n_star": info["plan"].n if info["plan"] and
            info["plan"].found else None, "level": level, "bands": bands}


# ------------------------------------------------------------------ uploads
def _uploads(names: list[tuple[str, object]], tmp: str) -> dict[str, list[str]]:
    """Save uploaded files into ``tmp`` under their own (made safe) names; {field: names}."""
    saved: dict[str, list[str]] = {}
    used: set[str] = set()
    for name, storage in names:
        if storage is None or not storage.filename:
            continue
        base = upload_name(storage.filename)
        stem, suffix = os.path.splitext(base)
        k = 1
        # two files of the same name: keep both (case folded: one file on macOS, Windows)
        while base.casefold() in used:
            k += 1
            base = f"{stem}_{k}{suffix}"
        used.add(base.casefold())
        storage.save(os.path.join(tmp, base))
        saved.setdefault(name, []).append(base)
    return saved


_DEVICES = {"CON", "PRN", "AUX", "NUL", *(f"{p}{k}" for p in ("COM", "LPT") for k in range(1, 10))}


def upload_name(filename: str) -> str:
    """An uploaded file's name, safe to save and to pass to the command: no folder, no
    leading dot or dash (an option to the command), no character a file system treats
    specially. Letters of any script are kept: werkzeug's ``secure_filename`` keeps ASCII
    only, so '结果.csv' became 'csv' (no extension: "unsupported file type") and per-method
    files 'モデルA.csv', 'モデルB.csv' became the methods 'csv' and 'csv_2'."""
    name = unicodedata.normalize("NFC", re.split(r"[/\\]", filename)[-1])
    name = re.sub(r"[^\w.\- ]", "_", name)
    stem, dot, ext = name.rpartition(".")
    if not (dot and ext.strip()):
        stem, ext = name, ""
    stem = stem.strip(" .").lstrip("-_") or "upload"
    if stem.split(".")[0].upper() in _DEVICES:  # reserved on Windows whatever the extension
        stem = f"_{stem}"
    return stem[:100] + (f".{ext.strip()[:20]}" if ext.strip() else "")


def percase_outcome(form, files, config: str | None, time_limit: float) -> Outcome:
    out = Outcome()
    with tempfile.TemporaryDirectory(prefix="falseclaims-web-") as tmp:
        saved = _uploads([("files", f) for f in files.getlist("files")]
                         + [("labels", files.get("labels"))], tmp)
        if "files" not in saved:
            return out.refuse("files", "choose one per-case file (several for the wide "
                                       "per-method or predictions layouts)")
        argv = ["percase", *saved["files"], "--json", "--report=percase_report.html",
                *_config(config), *options(form, PERCASE_OPTIONS)]
        if "labels" in saved:
            argv.append(f"--labels={saved['labels'][0]}")
        if text(form, "all_pairs"):
            argv.append("--all-pairs")
        if text(form, "paired_by_order"):  # the command's option, its checks and its notes
            argv.append("--paired-by-order")
        fields = {**option_fields(PERCASE_OPTIONS), "labels": "labels",
                  "paired-by-order": "paired_by_order"}
        return _run_upload(out, argv, tmp, time_limit, fields, "percase_report.html",
                           saved["files"])


def table_outcome(form, files, config: str | None, time_limit: float) -> Outcome:
    out = Outcome()
    pasted = str(form.get("text", "") or "")
    upload = files.get("file")
    has_file = upload is not None and bool(upload.filename)
    if has_file == bool(pasted.strip()):
        return out.refuse("text", "paste a table or choose a file (one of the two)")
    with tempfile.TemporaryDirectory(prefix="falseclaims-web-") as tmp:
        if has_file:
            name = _uploads([("file", upload)], tmp)["file"][0]
            field_name = "file"
        else:
            fmt, why = paste_format(pasted, text(form, "format") or "auto")
            if fmt is None:
                return out.refuse("format", why)
            name = "pasted" + PASTE_FORMATS[fmt]
            Path(tmp, name).write_text(pasted, encoding="utf-8")
            out.context.update(pasted_format=fmt, pasted_why=why)
            field_name = "text"
        argv = ["table", name, "--json", "--report=table_report.html", *_config(config),
                *options(form, TABLE_OPTIONS)]
        argv += [f"--metric={m.strip()}" for m in text(form, "metric").split(";") if m.strip()]
        fields = {**option_fields(TABLE_OPTIONS), "metric": "metric"}
        return _run_upload(out, argv, tmp, time_limit, fields, "table_report.html", [name],
                           field_name)


_MD_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")


def paste_format(pasted: str, declared: str) -> tuple[str | None, str]:
    """The format of pasted text: declared, or recognised by what each format must have."""
    if declared in PASTE_FORMATS:
        return declared, f"declared ({declared})"
    if declared != "auto":
        return None, (f"format must be one of auto, {', '.join(PASTE_FORMATS)}; "
                      f"got {declared!r}")
    if "\\begin{tabular" in pasted:
        return "latex", "recognised: \\begin{tabular}"
    lines = [ln.strip() for ln in pasted.splitlines() if ln.strip()]
    if lines and all(ln.startswith("|") for ln in lines):
        return "markdown", "recognised: every line starts with |"
    # a caption or a note pasted with the table: a | header line over a |---| line
    if any(a.startswith("|") and _MD_RULE.match(b) for a, b in zip(lines, lines[1:])):
        return "markdown", "recognised: a | header line over a |---| line"
    if lines and "\t" in lines[0]:
        return "tsv", "recognised: tabs in the first line"
    if lines and "," in lines[0]:
        return "csv", "recognised: commas in the first line"
    if lines and ";" in lines[0]:  # a CSV saved where the decimal mark is a comma
        return "csv", "recognised: semicolons in the first line"
    return None, ("format not recognised (no \\begin{tabular}, no | rows, no tabs, commas or "
                  "semicolons in the first line); choose the format")


def _run_upload(out: Outcome, argv, tmp, time_limit, fields, report, names,
                file_field: str = "files") -> Outcome:
    start = time.monotonic()
    try:
        ans = run_child(argv, tmp, time_limit)
        left = time_limit - (time.monotonic() - start)
        if ans.error and left > 0:
            # the report is written last: when only it failed, the command's answer without
            # it is still shown, with the report's error beside it
            bare = run_child([a for a in argv if a != f"--report={report}"], tmp, left)
            if not bare.error:
                out.context["report_error"] = ans.error
                ans = bare
    except TimeLimitExceeded as exc:
        return out.refuse("form", str(exc))
    if ans.error:
        about_file = ans.error.startswith(tuple(names))  # "FILE: ..." / "FILE, column ..."
        default = file_field if about_file or any(n in ans.error for n in names) else "form"
        # the field from the error's own line: the problems listed below it name options
        # only as hints
        name = default if about_file else field_of(ans.error.split("\n")[0], fields, default)
        return out.refuse(name, ans.error)
    out.envelope, out.envelope_text = ans.envelope, ans.stdout
    if "verdict" in out.envelope["result"]:  # percase
        out.context["colour"] = verdict_colour(out.envelope["result"]["verdict"])
    path = Path(tmp, report)
    out.report = path.read_text(encoding="utf-8") if path.is_file() else None
    return out


def _config(config: str | None) -> list[str]:
    return [f"--config={config}"] if config else []


def result_html(kind: str, outcome: Outcome) -> str:
    if outcome.envelope is None:
        return ""
    return render(f"web_{kind}_result.html.j2", env=outcome.envelope,
                  res=outcome.envelope["result"], notes=outcome.envelope["notes"],
                  report=outcome.report, **outcome.context)
