"""The fonts a PDF embeds: matplotlib subsets each font it used (fontTools) for every PDF.

Subsetting a font parses it whole first: DejaVu Sans has 6,000 glyphs, and parsing them was
a third of the time of writing a figure's PDF (docs/benchmarks.md). Two things make it
cheaper, and neither changes a byte of the PDF (tests/test_figures.py):

- the font tables a PDF viewer never reads are not loaded (``_PDF_UNUSED_FONT_TABLES``);
- the job server subsets each font of the style once, to the glyphs of the characters figures
  draw (:func:`prepare`), and a PDF's subset is then cut from that small font. Cutting a
  subset of a subset gives the same glyphs, tables and bytes as cutting it from the font file
  (same glyph order, names, metrics and hinting; the table order of the file is kept). A PDF
  that uses a glyph outside it is subset from the font file, as before.
"""

from __future__ import annotations

import io
import os
from contextlib import contextmanager

from fontTools import subset as font_subset
from matplotlib.backends import _backend_pdf_ps

# Font tables a PDF viewer never reads: glyph substitution/positioning (matplotlib places every
# glyph and applies kerning itself) and maths layout. matplotlib's font subsetting (fontTools)
# parses them for every embedded font, which was most of the time of writing a PDF.
_PDF_UNUSED_FONT_TABLES = ["GSUB", "GPOS", "GDEF", "kern", "MATH"]

# The characters whose glyphs are subset once per font: Latin (with Latin-1 and Extended-A/B),
# Greek, general punctuation, super- and subscripts, currency, letterlike symbols, arrows,
# mathematical operators, geometric shapes (the ◆ of a legend) and the ff/fi/fl ligatures
# matplotlib draws. Measured on the example: 115 of 171 subsets fall inside the first three
# ranges, all 171 inside these.
PREPARED_CODE_POINTS = ((0x20, 0x250), (0x370, 0x400), (0x2000, 0x2400), (0x25A0, 0x2600),
                        (0xFB00, 0xFB07))

# font file (path, face index) -> (the subset font's bytes, its glyph index of each glyph
# of the font file it holds); filled by prepare() in the job server, inherited by every job
_prepared: dict[tuple[str, int], tuple[bytes, dict[int, int]]] = {}


class _PreparedFontFile(io.BytesIO):
    """A prepared subset read as a font file (matplotlib asks a font file for its face)."""

    face_index = 0


def _key(fontfile) -> tuple[str, int]:
    return str(os.fspath(fontfile)), getattr(fontfile, "face_index", 0)


def _load_lean(load):
    def load_lean(*args, **kwargs):
        font = load(*args, **kwargs)
        for tag in _PDF_UNUSED_FONT_TABLES:
            if tag in font:  # a lazily loaded table is removed without being parsed
                del font[tag]
        return font

    return load_lean


@contextmanager
def pdf_font_subsets():
    """While a PDF is written: fonts are loaded without the tables a viewer never reads, and a
    font prepared by :func:`prepare` is subset from its prepared subset."""
    load, subset = font_subset.load_font, _backend_pdf_ps.get_glyphs_subset

    @contextmanager
    def glyphs_subset(fontfile, glyphs):
        glyphs = set(glyphs)
        prepared = _prepared.get(_key(fontfile))
        if prepared is None or not glyphs <= prepared[1].keys():
            with subset(fontfile, glyphs) as result:
                yield result
            return
        data, index = prepared
        with subset(_PreparedFontFile(data), {index[g] for g in glyphs}) as result:
            yield result._replace(glyph_index_map={g: result.glyph_index_map[index[g]]
                                                   for g in glyphs})

    font_subset.load_font = _load_lean(load)
    _backend_pdf_ps.get_glyphs_subset = glyphs_subset
    try:
        yield
    finally:
        font_subset.load_font, _backend_pdf_ps.get_glyphs_subset = load, subset


def prepare(font_paths) -> None:
    """Subset each font file once to the glyphs of PREPARED_CODE_POINTS (the job server calls
    it before it forks, with the style's fonts: every job inherits the result)."""
    from matplotlib import font_manager, ft2font

    for path in font_paths:
        fontfile = font_manager.FontPath(path, 0)
        charmap = ft2font.FT2Font(fontfile).get_charmap()
        glyphs = {g for c, g in charmap.items()
                  if any(lo <= c < hi for lo, hi in PREPARED_CODE_POINTS)}
        with pdf_font_subsets(), _backend_pdf_ps.get_glyphs_subset(fontfile, glyphs) as result:
            buffer = io.BytesIO()
            # the font file's table order and date, as a subset cut from it directly keeps them
            result.font.recalcTimestamp = False
            result.font.save(buffer, reorderTables=False)
        _prepared[_key(fontfile)] = (buffer.getvalue(),
                                     {g: result.glyph_index_map[g] for g in glyphs})


def style_fonts() -> list[str]:
    """The font files of the active style's family, regular and bold (the weights figures
    draw; measured on the example: these two are every font its PDFs embed)."""
    from matplotlib import font_manager

    return sorted({font_manager.findfont(font_manager.FontProperties(weight=w))
                   for w in ("normal", "bold")})
