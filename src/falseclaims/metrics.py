"""What a column of reported results measures (a results table's column, a sheet's value
column): the metric, its direction (higher or lower is better) and whether falseclaims has a
probability model for it. Below table mode and the sheet drafting, which both read it.

A column is one of
- a metric with a model: accuracy (classification), Dice/DSC (segmentation), an error rate
  (analysed as accuracy = 1 - error rate);
- a metric without a model (IoU, AP, surface Dice, HD95, MAE, C-index, ...): ranked by its
  direction, the winner reported, no probability unless per-case SDs are given;
- not a metric (SD/std columns, parameters, memory, time, FLOPs, rank): ignored with a note;
- unknown (a name that says neither): not read, with the option that would read it.

Direction comes first from a header arrow (``↑``/``↓``, ``$\\uparrow$``), then from the
metric name; a lower-is-better column is never read as a higher-is-better score.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from falseclaims.tasks import TASKS

__all__ = ["KINDS", "Kind", "classify", "is_distance", "kind_from_option", "metric_task",
           "names_a_metric", "printed_text", "segmentation_sibling_kind",
           "stated_direction"]


def printed_text(text: str) -> str:
    """Header or caption text as its metric names are matched: NFKC-normalised, so the
    ligatures of a PDF copy (``Speciﬁcity``, ``Eﬃciency``) and full-width letters read as
    the letters they stand for."""
    return unicodedata.normalize("NFKC", str(text))

# {task: the spellings of its metric}: config ``analysis.metrics``, handed in by the caller
# (``config.Eligibility.metrics``), since this module sits below ``config`` in the layers
Spellings = Mapping[str, Sequence[str]]

# --metric COLUMN=KIND
KINDS = ("dice", "accuracy", "error-rate", "higher", "lower")


@dataclass(frozen=True)
class Kind:
    """``task``: the engine's task when a model exists; ``complement``: values are error
    rates (analysed as 1 - value); ``ignore``: why the column is not a metric."""

    direction: str | None = None          # "higher" | "lower" | None (unknown)
    task: str | None = None
    complement: bool = False
    source: str = ""
    ignore: str = ""
    bounded: bool = False                 # a score in [0, 1] or [0, 100] (units detected)

    @property
    def known(self) -> bool:
        return self.direction is not None


# a qualified metric is not the plain one: balanced accuracy, top-5 accuracy, surface Dice
# object-level Dice / F1 (gland segmentation: Sirinukunwattana et al. 2017) average over objects
_QUALIFIED = re.compile(r"\bobj(?:ect)?\b|balanced|weighted|top-?\s*[2-9]|surface|"
                        r"normali[sz]ed|\bnsd\b|\bauc\b|\bf1\b|\biou\b|\bhd\d*\b|sensitivity|"
                        r"specificity|\bloss\b|\berr(?:or)?\b|\bsd\b|\bstd\b")

_UP = re.compile(r"↑|⇑|\\uparrow|\\Uparrow|\(higher\)|higher (?:is )?better")
_DOWN = re.compile(r"↓|⇓|\\downarrow|\\Downarrow|\(lower\)|lower (?:is )?better")
# SD columns are the spread of another column, never a score
_SD = re.compile(r"(?:^|[\s_-])(?:sd|s\.d\.|std|stdev|std\.? ?dev\.?|standard deviation|"
                 r"variance|var|iqr|ci|95% ?ci|confidence interval|standard error|"
                 # SE / SEM in capitals: a standard error ("Se" is sensitivity in some papers)
                 r"(?-i:SEM?))(?:$|[\s_.])", re.I)
# "Dice (SD)", "Dice ± std", "C-index [95% CI boot]": a mean with its SD or interval, not an
# SD column
_WITH_SD = re.compile(r"\([^)]*\)|\[[^\]]*\]|(?:±|\\pm|\+/-)\s*\S+")
_NOT_METRIC = re.compile(
    r"(?:^|[\s(#_-])(?:#?\s*params?|parameters|flops|gflops|macs|gmacs|memory|mem|gpu|vram|"
    r"time|runtime|run time|inference|latency|fps|speed|throughput|epochs?|year|"
    r"size|model size|mb|gb|ms|sec|seconds|minutes|hours|rank|ranking|#|frames|features|"
    r"calibration slope|calibration intercept|slope|intercept|diff|difference|δ|Δ|delta|"
    r"change|gain|improvement|p|p-?value)(?:$|[\s)_./-])", re.I)
# a difference of a metric (Δ Acc., ΔDice, Dice gain, Δ vs Full) is not the metric: scored as
# one it would rank gains as accuracies; capital Δ only (δ < 1.25 is a depth accuracy)
_DIFFERENCE = re.compile(r"Δ|\\Delta(?![a-z])|变化|差值|差异|增益|提升|"  # change, difference, gain
                         r"(?i:^\s*(?:delta|diff\.?|difference|change|gain|"
                         r"improvement)(?=\s|\(|$)|\b(?:gain|improvement|difference|drop|"
                         r"reduction|decrease|increase|gap)\s*"
                         r"(?:$|\(|over\b|vs\b|w\.?r\.?t\b))")
# a distance between surfaces or points (mm, voxels): never a percent, whatever its cells print
_DISTANCE = re.compile(r"(?:^|[^a-z])(?:hd|hd ?95|95 ?hd|mhd|hausdorff|assd|asd|asssd|msd|masd|"
                       r"hd ?\d+|surface distance|tre|target registration error)(?:$|[^a-z])",
                       re.I)


def is_distance(header: str) -> bool:
    """Whether a column header names a surface or point distance (HD95, ASSD, TRE)."""
    return bool(_DISTANCE.search(printed_text(header)))


# a deviation from the reference that carries a sign (count or area bias, relative volume
# difference, mean error): best nearest 0, so a negative value is never "lower is better"
_SIGNED = re.compile(r"(?:^|[^a-z])(?:bias|rvd|ravd|signed|error|err|me|mae)(?:$|[^a-z])", re.I)


def is_signed_deviation(header: str) -> bool:
    """Whether a column header names a deviation that may be printed with its sign (bias,
    RVD, mean error)."""
    return bool(_SIGNED.search(printed_text(header)))


_ERROR_RATE = re.compile(r"error rate|err(?:or)?\.? ?rate|top-?1 err|classification error|"
                         r"misclassification", re.I)
_LOWER = re.compile(
    r"(?:^|[^a-z])(?:hd|hd ?95|95 ?hd|hd95|hausdorff|assd|asd|asssd|msd|masd|mad|hd ?\d+|"
    # aneurysm segmentation (ADAM, Timmins et al. 2021): the modified Hausdorff distance
    r"mhd|"
    r"surface distance|distance|dist|error|err|loss|mae|mse|rmse|nll|ece|brier|avd|rvd|voe|"
    # reconstruction: normalised (root) mean squared error (fastMRI, Zbontar et al. 2018);
    # forecasting: mean absolute percentage error
    r"nmse|nrmse|mape|smape|"
    # liver segmentation (LiTS, Bilic et al. 2023): root mean square and maximum symmetric
    # surface distance
    r"rmsd|mssd|"
    r"aurc|e-?aurc|area under the risk-coverage curve|"
    r"fpr|fnr|fdr|fid|lpips|tre|miss rate|false positives?|false negatives?|ibs|"
    r"integrated brier|solved at|steps to|iterations to|mean rank|median rank|avg\.? rank|"
    r"average rank|"
    r"fp|fn|abs ?rel|rel ?err|bias|alarms?|false alarms?|alarm rate|ravd|fppi|"
    # registration regularity: folded voxels (a non-positive Jacobian determinant), the SD of
    # its log; before _HIGHER, whose "jac" (Jaccard) would read "Non-pos. Jac." as an overlap
    r"(?:non-?pos(?:itive)?|neg(?:ative)?)\.? ?jac(?:\.|obians?)?(?: det(?:\.|erminants?)?)?|"
    r"jacobian det(?:\.|erminants?)? ?(?:<|≤|<=) ?0|\|j[^|]*\| ?(?:<|≤|<=) ?0|\|j\|_?<0|"
    r"njd|sd ?log ?j|std ?log ?j|folding(?: ratio| rate)?|folded(?: voxels)?)(?:$|[^a-z])", re.I)
_HIGHER = re.compile(
    r"(?:^|[^a-z])(?:dice|dsc|m?iou|jaccard|jac|jc|acc|accuracy|bacc|auc|auroc|auprc|roc|"
    r"ap|map|ap\d*|ap[sml]|ap@?[\d.:]*|mAP|r\^?2|f1|f-?score|f1-?score|precision|prec|recall|rec|"
    # SEN / SPE: README abbreviations of sensitivity / specificity; clDice: centreline Dice
    # (Shit et al. 2021, CVPR), a score in [0, 1] like Dice
    r"sensitivity|sens|sen|specificity|spec|spe|ppv|npv|nsd|nsdc|sdsc|surface dice|c-?index|"
    # the same scores in French, Spanish and Portuguese READMEs (ranked, no model)
    r"précision|rappel|sensibilit[ée]|sensibilidade?|spécificité|especificidade?|"
    r"acur[áa]cia|exactitud|precis[ãa]o|precisi[óo]n|"
    # the area under the precision-recall curve (AUPR; AUC-PR and PR-AUC are read as AUC);
    # the Tversky index, Dice with false negatives and positives weighted (Salehi et al.
    # 2017), a score in [0, 1]
    r"aupr|tversky(?: index)?|"
    r"cl-?dice|"
    # image similarity after registration (normalised / local cross-correlation); the
    # competition performance metric of lung-nodule detection (mean sensitivity over seven
    # FROC operating points, Setio et al. 2017)
    r"ncc|lncc|cpm|froc(?: score)?|"
    # salient / camouflaged-object and polyp segmentation (Fan et al. 2017, 2018; PraNet,
    # Fan et al. 2020): S-measure, E-measure (mean, max, adaptive), weighted F-measure
    r"s-?measure|s(?:α|alpha)|e-?measure|e(?:φ|ϕ|phi|ξ)|(?-i:mE|maxE|meanE|adpE)|"
    r"weighted f-?measure|f(?:ω|w)?(?:β|beta)|"
    r"concordance|score|psnr|ssim|ms-ssim|kappa|mcc|pq|sq|rq|aji|r2|r²|correlation|pcc|"
    # agreement with reference scores (image-quality assessment, measurement agreement):
    # Spearman / Pearson / Kendall correlation and the intraclass correlation; they reach -1,
    # so never a bounded score
    r"s?rocc|srcc|plcc|krocc|krcc|icc|spearman(?:'?s)?(?: rho| ρ)?|pearson(?:'?s)?(?: r)?|"
    r"kendall(?:'?s)?(?: tau| τ)?|"
    # Youden's index J = sensitivity + specificity - 1 (Youden 1950), in [-1, 1]: never a
    # bounded score
    r"youden(?:'?s)?(?: index| j)?|"
    r"overlap|tpr|tnr|hit rate|hits@?\d*|top-?\d acc|cdice|dice score|dc|success rate|"
    r"average precision|td-?auroc|td-?auc|bf1|bf-?score|boundary f1|utility|net benefit|"
    # continual learning (Lopez-Paz & Ranzato 2017): transfer to earlier / later tasks,
    # negative when forgetting; higher is better, never a bounded score
    r"bwtr?|fwt|backward transfer|forward transfer|"
    # clustering agreement with the labels (Hubert & Arabie 1985; Fowlkes & Mallows 1983):
    # higher is better; the adjusted Rand index can be negative, so never a bounded score
    r"ari|ami|nmi|fmi|adjusted rand(?: index)?|rand index|adjusted mutual information|"
    r"normali[sz]ed mutual information|fowlkes-?mallows(?: index)?)"
    r"(?:$|[^a-z])",
    re.I)


# scores in [0, 1] (or percent): units are detected as for accuracy and Dice; not Cohen's
# kappa or MCC, which reach -1 (ranked as printed, like the adjusted Rand index)
_BOUNDED = re.compile(
    r"(?:^|[^a-z])(?:dice|dsc|m?iou|jaccard|acc|accuracy|bacc|auc|auroc|auprc|ap|map|ap\d*|ap[sml]|"
    r"f1|f-?score|f1-?score|precision|recall|sensitivity|sen|specificity|spe|ppv|npv|nsd|cl-?dice|"
    r"acur[áa]cia|exactitud|precis[ãa]o|precisi[óo]n|aupr|tversky(?: index)?|"
    r"s-?measure|s(?:α|alpha)|e-?measure|e(?:φ|ϕ|phi|ξ)|(?-i:mE|maxE|meanE|adpE)|"
    r"weighted f-?measure|f(?:ω|w)?(?:β|beta)|"
    r"surface dice|c-?index|concordance|success rate|tpr|tnr|average precision|cpm|"
    r"overlap|bf1|bf-?score|boundary f1)(?:$|[^a-z])", re.I)


def metric_task(header: str, spellings: Spellings) -> str | None:
    """The task a metric name stands for, or None (also for qualified names such as balanced
    or top-5 accuracy, surface Dice). ``spellings``: {task: the names of its metric}, config
    ``analysis.metrics`` as its caller read it (``config.Eligibility.metrics``)."""
    low = printed_text(header).lower()
    if _QUALIFIED.search(low):
        return None
    words = re.findall(r"[a-z]+", low)
    for task in TASKS:
        for spelling in spellings[task]:
            s = spelling.lower()
            if " " in s and s in " ".join(words):
                return task
            if s in words or any(w in (f"m{s}", f"{s}s") for w in words):
                return task
    return None


# abbreviations that name a segmentation metric only beside one: VS, volumetric similarity
# (1 - |FN - FP| / (2TP + FP + FN), in [0, 1]), and MD, the mean (surface) distance, printed
# beside Dice / HD in challenge leaderboards (ADAM: Timmins et al. 2021; CADA); alone, "VS"
# and "MD" name a comparison or a physician
_SIBLING_ONLY = {"vs": Kind("higher", source="VS, volumetric similarity, beside a segmentation "
                                            "metric", bounded=True),
                 "md": Kind("lower", source="MD, mean distance, beside a segmentation metric")}
_SEGMENTATION_SIBLING = re.compile(r"(?:^|[^a-z])(?:dice|dsc|m?iou|jaccard|hd|hd ?95|mhd|"
                                   r"hausdorff|assd|asd)(?:$|[^a-z])", re.I)


def segmentation_sibling_kind(header: str, others: Sequence[str]) -> Kind:
    """The kind of a ``VS`` or ``MD`` column when another header of its table names a
    segmentation metric (Dice, IoU, HD); else the unknown kind."""
    name = re.sub(r"\s*[(\[][^()\[\]]*[)\]]\s*$", "", printed_text(header)).strip().lower()
    kind = _SIBLING_ONLY.get(name)
    if kind is None or not any(_SEGMENTATION_SIBLING.search(printed_text(h)) for h in others
                               if h != header):
        return Kind()
    return kind


def kind_from_option(kind: str, source: str) -> Kind:
    """A ``--metric COLUMN=KIND`` or ``--lower-better COLUMN`` choice."""
    if kind not in KINDS:
        raise ValueError(f"{source}: the metric kind must be one of {', '.join(KINDS)}; got "
                         f"{kind!r}")
    return {"dice": Kind("higher", "segmentation", source=source),
            "accuracy": Kind("higher", "classification", source=source),
            "error-rate": Kind("lower", "classification", True, source=source),
            "higher": Kind("higher", source=source),
            "lower": Kind("lower", source=source)}[kind]


_OPERATING_POINT = re.compile(r"(?i)(?<=[a-z)])\s*(?:@|\bat\b)\s*[\d.]+\s*(?:fps?|fppi|"
                              r"false positives?)(?:\s*/\s*[a-z]+)?")


def _by_name(text: str, spellings: Spellings) -> Kind:
    # snake_case words are words ("wt_hd95_mm" -> "wt hd95 mm"); a subscript is not
    # ("F_1 -score" -> "F1-score")
    text = re.sub(r"_(?=[A-Za-z]{2})|(?<=[A-Za-z]{2})_", " ", text)
    text = re.sub(r"\s*-\s*", "-", re.sub(r"[_{}$]", "", text))
    # an operating point after the metric ("Sensitivity@1FP", "Recall at 8 FPs/scan") is not
    # the metric: the false positives it names must not make it lower-is-better
    text = _OPERATING_POINT.sub(" ", text)
    one_minus = re.fullmatch(r"\s*1\s*[-−–]\s*([A-Za-z][A-Za-z\- ]*?)\s*(?:\([^()]*\))?\s*", text)
    if one_minus and _by_name(one_minus[1], spellings).direction == "higher":
        # 1 - Dice: the complement of a score (not "1-s=0.2 Accuracy", a density label)
        return Kind("lower", source="metric name (1 minus a score)")
    if _ERROR_RATE.search(text):
        return Kind("lower", "classification", True, "metric name (error rate = 1 - accuracy)",
                    bounded=True)
    task = metric_task(text, spellings)
    if task is not None:
        return Kind("higher", task, source="metric name", bounded=True)
    if _LOWER.search(text):
        return Kind("lower", source="metric name")
    if _HIGHER.search(text):
        return Kind("higher", source="metric name", bounded=bool(_BOUNDED.search(text)))
    split = _CAMEL.sub(" ", text)
    if split != text:  # ObjDice, ObjF1, MeanHD: a metric glued to its qualifier
        return _by_name(split, spellings)
    return Kind()


# a lower-case run of two letters and more, then a capital: "ObjDice" -> "Obj Dice" (not
# "mIoU", "mDice"; clDice is a metric of its own, known before the split is tried)
_CAMEL = re.compile(r"(?<=[a-z]{2})(?=[A-Z])")


def classify(header: str, spellings: Spellings, context: str = "",
             where: str = "caption") -> Kind:
    """The kind of a column named ``header``; ``spellings`` as in :func:`metric_task`;
    ``context``: the caption or row-group heading (``where``), used when the header names no
    metric (per-structure columns such as Liver, Spleen under "Dice" in the caption).
    """
    h, context = printed_text(header).strip(), printed_text(context)
    up, down = bool(_UP.search(h)), bool(_DOWN.search(h))
    if _SD.search(f" {_WITH_SD.sub(' ', h)} ") and not (up or down):
        # an arrow makes a spread a metric of its own ("Risk Std ↓": the SD of the per-image
        # risk, ranked by the authors), as it does for time or size below
        return Kind(ignore="an SD/spread column (never scored)")
    if _DIFFERENCE.search(h):
        return Kind(ignore="a difference between two results (Δ, gain, change), not a score "
                           "of one method")
    name = _UP.sub(" ", _DOWN.sub(" ", h))
    if _NOT_METRIC.search(f" {name} ") and not (_HIGHER.search(name) or _LOWER.search(name)
                                                or up or down):
        return Kind(ignore="not a metric (size, time, memory, parameters, rank, a difference "
                           "or a p-value)")
    paren = [_by_name(m, spellings) for m in re.findall(r"\(([^()]*)\)", name)]
    paren = [k for k in paren if k.known]
    kind = paren[0] if len(paren) == 1 else _by_name(name, spellings)
    if up and down:
        raise ValueError(f"column {header!r} has both an up and a down arrow")
    if up or down:
        arrow = "higher" if up else "lower"
        if kind.known and kind.direction != arrow:
            return Kind(arrow, source=f"header arrow (the name {kind.source} suggests "
                                      f"{kind.direction} is better; the arrow decides)")
        if kind.known:
            return Kind(arrow, kind.task, kind.complement, f"header arrow and {kind.source}",
                        bounded=kind.bounded)
        return Kind(arrow, source="header arrow")
    if not kind.known and context:
        k = _context_kind(context, spellings)
        first = re.split(r"(?<=[a-z0-9)])\.\s+(?=[A-Z])", context.strip(), maxsplit=1)
        if k is None and len(first) > 1 and (k := _context_kind(first[0], spellings)) is not None:
            # "Test Dice on ... . U2PL suffers from NaN loss": the first sentence says
            # what the table reports, later ones comment on it
            where = f"first sentence of the {where}"
        if k is not None:
            return Kind(k.direction, k.task, k.complement, f"{k.source} in the {where}",
                        bounded=k.bounded)
    return kind


def _context_kind(context: str, spellings: Spellings) -> Kind | None:
    """The one metric a caption or heading names, or None (none, or several that differ)."""
    found = {k for k in (_by_name(w, spellings) for w in _metric_words(context)) if k.known}
    modelled = {k for k in found if k.task}
    if len({k.direction for k in found}) == 1 and len(modelled) <= 1:
        return modelled.pop() if modelled else found.pop() if len(found) == 1 else None
    return None


_STATED = re.compile(r"(?i)\bfor\s+([\w][\w\s-]{0,40}?)\s*,?\s+(lower|higher|smaller|"
                     r"larger|greater)\s+(?:values?\s+)?(?:is|are)\s+better")


def stated_direction(header: str, caption: str) -> str | None:
    """A direction the caption states for this column ("For positive perturbation lower is
    better" and a column "Positive Predicted"), or None."""
    low = header.lower()
    found = {("lower" if d.lower() in ("lower", "smaller") else "higher")
             for subject, d in _STATED.findall(caption or "")
             if any(w in low.split() for w in subject.lower().split()[:1])}
    return found.pop() if len(found) == 1 else None


# clause ends: full stops and semicolons, and the Chinese comma between clauses ("，"; the
# enumeration comma "、" and the English comma join the items of one list)
_CLAUSE = re.compile(r"[.;。；，](?:\s+|$)|[。；，]")


def caption_clause_kind(header: str, caption: str, spellings: Spellings) -> Kind | None:
    """The metric a caption names for this column when it names several ("OASIS, Abd CT
    and Abd MR-CT report Dice (higher is better), NLST reports TRE (lower is better)"):
    the one metric of the clauses that name a word of the header, or None."""
    words = [w for w in re.split(r"[\s,/()]+", plain_caption_words(header)) if len(w) > 1]
    words = words[-1:]  # the column's own name, not its group's ("COCO-Val" of "COCO-Val SE")
    kinds = set()
    for whole in _CLAUSE.split(caption or ""):
        parts = [whole] if _context_kind(whole, spellings) else _comma_clauses(whole)
        for clause in parts:
            if any(re.search(rf"(?<![A-Za-z0-9]){re.escape(w)}(?![A-Za-z0-9])", clause)
                   for w in words):
                k = _context_kind(clause, spellings)
                if k is not None:
                    kinds.add(k)
    return kinds.pop() if len(kinds) == 1 else None


def _comma_clauses(clause: str) -> list[str]:
    """A clause naming several metrics cut at its English commas, each part that names no
    metric joined to the next ("OASIS, Abd CT and Abd MR-CT report Dice (...), NLST
    reports TRE" -> the Dice part with its list of data sets, and the TRE part)."""
    out, cur = [], []
    for part in re.split(r",(?=\s)", clause):
        cur.append(part)
        if _metric_words(part):
            out.append(",".join(cur))
            cur = []
    if cur and out:
        out[-1] = ",".join([out[-1], *cur])
    return out or [clause]


def plain_caption_words(header: str) -> str:
    """A header's words as a caption prints them (math and subscripts dropped)."""
    return re.sub(r"\$[^$]*\$|[_^]\{[^}]*\}|[_^]\S+", " ", header)


def names_a_metric(text: str) -> bool:
    """``text`` is one metric's name and nothing else (``SSIM``, ``HD95``), not a phrase
    that holds one (``test split``)."""
    words = _metric_words(text)
    return len(words) == 1 and words[0].lower() == text.strip(" ()[],.;:").lower()


# a loss named as what a model was trained or selected with ("val-loss protocol", "loss
# function", "loss weights"), not what the table reports
_LOSS_QUALIFIED = re.compile(r"(?i)[\s-]*(?:protocol|functions?|terms?|weights?|weighting|"
                             r"schedules?|selection|criteri(?:on|a)|landscapes?|based)\b")


def _metric_words(text: str) -> list[str]:
    """Candidate metric names in a caption: the phrases a metric regex matches."""
    out = []
    for rx in (_ERROR_RATE, _LOWER, _HIGHER):
        out += [m.group(0).strip(" ()[],.;:") for m in rx.finditer(text)
                if not (m.group(0).strip(" ()[],.;:-").lower().endswith("loss")
                        and _LOSS_QUALIFIED.match(text, m.end()))]
    return [w for w in out if w]
