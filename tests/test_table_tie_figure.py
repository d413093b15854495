"""The ranked-interval figure of `falseclaims table`: a tie at the top has no winner."""

import json

import matplotlib.pyplot as plt
import pytest

from falseclaims.cli import main
from falseclaims.figures.table import ranked_intervals


def _metric(tmp_path, capsys, rows: str) -> dict:
    path = tmp_path / "t.md"
    path.write_text("| Method | Dice |\n|---|---|\n" + rows, encoding="utf-8")
    assert main(["table", str(path), "--n", "50", "--json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"][0]


@pytest.mark.parametrize("rows, mark", [
    ("| A | 0.85 |\n| B | 0.85 |\n| C | 0.80 |\n", "tie (reference)"),
    ("| A | 0.86 |\n| B | 0.85 |\n| C | 0.80 |\n", "winner"),
])
def test_annotation_of_the_first_row(tmp_path, capsys, rows, mark):
    m = _metric(tmp_path, capsys, rows)
    fig, data = ranked_intervals(m)
    texts = [t.get_text() for t in fig.axes[0].texts]
    plt.close(fig)
    assert texts[0] == mark
    assert sum(t in ("winner", "tie (reference)") for t in texts) == 1
