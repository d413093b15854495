"""Text files as real users export them, read by the one text layer (falseclaims.io) that
per-case files, estimation inputs, survey sheets and table mode share: classic Mac line
ends, Excel's trailing empty columns and 'sep=' line, NUL padding and sparse files,
control characters, Ctrl-Z. Each export is compared with the plain LF file it was made
from: the same cells, or one clear refusal naming the problem (docs/robustness.md,
"Text exports")."""

import codecs
import io
import json
import os
from pathlib import Path

import pandas as pd
import pytest

from falseclaims.cli import main
from falseclaims.estimation.inputs import read_input_table
from falseclaims.examples.percase_files import FILES
from falseclaims.io import textio
from falseclaims.io.raw_reader import read_raw_table
from falseclaims.percase.errors import PerCaseValidationError
from falseclaims.table.readers import read_tables

ROOT = Path(__file__).resolve().parents[1]
SEG = ROOT / "data" / "example" / FILES["segmentation"]
LINES = SEG.read_text().splitlines()[:21]  # header and 20 cases


def _write(path: Path, lines, nl="\n", encoding="utf-8", bom=b"") -> Path:
    path.write_bytes(bom + (nl.join(lines) + nl).encode(encoding))
    return path


def _frame(path: Path) -> pd.DataFrame:
    df = read_input_table(path)
    return pd.DataFrame(df)  # without attrs


def _sheet(path: Path):
    t = read_raw_table(path)
    assert not t.problems, t.problems
    return t.header, [cells for _, cells in t.rows]


def _long(tmp_path: Path, nl: str, suffix="") -> Path:
    """The segmentation example in the long layout, 'suffix' appended to every line."""
    wide = pd.read_csv(SEG, dtype=str).head(20)
    rows = ["case_id,task,method,metric,value"] + [
        f"{r['case_id']},seg,{m[len('alg_'):]},dsc,{r[m]}"
        for r in wide.to_dict("records") for m in wide.columns[1:]]
    return _write(tmp_path / f"long{len(nl)}{len(suffix)}.csv", [x + suffix for x in rows], nl)


def _percase(capsys, path: Path) -> dict:
    code = main(["percase", str(path), "--task", "segmentation", "--json",
                 "--bootstrap", "200"])
    out = capsys.readouterr()
    assert code == 0, out.err
    return json.loads(out.out)


# ------------------------------------------------------------------ line ends
MIXED = object()


@pytest.mark.parametrize("nl", ["\r", "\r\n", MIXED], ids=["cr", "crlf", "cr-then-lf"])
def test_line_ends_give_the_lf_cells_to_every_reader(tmp_path, nl):
    """A classic Mac file (CR only, Excel's "CSV (Macintosh)") crashed the per-case and
    estimation readers ("new-line character seen in unquoted field") while table mode and
    sheets read it; now every reader gets the cells of the LF file."""
    lf = _write(tmp_path / "lf.csv", LINES)
    if nl is MIXED:  # a file appended to on another system
        other = tmp_path / "other.csv"
        other.write_bytes(("\r".join(LINES[:8]) + "\r" + "\n".join(LINES[8:]) + "\n").encode())
    else:
        other = _write(tmp_path / "other.csv", LINES, nl)
    pd.testing.assert_frame_equal(_frame(other), _frame(lf))
    assert _sheet(other) == _sheet(lf)
    assert read_tables(other)[0].rows == read_tables(lf)[0].rows


def test_cr_only_percase_cli_gives_the_lf_result(tmp_path, capsys):
    """The per-case command on a CR-only long-layout file: the result of the LF file."""
    want = _percase(capsys, _long(tmp_path, "\n"))["result"]
    got = _percase(capsys, _long(tmp_path, "\r"))["result"]
    for key in ("probability", "ranking", "difference_interval", "n", "a", "b"):
        assert got[key] == want[key], key


def test_cr_only_claims_reloaded_percase_cli(tmp_path, capsys):
    """The per-case command on the wide (case_id, alg_*) CR-only file."""
    want = _percase(capsys, _write(tmp_path / "lf.csv", LINES))["result"]
    got = _percase(capsys, _write(tmp_path / "cr.csv", LINES, "\r"))["result"]
    assert got["probability"] == want["probability"]


def test_utf16_without_bom_is_still_utf16(tmp_path):
    """The NUL test that keeps padded text from being read as UTF-16 still finds UTF-16
    without a byte-order mark (LE and BE)."""
    lf = _write(tmp_path / "lf.csv", LINES)
    for enc in ("utf-16-le", "utf-16-be"):
        p = _write(tmp_path / f"{enc}.csv", LINES, "\r\n", enc)
        pd.testing.assert_frame_equal(_frame(p), _frame(lf))
        notes = read_input_table(p).attrs["notes"]
        assert any(f"decoded as {enc}" in n for n in notes)


def test_web_page_reads_mac_and_excel_exports(tmp_path):
    """The per-case page (same readers as the command): a CR-only file and one with
    Excel's trailing empty columns give the probability of the LF file."""
    flask = pytest.importorskip("flask", reason="the 'web' extra (flask) is not installed")
    from falseclaims.web import create_app

    assert flask
    client = create_app().test_client()

    def post(path: Path) -> dict:
        ans = client.post("/api/percase", data={
            "task": "segmentation", "files": (io.BytesIO(path.read_bytes()), "mine.csv")},
            content_type="multipart/form-data").get_json()
        assert ans["ok"], ans["errors"]
        return json.loads(ans["envelope_text"])["result"]

    want = post(_long(tmp_path, "\n"))["probability"]
    assert post(_long(tmp_path, "\r"))["probability"] == want
    assert post(_long(tmp_path, "\r\n", ",,,"))["probability"] == want


# ------------------------------------------------------------------ trailing columns
@pytest.mark.parametrize("sep, extra", [(",", ",,,"), (";", ";;"), ("\t", "\t\t")])
def test_trailing_empty_columns_are_dropped_with_a_note(tmp_path, sep, extra):
    """Excel/LibreOffice write 'a,b,,,' for formatted empty cells right of a table; the
    per-case reader refused it ("'' given more than once"). The columns are dropped, the
    note says how many, and the cells are those of the clean file."""
    clean = _write(tmp_path / "clean.csv", [x.replace(",", sep) for x in LINES])
    excel = _write(tmp_path / "excel.csv", [x.replace(",", sep) + extra for x in LINES],
                   "\r\n", bom=codecs.BOM_UTF8)
    pd.testing.assert_frame_equal(_frame(excel), _frame(clean))
    n = extra.count(sep)
    assert f"{excel}: {textio.NOTE_EMPTY_COLUMNS.format(n=n)}" in \
        read_input_table(excel).attrs["notes"]
    assert read_input_table(excel).shape == (20, 5)


def test_trailing_empty_columns_percase_cli(tmp_path, capsys):
    want = _percase(capsys, _long(tmp_path, "\n"))
    got = _percase(capsys, _long(tmp_path, "\n", ",,"))
    assert got["result"]["probability"] == want["result"]["probability"]
    assert any("empty column(s) without a name" in n for n in got["notes"])


def test_named_or_filled_trailing_columns_are_kept(tmp_path):
    """Only wholly empty unnamed columns go: a named empty column stays (the caller
    decides), an unnamed column holding a value stays (the per-case reader asks for its
    name), two unnamed ones holding values are still two columns named ''."""
    named = _write(tmp_path / "named.csv", [LINES[0] + ",comment"] + [x + "," for x in LINES[1:]])
    assert list(_frame(named).columns)[-1] == "comment"
    one = _write(tmp_path / "one.csv", [LINES[0] + ",,"] + [x + ",x," for x in LINES[1:]])
    df = read_input_table(one)
    assert df.shape == (20, 6) and (df.iloc[:, 5] == "x").all()
    assert any("1 empty column(s)" in n for n in df.attrs["notes"])
    two = _write(tmp_path / "two.csv", [LINES[0] + ",,"] + [x + ",x,y" for x in LINES[1:]])
    with pytest.raises(PerCaseValidationError, match="'' given more than once"):
        read_input_table(two)


def test_rows_past_the_header_are_never_shifted(tmp_path):
    """Every row one field longer than the header: pandas took the first field as an
    index and shifted each value a column left (the case id vanished; the percase command
    crashed). Empty extra fields are dropped with a note; a value there is refused."""
    clean = _write(tmp_path / "clean.csv", LINES)
    empty = _write(tmp_path / "empty.csv", [LINES[0]] + [x + ",," for x in LINES[1:]])
    df = read_input_table(empty)
    pd.testing.assert_frame_equal(pd.DataFrame(df), _frame(clean))
    assert any("2 empty field(s) past the header" in n for n in df.attrs["notes"])
    value = _write(tmp_path / "value.csv", [LINES[0]] + [x + ",0.5" for x in LINES[1:]])
    with pytest.raises(PerCaseValidationError) as err:
        read_input_table(value)
    assert err.value.problems[0].row == 2
    assert "a value past its last column" in str(err.value)


# ------------------------------------------------------------------ Excel's sep= line
def test_sep_line_is_the_separator(tmp_path):
    """'sep=;' on the first line (written for Excel, which hides it) was read as the only
    column 'sep=' (per-case) or as the header (sheets); it declares the separator and is
    skipped, noted."""
    clean = _write(tmp_path / "clean.csv", LINES)
    declared = _write(tmp_path / "declared.csv", ["sep=;"] + [x.replace(",", ";") for x in LINES])
    df = read_input_table(declared)
    pd.testing.assert_frame_equal(pd.DataFrame(df), _frame(clean))
    assert any("'sep=;'" in n for n in df.attrs["notes"])
    assert _sheet(declared) == _sheet(clean)  # sheets too, split by str or by csv (quotes)
    quoted = _write(tmp_path / "quoted.csv", ["sep=;"] + [
        '"' + x.replace(",", '";"') + '"' for x in LINES], "\r\n")
    assert _sheet(quoted) == _sheet(clean)
    assert read_raw_table(quoted).rows[0][0] == 2  # the header is row 1, as Excel shows it


# ------------------------------------------------------------------ NUL bytes, sparse files
def test_nul_padded_text_is_refused_as_such(tmp_path):
    """A text followed by NUL bytes (a copy or download cut short) was decoded as UTF-16:
    one column of CJK-looking characters, or 'no rows'. Every reader now says what it is."""
    p = tmp_path / "padded.csv"
    text = ("\n".join(LINES) + "\n").encode()
    p.write_bytes(text + b"\x00" * 4096)
    want = f"ends in 4,096 NUL bytes from byte {len(text):,} on"
    with pytest.raises(PerCaseValidationError, match=want):
        read_input_table(p)
    assert want in read_raw_table(p).problems[0].expected
    with pytest.raises(Exception, match=want):
        read_tables(p)


def test_sparse_gigabyte_file_is_refused_without_reading_it(tmp_path, monkeypatch):
    """A file that says 1 GB but is a hole of NUL bytes after its text (a sparse file,
    a failed copy): held the memory, then crashed the csv module ("field larger than
    field limit"). Refused from its last block: the whole is never read."""
    p = tmp_path / "sparse.csv"
    with open(p, "wb") as fh:
        fh.write(("\n".join(LINES) + "\n").encode())
        fh.truncate(2**30)
    monkeypatch.setattr(Path, "read_bytes", lambda self: pytest.fail("read whole"))
    with pytest.raises(textio.TextProblem, match="1,073,741,824 bytes are NUL bytes"):
        textio.read_bytes(p, [])
    with pytest.raises(PerCaseValidationError, match="are NUL bytes"):
        read_input_table(p)


@pytest.mark.parametrize("where, char", [(6, "\x00"), (11, "\x0c"), (4, "\x1b")])
def test_control_characters_are_refused_naming_the_line(tmp_path, where, char):
    """A NUL inside a case id was kept silently (a case no other file can match); every
    control character is refused naming its line, as the sheet reader does."""
    lines = list(LINES)
    lines[where - 1] = lines[where - 1].replace("seg", "s" + char + "eg", 1)
    p = _write(tmp_path / "ctrl.csv", lines)
    with pytest.raises(PerCaseValidationError) as err:
        read_input_table(p)
    assert err.value.problems[0].row == where
    assert f"line {where} holds {char!r}" in str(err.value)


def test_trailing_ctrl_z_is_dropped_with_a_note(tmp_path):
    """DOS's end-of-file mark after the last line: an extra row (or an error naming a
    row that has no number); dropped and noted in the per-case and table readers."""
    clean = _write(tmp_path / "clean.csv", LINES)
    p = tmp_path / "dos.csv"
    p.write_bytes(clean.read_bytes().replace(b"\n", b"\r\n") + b"\x1a")
    df = read_input_table(p)
    pd.testing.assert_frame_equal(pd.DataFrame(df), _frame(clean))
    assert any("Ctrl-Z" in n for n in df.attrs["notes"])
    assert read_tables(p)[0].rows == read_tables(clean)[0].rows


# ------------------------------------------------------------------ unchanged readings
def test_exports_that_were_read_stay_read(tmp_path):
    """BOM with ';' and decimal commas, UTF-16 with BOM, quoted cells with a line break,
    tabs in a .csv: read as before, the same cells as the LF file where they hold them."""
    lf = _frame(_write(tmp_path / "lf.csv", LINES))
    semi = _write(tmp_path / "semi.csv",
                  [x.replace(",", ";").replace(".", ",") for x in LINES], "\r\n",
                  bom=codecs.BOM_UTF8)
    pd.testing.assert_frame_equal(_frame(semi), lf)
    pd.testing.assert_frame_equal(_frame(_write(tmp_path / "u16.csv", LINES, "\r\n",
                                                "utf-16")), lf)
    pd.testing.assert_frame_equal(_frame(_write(
        tmp_path / "tabs.csv", [x.replace(",", "\t") for x in LINES])), lf)
    quoted = list(LINES)
    quoted[1] = '"seg\n0001"' + quoted[1][len("seg0001"):]
    df = _frame(_write(tmp_path / "quoted.csv", quoted))
    assert df.shape == lf.shape and df.iloc[0, 0] == "seg\n0001"


@pytest.mark.parametrize("content, expected", [
    (b"", "a header row"), (codecs.BOM_UTF8, "a header row"), (b" \n\t\n", "a header row"),
])
def test_empty_files_say_so(tmp_path, content, expected):
    p = tmp_path / "empty.csv"
    p.write_bytes(content)
    with pytest.raises(PerCaseValidationError, match=expected):
        read_input_table(p)


def test_header_only_with_trailing_columns(tmp_path):
    """A header with Excel's trailing commas and no rows: the named columns, no rows."""
    df = read_input_table(_write(tmp_path / "h.csv", [LINES[0] + ",,,"]))
    assert list(df.columns) == LINES[0].split(",") and len(df) == 0


def test_sparse_file_helper_leaves_small_files_to_the_byte_check(tmp_path):
    """Files up to one block are read whole; their padding is counted exactly."""
    p = tmp_path / "small.csv"
    p.write_bytes(b"a,b\n1,2\n" + b"\x00" * 10)
    with pytest.raises(textio.TextProblem, match="ends in 10 NUL bytes from byte 8 on"):
        textio.decode(textio.read_bytes(p, []), [])
    assert os.path.getsize(p) == 18
