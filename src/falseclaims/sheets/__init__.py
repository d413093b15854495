"""Extraction sheets: reading (CSV/TSV/XLSX), column mapping, units, messy cells, the wide
top-2 layout, and validation into the normalised tables of docs/architecture.md.
The sheet format is documented in data/README.md.

The reader is resolved lazily: the per-case readers and estimation jobs import
``falseclaims.sheets.errors`` and ``falseclaims.sheets.io`` only, and should not pay for
the whole sheet reader in every process.
"""

from falseclaims.sheets.errors import CellError, Problem, SheetValidationError

__all__ = ["CellError", "Problem", "SheetValidationError", "Sheets", "check_venue_config",
           "read_venue"]

_FROM_READER = ("Sheets", "check_venue_config", "read_venue")


def __getattr__(name):
    if name in _FROM_READER:
        from falseclaims.sheets import reader

        return getattr(reader, name)
    raise AttributeError(f"module 'falseclaims.sheets' has no attribute {name!r}")
