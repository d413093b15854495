"""Every claim in a results table: per metric column, the reported winner, P(false claim)
of the winner against every other method, tiers of statistically tied methods, the
multiplicity view and the sensitivity band (docs/table.md).

Every probability is :func:`falseclaims.claims.check.check_claim` on the pair, so a pair
gives the number ``falseclaims check`` gives: congruence from the config (paper Q1 /
median / Q3 [Christodoulou2025]), SDs imputed from the SD model unless the ``±`` values
are per-case SDs over the test set (``pm_over`` in ``analysis.use_reported_sd_over``).
A column's pairs are checked together (:func:`falseclaims.claims.check.check_claims`: one
engine call per assumption over every pair), the tiers' pairs at the headline assumption
only, since the tiers read nothing else.
"""

from __future__ import annotations

from dataclasses import asdict, replace

from falseclaims.claims.check import MAX_DECIMALS, check_claims, headline_probabilities
from falseclaims.config import Analysis, ClaimCheck, Headline
from falseclaims.levels import SD_LEVELS
from falseclaims.percase.verdict import interpretation_text, thresholds, verdict
from falseclaims.table.model import MetricColumn, ResultsTable

__all__ = ["PM_OVER", "analyse_column", "analyse_table", "default_cutoff",
           "headline_pair_probabilities", "pair_probabilities", "pair_probability", "tiers"]

PM_OVER = ("test", "cv", "runs", "unclear")
MULTIPLICITY_ALPHA = 0.05  # the default level of `falseclaims sota` ([Mollersen2023], Sec. 3.4)


def _headline(result: dict, cfg: dict) -> dict:
    level = Headline.from_config(cfg).congruence_level
    return next((r for r in result["results"] if r["assumption"] == level),
                result["results"][0])


def pair_probabilities(task, n, a, b, sd_a, sd_b, cfg, decimals=None, band=False,
                       grid_points=41) -> list[dict]:
    """:func:`pair_probability` for many pairs of one task (``a``, ``b``, ``sd_a``,
    ``sd_b``, ``decimals``: one entry per pair, or one value for all), each assumption one
    engine call over every pair (:func:`falseclaims.claims.check.check_claims`)."""
    k = len(a)

    def each(x):
        return list(x) if isinstance(x, (list, tuple)) else [x] * k

    sd_a, sd_b, decimals = each(sd_a), each(sd_b), each(decimals)
    flip = [x < y for x, y in zip(a, b)]
    args = [(y, x, sy, sx) if f else (x, y, sx, sy)
            for f, x, y, sx, sy in zip(flip, a, b, sd_a, sd_b)]
    A, B, SA, SB = (list(c) for c in zip(*args)) if args else ([], [], [], [])
    dec = decimals if band else None
    res = check_claims(task, n, A, B, cfg, SA, SB, None, dec, grid_points)
    out = []
    for f, r in zip(flip, res):
        p = _headline(r, cfg)["probability"]
        out.append({"probability": 1.0 - p if f else p, "flipped": f, "check": r})
    if not band:
        return out
    head = Headline.from_config(cfg)
    own = [SD_LEVELS if task == "segmentation" and (x is None or y is None) else ()
           for x, y in zip(sd_a, sd_b)]
    other = {}  # SD level -> {pair: check at that level}, the pairs with imputed SDs
    for lvl in SD_LEVELS:
        rows = [i for i, levels in enumerate(own) if lvl in levels and lvl != head.sd_level]
        if rows:
            other[lvl] = dict(zip(rows, check_claims(
                task, n, [A[i] for i in rows], [B[i] for i in rows], cfg,
                [SA[i] for i in rows], [SB[i] for i in rows], None,
                [dec[i] for i in rows], grid_points, replace(head, sd_level=lvl))))
    for i, o in enumerate(out):
        values = []
        for lvl in own[i] or (None,):
            r = other[lvl][i] if lvl is not None and lvl != head.sd_level else o["check"]
            for row in r["results"]:
                values.extend(row.get("probability_range", [row["probability"]]))
        lo, hi = min(values), max(values)
        o["band"] = [1.0 - hi, 1.0 - lo] if flip[i] else [lo, hi]
        o["band_sd_levels"] = list(own[i])
    return out


def pair_probability(task, n, a, b, sd_a, sd_b, cfg, decimals=None, band=False,
                     grid_points=41) -> dict:
    """P(the method with value ``a`` is not truly better than the one with ``b``).

    When a >= b this is ``check --a a --b b``; when a < b (a bold winner below another
    method) it is 1 - ``check --a b --b a`` (the posterior is continuous). ``band``: the
    range over congruence Q1/median/Q3, the SD levels of imputed SDs and the rounding box
    of ``decimals``. One pair of :func:`pair_probabilities`."""
    return pair_probabilities(task, n, [a], [b], [sd_a], [sd_b], cfg, [decimals], band,
                              grid_points)[0]


def headline_pair_probabilities(task, n, a, b, sd_a, sd_b, cfg) -> list[float]:
    """``pair_probability(...)["probability"]`` for many pairs, from one engine call: the
    headline assumption only, as the tiers read it."""
    flip = [x < y for x, y in zip(a, b)]
    A = [y if f else x for f, x, y in zip(flip, a, b)]
    B = [x if f else y for f, x, y in zip(flip, a, b)]
    SA = [sy if f else sx for f, sx, sy in zip(flip, sd_a, sd_b)]
    SB = [sx if f else sy for f, sx, sy in zip(flip, sd_a, sd_b)]
    p = headline_probabilities(task, n, A, B, cfg, SA, SB)
    return [1.0 - float(v) if f else float(v) for f, v in zip(flip, p)]


def _order(col: MetricColumn) -> list[int]:
    """Best first: by value in the column's direction, then by row."""
    sign = -1.0 if col.direction == "higher" else 1.0
    return sorted(range(len(col.values)), key=lambda i: (sign * col.values[i], i))


def tied_at_top(col: MetricColumn) -> list[str]:
    """The methods sharing the best value, when more than one does (a tie at the top: no
    single winner); else empty."""
    order = _order(col)
    ties = [col.methods[i] for i in order if col.values[i] == col.values[order[0]]]
    return ties if len(ties) > 1 else []


def winner_label(col: MetricColumn, win: int) -> str:
    """The winner as reported: its name, or ``A = B`` for a tie at the top."""
    return " = ".join(tied_at_top(col)) or col.methods[win]


def _winner(col: MetricColumn) -> tuple[int, str, list[str]]:
    """The best value is the winner; bold marks are named, never trusted over the values.
    Several methods at the best value are a tie at the top, reported as such: the first of
    them is only the reference the probabilities against the other methods are computed
    from."""
    notes = []
    order = _order(col)
    best = order[0]
    ties = tied_at_top(col)
    if ties:
        value = f"{col.values[best]:.{col.decimals[best]}f}"
        notes.append(f"tie at the top: {', '.join(ties)} share the best value {value}: no "
                     f"single winner; {ties[0]} (first row) is the reference for the "
                     "probabilities against the other methods")
        return best, f"tie at the top ({len(ties)} methods at {value})", notes
    bold = [i for i in range(len(col.values)) if col.bold[i]]
    what = "bold"
    if not bold and 0 < sum(col.name_bold) < len(col.values):
        # no bold value, but a method's name in bold (**Ours**): the claimed winner
        bold, what = [i for i, b in enumerate(col.name_bold) if b], "a bold method name"
    if not bold:
        return best, "best value (no bold mark)", notes
    if best in bold:
        return best, f"best value ({what} agrees)", notes
    marked = ", ".join(f"{col.methods[i]} ({col.printed[i]})" for i in bold)
    notes.append(f"{what} marks {marked} but {col.methods[best]} has the best value "
                 f"({col.printed[best]}, {col.direction} is better): the values decide")
    return best, f"best value ({what} marks another method)", notes


def _sds(col: MetricColumn, pm_over: str, cfg: dict, notes: list) -> list:
    have = [s for s in col.sds if s is not None]
    if col.task != "segmentation":
        if have:
            notes.append("± values ignored: classification uses no SDs")
        return [None] * len(col.sds)
    if not have:
        return [None] * len(col.sds)
    use_over = list(Analysis.from_config(cfg).use_reported_sd_over)
    if pm_over in use_over:
        notes.append(f"± values used as per-case SDs over the test set (--pm-over {pm_over})")
        return list(col.sds)
    notes.append(f"± values not used (--pm-over {pm_over}: only SDs over "
                 f"{use_over} are per-case SDs); SDs imputed "
                 "from the SD model")
    return [None] * len(col.sds)


def tiers(order: list[int], prob, cutoff: float, first: list[int],
          prefetch=None) -> list[list[int]]:
    """Tier 1 = ``first`` (winner and the methods tied with it); then repeatedly: the best
    remaining method and every remaining method with P(it is not truly better) >= cutoff.
    ``prob(i, j)``: P(method i is not truly better than method j); ``prefetch(i, js)``, if
    given, is called before ``prob(i, j)`` is read for each j of ``js`` (to compute them at
    once)."""
    out = [first]
    left = [i for i in order if i not in first]
    while left:
        lead = left[0]
        if prefetch is not None:
            prefetch(lead, left[1:])
        tier = [lead] + [j for j in left[1:] if prob(lead, j) >= cutoff]
        out.append(tier)
        left = [i for i in left if i not in tier]
    return out


def _multiplicity(col, n, win, order) -> dict:
    """Best of m equally good classifiers at the runner-up's accuracy ([Mollersen2023])."""
    m = len(col.values)
    if col.task != "classification":
        return {"available": False, "reason": "the best-of-m distribution of [Mollersen2023] "
                                              "is binomial: accuracy (classification) only"}
    from falseclaims.multiplicity.best_of_m import sota_distribution

    p0 = max(col.values[i] for i in order if i != win)
    dist = sota_distribution(m, n, p0)
    up = dist.upper(MULTIPLICITY_ALPHA)
    return {"available": True, "m": m, "n": n, "p": p0, "alpha": MULTIPLICITY_ALPHA,
            "mean_best": dist.mean, "sd_best": dist.sd, "upper_multiplicity": up.accuracy,
            "prob_best_at_least_winner": dist.prob_best_at_least(col.values[win]),
            "winner_above_upper": col.values[win] > up.accuracy}


def _against_winner(col: MetricColumn, n, cfg, win, order, sds, rounding,
                    grid_points) -> dict:
    """{method: :func:`pair_probability` of the winner against it, with its band}."""
    others = [j for j in order if j != win]
    dec = [max(col.decimals[win], col.decimals[j]) if rounding else None for j in others]
    # more decimals than MAX_DECIMALS (scientific notation, a rescaled column): the
    # rounding box is narrower than 5e-9, no width the probability shows
    dec = [None if d is not None and d > MAX_DECIMALS else d for d in dec]
    return dict(zip(others, pair_probabilities(
        col.task, n, [col.values[win]] * len(others), [col.values[j] for j in others],
        [sds[win]] * len(others), [sds[j] for j in others], cfg, decimals=dec, band=True,
        grid_points=grid_points)))


def analyse_column(col: MetricColumn, n: int, cfg: dict, cutoff: float,
                   pm_over: str = "unclear", grid_points: int = 41,
                   rounding: bool = True) -> dict:
    """The claims of one metric column (JSON-ready dict; see docs/table.md). ``rounding``:
    the band includes the rounding box of the printed decimals."""
    notes = list(col.notes)
    win, win_source, wn = _winner(col)
    notes += wn
    sds = _sds(col, pm_over, cfg, notes)
    order = _order(col)
    cache = {}

    def prefetch(i, js):
        todo = [j for j in js if (i, j) not in cache]
        probs = headline_pair_probabilities(
            col.task, n, [col.values[i]] * len(todo), [col.values[j] for j in todo],
            [sds[i]] * len(todo), [sds[j] for j in todo], cfg)
        cache.update(((i, j), p) for j, p in zip(todo, probs))

    def prob(i, j):
        if (i, j) not in cache:
            prefetch(i, [j])
        return cache[(i, j)]

    rows = _against_winner(col, n, cfg, win, order, sds, rounding, grid_points)
    cache.update(((win, j), pp["probability"]) for j, pp in rows.items())
    clamped = []
    first = [win] + [j for j in order if j != win and cache[(win, j)] >= cutoff]
    tier_of = {i: k for k, t in enumerate(tiers([i for i in order], prob, cutoff,
                                                sorted(first, key=order.index), prefetch), 1)
               for i in t}
    methods = []
    for rank, i in enumerate(order, 1):
        rec = {"method": col.methods[i], "where": col.where[i], "rank": rank,
               "value": col.values[i], "printed": col.printed[i], "decimals": col.decimals[i],
               "sd_reported": col.sds[i], "sd_used": sds[i], "bold": col.bold[i],
               "underline": col.underline[i], "tier": tier_of[i], "winner": i == win}
        if i != win:
            pp = rows[i]
            main = _headline(pp["check"], cfg)
            rec.update(p_false_claim=pp["probability"], p_band=pp["band"],
                       tied=pp["probability"] >= cutoff, tied_in_band=pp["band"][1] >= cutoff,
                       compared_as="1 - check(other, winner)" if pp["flipped"] else
                       "check(winner, other)",
                       p_underflow=bool(main.get("probability_underflow"))
                       and not pp["flipped"],
                       sd_winner=main["sd_b" if pp["flipped"] else "sd_a"],
                       sd_other=main["sd_a" if pp["flipped"] else "sd_b"])
            if main["congruence_clamped"]:
                clamped.append(col.methods[i])
        methods.append(rec)
    if clamped:
        notes.append(f"{len(clamped)} pair(s) with the winner: the assumed congruence is "
                     "infeasible for the two accuracies and was clamped to its feasible bound, "
                     "as check does (" + ", ".join(clamped[:5])
                     + (", ..." if len(clamped) > 5 else "") + ")")
    # after a tie at the top, the runner-up is the best method outside the tie
    top = set(tied_at_top(col))
    others = [m for m in methods if not m["winner"] and m["method"] not in top] \
        or [m for m in methods if not m["winner"]]
    runner = min(others, key=lambda m: m["rank"])
    n_tiers = max(tier_of.values())
    return {
        "column": col.column, "task": col.task, "task_source": col.task_source,
        "units": col.units, "units_source": col.units_source, "n": n, "m": len(order),
        "cutoff": cutoff, "assumption": {**asdict(Headline.from_config(cfg)), "pm_over": pm_over},
        "winner": winner_label(col, win), "winner_source": win_source,
        "tied_at_top": tied_at_top(col),
        "best_value": col.methods[order[0]], "runner_up": runner["method"],
        "p_runner_up": runner["p_false_claim"], "p_runner_up_band": runner["p_band"],
        "p_runner_up_underflow": runner["p_underflow"],
        **_verdict(runner, winner_label(col, win), cfg),
        "tier1": [col.methods[i] for i in order if tier_of[i] == 1],
        "tiers": [[col.methods[i] for i in order if tier_of[i] == k]
                  for k in range(1, n_tiers + 1)],
        "methods": methods, "multiplicity": _multiplicity(col, n, win, order),
        "notes": list(dict.fromkeys(notes)),
    }


def _verdict(runner: dict, winner: str, cfg: dict) -> dict:
    """The words ``falseclaims check`` gives winner vs runner-up, from the same thresholds."""
    p = runner["p_false_claim"]
    return {"verdict": verdict(p, cfg),
            "interpretation": interpretation_text(p, cfg, a=winner, b=runner["method"],
                                                  underflow=runner["p_underflow"])}


NO_MODEL = ("no probability: no model for this metric (falseclaims models accuracy and Dice; "
            "others need per-case SDs, --pm-over test)")
NO_SDS = ("no probability: per-case SDs needed (give --pm-over test when the ± values are "
          "SDs over the test cases)")


def _scaled(col: MetricColumn) -> tuple[MetricColumn, int]:
    """A column without a model but with per-case SDs, mapped affinely onto [0, 1] with the
    better direction up: x' = 1 - x / 10^k (lower is better) or x / 10^k. The paired-t
    probability of the segmentation model [Christodoulou2025] depends on the values only
    through (mean difference) / (SD of the difference), so the map leaves it unchanged;
    10^k keeps the printed decimals (k more)."""
    import math

    top = max(max(abs(v) for v in col.values), max(s for s in col.sds), 1e-300)
    k = max(0, math.ceil(math.log10(top)))
    while max(max(abs(v) for v in col.values), max(col.sds)) > 10 ** k:
        k += 1
    scale = 10.0 ** k
    lower = col.direction == "lower"
    values = [round((1 - v / scale) if lower else v / scale, d + k)
              for v, d in zip(col.values, col.decimals)]
    return replace(col, task="segmentation", values=values, direction="higher",
                   sds=[round(sd / scale, 12) for sd in col.sds],
                   decimals=[d + k for d in col.decimals]), k


def rank_column(col: MetricColumn, n, cutoff: float, reason: str) -> dict:
    """A column without a probability: the ranking by direction and the winner."""
    notes = list(col.notes)
    win, win_source, wn = _winner(col)
    notes += wn
    order = _order(col)
    methods = [{"method": col.methods[i], "where": col.where[i], "rank": r,
                "value": col.values[i], "printed": col.printed[i], "decimals": col.decimals[i],
                "sd_reported": col.sds[i], "sd_used": None, "bold": col.bold[i],
                "underline": col.underline[i], "tier": None, "winner": i == win}
               for r, i in enumerate(order, 1)]
    return {
        "column": col.column, "task": None, "task_source": col.task_source,
        "units": col.units, "units_source": col.units_source, "n": n, "m": len(order),
        "direction": col.direction, "direction_source": col.direction_source,
        "group": col.group, "n_source": col.n_source, "probability": False,
        "no_probability": reason, "cutoff": cutoff, "assumption": None,
        "winner": winner_label(col, win), "winner_source": win_source,
        "tied_at_top": tied_at_top(col),
        "best_value": col.methods[order[0]],
        "runner_up": col.methods[order[len(tied_at_top(col)) or 1]],
        "p_runner_up": None, "p_runner_up_band": None, "verdict": None,
        "interpretation": None, "tier1": [], "tiers": [],
        "methods": methods, "multiplicity": {"available": False, "reason": reason},
        "notes": list(dict.fromkeys(notes)),
    }


def _analyse(col: MetricColumn, n, cfg, cutoff, pm_over, gp, label) -> dict:
    """One column: the model's probabilities, a paired-t analysis with per-case SDs, or a
    ranking with the reason there is no probability."""
    if col.task is None:
        if not all(sd is not None for sd in col.sds):
            return rank_column(col, n, cutoff, NO_SDS if col.direction == "lower" else
                               NO_MODEL)
        if pm_over not in Analysis.from_config(cfg).use_reported_sd_over:
            return rank_column(col, n, cutoff, NO_SDS.replace(
                "per-case SDs needed", f"the ± values are not per-case SDs (--pm-over "
                                       f"{pm_over})"))
        if n is None:
            return rank_column(col, n, cutoff, "no probability: no test-set size (give --n)")
        scaled, k = _scaled(col)
        res = analyse_column(scaled, n, cfg, cutoff, pm_over, gp)
        res["notes"].append(
            f"{col.direction} is better; analysed with the paired-t model and the printed "
            f"per-case SDs (--pm-over {pm_over}) on the scale "
            + (f"1 - value/{10 ** k:g}" if col.direction == "lower" else f"value/{10 ** k:g}")
            + "; the congruence is the one assumed for Dice")
        scale = 10.0 ** k
        for m, i in zip(res["methods"], [col.methods.index(x["method"])
                                         for x in res["methods"]]):
            m.update(value=col.values[i], decimals=col.decimals[i], sd_reported=col.sds[i])
            for key in ("sd_used", "sd_winner", "sd_other"):  # back to the printed unit
                if m.get(key) is not None:
                    m[key] = m[key] * scale
        res.update(direction=col.direction, direction_source=col.direction_source,
                   units="as printed", units_source=f"rescaled by 10^{k} for the model",
                   task="paired t (per-case SDs)", task_source="no model for the metric")
        return res
    if n is None and str(getattr(col, "n_source", "")).startswith(("no --n group",
                                                                   "the caption's n")):
        return rank_column(col, n, cutoff, f"no probability: {col.n_source}")
    if n is None:
        raise ValueError(f"{label}, column {col.column!r}: no test-set size: give --n (or "
                         "--n GROUP=N per data set) or add an n column")
    res = analyse_column(col, n, cfg, cutoff, pm_over, gp)
    res.update(direction=col.direction, direction_source=col.direction_source or
               col.task_source)
    return res


def default_cutoff(cfg: dict) -> float:
    """The tie cutoff: ``claim_check.interpretation.robust_below``, the threshold below which
    ``falseclaims check`` calls a claim robust; a method is tied with the winner exactly
    when check would not call the winner's claim over it robust."""
    return float(thresholds(cfg)["robust_below"])


def analyse_table(table: ResultsTable, cfg: dict, cutoff: float | None = None,
                  pm_over: str = "unclear", grid_points: int | None = None) -> dict:
    """Every metric column of ``table``; ``cutoff`` defaults to :func:`default_cutoff`."""
    if pm_over not in PM_OVER:
        raise ValueError(f"--pm-over must be one of {PM_OVER}; got {pm_over!r}")
    cutoff = default_cutoff(cfg) if cutoff is None else float(cutoff)
    if not 0.0 < cutoff < 0.5:
        raise ValueError(f"--cutoff must lie in (0, 0.5); got {cutoff:g}")
    gp = int(grid_points or ClaimCheck.from_config(cfg).rounding_grid_points)
    metrics = []
    for c in table.metrics:
        n = c.n if c.n is not None else table.n
        res = _analyse(c, n, cfg, cutoff, pm_over, gp, table.label)
        res.setdefault("probability", True)
        res.setdefault("no_probability", "")
        res.update(group=c.group, n_source=c.n_source or table.n_source)
        metrics.append(res)
    return {"file": table.source, "table": table.name, "format": table.format,
            "n": table.n, "n_source": table.n_source, "notes": table.notes,
            "metrics": metrics}
