"""The front page's headline table and the console's closing lines for venues whose analysed
papers cover one task: no "segmentation (0 papers)" line; a venue with none says so once."""

import re

import pandas as pd

from falseclaims.survey.front_page import front_page_html, headline_text

COLUMNS = ["venue", "task", "name", "description", "value", "unit", "population",
           "n_population", "low", "high", "range", "paper_value", "paper_source"]


def _numbers(venue: str, analysed: dict[str, int]) -> pd.DataFrame:
    """numbers.csv rows of a venue: per task its papers found and, for a task with analysed
    papers, the share above 5% (half of them, range 25%-75%)."""
    rows = []
    for task, n in analysed.items():
        rows.append([venue, task, "papers_found", "papers found", n, "papers", "papers found",
                     n, None, None, "", "", ""])
        if n:
            rows.append([venue, task, "share_above_0.05", "P > 5%", 0.5, "share",
                         "papers analysed", n, 0.25, 0.75, "one factor at a time", "", ""])
    return pd.DataFrame(rows, columns=COLUMNS)


NUMBERS = {"eeg": _numbers("eeg", {"classification": 4, "segmentation": 0}),
           "seg": _numbers("seg", {"classification": 0, "segmentation": 6}),
           "both": _numbers("both", {"classification": 2, "segmentation": 8}),
           "none": _numbers("none", {"classification": 0, "segmentation": 0})}
LABELS = {"eeg": "EEG review", "seg": "Seg challenge", "both": "Both", "none": "Empty"}


def _rows(html: str) -> list[str]:
    """The headline table's rows as text (the first table of the page)."""
    table = html.split('<table class="fc">')[1].split("</table>")[0]
    return [" ".join(re.sub(r"<[^>]+>", " ", r).split()) for r in table.split("<tr>")[2:]]


def test_a_one_task_venue_has_one_headline_row():
    rows = _rows(front_page_html(NUMBERS, LABELS, [], "median congruence"))
    assert [r.split(" 50%")[0] for r in rows] == [
        "EEG review Classification 4", "Seg challenge Segmentation 6",
        "Both Classification 2", "Both Segmentation 8", "Empty no analysed papers"]


def test_the_console_lists_only_tasks_with_analysed_papers():
    lines = headline_text(NUMBERS, LABELS)
    assert lines == [
        "  EEG review, classification (4 papers): > 5%: 50% [25%–75%]",
        "  Seg challenge, segmentation (6 papers): > 5%: 50% [25%–75%]",
        "  Both, classification (2 papers): > 5%: 50% [25%–75%]",
        "  Both, segmentation (8 papers): > 5%: 50% [25%–75%]",
        "  Empty: no analysed papers"]
    assert not any("(0 papers)" in line for line in lines)
