"""Table patterns of round 39 (docs/table.md, "Round 39"), each on a small synthetic input,
expected values by hand: workbook lock files in a swept folder, test-set sizes printed with
digit groups, the verdict words of ``falseclaims check`` for winner vs runner-up, and notes
of HTML tables (``<tfoot>``, ``<p>`` below, ``<caption>``) calling marked cells not
comparable."""

from __future__ import annotations

import copy
import json

import pytest
from table_files import write_table_file as _write
from test_table_patterns13 import _md

from falseclaims.claims.check import check_claim
from falseclaims.config import load_config
from falseclaims.percase.verdict import interpretation_text, verdict
from falseclaims.table.readers import TableReadError
from falseclaims.table.run import Options, analyse_dir, analyse_file, exit_code


@pytest.fixture(scope="module")
def cfg():
    return load_config()


def _metric(cfg, path, **opt) -> dict:
    [t] = analyse_file(path, cfg, Options(**opt))["tables"]
    [m] = t["metrics"]
    return m


# ---------------------------------------------------------------- 1. lock files in --dir
def _folder(tmp_path):
    _write(tmp_path, "t.md", _md(["Method", "Dice"], [["A", "0.91"], ["B", "0.85"]]))
    # Excel's owner file is no zip; LibreOffice's lock is a hidden text file
    (tmp_path / "~$res.xlsx").write_bytes(b"\x05me   \x00\x00 owner")
    (tmp_path / ".~lock.res.xlsx#").write_text(",me,host,28.11.2026 01:50,file:///me;")
    return tmp_path


def test_workbook_lock_files_are_skipped_with_a_note(cfg, tmp_path):
    res = analyse_dir(_folder(tmp_path), cfg, Options(n=100))
    assert res["unreadable"] == [] and exit_code(res) == 0
    assert [m["winner"] for t in res["tables"] for m in t["metrics"]] == ["A"]
    locks = [s for s in res["skipped"] if "lock file" in s]
    assert len(locks) == 2 and any("~$res.xlsx" in s for s in locks) \
        and any(".~lock.res.xlsx#" in s for s in locks)


def test_a_broken_workbook_is_still_not_read(cfg, tmp_path):
    """The control: only the lock files' names are skipped, a broken workbook is named."""
    _folder(tmp_path)
    (tmp_path / "res.xlsx").write_bytes(b"not a zip")
    res = analyse_dir(tmp_path, cfg, Options(n=100))
    assert [u["file"] for u in res["unreadable"]] == [str(tmp_path / "res.xlsx")]
    assert exit_code(res) == 1


# ---------------------------------------------------------------- 2. digit groups in n
# by hand: 0.91 vs 0.89 accuracy on 1512 test images; the probability must be the one of
# --n 1512 exactly
_ACC = [["A", "0.91"], ["B", "0.89"]]


@pytest.mark.parametrize("size", ["1 512", "1\u00a0512", "1\u2009512", "1\u202f512",
                                  "1,512", "1.512", "1'512", "1512"])
def test_an_n_column_with_digit_groups_is_read(cfg, tmp_path, size):
    text = _md(["Method", "Accuracy", "n"], [r + [size] for r in _ACC])
    m = _metric(cfg, _write(tmp_path, "n.md", text))
    given = _metric(cfg, _write(tmp_path, "g.md", _md(["Method", "Accuracy"], _ACC)), n=1512)
    assert m["n"] == 1512 and m["p_runner_up"] == given["p_runner_up"]


@pytest.mark.parametrize("caption", ["Test set (n = 1 512)", "Test set (n = 1\u2009512)",
                                     "Test set (n = 1.512)", "Results on 1 512 test images",
                                     "Test set (n = 1,512)"])
def test_a_caption_n_with_digit_groups_is_read(cfg, tmp_path, caption):
    m = _metric(cfg, _write(tmp_path, "c.md", _md(["Method", "Accuracy"], _ACC,
                                                   title=f"## {caption}")))
    assert m["n"] == 1512 and "caption" in m["n_source"]


def test_a_header_n_with_digit_groups_is_read(cfg, tmp_path):
    m = _metric(cfg, _write(tmp_path, "h.md", _md(["Method", "Accuracy (n = 1 512)"], _ACC)))
    assert m["n"] == 1512


def test_an_ambiguous_dot_group_in_an_n_cell_is_refused_naming_the_cell(cfg, tmp_path):
    """``2.000`` is 2 (a decimal point) or 2000 (a digit group): refused, the cell named."""
    text = _md(["Method", "Accuracy", "n"], [r + ["2.000"] for r in _ACC])
    with pytest.raises(TableReadError, match=r"column 'n', line 5: .*'2.000' is 2 or 2000"):
        analyse_file(_write(tmp_path, "a.md", text), cfg, Options())


def test_an_ambiguous_dot_group_in_the_caption_gives_no_probability(cfg, tmp_path):
    m = _metric(cfg, _write(tmp_path, "c.md", _md(["Method", "Accuracy"], _ACC,
                                                   title="## Test set (n = 2.000)")))
    assert m["probability"] is False and m["n"] is None
    assert "'2.000' is 2 or 2000" in m["no_probability"]


def test_a_plain_caption_n_is_read_as_before(cfg, tmp_path):
    """The control: ``n = 15`` (no group) is 15."""
    m = _metric(cfg, _write(tmp_path, "c.md", _md(["Method", "Accuracy"], _ACC,
                                                   title="## Test set (n = 15)")))
    assert m["n"] == 15


# ---------------------------------------------------------------- 3. check's verdict
# by hand: 0.91 vs 0.89, n = 300: check gives P = 0.2213 (median congruence clamped to its
# feasible 0.8), above robust_below 0.05 and below weak_above 0.30: "Not robust"
def test_the_verdict_is_the_one_check_gives_the_pair(cfg, tmp_path):
    m = _metric(cfg, _write(tmp_path, "v.md", _md(["Method", "Accuracy"], _ACC)), n=300)
    res = check_claim("classification", 300, 0.91, 0.89, cfg)
    p = next(r for r in res["results"] if r["assumption"] == "median")["probability"]
    assert m["p_runner_up"] == pytest.approx(p, abs=0)
    assert m["verdict"] == verdict(p, cfg) == "Not robust"
    assert m["interpretation"] == interpretation_text(p, cfg, a="A", b="B")


def test_one_key_decides_the_verdict_and_the_tie(cfg, tmp_path):
    """robust_below 0.25 (planner.target left at 0.05): the cutoff follows it; P 0.2213 is
    now below it: "Robust claim" and not tied."""
    mine = copy.deepcopy(cfg)
    mine["claim_check"]["interpretation"]["robust_below"] = 0.25
    m = _metric(mine, _write(tmp_path, "v.md", _md(["Method", "Accuracy"], _ACC)), n=300)
    assert mine["planner"]["target"] == 0.05 and m["cutoff"] == 0.25
    assert m["verdict"] == "Robust claim" and m["tier1"] == ["A"]
    base = _metric(cfg, _write(tmp_path, "w.md", _md(["Method", "Accuracy"], _ACC)), n=300)
    assert base["cutoff"] == 0.05 and base["tier1"] == ["A", "B"]


def test_tied_means_check_would_not_call_it_robust(cfg, tmp_path):
    rows = [["A", "0.910"], ["B", "0.895"], ["C", "0.870"], ["D", "0.800"]]
    m = _metric(cfg, _write(tmp_path, "t.md", _md(["Method", "Accuracy"], rows)), n=400)
    others = [x for x in m["methods"] if not x["winner"]]
    assert {x["tied"] for x in others} == {True, False}  # both kinds present
    for x in others:
        assert x["tied"] == (verdict(x["p_false_claim"], cfg) != "Robust claim")


def test_the_verdict_in_text_json_and_batch(cfg, tmp_path, capsys):
    from falseclaims.cli import main

    f = _write(tmp_path, "v.md", _md(["Method", "Accuracy"], _ACC))
    assert main(["table", str(f), "--n", "300"]) == 0
    out = capsys.readouterr().out
    assert "winner vs runner-up, as check words it: Not robust: the probability that B " \
           "is truly at least as good as A is 0.221" in out
    assert main(["table", str(f), "--n", "300", "--json"]) == 0
    [m] = json.loads(capsys.readouterr().out)["result"]["tables"][0]["metrics"]
    assert m["verdict"] == "Not robust"
    assert main(["table", "--dir", str(tmp_path), "--n", "300"]) == 0
    assert "A > B, P = 0.2213 (Not robust)" in capsys.readouterr().out


# ---------------------------------------------------------------- 4. HTML table notes
# by hand: OldNet's 0.905 is marked; the note calls it not comparable; among the others
# Ours (0.871) beats UNet (0.842)
_ROWS = ("<tr><th>Method</th><th>Dice</th></tr>\n<tr><td>Ours</td><td>0.871</td></tr>\n"
         "<tr><td>UNet</td><td>0.842</td></tr>\n<tr><td>OldNet</td><td>0.905{mark}</td></tr>")


@pytest.mark.parametrize("mark,before,after", [
    ("*", "", "<tfoot><tr><td colspan=\"2\">* evaluated with a different protocol; not "
              "directly comparable.</td></tr></tfoot>\n</table>"),
    ("<sup>†</sup>", "", "</table>\n<p><sup>†</sup> Reported on another test protocol; not "
                         "directly comparable.</p>"),
    ("*", "<caption>Dice on the test set. * Not directly comparable (different evaluation "
          "protocol).</caption>\n", "</table>"),
    ("*", "", "</table>\n\n<p>Values marked with * are not comparable with the other rows."
              "</p>")])
def test_an_html_note_leaves_the_marked_cells_out(cfg, tmp_path, mark, before, after):
    text = "## Results\n\n<table>\n" + before + _ROWS.format(mark=mark) + "\n" + after + "\n"
    m = _metric(cfg, _write(tmp_path, "h.md", text), n=100)
    assert m["winner"] == "Ours" and m["m"] == 2
    assert any("OldNet" in n and "not comparable" in n for n in m["notes"])


def test_an_html_significance_note_leaves_the_column_ranked(cfg, tmp_path):
    """The control: ``*`` explained as significance is no reason to leave a cell out."""
    text = ("## Results\n\n<table>\n" + _ROWS.format(mark="*") + "\n</table>\n"
            "<p>* significantly better than UNet (p &lt; 0.05).</p>\n")
    m = _metric(cfg, _write(tmp_path, "h.md", text), n=100)
    assert m["winner"] == "OldNet" and m["m"] == 3
