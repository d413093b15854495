"""Form fields of the page -> the command line of the same request.

Each page names its fields as the command names its options (``sd_a`` <-> ``--sd-a``), so an
error of the command lands next to the field it names. Values are passed on as typed
(``--n=1e3``): the command parses and refuses them. The one thing the page adds is the units
of the two reported values: typed as percent (a % sign, or units declared percent) they are
divided by 100 exactly before the command sees them, and auto-detection follows the rule of
``falseclaims table --units auto`` (docs/table.md): a % sign or values above 1 mean percent,
a mix of both is refused rather than guessed.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

from falseclaims.io.raw_table import clean_text

UNITS = ("auto", "percent", "fraction")


class FieldError(ValueError):
    """Bad input of one form field, shown next to it."""

    def __init__(self, field: str, message: str):
        super().__init__(message)
        self.field = field


def option_fields(names) -> dict[str, str]:
    """{option name as the command spells it: field name}: ``sd_a`` <-> ``sd-a``."""
    return {name.replace("_", "-"): name for name in names}


def text(form, name: str) -> str:
    return str(form.get(name, "") or "").strip()


def options(form, names) -> list[str]:
    """``--name=value`` for each non-empty field (the command checks the value)."""
    return [f"--{n.replace('_', '-')}={text(form, n)}" for n in names if text(form, n)]


def _short(value: str) -> str:
    """A typed value as a message quotes it: whole up to 40 characters (100,000 pasted
    digits made a message of 100,000 characters)."""
    return value if len(value) <= 40 else value[:30] + f"... ({len(value):,} characters)"


def _number(raw: str) -> Decimal | None:
    try:
        value = Decimal(raw)
    except InvalidOperation:
        return None
    return value if value.is_finite() else None


def reported_values(form, names, units: str, same_scale: tuple[str, ...] = ()
                    ) -> tuple[dict[str, str], str, str]:
    """The fields ``names`` as fractions for the command, with the units and why.

    ``same_scale``: fields that are values of one metric (the two reported values): under
    declared percent, one at fraction scale beside one above 1 (86 and 0.85) is refused as
    the sheets refuse it, not read as 0.85 %.
    Returns ({field: value as passed on}, units, reason). A value that is not a number is
    passed on unchanged (the command names what it expected)."""
    if units not in UNITS:
        raise FieldError("units", f"units must be one of {', '.join(UNITS)}; got {units!r}")
    # cleaned as the command line cleans its options (a minus sign U+2212, thin and
    # zero-width spaces of a PDF copy) BEFORE the units are decided: '0.85\u200b' beside
    # '86' was passed on unread by this decision (then read 0.85 by the command)
    raw = {n: clean_text(text(form, n)) for n in names if text(form, n)}
    signed = {n for n, v in raw.items() if v.endswith("%")}
    values = {n: _number(v.rstrip("%").strip()) for n, v in raw.items()}
    # above 100 a value is neither a fraction nor a percentage: said at its own field (was:
    # "0.85 reads as a fraction but 120 as percent" beside the other field)
    over = [n for n in names if values.get(n) is not None and abs(values[n]) > 100]
    if over:
        raise FieldError(over[0], f"{_short(raw[over[0]])} is above 100: neither a fraction "
                                  "nor a percentage")
    if signed and units == "fraction":
        first = sorted(signed)[0]
        raise FieldError(first, f"{_short(raw[first])!r} has a % sign but units are declared "
                                "fraction")
    if units != "auto":
        decided, why = units, f"declared ({units})"
        plain = {n: values[n] for n in same_scale if values.get(n) is not None
                 and n not in signed}
        big = [n for n, v in plain.items() if abs(v) > 1]
        small = [n for n, v in plain.items() if abs(v) <= 1]
        if units == "percent" and big and small:
            raise FieldError(small[0], f"{_short(raw[small[0]])} reads as a fraction but "
                                       f"{_short(raw[big[0]])} as percent; under units percent "
                                       f"write {_short(raw[small[0]])}% if it is meant")
    elif signed:
        # a % sign makes the page read percent, but a value without one at fraction scale
        # (86% beside 0.85) is the mix `table --units auto` refuses: read as 0.85 % it
        # would turn a weak claim into a robust one unsaid
        small = [n for n, v in values.items() if n not in signed and v is not None
                 and abs(v) <= 1]
        if small:
            first = sorted(signed)[0]
            raise FieldError(small[0], f"{_short(raw[small[0]])} reads as a fraction but "
                                       f"{_short(raw[first])} as percent; write both with a "
                                       "% sign or both as fractions, or choose units")
        decided, why = "percent", "detected: a % sign"
    else:
        numbers = {n: v for n, v in values.items() if v is not None}
        big = [n for n, v in numbers.items() if abs(v) > 1]
        small = [n for n, v in numbers.items() if abs(v) <= 1]
        if big and small:
            raise FieldError(small[0], f"{_short(raw[small[0]])} reads as a fraction but "
                                       f"{_short(raw[big[0]])} as percent; choose units percent "
                                       "or fraction")
        decided, why = (("percent", "detected: values above 1") if big
                        else ("fraction", "detected: every value in [0, 1]"))
    out = {}
    for n, v in raw.items():
        number = values[n]
        if number is None:
            out[n] = v
        elif decided == "percent":
            out[n] = str((number / 100).normalize())
        else:
            out[n] = str(number)
    return out, decided, why
