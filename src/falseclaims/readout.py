"""How a probability of a false claim is written for people: in every output (the text of
``check`` and ``plan``, the HTML reports, the web page), one that underflowed to 0 is written
as the bound it is below, never as 0 (which would read as "this claim cannot be false")."""

from __future__ import annotations

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
