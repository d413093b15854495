"""Cross-cutting fixes of one round (docs/robustness.md, "Round 39" proposals):

1. `table --dir` skips every page falseclaims wrote (its generator meta tag: check's and
   percase's reports, a saved web page), not only `table --report` pages, with a note;
2. every float option (--congruence, plan --target, sota --alpha) answers a value pasted
   with its spread or interval in the words check's --a uses (one recognizer,
   falseclaims.readout.pasted_with_spread);
3. the task's own name in another language (分类, 分割, Klassifikation) is answered with
   the task, on the command line and in the API;
4. per-case files that are not what the layout wants say what they look like and what to
   give (--labels and --task classification; --paired-by-order; --columns)."""
from __future__ import annotations

import json
import re

import pytest

import falseclaims
from falseclaims.cli import main
from falseclaims.readout import pasted_with_spread


def _error(capsys, argv):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    return capsys.readouterr().err


# ------------------------------------------------------------ 1. pages falseclaims wrote
@pytest.mark.parametrize("page", [
    # check's report as written, and the same page saved by a browser (attributes swapped,
    # self-closing tag, upper case)
    None,
    '<!DOCTYPE html><HTML><HEAD><META CONTENT="falseclaims" NAME="generator" />'
    "<title>P(false claim)</title></HEAD><body><table><tr><th>Method</th><th>Accuracy</th>"
    "</tr><tr><td>A</td><td>0.91</td></tr><tr><td>B</td><td>0.88</td></tr></table>",
])
def test_table_dir_skips_every_page_falseclaims_wrote(tmp_path, capsys, page):
    (tmp_path / "t.csv").write_text("Method,Accuracy\nOurs,0.91\nBaseline,0.88\n")
    report = tmp_path / "check.html"
    if page is None:
        assert main(["check", "--task", "cls", "--a", "0.91", "--b", "0.88", "--n", "100",
                     "--report", str(report)]) == 0
    else:
        report.write_text(page)
    capsys.readouterr()
    assert main(["table", "--dir", str(tmp_path), "--n", "100"]) == 0
    out = capsys.readouterr().out
    assert "1 claim(s) in 1 table(s); 0 table(s) or file(s) not read" in out
    assert f"skipped: {report} (a report falseclaims wrote, not a source table)" in out


def test_table_dir_still_reads_a_page_another_tool_wrote(tmp_path, capsys):
    """Control: a generator tag of another tool is no reason to skip."""
    (tmp_path / "page.html").write_text(
        '<html><head><meta name="generator" content="pandoc"></head><body><table>'
        "<tr><th>Method</th><th>Accuracy</th></tr><tr><td>Ours</td><td>0.91</td></tr>"
        "<tr><td>Baseline</td><td>0.88</td></tr></table></body></html>")
    assert main(["table", "--dir", str(tmp_path), "--n", "100"]) == 0
    out = capsys.readouterr().out
    assert "1 claim(s) in 1 table(s)" in out and "skipped" not in out


# ------------------------------------------------ 2. float options: spread and interval
FLOAT_OPTIONS = [
    (["check", "--task", "segmentation", "--a", "0.85", "--b", "0.83", "--n", "100"],
     "--congruence"),
    (["plan", "--task", "segmentation", "--level", "0.85", "--delta", "0.02"], "--target"),
    (["sota", "--m", "10", "--n", "100", "--p", "0.9"], "--alpha"),
]


@pytest.mark.parametrize("argv, option", FLOAT_OPTIONS)
@pytest.mark.parametrize("pasted", ["0.6 (0.02)", "60% (2%)", "0.6 [0.55, 0.65]",
                                    "0.6 (95% CI 0.55–0.65)", "0,6 ± 0,02"])
def test_float_options_answer_a_pasted_spread_as_check_a_does(capsys, argv, option, pasted):
    err = _error(capsys, [*argv, option, pasted])
    kind, value, _ = pasted_with_spread(pasted)
    assert value == pytest.approx(0.6)  # the reference: the value before the brackets
    # check's --a says "got '...', a value with its KIND; give the value alone: --a 0.85"
    said = _error(capsys, ["check", "--task", "segmentation", "--b", "0.83", "--n", "100",
                           "--a", pasted])
    head = f"got {pasted!r}, a value with its {kind}; give the value alone:"
    assert head in said, said
    assert f"argument {option}: {head} 0.6" in err, err


def test_float_options_other_spellings_unchanged(capsys):
    """Controls: a number is read; a decimal comma and a percent keep their own hints."""
    err = _error(capsys, [*FLOAT_OPTIONS[0][0], "--congruence", "0,6"])
    assert "expected a number with a decimal point" in err and "give 0.6" in err
    err = _error(capsys, [*FLOAT_OPTIONS[0][0], "--congruence", "60%"])
    assert "expected a fraction without '%'" in err and "give 0.6" in err
    err = _error(capsys, [*FLOAT_OPTIONS[0][0], "--congruence", "0.6 (0.02"])
    assert "expected a number, got '0.6 (0.02'" in err


# ------------------------------------------------- 3. task names in other languages
@pytest.mark.parametrize("word, task", [
    ("分类", "classification"), ("分割", "segmentation"), ("图像分割", "segmentation"),
    ("Klassifikation", "classification"), ("segmentación", "segmentation")])
def test_task_names_in_other_languages_are_answered_with_the_task(capsys, word, task):
    err = _error(capsys, ["check", "--task", word, "--a", "0.9", "--b", "0.85", "--n", "100"])
    assert f"({word} names the {task} task: --task {task})" in err, err
    with pytest.raises(ValueError, match=re.escape(f"task={task!r}")):
        falseclaims.probability(task=word, a=0.9, b=0.85, n=100)


def test_unknown_task_word_gets_no_task_named(capsys):
    err = _error(capsys, ["check", "--task", "检测", "--a", "0.9", "--b", "0.85",
                          "--n", "100"])
    assert "names the" not in err and "expected one of classification" in err


# --------------------------------------------------------------- 4. per-case messages
def _percase(capsys, argv):
    assert main(["percase", *argv]) == 2
    return capsys.readouterr().err


@pytest.mark.parametrize("header, rows", [
    ("case_id,label,prediction", ["c1,0,0", "c2,1,1", "c3,1,0"]),
    ("label,prediction", ["0,0", "1,1", "1,0"])])
def test_label_prediction_files_without_task_are_pointed_to_labels(tmp_path, capsys, header,
                                                                    rows):
    files = []
    for name in ("a", "b"):
        f = tmp_path / f"{name}.csv"
        f.write_text("\n".join([header, *rows]) + "\n")
        files.append(str(f))
    err = _percase(capsys, files)
    assert "look like predicted labels ('prediction') beside the ground truth ('label')" in err
    assert "--labels FILE" in err and "--task classification" in err
    assert str(header.split(",")) in err  # what the file looks like


def test_dice_files_without_case_ids_are_pointed_to_paired_by_order(tmp_path, capsys):
    a, b = tmp_path / "a.csv", tmp_path / "b.csv"
    a.write_text("dice\n0.80\n0.85\n0.90\n0.70\n0.88\n")
    b.write_text("dice\n0.78\n0.84\n0.86\n0.69\n0.85\n")
    err = _percase(capsys, [str(a), str(b)])
    assert "among its columns ['dice']" in err and "--paired-by-order" in err
    assert "expected a column named 'name'" not in err
    # and what it names works: the files are read paired by their rows' position
    assert main(["percase", str(a), str(b), "--paired-by-order"]) in (0, 1)


def test_label_file_named_otherwise_gets_the_columns_to_give(tmp_path, capsys):
    labels, pa, pb = (tmp_path / f for f in ("labels.csv", "pa.csv", "pb.csv"))
    labels.write_text("case_id,label\n" + "".join(f"c{i},{i % 2}\n" for i in range(12)))
    pa.write_text("case_id,prediction\n" + "".join(f"c{i},{i % 2}\n" for i in range(12)))
    pb.write_text("case_id,prediction\n" + "".join(f"c{i},{(i // 3) % 2}\n"
                                                   for i in range(12)))
    err = _percase(capsys, ["--labels", str(labels), str(pa), str(pb)])
    given = "--columns case_id=case_id,ground_truth=label,value=prediction"
    assert given in err and "['case_id', 'label']" in err and "['case_id', 'prediction']" in err
    # the --columns named is read: a is right on every case, b on the cases a hand count
    # of the same rows gives (8 of 12)
    assert main(["percase", "--labels", str(labels), str(pa), str(pb), "--json",
                 *given.split()]) in (0, 1)
    result = json.loads(capsys.readouterr().out)["result"]
    right_b = sum((i // 3) % 2 == i % 2 for i in range(12))
    assert right_b == 8
    assert result["task"] == "classification" and result["n"] == 12
    assert result["mean_a"] == pytest.approx(1.0)
    assert result["mean_b"] == pytest.approx(right_b / 12)
