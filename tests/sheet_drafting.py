"""Helpers of the sheet-drafting tests: a hand-made sheet written as CSV, and the venue
block ``sheet inspect`` drafts for it."""

import csv

from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet


def write_rows(tmp_path, rows, name="s.csv", delimiter=","):
    path = tmp_path / name
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh, delimiter=delimiter).writerows(rows)
    return path


def drafted(path, venue="v"):
    """The draft and its venue block."""
    d = draft_config(inspect_sheet(path), venue, str(path))
    return d, d.config["venues"][venue]
