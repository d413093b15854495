"""Plain-language reading of a false-claim probability ([ClaimsReloaded], "Interpretation").

[ClaimsReloaded]: values under 0.05 are often considered robust (context-dependent); values close
to 0.5 mean the advantage is weak and may well be sampling noise. Both thresholds come from
the ``claim_check.interpretation`` config block.
"""

from __future__ import annotations

from falseclaims.readout import probability_text

__all__ = ["LABELS", "interpretation_text", "level", "probability_text", "thresholds",
           "verdict"]

DEFAULT_THRESHOLDS = {"robust_below": 0.05, "weak_above": 0.30}
# how the text output and the JSON ``verdict`` name each level (one vocabulary)
LABELS = {"robust": "Robust claim", "fragile": "Not robust", "weak": "Weak claim",
          "tie": "No winner", "reversed": "B leads"}


def thresholds(cfg: dict | None) -> dict:
    block = ((cfg or {}).get("claim_check") or {}).get("interpretation") or {}
    out = dict(DEFAULT_THRESHOLDS)
    out.update({k: float(v) for k, v in block.items() if k in out})
    if not 0 < out["robust_below"] < out["weak_above"] <= 0.5:
        raise ValueError(
            "claim_check.interpretation needs 0 < robust_below < weak_above <= 0.5; got "
            f"{out}")
    return out


def level(probability: float, cfg: dict | None = None) -> str:
    """'robust', 'fragile', 'weak', 'tie' (equal values) or 'reversed' (above 0.5: B's
    value is the higher)."""
    t = thresholds(cfg)
    if probability > 0.5:
        return "reversed"
    if probability >= 0.5:
        return "tie"
    if probability < t["robust_below"]:
        return "robust"
    if probability > t["weak_above"]:
        return "weak"
    return "fragile"


def verdict(probability: float, cfg: dict | None = None) -> str:
    """The verdict as the text output words it (:data:`LABELS`): 'Robust claim', ..."""
    return LABELS[level(probability, cfg)]


def interpretation_text(probability: float, cfg: dict | None = None, a: str = "A",
                        b: str = "B", underflow: bool = False) -> str:
    """One sentence for a report or the terminal; ``underflow``: the probability 0 is a
    floating-point underflow (:func:`falseclaims.readout.probability_text`)."""
    t = thresholds(cfg)
    p = float(probability)
    what = (f"the probability that {b} is truly at least as good as {a} is "
            f"{probability_text(p, underflow=underflow)}")
    lvl = level(p, cfg)
    if lvl == "reversed":
        return (f"{LABELS[lvl]}: {what}, above 0.5: the values favour {b}, so the claim that "
                f"{a} is better is more likely false than true.")
    if lvl == "tie":
        return (f"{LABELS[lvl]}: {what}; the reported values do not separate the two methods.")
    if lvl == "robust":
        return (f"{LABELS[lvl]}: {what}, below {t['robust_below']:g}, so {a} is very likely "
                "truly better (a context-dependent threshold).")
    if lvl == "weak":
        return (f"{LABELS[lvl]}: {what}, close to 0.5, so the reported advantage may well be due "
                "to sampling noise.")
    return (f"{LABELS[lvl]}: {what}, above {t['robust_below']:g}; {a} is more likely better, but "
            "the claim could well be false.")
