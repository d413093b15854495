"""Errors of the per-case readers: every problem located by file, line, column and value
(the one :class:`~falseclaims.errors.Problem`), raised as a thin subclass of the one input
error so that callers can catch per-case errors by name."""

from __future__ import annotations

from collections.abc import Sequence

from falseclaims.errors import FalseclaimsInputError, Problem

__all__ = ["Problem", "PerCaseValidationError"]


class PerCaseValidationError(FalseclaimsInputError):
    """All problems found in per-case input; ``problems`` holds :class:`Problem` items."""

    def __init__(self, problems: str | Sequence[Problem], hint: str | None = None):
        super().__init__(problems, subject="per-case input", hint=hint)
