"""Extraction sheets: the pipeline reader (:mod:`falseclaims.sheets.read`: column mapping,
units, messy cells, the wide top-2 layout, and validation into the normalised tables of
docs/architecture.md) and the drafting assistant (:mod:`falseclaims.sheets.draft`: ``sheet
inspect``). The file formats (CSV/TSV/XLSX) are read by :mod:`falseclaims.io`. The sheet
format is documented in data/README.md.

The reader is resolved lazily: a process that needs only the error types should not pay for
the whole sheet reader.
"""

from falseclaims.sheets.read.errors import CellError, Problem, SheetValidationError

__all__ = ["CellError", "Problem", "SheetValidationError", "Sheets", "check_venue_config",
           "read_venue"]

_FROM_READER = ("Sheets", "check_venue_config", "read_venue")


def __getattr__(name):
    if name in _FROM_READER:
        from falseclaims.sheets.read import reader

        return getattr(reader, name)
    raise AttributeError(f"module 'falseclaims.sheets' has no attribute {name!r}")
