"""Test-set sizes kept in a second table (config ``sizes:``, ``sheet inspect --sizes``).

The sizes are the official test splits of public benchmarks (CIFAR-10: 10,000 test images,
ImageNet (ILSVRC-2012) validation: 50,000, SVHN: 26,032), so the expected values are known
without the code under test."""

import textwrap

import pytest
import yaml

from falseclaims.cli import main
from falseclaims.sheets import SheetValidationError, read_venue
from falseclaims.config import Analysis
from falseclaims.survey.eligibility import select_papers

CLAIMS = """\
Paper,Title,Benchmark,Metric,Ours (%),Best prior (%)
Lee 2021,Nets A,CIFAR-10,accuracy,95.1,94.8
Kim 2022,Nets B,cifar 10,accuracy,96.0,95.2
Wang 2022,Nets C,ImageNet,accuracy,81.2,80.9
Chen 2023,Nets D,SVHN,accuracy,97.9,97.7
Park 2023,Nets E,Private hospital set,accuracy,88.0,86.5
Smith 2023,Nets F,,accuracy,90.0,89.0
"""
SIZES = """\
data set,test images
CIFAR-10,"10,000"
ImageNet,50000
SVHN,26032
MNIST,10000
"""


def _block(tmp_path, **extra):
    (tmp_path / "claims.csv").write_text(CLAIMS, encoding="utf-8")
    if not (tmp_path / "sizes.csv").exists():
        (tmp_path / "sizes.csv").write_text(SIZES, encoding="utf-8")
    block = {
        "papers": "claims.csv", "layout": "wide_top2", "units": "percent",
        "columns": {"wide": {"Paper": "paper_id", "Title": "title", "Metric": "metric",
                             "Ours (%)": "value_proposed",
                             "Best prior (%)": "value_best_prior"}},
        "constants": {"task": "classification", "in_scope": True,
                      "values_only_in_figures": False},
        "sizes": {"file": "sizes.csv", "on": "Benchmark"},
    }
    block.update(extra)
    return block


def test_sizes_fill_n_test_by_data_set_and_count_as_a_distinct_test_set(tmp_path, config):
    s = read_venue(_block(tmp_path), base_dir=tmp_path, venue="bench")
    p = s.papers.set_index("paper_id")
    assert p["n_test"].astype("Float64").fillna(-1).to_dict() == {
        "Lee 2021": 10000, "Kim 2022": 10000, "Wang 2022": 50000, "Chen 2023": 26032,
        "Park 2023": -1, "Smith 2023": -1}
    assert (p.loc[["Lee 2021", "Kim 2022", "Wang 2022", "Chen 2023"], "split"]
            == "train_test").all()
    assert p.loc[["Park 2023", "Smith 2023"], "split"].isna().all()
    # every row whose data set has no size is noted, with the data set named
    notes = s.notes.groupby("row")["note"].agg(" | ".join)
    assert "'Private hospital set' has no size in sizes.csv" in notes.loc[6]
    assert "no data set named: no test-set size" in notes.loc[7]
    # the official split passes the "distinct test set" and "test-set size" criteria
    sel = select_papers(s.papers, s.results, Analysis.from_config(config).eligibility, "bench")
    assert set(sel.eligible["paper_id"]) == {"Lee 2021", "Kim 2022", "Wang 2022",
                                             "Chen 2023"}
    reasons = sel.exclusions.set_index("paper_id")["reason"]
    assert reasons.loc["Park 2023"] == reasons.loc["Smith 2023"] == "no_distinct_test_set"


def test_a_size_in_the_sheet_is_kept_and_the_other_noted(tmp_path):
    (tmp_path / "claims.csv").write_text(CLAIMS, encoding="utf-8")
    block = _block(tmp_path)
    lines = CLAIMS.splitlines()
    text = "\n".join([lines[0] + ",n", lines[1] + ",2000", *(x + "," for x in lines[2:])])
    (tmp_path / "claims.csv").write_text(text, encoding="utf-8")
    block["columns"]["wide"]["n"] = "n_test"
    s = read_venue(block, base_dir=tmp_path, venue="bench")
    p = s.papers.set_index("paper_id")
    assert p.loc["Lee 2021", "n_test"] == 2000 and p.loc["Kim 2022", "n_test"] == 10000
    kept = s.notes[s.notes["row"] == 2]["note"].str.cat()
    assert "the sheet's test-set size kept (sizes.csv gives 10000 for 'CIFAR-10')" in kept


@pytest.mark.parametrize("sizes, expected", [
    ("name,size\nCIFAR-10,many\n", "sizes.csv, row 2, column 'size': got 'many'; expected a whole"),
    ("name,size\nCIFAR-10,10000\ncifar 10,9000\n", "one size per data set"),
    ("name,size\nCIFAR-10,0\n", "a whole number of at least 1"),
])
def test_a_bad_sizes_table_is_refused_naming_file_row_and_column(tmp_path, sizes, expected):
    (tmp_path / "sizes.csv").write_text(sizes, encoding="utf-8")
    with pytest.raises(SheetValidationError) as exc:
        read_venue(_block(tmp_path), base_dir=tmp_path, venue="bench")
    assert expected in str(exc.value)


def test_a_missing_join_column_or_file_is_refused(tmp_path):
    block = _block(tmp_path)
    block["sizes"]["on"] = "Dataset"
    with pytest.raises(SheetValidationError, match="a data-set column of the sheet"):
        read_venue(block, base_dir=tmp_path, venue="bench")
    block["sizes"] = {"file": "nowhere.csv", "on": "Benchmark"}
    with pytest.raises(SheetValidationError, match="an existing file"):
        read_venue(block, base_dir=tmp_path, venue="bench")


def test_inspect_sizes_drafts_the_join_on_the_column_naming_the_data_sets(tmp_path, capsys):
    """The join column is found by its cells (the header says 'Benchmark', not 'Dataset'),
    the draft runs as written (sheet check exit 0) and says how many rows lack a size."""
    (tmp_path / "claims.csv").write_text(CLAIMS, encoding="utf-8")
    (tmp_path / "sizes.xlsx").parent.mkdir(exist_ok=True)
    import openpyxl
    wb = openpyxl.Workbook()
    ws = wb.active
    for row in (["Dataset name", "Official test size"], ["CIFAR-10", 10000],
                ["ImageNet", 50000], ["SVHN", 26032]):
        ws.append(row)
    wb.save(tmp_path / "sizes.xlsx")
    draft = tmp_path / "venue.yaml"
    assert main(["sheet", "inspect", str(tmp_path / "claims.csv"), "--venue", "bench",
                 "--sizes", str(tmp_path / "sizes.xlsx"), "--write", str(draft)]) == 0
    cfg = yaml.safe_load(draft.read_text(encoding="utf-8"))
    assert cfg["venues"]["bench"]["sizes"] == {
        "file": str((tmp_path / "sizes.xlsx").resolve()), "on": "Benchmark",
        "name": "Dataset name", "size": "Official test size"}
    text = draft.read_text(encoding="utf-8")
    assert "joined on column 'Benchmark': 4 of 5 filled cells" in text
    assert "4 of 6 papers have a test-set size; 2 row(s) whose data set has no size" in text
    capsys.readouterr()
    assert main(["sheet", "check", "--venue", "bench", "--config", str(draft)]) == 0


def test_inspect_sizes_without_a_matching_column_says_so(tmp_path, capsys):
    (tmp_path / "claims.csv").write_text(CLAIMS, encoding="utf-8")
    (tmp_path / "sizes.csv").write_text(textwrap.dedent("""\
        name,size
        Kinetics-400,19877
        """), encoding="utf-8")
    main(["sheet", "inspect", str(tmp_path / "claims.csv"), "--sizes",
          str(tmp_path / "sizes.csv")])
    out = capsys.readouterr().out
    assert "no column of the sheet names a data set of its 'name' column" in out
