"""One printed cell of a results table -> value, SD, marks.

The number, its SD, percent sign and bracketed part are read by the one cell grammar of
:mod:`falseclaims.io.cells` (shared with the sheet reader). What stays here is a printed
table's own: LaTeX and Markdown markup (``\\textbf``, ``\\pm``, ``$...$``, ``\\cdot 10^{6}``),
bold and underline, footnote marks, the placeholders typesetters print for "not reported",
and what table mode does with a bracketed part that is no SD (it is noted and ignored,
where a sheet rejects it: a paper prints what it likes beside a number, a sheet's author
can fix the cell).

Accepted: ``85.3``, ``85.3%``, ``85.3\\%``, ``0.853``, ``85.3 ± 2.1``, ``$85.3 \\pm 2.1$``,
``85.3_{\\pm 2.1}``, ``\\textbf{85.3}`` / ``**85.3**`` (bold), ``\\underline{85.3}`` /
``<u>85.3</u>`` (underline), footnote marks (``$^\\dagger$``, ``^{*}``, ``*``, ``†``, ``‡``,
``\\textsuperscript{a}``), one number in parentheses as the SD (``0.91 (0.03)``,
``0.91 (SD 0.03)``, noted) and an ignored parenthesised or bracketed part otherwise
(``85.3 (83.1-87.4)``, ``0.931 [0.913, 0.947]``, noted); a rate after its count
(``5/103 = 0.049``, ``45/56 (80.4%)``) when the count rounds to it.
Missing: empty, ``-``, ``–``, ``n/a``, ``NA``, ``N/A``, ``--``, ``—``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from falseclaims.io.cells import NumberError, read_measure
from falseclaims.io.raw_table import MISSING_TOKENS
from falseclaims.io.textguard import control_problem

# hostile inputs: a \multicolumn{99999999} is refused
MAX_COLUMNS = 1_000   # columns of one printed table (a \multicolumn span included)

__all__ = ["Cell", "MAX_COLUMNS", "MISSING", "bold_name", "clean", "parse_printed_cell",
           "plain_text", "printable"]

# what a sheet calls empty, and the placeholders typesetters print for "not reported"; a
# sheet does not take these ("x" may be a tick there, "none" a category): it rejects them
MISSING = MISSING_TOKENS | {"--", "---", "–", "—", "n.a.", "none", "/", "x", "×", "\\",
                             "...", "…"}  # "..." = result unavailable (a table note says so)

# Markdown's __bold__ opens and closes at a word's edge; inside a word (a trainer name
# "mbasTrainer__nnUNetPlans") the underscores are part of the name (CommonMark)
_MD_UNDERSCORES = r"(?<![A-Za-z0-9])__|__(?![A-Za-z0-9])"
_BOLD = re.compile(r"\\textbf\s*\{|\\mathbf\s*\{|\\boldsymbol\s*\{|\\bm\s*\{|\\bf\b|"
                   r"\\bfseries\b|\*\*|" + _MD_UNDERSCORES + "|<b>|<strong>|"
                   r"font-weight:\s*(?:bold|[6-9]00)\b")
# inline HTML around a number in a Markdown cell (<span style="color:red">98.59 ± 0.33</span>,
# <font color=blue>): the tags go, the text stays; a colour is no mark the tool reads
# the same tags in a name or header, removed without a space (HD<sub>95</sub> is HD95)
_NAME_TAG = re.compile(r"(?i)</?(?:span|font|mark|small|big|center|code|tt|sub)\b[^<>]*>")
_INLINE_TAG = re.compile(r"(?i)</?(?:span|font|mark|small|big|center|code|tt|div|p|sub|em|i|"
                         r"u|b|strong)\b[^<>]*>|<br\s*/?>")
_UNDERLINE = re.compile(r"\\underline\s*\{|\\uline\s*\{|<u>")
_PM = re.compile(r"\\(?:text)?pm(?![A-Za-z])|\+/-|\+-|±|\\mbox\{\s*±\s*\}")
# footnote marks: superscripts, daggers, stars, section signs
_SUPERSCRIPT = re.compile(r"\\textsuperscript\s*\{[^{}]*\}|\^\s*\{[^{}]*\}|\^\s*\\?[A-Za-z*]+|"
                          r"\^\s*\S|(?i:<sup\b[^<>]*>[^<]*</sup>)")
_MARKS = re.compile(r"\\dagger\b|\\ddagger\b|\\S\b|\\P\b|\\ast\b|\\star\b|[*†‡§¶⋆✝]")
_COMMAND_WITH_ARG = re.compile(r"\\(?:cellcolor|color|textcolor|rowcolor|hspace|vspace|cite[pt]?|"
                               r"ref|label|footnote|footnotemark|tnote)"
                               r"\s*(?:\[[^\]]*\])?\s*\{[^{}]*\}")
_COMMAND = re.compile(r"\\[A-Za-z]+\*?|\\[,;:! ]")
# a box's width and position (\makebox[0.05\textwidth][c]{Aorta}) are no text of the cell
_BOX_OPTIONS = re.compile(r"\\(?:makebox|framebox)\s*(?:\[[^\]]*\]\s*)+")
# 1.4 \cdot 10^{6}, 2.6 × 10^6 -> 1.4e6
_SCIENTIFIC = re.compile(r"(\d)\s*(?:\\cdot|\\times|·|×)\s*10\s*\^\s*\{?\s*([-+−]?\d+)\s*\}?")

@dataclass(frozen=True)
class Cell:
    """A parsed cell; ``value``/``sd`` as printed (percent not yet divided)."""

    raw: str
    value: float | None = None
    sd: float | None = None
    decimals: int | None = None
    percent: bool = False
    bold: bool = False
    underline: bool = False
    marks: bool = False
    ignored: str = ""
    sd_in_parentheses: bool = False

    @property
    def numeric(self) -> bool:
        return self.value is not None


# C0/C1 control characters (ESC starts terminal escape sequences) and DEL
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


_SYMBOL = {"times": "×", "cdot": "·", "bullet": "•", "pm": "±", "#": "#", "Delta": "Δ",
           "delta": "δ", "alpha": "α", "beta": "β", "gamma": "γ", "lambda": "λ", "mu": "μ",
           "sigma": "σ", "tau": "τ", "epsilon": "ε", "theta": "θ", "Omega": "Ω", "omega": "ω",
           "phi": "φ", "varphi": "φ", "xi": "ξ", "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥"}
_SYMBOLS = re.compile(r"\\(times|cdot|bullet|pm|#|Delta|delta|alpha|beta|gamma|lambda|mu|"
                      r"sigma|tau|epsilon|theta|Omega|omega|phi|varphi|xi|leq|le|geq|ge)"
                      r"(?![A-Za-z])")
# an asymmetric interval printed as super- and subscript: 98% ^{+1%}_{-5%}
_ASYMMETRIC = re.compile(r"\{?~?\}?\s*\^\s*\{[^{}]*\}\s*_\s*\{[^{}]*\}")


_EMOJI = re.compile("[\U0001F000-\U0001FAFF]\uFE0F?")
# a digit exponent is part of a name (EnD^2 is not EnD); letters and symbols are footnotes
_DIGIT_POWER = re.compile(r"\^\s*\{?\s*(\d+)\s*\}?")
_SUPERSCRIPT_DIGITS = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


_CITE_ONLY = re.compile(r"^\s*\\cite[a-z]*\s*(?:\[[^\]]*\])?\s*\{([^{}]*)\}\s*$")


def printable(text: str) -> str:
    """``text`` without control characters (a name with ``ESC[2J`` must not clear the
    terminal that prints it)."""
    return _CONTROL.sub(" ", str(text))


def plain_text(raw: str, marks: bool = False) -> str:
    """A header or method name without LaTeX/Markdown markup (``\\textbf{Ours}`` -> ``Ours``);
    arrows kept as ``↑``/``↓``; control characters removed. ``marks``: daggers kept (``†``,
    ``‡``), for a method name that only its mark tells apart from another."""
    s = _CITE_ONLY.sub(r"\1", printable(raw))  # a method named only by its citation
    s = _COMMAND_WITH_ARG.sub("", _BOX_OPTIONS.sub("", s))
    s = s.replace("\\\\", " ")  # a line break inside \makecell
    s = _SYMBOLS.sub(lambda m: _SYMBOL[m[1]], s)
    s = _DIGIT_POWER.sub(lambda m: m[1].translate(_SUPERSCRIPT_DIGITS), s)  # EnD$^2$: EnD²
    s = re.sub(r"\\(?:uparrow|Uparrow)\b", "↑", s)
    s = re.sub(r"\\(?:downarrow|Downarrow)\b", "↓", s)
    s = s.replace("\\%", "%").replace("\\_", "_").replace("\\&", "&").replace("~", " ")
    s = _SUPERSCRIPT.sub("", s)
    s = re.sub(r"\\dagger\b", "†" if marks else "", s)
    s = re.sub(r"\\ddagger\b", "‡" if marks else "", s)
    s = s if marks else re.sub(r"[†‡]", "", s)
    s = _COMMAND.sub(" ", s)
    s = re.sub(r"\*\*|" + _MD_UNDERSCORES + r"|</?(?:b|strong|u|em|i)>|[{}$]", "", s)
    s = _NAME_TAG.sub("", s)  # U-Net<sub>2015</sub>: U-Net2015, HD<sub>95</sub>: HD95
    s = _EMOJI.sub("", s)  # 🥇 Ours, 📊 Table 1: pictographs are decoration, not the name
    return " ".join(s.split())


def clean(raw: str) -> str:
    """A numeric cell as plain text (``$85.3 \\pm 2.1$`` -> ``85.3 ± 2.1``)."""
    return _strip(str(raw))[0]


# TeX math ignores spaces: ``$\mathbf{0 . 3 5 0}$`` (a PDF-to-Markdown conversion) prints 0.350
_MATH = re.compile(r"\$([^$]*)\$")
_SPACED_DIGITS = re.compile(r"(?<=[\d.])\s+(?=[\d.])")


def _strip(raw: str) -> tuple[str, bool]:
    """Text of a numeric cell with markup removed; True when footnote marks were removed."""
    s = _MATH.sub(lambda m: "$" + _SPACED_DIGITS.sub("", m[1]) + "$", printable(raw))
    s = _COMMAND_WITH_ARG.sub("", s)
    s = s.replace("\\\\", " ")  # \makecell{85.3 \\ [84.0, 86.6]}: the value, its CI below
    s = _SCIENTIFIC.sub(r"\1e\2", s)
    s = _ASYMMETRIC.sub(" ", s)
    s = s.replace("\\%", "%").replace("~", " ")
    s = re.sub(r"\*\*|__", " ", s)  # Markdown bold, not footnote stars
    s = _PM.sub(" ± ", s)
    s = _INLINE_TAG.sub(" ", s)
    before = s
    s = _SUPERSCRIPT.sub("", s)
    s = _MARKS.sub("", s)
    marks = s != before
    s = _COMMAND.sub(" ", s)
    s = re.sub(r"</?(?:b|strong|u|em|i)>|[{}$_]", " ", s)
    s = re.sub(r"±\s*(?:NA|N/A|n/a|-{1,3}|–)(?![\w.])", " ", s)  # "± NA": no SD printed
    return " ".join(s.split()), marks


# thousands grouped by commas where no decimal comma can be meant: a decimal point after the
# groups (1,234.5) or two groups and more (1,234,567); a lone 1,234 stays unread (1.234?)
_GROUPED = re.compile(r"^([-+\u2212]?\d{1,3}(?:,\d{3}){2,}|[-+\u2212]?\d{1,3}(?:,\d{3})+(?=\.\d))"
                      r"(\.\d+)?(\s*%)?$")


def _grouped(text: str) -> str:
    m = _GROUPED.match(text)
    return m[1].replace(",", "") + (m[2] or "") + (m[3] or "") if m else text


_SIGNED_ASIDE = re.compile(r"\(\s*[+-]\s*\d")
# a count before its rate: "5/103 = 0.049", "45/56 (80.4%)"
_COUNT_FIRST = re.compile(r"^(\d{1,15})\s*/\s*(\d{1,15})\s*(?:=\s*([^()=]+)|\(\s*([^()=]+)\))$")


def _count_first(text: str) -> tuple[object, str] | None:
    """``k/n = v`` or ``k/n (v)``: the rate v, read when k/n rounds to it (as a fraction, or
    as a percent); the count is the ignored part. A rate its count contradicts is no number
    (None, "") rather than a guess; not this shape: None."""
    m = _COUNT_FIRST.match(text)
    if not m:
        return None
    k, n, rate = int(m[1]), int(m[2]), (m[3] or m[4]).strip()
    try:
        r = read_measure(rate)
    except NumberError:
        r = None
    if r is None or r.sd is not None or r.aside or n == 0:
        return None, ""
    half = 0.5 * 10.0 ** -(r.decimals or 0) + 1e-9
    scales = (100.0,) if r.percent else (1.0, 100.0)
    if not any(abs(k / n * s - r.value) <= half for s in scales):
        return None, ""
    return r, f"{k}/{n}"


def bold_name(raw, i: int, j: int) -> bool:
    """Whether the name in row ``i``, column ``j`` is set in bold (``**Ours**``,
    ``\\textbf{Ours}``, a spreadsheet's bold font): a claimed winner, as a bold value is."""
    return bool(raw.bold and raw.bold[i][j]) or bool(_BOLD.search(str(raw.rows[i][j])))


def parse_printed_cell(raw, bold: bool = False, underline: bool = False) -> Cell:
    """Parse one cell; a non-numeric, non-missing cell gives ``Cell(raw)`` with value None.

    ``bold``/``underline``: marks known from outside the text (a spreadsheet's font)."""
    if raw is None:
        return Cell("")
    if isinstance(raw, (int, float)) and not isinstance(raw, bool):
        r = read_measure(raw)
        if r is None:  # NaN (an empty spreadsheet cell) or inf (no number)
            return Cell("" if raw != raw else str(raw))
        return Cell(str(raw), r.value, None, r.decimals, False, bold, underline)
    damaged = control_problem(str(raw))  # before strip(), which takes \x1c-\x1f as spaces
    raw = str(raw).strip()
    bold = bold or bool(_BOLD.search(raw))
    underline = underline or bool(_UNDERLINE.search(raw))
    text, marks = _strip(raw)
    text = _grouped(text)
    # a control character (NUL, ESC) makes no number, as in a sheet: _strip's printable()
    # would turn it into a space
    if text.lower() in MISSING or damaged:
        return Cell(raw, bold=bold, underline=underline)
    counted = _count_first(text)
    if counted is not None:
        r, count = counted
        if r is None:
            return Cell(raw, bold=bold, underline=underline)
        return Cell(raw, r.value, None, r.decimals, r.percent, bold, underline, marks, count)
    try:
        r = read_measure(text)
    except NumberError:  # 5e400: no number
        r = None
    if r is None:
        return Cell(raw, bold=bold, underline=underline)
    if r.aside_kind == "sd" and _SIGNED_ASIDE.match(r.aside):
        # "0.8100 (+3.90%)": a signed number is a change against a baseline, never an SD;
        # its % is not the value's unit
        bare = read_measure(text.replace(r.aside, " ", 1))
        return Cell(raw, r.value, None, r.decimals, bool(bare and bare.percent), bold,
                    underline, marks, r.aside)
    return Cell(raw, r.value, r.sd, r.decimals, r.percent, bold, underline, marks,
                r.aside if r.aside_kind in ("interval", "other") else "",
                sd_in_parentheses=r.aside_kind == "sd")


# a note below a table that calls the cells of a mark incomparable ("`*` isotropic HD95
# (Phase-1 protocol) — never compare these to the anisotropic rows"): ranked with the others,
# a marked value was named the best, silently
_INCOMPARABLE = re.compile(r"(?i)never compare|not (?:directly )?comparable|cannot be compared|"
                           r"(?:different|another|other) (?:evaluation |test(?:ing)? )?protocol")
_LEADING_MARK = re.compile(r"^(?:>\s*)?(?:notes?\s*:\s*)?[`(\[]?\s*(\*|[†‡§¶])(?!\*)", re.I)
_MARKED_WITH = re.compile(r"(?i)(?:marked|denoted|flagged)\s+(?:with\s+|by\s+|as\s+)?[`'\"(]?"
                          r"(\*|[†‡§¶])")
_MARK_NAMES = {"dagger": "†", "ddagger": "‡", "ast": "*", "star": "*", "S": "§", "P": "¶"}
_EMPHASIS = re.compile(r"(?<![*\w])\*(?!\*)([^*\x00]+?)(?<!\*)\*(?![*\w])")
_INCOMPARABLE_NOTE = "cells marked {!r} are not comparable with the others"
_INCOMPARABLE_READ = re.compile(r"^(.*?): cells marked '(.)' are not comparable with the others")


def _marks_as_printed(text: str) -> str:
    """Footnote marks as one character (``$^\\dagger$`` -> ``†``, ``\\*`` -> ``*``), LaTeX list
    and size commands, math shifts and superscript braces removed."""
    s = re.sub(r"\\(dagger|ddagger|ast|star|S|P)(?![A-Za-z])",
               lambda m: _MARK_NAMES[m[1]], str(text))
    s = re.sub(r"\\(?:item|footnotesize|scriptsize|small|tiny|textsuperscript|textit|emph|"
               r"noindent|par)(?![A-Za-z])", "", s)
    # Markdown emphasis (*0.91*, an italic note line) is no mark; an escaped \* is one
    s = _EMPHASIS.sub(r"\1", s.replace("\\*", "\x00")).replace("\x00", "*")
    return re.sub(r"[$^{}\[\]]|<sup>|</sup>", "", s).strip()


def incomparable_note(line: str, where: str) -> str | None:
    """The note for a line of text below a table that calls the values of a footnote mark
    not comparable with the others (another protocol), else None."""
    text = _marks_as_printed(line)
    mark = _LEADING_MARK.match(text) or _MARKED_WITH.search(text)
    if not (mark and _INCOMPARABLE.search(text)):
        return None
    return (f"{where}: " + _INCOMPARABLE_NOTE.format(mark[1])
            + f" (the note below the table: {plain_text(text)[:90]!r})")


def incomparable_marks(notes: list[str]) -> dict[str, str]:
    """Mark -> where its note is, for the marks a note below the table calls not comparable."""
    return {m[2]: m[1] for n in notes if (m := _INCOMPARABLE_READ.match(n))}


def carries_mark(raw: str, mark: str) -> bool:
    """The cell's number carries the footnote mark (``3.57*``, ``3.57$^\\dagger$``); a
    Markdown bold (``**0.82**``) is no mark."""
    return bool(re.search(r"\d\s*" + re.escape(mark), _marks_as_printed(str(raw).replace("**", ""))))
