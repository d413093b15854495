"""Errors the user can fix by changing an input (sheet, per-case file, config).

Pipeline steps report these as one ``ERROR`` block without a Python traceback
(``falseclaims.pipeline.run_step``); anything else is a bug and keeps its traceback.
"""

from __future__ import annotations

__all__ = ["FalseclaimsInputError"]


class FalseclaimsInputError(ValueError):
    """A problem in the user's input; the message names the file or config key and what
    was expected."""
