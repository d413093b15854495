"""`falseclaims sheet inspect FILE --html PAGE`: the review page of a draft (synthetic
sheets, invented values)."""

from __future__ import annotations

import csv
import shutil
import subprocess

import pytest

from falseclaims.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
HOSTILE = "<script>alert(1)</script>"


def _sheet(tmp_path):
    """A distance in the 'Ours' column beside a SOTA Dice in percent; a hostile header
    and cell."""
    rows = [["Paper", "Task", "Split", "Test cases", "Ours", "SOTA Dice (%)", HOSTILE]]
    rows += [[f"Author{i} 2023", "segmentation", "train/test", 40 + i, f"{5 + i % 4}.{i}",
              f"{80 + i}.5", HOSTILE] for i in range(30)]
    path = tmp_path / "s.csv"
    with open(path, "w", newline="", encoding="utf-8") as fh:
        csv.writer(fh).writerows(rows)
    return path


def _page(tmp_path, capsys):
    sheet, page = _sheet(tmp_path), tmp_path / "review.html"
    assert main(["sheet", "inspect", str(sheet), "--venue", "v", "--html", str(page)]) == 0
    assert "review page:" in capsys.readouterr().out
    return page


def test_review_page_shows_roles_papers_and_warnings(tmp_path, capsys):
    html = _page(tmp_path, capsys).read_text(encoding="utf-8")
    assert "NOT READY TO RUN" in html
    # per column: role, evidence, example cells
    assert "value_proposed" in html and "header &#39;Ours&#39;, numbers" in html
    assert "Author0 2023" in html and "80.5" in html
    # the first papers as the pipeline reads them: values converted from percent, n, delta
    assert "The first 25 of 30 papers" in html
    assert "proposed: 0.05<br>best_prior: 0.805" in html  # 5.0 % and 80.5 %
    assert "-0.755" in html  # 0.05 - 0.805, hand computed
    # every plausibility warning, with the key to change
    assert "prior_wins" in html and "delta" in html and "venues.v.columns" in html
    # everything escaped
    assert "<script>" not in html and "&lt;script&gt;" in html


def test_review_page_is_not_written_over_an_existing_file(tmp_path, capsys):
    sheet, page = _sheet(tmp_path), tmp_path / "review.html"
    page.write_text("mine")
    assert main(["sheet", "inspect", str(sheet), "--html", str(page)]) == 2
    assert page.read_text() == "mine"
    assert main(["sheet", "inspect", str(sheet), "--html", str(sheet), "--force"]) == 2
    assert main(["sheet", "inspect", str(sheet), "--html", str(page), "--write",
                 str(page)]) == 2


@pytest.mark.skipif(CHROMIUM is None, reason="chromium not installed")
def test_review_page_renders_in_headless_chromium(tmp_path, capsys):
    page = _page(tmp_path, capsys)
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]
    dom = subprocess.run([CHROMIUM, *flags, "--dump-dom", page.as_uri()], capture_output=True,
                         text=True, timeout=120).stdout
    assert "Plausibility warnings" in dom and "Author24 2023" in dom
    assert "<td>Author25 2023</td>" not in dom  # the first 25 papers only
    assert dom.count("<tr") == 1 + 7 + 1 + 25  # column table, papers table
    png = tmp_path / "shot.png"
    subprocess.run([CHROMIUM, *flags, "--hide-scrollbars", "--window-size=1100,1600",
                    f"--screenshot={png}", page.as_uri()], capture_output=True, timeout=120)
    assert png.is_file() and png.stat().st_size > 20_000  # tables drawn, not a blank page
