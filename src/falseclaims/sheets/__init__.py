"""Extraction sheets: reading (CSV/TSV/XLSX), column mapping, units, messy cells, the wide
top-2 layout, and validation into the normalised tables of docs/architecture.md.
The sheet format is documented in data/README.md."""

from falseclaims.sheets.errors import CellError, Problem, SheetValidationError
from falseclaims.sheets.reader import Sheets, check_venue_config, read_venue

__all__ = ["CellError", "Problem", "SheetValidationError", "Sheets", "check_venue_config",
           "read_venue"]
