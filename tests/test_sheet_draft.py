"""A user's own sheet, first try: `sheet inspect --write` drafts a config that runs, and the
venue keys a real sheet needs (two-row headers, ignore, cell_overrides, split_cells,
derive, group_rows_by_id, "see Fig. N", "=9+16"), notes with a kind, run_venues."""

from __future__ import annotations

import csv
import gzip
from pathlib import Path

import pandas as pd
import pytest
import yaml

from falseclaims.cli import main
from falseclaims.config import run_venues
from falseclaims.config_validation import ConfigError, schema_path, validate
from falseclaims.sheets import read_venue
from falseclaims.sheets.draft.draft import draft_config
from falseclaims.sheets.draft.inspect import inspect_sheet
from messy_sheet import ROWS, write_messy_sheet

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def messy(tmp_path):
    return write_messy_sheet(tmp_path / "messy.xlsx")


def _draft(tmp_path, messy, capsys, *extra):
    out = tmp_path / "draft.yaml"
    assert main(["sheet", "inspect", str(messy), "--venue", "mine", "--write", str(out),
                 *extra]) == 0
    return yaml.safe_load(out.read_text()), capsys.readouterr().out


def test_two_row_merged_header_after_a_title_row(tmp_path, messy, capsys):
    cfg, out = _draft(tmp_path, messy, capsys)
    block = cfg["venues"]["mine"]
    assert block["header_row"] == 3 and block["header_rows"] == 2
    assert "title row skipped: row 1" in out
    g = inspect_sheet(messy)
    roles = {c.name: c.role for c in g.columns}
    # combined names; bare and abbreviated lower headers get the right role
    assert roles["Results ours"] == "value_proposed"
    assert roles["Results soa"] == "value_best_prior"
    assert roles["Split sizes train"] == "n_train"
    assert roles["Split sizes val"] == "n_val"
    assert roles["Split sizes test"] == "n_test"
    assert roles["Notes"] == "(ignore)"
    # no data row taken for the header: the first paper is read
    s = read_venue(block, ".", "mine")
    assert "Smith 2021" in set(s.papers["paper_id"])


def test_messy_sheet_draft_runs_as_written_and_counts_papers(tmp_path, messy, capsys):
    cfg, out = _draft(tmp_path, messy, capsys)
    assert cfg["run_venues"] == ["mine"]
    s = read_venue(cfg["venues"]["mine"], ".", "mine")
    ids = [r[0] for r in ROWS if r[1] == "segmentation"]
    assert sorted(s.papers["paper_id"]) == sorted(set(ids))  # papers, not rows: Kim once
    kim = s.notes[s.notes["note"].str.contains("further row of paper 'Kim 2023'")]
    assert list(kim["row"]) == [8]  # the second Kim row is accounted for
    wu = s.papers.set_index("paper_id").loc["Wu 2023"]
    assert bool(wu["values_only_in_figures"])  # "see Fig. 3"
    park = s.papers.set_index("paper_id").loc["Park 2022"]
    assert park["n_test"] == 25 and park["split"] == "train_test"  # "=9+16", "n/a"
    lee = s.papers.set_index("paper_id").loc["Lee 2022"]
    assert lee["split"] == "cv_plus_test" and lee["cv_folds"] == 5  # "5-folds" in val
    assert "6 papers" in out
    # the reported SD is not silently replaced: a note with the fix, and an inspect hint
    sd = s.notes[s.notes["note"].str.contains("reported SD 0.031 not used")]
    assert len(sd) == 1 and "constants: {sd_over: test}" in sd["note"].iloc[0]
    assert "reported SD(s)" in out and "sd_over: test" in out


def test_sure_roles_never_put_training_size_in_n_test(tmp_path, capsys):
    rows = [["paper ", "task", "metric", "ours", "soa", "train ", "test"],
            ["a", "classification", "acc", "0.91", "0.90", "800", "200"],
            ["b", "classification", "acc", "0.81", "0.80", "1000", "250"]]
    with open(tmp_path / "s.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    g = inspect_sheet(tmp_path / "s.csv")
    roles = {c.name: c.role for c in g.columns}
    assert roles == {"paper": "paper_id", "task": "task", "metric": "metric",
                     "ours": "value_proposed", "soa": "value_best_prior",
                     "train": "n_train", "test": "n_test"}
    # two size columns without a header word: neither becomes n_test, both listed as unsure
    rows2 = [["paper", "task", "metric", "ours", "soa", "A", "B"]] + [r[:5] + r[5:] for r in
                                                                     rows[1:]]
    with open(tmp_path / "u.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows2)
    g = inspect_sheet(tmp_path / "u.csv")
    d = draft_config(g, "v")
    assert "n_test" not in d.config["venues"]["v"]["columns"]["wide"].values()
    assert any("unsure: column F 'A'" in r for r in d.remarks)


def test_header_row_override(tmp_path, messy, capsys):
    g = inspect_sheet(messy, header_row=3, header_rows=2)
    assert g.header_rows == 2 and g.columns[3].name == "Results ours"
    g1 = inspect_sheet(messy, header_row=3)
    assert g1.header_rows == 1 and g1.columns[3].name == "ours"
    assert main(["sheet", "inspect", str(messy), "--header-rows", "2"]) == 2


def _wide(tmp_path, rows, **block):
    with open(tmp_path / "w.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    cfg = {"papers": str(tmp_path / "w.csv"), "layout": "wide_top2", "units": "fraction",
           "constants": {"in_scope": True, "values_only_in_figures": False}, **block}
    return read_venue(cfg, ".", "v")


HEAD = ["paper_id", "task", "metric", "value_proposed", "value_best_prior", "n_test", "X"]


def test_ignore_a_column_by_letter_and_override_a_cell(tmp_path):
    rows = [HEAD, ["p1", "segmentation", "dsc", "0.9", "0.8", "10", "junk"],
            ["p2", "segmentation", "dsc", "0.9O", "0.8", "12", ""]]
    s = _wide(tmp_path, rows, columns={"wide": {"@G": "ignore"}},
              cell_overrides={"D3": "0.90"})
    assert list(s.results.query("paper_id == 'p2'")["value"])[0] == pytest.approx(0.9)
    assert s.notes["note"].str.contains("cell D3 '0.9O' replaced by '0.90'").any()
    assert not s.notes["note"].str.contains("'X'").any() or \
        s.notes["note"].str.contains("column 'X' ignored").any()


def test_values_rules_apply_to_numeric_cells(tmp_path):
    rows = [HEAD[:6] + ["scheme"], ["p1", "segmentation", "dsc", "0.9", "0.8", "10", "5"],
            ["p2", "segmentation", "dsc", "0.9", "0.8", "12", "1"]]
    s = _wide(tmp_path, rows, columns={"wide": {"scheme": "split"}},
              values={"split": {"^5$": "cv_plus_test", "^1$": "train_test"}})
    assert list(s.papers["split"]) == ["cv_plus_test", "train_test"]


def test_one_column_fills_two_fields_and_sizes_in_one_cell(tmp_path):
    rows = [HEAD[:5] + ["sizes", "stats"],
            ["p1", "segmentation", "dsc", "0.9", "0.8", "898/500/200", "ci"],
            ["p2", "segmentation", "dsc", "0.9", "0.8", "300", "none"]]
    s = _wide(tmp_path, rows, split_cells={"sizes": ["n_train", "n_val", "n_test"]},
              columns={"wide": {"stats": ["uncertainty", "statistical_test"]}},
              values={"statistical_test": {"^ci$": "yes", "^none$": "no"}},
              derive={"split": "from_sizes"})
    p = s.papers.set_index("paper_id")
    assert list(p.loc["p1", ["n_train", "n_val", "n_test"]]) == [898, 500, 200]
    assert p.loc["p2", "n_test"] == 300 and pd.isna(p.loc["p2", "n_train"])
    assert p.loc["p1", "split"] == "train_val_test" and p.loc["p2", "split"] == "train_test"
    assert p.loc["p1", "uncertainty"] == "ci" and bool(p.loc["p1", "statistical_test"])


def test_notes_have_a_kind_and_no_case_folding(tmp_path):
    rows = [HEAD[:6], ["p1", "segmentation", "Dice", "0.9", "0.8", "10"]]
    s = _wide(tmp_path, rows)
    assert set(s.notes["kind"]) <= {"changes results", "informational"}
    assert not s.notes["note"].str.contains("'Dice' read as 'dice'").any()
    assert not s.notes["note"].str.contains("'title' absent").any()
    const = s.notes[s.notes["note"].str.startswith("constant in_scope")]
    assert list(const["kind"]) == ["changes results"]


def test_run_venues_selects_and_is_validated():
    cfg = {"venues": {"a": {}, "b": {}}, "run_venues": ["b"]}
    assert run_venues(cfg) == ["b"]
    assert run_venues({"venues": {"a": {}, "b": {}}}) == ["a", "b"]
    with pytest.raises(ValueError, match="'c', which is not a key of venues"):
        run_venues({"venues": {"a": {}}, "run_venues": ["c"]})
    full = yaml.safe_load((ROOT / "config" / "config.yaml").read_text())
    full["run_venues"] = "mine"
    with pytest.raises(ConfigError, match="run_venues"):
        validate(full, schema_path("config"))


def _long_rows():
    rows = [["case", "task", "method", "metric", "value"]]
    for i in range(8):
        a = 0.5 + 0.05 * i
        rows += [[f"c{i}", "t", "m1", "DSC", f"{a:.3f}"], [f"c{i}", "t", "m2", "DSC",
                                                           f"{a + 0.01 * (i % 3):.3f}"],
                 [f"c{i}", "t", "m1", "HD95", f"{10 - i}"], [f"c{i}", "t", "m2", "HD95",
                                                             f"{3 + (i * 7) % 5}"]]
    return rows


def test_long_congruence_source_refuses_pooled_metrics_and_reads_gzip(tmp_path):
    from falseclaims.estimation.congruence_sources import congruence_pairs
    from falseclaims.estimation.specs import SourceSpec

    text = "\n".join(",".join(r) for r in _long_rows()) + "\n"
    with gzip.open(tmp_path / "pc.csv.gz", "wt") as fh:
        fh.write(text)
    spec = {"type": "long", "path": "pc.csv.gz", "citation": "x",
            "columns": {"case": "case_id"}}
    with pytest.raises(ValueError, match="holds the metrics dsc, hd95"):
        congruence_pairs("s", SourceSpec.from_config(spec), tmp_path)
    pairs = congruence_pairs("s", SourceSpec.from_config({**spec, "metric": "dsc"}), tmp_path)
    assert list(pairs["metric"].unique()) == ["dsc"] and len(pairs) == 1
    a = [0.5 + 0.05 * i for i in range(8)]
    b = [x + 0.01 * (i % 3) for i, x in enumerate(a)]
    assert pairs["congruence"].iloc[0] == pytest.approx(pd.Series(a).corr(pd.Series(b)),
                                                        abs=1e-3)


def test_design_only_sheet_runs_without_results(tmp_path, capsys):
    rows = [["Study", "Task", "Train", "Val", "Test", "Statistical analysis"],
            ["a 2020", "classification", "898/500/200", "", "", "t-test"],
            ["b 2021", "segmentation", "300", "5-folds", "100", "n/a"],
            ["c 2022", "segmentation", "250", "50", "=9+16", "none"]]
    with open(tmp_path / "d.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    out = tmp_path / "d.yaml"
    assert main(["sheet", "inspect", str(tmp_path / "d.csv"), "--venue", "d",
                 "--write", str(out)]) == 0
    assert "probabilities need results" in capsys.readouterr().out
    block = yaml.safe_load(out.read_text())["venues"]["d"]
    s = read_venue(block, ".", "d")
    assert len(s.papers) == 3 and len(s.results) == 0
    assert s.notes["note"].str.contains("probabilities need results").sum() == 1
    p = s.papers.set_index("paper_id")
    assert p.loc["c 2022", "n_test"] == 25 and p.loc["b 2021", "split"] == "cv_plus_test"


@pytest.mark.pipeline
def test_drafted_config_runs_under_snakemake_alone(repo_root, tmp_path):
    """`inspect --write` then `snakemake --configfile DRAFT.yaml`, the draft unedited: only
    the drafted venue runs (run_venues), its papers counted once each."""
    import subprocess
    import sys

    from repo_copy import copy_repo
    from test_pipeline_robustness import small_config, write_config

    work = copy_repo(tmp_path / "repo", repo_root)
    cfg = small_config(work, yaml.safe_load((work / "config" / "config.yaml").read_text())
                       ["venues"])  # the examples stay defined (light settings, for speed)
    write_config(work, cfg)
    sheet = write_messy_sheet(work / "data" / "messy.xlsx")
    assert main(["sheet", "inspect", str(sheet), "--venue", "mine", "--write",
                 str(work / "mine.yaml")]) == 0
    proc = subprocess.run([sys.executable, "-m", "snakemake", "--cores", "2", "--quiet",
                           "--configfile", "mine.yaml"], cwd=work, capture_output=True,
                          text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr[-4000:]
    assert sorted(p.name for p in (work / "results").iterdir()
                  if (p / "validated").is_dir()) == ["mine"]
    flow = pd.read_csv(work / "results" / "mine" / "flow.csv")
    found = flow[(flow.step == "found") & (flow.task == "segmentation")]["n_papers"]
    assert found.tolist() == [6]  # 7 paper rows, Kim 2023 over two rows
    assert (work / "figures" / "mine" / "figS8_split_sizes.png").is_file()
    log = (work / "logs" / "mine" / "validate_sheets.log").read_text()
    assert "venue mine: 6 papers found" in log


def test_repeated_ids_grouped_only_in_consecutive_rows(tmp_path):
    head = ["Paper", "Task", "Metric", "Ours", "SOTA", "Test"]
    together = [head, ["Kim 2023", "segmentation", "dice", "0.8", "0.7", "10"],
                ["Kim 2023", "segmentation", "dice", "bad", "0.7", "12"],
                ["Kim 2023", "segmentation", "dice", "0.75", "0.7", "12"],
                ["Lee 2022", "segmentation", "dice", "0.9", "0.8", "30"]]
    apart = [head, together[1], together[4], together[3]]
    for rows, grouped in ((together, True), (apart, False)):
        with open(tmp_path / "s.csv", "w", newline="") as fh:
            csv.writer(fh).writerows(rows)
        d = draft_config(inspect_sheet(tmp_path / "s.csv"), "v")
        block = d.config["venues"]["v"]
        assert block.get("group_rows_by_id", False) is grouped
        assert ("id" in block) is not grouped
        s = read_venue(block, ".", "v")
        assert len(s.papers) == (2 if grouped else 3)
    # grouped: the unreadable cell of the unused row 3 is a note, not an exclusion
    with open(tmp_path / "s.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(together)
    s = read_venue(draft_config(inspect_sheet(tmp_path / "s.csv"), "v")
                   .config["venues"]["v"], ".", "v")
    assert "invalid_cell" not in s.papers or s.papers["invalid_cell"].isna().all()
    assert s.notes["note"].str.contains("unreadable cell in a row not used").any()


def test_numbers_above_the_header_are_flagged(tmp_path):
    rows = [["Survey"], ["a", "1", "2"], ["Paper", "Task", "Test"],
            ["b", "segmentation", "3"], ["c", "segmentation", "4"]]
    with open(tmp_path / "s.csv", "w", newline="") as fh:
        csv.writer(fh).writerows(rows)
    g = inspect_sheet(tmp_path / "s.csv")
    assert g.header_row == 3
    assert any("row 2 holds numbers above the header" in w for w in g.warnings)


def test_see_figure_in_a_long_results_table(tmp_path):
    (tmp_path / "p.csv").write_text("paper_id,task,in_scope,values_only_in_figures\n"
                                    "a,segmentation,yes,no\nb,segmentation,yes,no\n")
    (tmp_path / "r.csv").write_text("paper_id,method,metric,value\n"
                                    "a,m1,dsc,0.8\na,m2,dsc,0.7\n"
                                    "b,m1,dsc,see Fig. 3\nb,m2,dsc,0.6\n")
    s = read_venue({"papers": str(tmp_path / "p.csv"), "results": str(tmp_path / "r.csv"),
                    "layout": "long", "units": "fraction"}, ".", "v")
    p = s.papers.set_index("paper_id")["values_only_in_figures"]
    assert bool(p["b"]) and not bool(p["a"])
    assert list(s.results["paper_id"]) == ["a", "a", "b"]
    assert s.notes["note"].str.contains("'see Fig. 3': values only in figures").any()


def test_wide_per_method_files_may_be_gzip(tmp_path):
    from falseclaims.estimation.congruence_sources import congruence_pairs
    from falseclaims.estimation.specs import SourceSpec

    a = [0.5 + 0.05 * i for i in range(8)]
    b = [x + 0.01 * (i % 3) for i, x in enumerate(a)]
    for name, vals, op in (("unet", a, gzip.open), ("swin", b, open)):
        suffix = ".csv.gz" if op is gzip.open else ".csv"
        with op(tmp_path / f"{name}{suffix}", "wt") as fh:
            fh.write("name,liver\n" + "".join(f"c{i},{v:.3f}\n" for i, v in enumerate(vals)))
    spec = SourceSpec.from_config({"type": "wide_per_method", "glob": "*.csv*",
                                   "citation": "x", "case_column": "name"})
    pairs = congruence_pairs("t", spec, tmp_path)
    assert set(pairs[["method_a", "method_b"]].iloc[0]) == {"unet", "swin"}
    assert pairs["congruence"].iloc[0] == pytest.approx(pd.Series(a).corr(pd.Series(b)),
                                                        abs=1e-3)


def test_sd_source_on_a_multi_metric_long_file_still_picks_its_metric(tmp_path):
    from falseclaims.estimation.sd_sources import mean_sd_pairs
    from falseclaims.estimation.specs import SourceSpec

    rows = [["case_id", *_long_rows()[0][1:]], *_long_rows()[1:]]
    (tmp_path / "pc.csv").write_text("\n".join(",".join(r) for r in rows) + "\n")
    spec = SourceSpec.from_config({"type": "long", "path": "pc.csv", "citation": "x",
                                   "form": "anchored", "floor": 0.005})
    pairs = mean_sd_pairs("s", spec, tmp_path)
    a = pd.Series([0.5 + 0.05 * i for i in range(8)])
    m1 = pairs.set_index("method").loc["m1"]
    assert m1["mean"] == pytest.approx(a.mean()) and m1["sd"] == pytest.approx(a.std())
