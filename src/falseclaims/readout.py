"""How a probability of a false claim is written for people: in every output (the text of
``check`` and ``plan``, the HTML reports, the web page), one that underflowed to 0 is written
as the bound it is below, never as 0 (which would read as "this claim cannot be false")."""

from __future__ import annotations

# SciPy's betainc and stdtr return 0 only for values below about 1e-308 (the smallest
# normal double; compared with mpmath in tests/test_hostile_round36.py): a probability
# that came out 0 but is not exactly 0 is below this bound
UNDERFLOW_BELOW = 1e-300


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
