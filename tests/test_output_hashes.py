"""tools/output_hashes.py: the before/after check of a refactoring finds every change."""

import hashlib
import importlib.util
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("output_hashes", REPO / "tools" / "output_hashes.py")
output_hashes = importlib.util.module_from_spec(spec)
spec.loader.exec_module(output_hashes)


def make_outputs(root: Path) -> None:
    (root / "results" / "v").mkdir(parents=True)
    (root / "figures" / "v").mkdir(parents=True)
    (root / "results" / "v" / "summary.csv").write_text("a,b\n1,2\n")
    (root / "figures" / "v" / "fig.png").write_bytes(b"\x89PNG fake")
    (root / "logs").mkdir()
    (root / "logs" / "run.log").write_text("not an output\n")


def test_hashes_match_sha256sum_format(tmp_path, capsys):
    make_outputs(tmp_path)
    assert output_hashes.main(["--repo", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    want = hashlib.sha256(b"a,b\n1,2\n").hexdigest() + "  results/v/summary.csv"
    assert want in lines and len(lines) == 2  # logs/ is not an output


def test_compare_reports_changed_missing_and_new_files(tmp_path, capsys):
    make_outputs(tmp_path)
    before = tmp_path / "before.txt"
    output_hashes.main(["--repo", str(tmp_path)])
    before.write_text(capsys.readouterr().out)
    assert output_hashes.main(["--repo", str(tmp_path), "--compare", str(before)]) == 0
    assert "2 of 2 files byte-identical" in capsys.readouterr().out

    (tmp_path / "results" / "v" / "summary.csv").write_text("a,b\n1,3\n")
    (tmp_path / "figures" / "v" / "fig.png").unlink()
    (tmp_path / "figures" / "v" / "fig.pdf").write_bytes(b"%PDF")
    assert output_hashes.main(["--repo", str(tmp_path), "--compare", str(before)]) == 1
    out = capsys.readouterr().out
    assert "differs: results/v/summary.csv" in out
    assert "missing: figures/v/fig.png" in out
    assert "new: figures/v/fig.pdf" in out
