"""One text-table policy (falseclaims.io.textio) for sheets, per-case, estimation and table-mode
files, and the column mapping of `falseclaims percase` files (--columns / columns=)."""

import gzip
import json
from pathlib import Path

import pandas as pd
import pytest

from falseclaims.io import textio
from falseclaims.cli import main
from falseclaims.estimation.inputs import read_input_table
from falseclaims.examples.percase_files import FILES
from falseclaims.percase.author import load_inputs
from falseclaims.percase.readers import PerCaseValidationError, read_long, read_percase
from falseclaims.io.raw_reader import read_raw_table
from falseclaims.table.readers import read_tables

ROOT = Path(__file__).resolve().parents[1]
EX = ROOT / "data" / "example"
CLS = EX / FILES["classification"]
SEG = EX / FILES["segmentation"]


def _json(capsys, *argv):
    code = main(["percase", *argv, "--json", "--bootstrap", "300"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)["result"]


def _renamed(src: Path, dst: Path, names: dict) -> Path:
    df = pd.read_csv(src, dtype=str, keep_default_na=False)
    df.rename(columns=names).to_csv(dst, index=False)
    return dst


def _same_result(a: dict, b: dict) -> None:
    for key in ("probability", "ranking", "difference_interval", "congruence", "a", "b", "n"):
        assert a[key] == b[key], key


# ------------------------------------------------------------------ column mapping (#20)
def test_renamed_columns_give_the_example_result(tmp_path, capsys):
    """A per-case file naming its columns ID, label, pred_* gives, with --columns, the
    same result as the example file it was made from (fails without the mapping)."""
    names = {"case_id": "ID", "ground_truth": "label", "alg_densenet": "pred_A",
             "alg_resnet": "pred_B", "alg_vit": "pred_C"}
    path = _renamed(CLS, tmp_path / "mine.csv", names)
    want = _json(capsys, str(CLS), "--task", "classification")
    mapping = "case_id=ID,ground_truth=label,alg_densenet=pred_A,alg_resnet=pred_B,alg_vit=pred_C"
    got = _json(capsys, str(path), "--task", "classification", "--columns", mapping)
    _same_result(got, want)
    api = load_inputs([path], "classification", columns=dict(
        item.split("=") for item in mapping.split(",")))
    ref = load_inputs([CLS], "classification")
    pd.testing.assert_frame_equal(api.values, ref.values)
    assert any("columns renamed by the column mapping" in n for n in api.notes)


def test_renamed_segmentation_file_takes_the_fast_path_with_the_same_result(tmp_path):
    path = _renamed(SEG, tmp_path / "seg.csv", {"case_id": "ID", "alg_unet": "U-Net"})
    cols = {"case_id": "ID", "alg_unet": "U-Net"}
    got = read_percase(path, columns=cols)
    ref = read_percase(SEG)
    assert got.wide is not None  # the typed fast path honours the mapping
    pd.testing.assert_frame_equal(got.table, ref.table)
    careful = read_percase(path, columns=cols, case_mismatch="error", layout="claims_reloaded")
    pd.testing.assert_frame_equal(careful.table, ref.table)


def test_long_layout_mapping(tmp_path):
    long = read_percase(SEG).table[["case_id", "task", "method", "metric", "value"]]
    plain = tmp_path / "long.csv"
    long.to_csv(plain, index=False)
    mine = tmp_path / "mine.csv"
    long.rename(columns={"case_id": "Patient", "value": "DSC"}).to_csv(mine, index=False)
    got = read_long(mine, columns={"case_id": "Patient", "value": "DSC"})
    pd.testing.assert_frame_equal(got.table, read_long(plain).table)


def test_unknown_role_and_missing_column_refused_in_one_line(tmp_path, capsys):
    path = _renamed(SEG, tmp_path / "seg.csv", {"case_id": "ID"})
    code = main(["percase", str(path), "--task", "seg", "--columns", "caseid=ID"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert "unknown per-case column role 'caseid'; did you mean 'case_id'?" in err
    code = main(["percase", str(path), "--task", "seg", "--columns", "case_id=Patient"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and len(err.splitlines()) == 1, err
    assert str(path) in err and "a column 'Patient' (mapped to 'case_id'" in err
    code = main(["percase", str(path), "--task", "seg", "--columns", "case_id"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "expected ROLE=COLUMN" in err
    with pytest.raises(ValueError, match="did you mean 'ground_truth'"):
        read_percase(path, columns={"truth": "ID"})


# ------------------------------------------------------------------ one text policy (#18)
def test_one_note_text_for_a_fallback_wherever_the_file_is_read(tmp_path):
    """A UTF-16 (BOM) and a Windows-1252 file get the same note text in a survey sheet, a
    per-case file and a table-mode file (per-case files were refused as 'not UTF-8')."""
    rows = "case_id,alg_a,alg_b\nJosé,0.8,0.7\nZoë,0.6,0.65\nBjörk,0.9,0.8\n"
    for enc, note in (("utf-16", textio.NOTE_UTF16_BOM), ("cp1252", textio.NOTE_CP1252)):
        f = tmp_path / f"{enc}.csv"
        f.write_bytes(rows.encode(enc))
        sheet = read_raw_table(f)
        assert note in [n["note"] for n in sheet.notes]
        pc = read_percase(f)
        assert f"{f}: {note}" in pc.notes
        assert sorted(pc.table["case_id"].unique()) == ["Björk", "José", "Zoë"]
        assert note in read_tables(f)[0].notes


def test_gzip_text_tables_everywhere(tmp_path):
    """Survey sheets and table-mode files may be gzip-compressed too (were refused)."""
    text = "paper_id,task\np1,segmentation\np2,classification\n"
    f = tmp_path / "papers.csv.gz"
    with gzip.open(f, "wt", encoding="utf-8") as fh:
        fh.write(text)
    t = read_raw_table(f)
    assert not t.problems and t.header == ["paper_id", "task"] and len(t.rows) == 2
    assert textio.NOTE_GZIP in [n["note"] for n in t.notes]
    g = tmp_path / "tab.csv.gz"
    with gzip.open(g, "wt", encoding="utf-8") as fh:
        fh.write("Method,Acc\nA,0.91\nB,0.90\n")
    assert textio.NOTE_GZIP in read_tables(g)[0].notes
    table = read_input_table(g)
    assert list(table.columns) == ["Method", "Acc"]


def test_decimal_commas_converted_with_a_note_or_refused_by_cell(tmp_path):
    """Tab-separated: converted with a note (was refused as 'a number'); a quoted '0,85' in a
    ','-separated file: refused naming file, row and column (never silently misread)."""
    tsv = tmp_path / "seg.tsv"
    tsv.write_text("case_id\talg_a\talg_b\nc1\t0,8\t0,7\nc2\t0,6\t0,65\nc3\t0,9\t0,8\n",
                   encoding="utf-8")
    pc = read_percase(tsv)
    assert pc.table["value"].tolist() == [0.8, 0.6, 0.9, 0.7, 0.65, 0.8]
    assert f"{tsv}: column 'alg_a': 3 decimal comma(s) read as decimal point(s)" in pc.notes
    csv = tmp_path / "seg.csv"
    csv.write_text('case_id,alg_a,alg_b\nc1,"0,8",0.7\nc2,0.6,0.65\nc3,0.9,0.8\n',
                   encoding="utf-8")
    with pytest.raises(PerCaseValidationError) as exc:
        read_percase(csv)
    p = exc.value.problems[0]
    assert (p.file, p.row, p.column, p.value) == (str(csv), 2, "alg_a", "0,8")
    assert p.expected == textio.DECIMAL_COMMA_EXPECTED


def test_tab_separated_per_case_file_named_csv(tmp_path):
    f = tmp_path / "seg.csv"
    f.write_text("case_id\talg_a\talg_b\nc1\t0.8\t0.7\nc2\t0.6\t0.65\nc3\t0.9\t0.8\n",
                 encoding="utf-8")
    pc = read_percase(f)
    assert f"{f}: {textio.NOTE_TAB}" in pc.notes and len(pc.table) == 6


def test_binary_file_refused_by_every_reader(tmp_path):
    f = tmp_path / "x.csv"
    f.write_bytes(bytes(range(256)) * 40)
    with pytest.raises(PerCaseValidationError, match="a text file"):
        read_percase(f, layout="claims_reloaded")
    assert "a text file" in read_raw_table(f).problems[0].expected
    with pytest.raises(ValueError, match="a text file"):
        read_tables(f)
