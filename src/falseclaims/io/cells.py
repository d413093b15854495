"""What one cell says as a number: the value, an SD, a percent sign, an interval or other
bracketed part beside it. The one grammar of a result cell, shared by the sheet reader
(:mod:`falseclaims.sheets.read.cells`) and table mode (:mod:`falseclaims.table.cells`),
which differ only in what they do with a reading (a sheet rejects what a printed table
notes and ignores) and in what they strip first (LaTeX markup is a printed table's).

A cell is read after :func:`~falseclaims.io.raw_table.clean_text` (Unicode spaces and minus
signs, a leading dash before a digit)::

    value [%] [± sd [%]] [(aside) | [aside]] [%]

* value and SD: ``85.3``, ``-0.5``, ``.5``, ``1e-3``/``1E-3``; with ``decimal_comma`` also
  ``0,853`` (a sheet's metric value is at most 100, so a comma cannot group thousands there;
  a printed table may hold counts such as ``1,234``, so table mode does not read commas).
* ``±`` also written ``+/-``, ``+ / -`` or ``+-``.
* ``%``: after the value, after the SD, inside the brackets after a number, or at the end;
  nowhere else (a ``95% CI`` label is not a percent sign of the value).
* the aside is an SD when it holds one number in parentheses, optionally after ``±`` or
  ``SD``/``sd=``/``sd:`` (``0.91 (0.03)``); an interval when it holds two numbers joined by
  ``-``, ``–``, ``—``, ``to``, ``,`` or ``;``, optionally after ``CI``/``95% CI``
  (``0.85 (0.80-0.90)``, ``0.931 [0.913, 0.947]``); anything else is ``other``. One number in
  square brackets is ``other``, never an SD: in print ``85.3 [12]`` is a citation.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from falseclaims.io.raw_table import clean_text
from falseclaims.io.textguard import control_problem

__all__ = ["NUMBER", "NUMBER_COMMA", "NumberError", "Reading", "decimals", "read_measure"]

NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
NUMBER_COMMA = r"[+-]?(?:\d+(?:[.,]\d*)?|[.,]\d+)(?:[eE][+-]?\d+)?"
_PM = r"(?:±|\+\s*/\s*-|\+-)"


def _grammar(num: str) -> tuple[re.Pattern, re.Pattern, re.Pattern]:
    cell = re.compile(rf"^(?P<v>{num})\s*(?P<vp>%?)\s*(?:{_PM}\s*(?P<s>{num})\s*(?P<sp>%?))?"
                      rf"\s*(?P<aside>\(.*\)|\[.*\])?\s*(?P<tp>%?)$")
    sd = re.compile(rf"\(\s*(?:{_PM}|sd\s*[=:]?)?\s*(?P<sd>{num})\s*(?P<p>%?)\s*\)", re.I)
    interval = re.compile(
        rf"[(\[]\s*(?:(?:95\s*%?\s*)?ci\s*[=:]?\s*)?(?P<lo>{num})\s*(?P<p1>%?)\s*"
        rf"(?:,|;|-|–|—|to)\s*(?P<hi>{num})\s*(?P<p2>%?)\s*[)\]]", re.I)
    return cell, sd, interval


_GRAMMAR = {False: _grammar(NUMBER), True: _grammar(NUMBER_COMMA)}


class NumberError(ValueError):
    """A cell in the grammar whose number is no float (``5e400``); ``expected`` says what
    would have been valid."""

    def __init__(self, expected: str):
        self.expected = expected
        super().__init__(expected)


@dataclass(frozen=True)
class Reading:
    """One cell read as a number; ``value``/``sd`` as printed (a percent not divided)."""

    value: float
    sd: float | None = None
    percent: bool = False          # a '%' beside the value, the SD or the interval
    decimals: int = 0              # places printed in the value (``1e-3``: 3)
    sd_text: str = ""              # the SD as printed
    aside: str = ""                # the bracketed part as printed
    aside_kind: str = ""           # "", "sd" (the SD came from it), "interval" or "other"
    interval: tuple[str, str] | None = None  # (low, high) as printed
    decimal_comma: bool = False    # a ',' was read as the decimal point

    @property
    def plus_minus(self) -> bool:
        """The SD was printed with ``±`` (not in parentheses)."""
        return self.sd is not None and self.aside_kind != "sd"


def decimals(token: str) -> int:
    """Decimal places a number token shows (``85.30`` -> 2, ``1.5e-3`` -> 4, ``1e3`` -> 0)."""
    mant, _, exp = token.lower().partition("e")
    mant = mant.replace(",", ".")
    places = len(mant.split(".")[1]) if "." in mant else 0
    return max(0, places - int(exp or 0))


def _float(token: str) -> float:
    value = float(token.replace(",", "."))
    if not math.isfinite(value):  # 5e400 overflows to inf
        raise NumberError(f"a finite number ({token!r} is beyond the floating-point range)")
    return value


def read_measure(raw, decimal_comma: bool = False) -> Reading | None:
    """``raw`` (text, or a number from a spreadsheet) as a :class:`Reading`; None when it is
    not a number cell (missing markers included: callers decide what is missing), or when
    it holds a control character other than a tab or line break.
    Raises :class:`NumberError` for a number beyond the floating-point range."""
    if isinstance(raw, bool) or raw is None:
        return None
    if isinstance(raw, (int, float)):
        if not math.isfinite(raw):
            return None
        text = repr(float(raw)).rstrip("0").rstrip(".") if isinstance(raw, float) else str(raw)
        return Reading(float(raw), decimals=decimals(text))
    return _read_text(str(raw), decimal_comma)


@lru_cache(maxsize=1 << 15)  # sheets and tables repeat their cell texts
def _read_text(raw: str, decimal_comma: bool) -> Reading | None:
    cell, sd_aside, interval_aside = _GRAMMAR[decimal_comma]
    # NUL, ESC, ...: a damaged or hostile cell, never a number (cleaning would hide them)
    m = None if control_problem(raw) else cell.match(clean_text(raw))
    if m is None:
        return None
    percent = bool(m["vp"] or m["sp"] or m["tp"])
    tokens = [m["v"]]
    sd_text, kind, interval = m["s"] or "", "", None
    aside = (m["aside"] or "").strip()
    if aside and (a := sd_aside.fullmatch(aside)) and not sd_text:
        sd_text, kind, percent = a["sd"], "sd", percent or bool(a["p"])
    elif aside and (a := interval_aside.fullmatch(aside)):
        kind, interval = "interval", (a["lo"], a["hi"])
        percent = percent or bool(a["p1"] or a["p2"])
        tokens += [a["lo"], a["hi"]]
    elif aside:
        kind = "other"
    if sd_text:
        tokens.append(sd_text)
    return Reading(_float(m["v"]), _float(sd_text) if sd_text else None, percent,
                   decimals(m["v"]), sd_text, aside, kind, interval,
                   any("," in t for t in tokens))


# A count printed with digit groups: 1,512 / 1 512 (space, no-break or thin space) / 1'512 /
# 1.512; one separator throughout, three digits after each. The one rule of table mode, the
# sheet reader and the command line's counts.
GROUP_SEPARATORS = ",.'’ \u00a0\u2009\u202f"
GROUPED = re.compile(r"\+?[1-9]\d{0,2}([" + GROUP_SEPARATORS + r"])\d{3}(?:\1\d{3})*")


def grouped_count(text: str) -> int | None:
    """The count ``text`` prints with digit groups; None when it prints none. ValueError
    when a '.' may as well be a decimal point before a whole number (``2.000``: 2 or
    2000); ``1.512`` is no whole number, so its '.' groups digits."""
    if not (m := GROUPED.fullmatch(text.strip())):
        return None
    if m[1] == "." and text.count(".") == 1 and float(text) == int(float(text)):
        raise ValueError(f"{text.strip()!r} is {int(float(text))} or "
                         f"{int(text.replace('.', ''))} ('.' a decimal point or a digit "
                         "group): write it without the '.'")
    return int(re.sub(r"\D", "", text))

