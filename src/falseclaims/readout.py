"""How a probability of a false claim is written for people: in every output (the text of
``check`` and ``plan``, the HTML reports, the web page), one that underflowed to 0 is written
as the bound it is below, never as 0 (which would read as "this claim cannot be false")."""

from __future__ import annotations

import re

# SciPy's betainc and stdtr return 0 only for values below about 1e-308 (the smallest
# normal double; compared with mpmath in tests/test_hostile_round36.py): a probability
# that came out 0 but is not exactly 0 is below this bound
UNDERFLOW_BELOW = 1e-300
# values written with more decimals have a rounding interval narrower than 5e-9: none that
# a printed probability or an SD bound could show
MAX_DECIMALS = 8


def probability_text(probability: float, decimals: int = 3, underflow: bool = False,
                     digits: int | None = None) -> str:
    """A probability for people: ``decimals`` decimals, but at least two significant digits
    for small values (1.7e-05, 0.00052, not 0.000); ``digits`` significant digits instead
    when given. ``underflow``: the 0 is a floating-point underflow, written
    "below 1e-300"."""
    if underflow:
        return f"below {UNDERFLOW_BELOW:g}"
    p = float(probability)
    if digits is not None:
        return f"{p:.{digits}g}"
    if abs(p) >= 10.0 ** (1 - decimals):
        return f"{p:.{decimals}f}"
    return f"{p:.2g}"


def written_decimals(value: float) -> int:
    """The decimals ``value`` is written with (its shortest repr): 0.95 -> 2; a value that
    needs an exponent counts as more than :data:`MAX_DECIMALS`."""
    text = repr(float(value))
    if "e" in text or "." not in text:
        return 0 if "e" not in text else MAX_DECIMALS + 1
    return len(text.split(".")[1].rstrip("0"))


# a value copied with its spread, as tables print it: "0.853±0.05", "0.853 +/- 0.05"
WITH_SPREAD = re.compile(r"^\s*([+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+))\s*(%?)\s*(?:±|\+/?-|\+-)\s*"
                         r"([+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+))\s*(%?)\s*$")

_DECIMAL = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)"
# a value with its spread or interval in brackets, as tables print it: "0.85 (0.02)",
# "0.85 (±0.02)", "0.85 [0.80, 0.90]", "0.85 (0.80-0.90)", "0.85 (95% CI 0.80–0.90)"
_IN_BRACKETS = re.compile(
    rf"({_DECIMAL})\s*(%?)\s*[(\[]\s*(?:\d+\s*%\s*)?(?:CI\b\s*:?\s*)?"
    rf"(?:(?:±|\+/?-)\s*)?({_DECIMAL})\s*%?\s*(?:(?:-|–|—|,|;|to)\s*({_DECIMAL})\s*%?\s*)?"
    r"[)\]]", re.IGNORECASE)


def pasted_with_spread(text: str):
    """A value pasted with its spread (``100 ± 5``, ``0.85 (0.02)``) or its interval
    (``0.85 [0.80, 0.90]``): ``(kind, value, spread)``, ``spread`` None for an interval (in
    fractions when the value carries '%'); None for any other text. Every number option
    (the command line, the web page, the engine's cells) names the value to give."""
    t = str(text).strip()
    m = WITH_SPREAD.fullmatch(t)
    if m:
        scale = 100.0 if m.group(2) or m.group(4) else 1.0
        return ("spread", float(m.group(1).replace(",", ".")) / scale,
                float(m.group(3).replace(",", ".")) / scale)
    m = _IN_BRACKETS.fullmatch(t)
    if m is None:
        return None
    scale = 100.0 if m.group(2) else 1.0
    value, first = (float(g.replace(",", ".")) / scale for g in m.group(1, 3))
    if m.group(4) is not None:
        return ("interval", value, None)
    return ("spread in brackets", value, first)
