"""Per-case readers: every layout, and malformed files rejected with precise messages."""

from pathlib import Path

import numpy as np
import pytest

from falseclaims.percase.readers import (
    PerCase,
    PerCaseValidationError,
    detect_layout,
    read_claims_reloaded,
    read_long,
    read_percase,
    read_predictions_with_labels,
    read_wide_per_method,
)

EXTERNAL = Path(__file__).resolve().parents[1] / "data" / "external"


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text.lstrip("\n"), encoding="utf-8")
    return p


def problems_text(exc):
    return "\n".join(str(p) for p in exc.value.problems)


# ------------------------------------------------------------------ long table

LONG_SEG = """
case_id,task,method,metric,value
c1,liver,A,DSC,0.9
c2,liver,A,DSC,0.8
c1,liver,B,DSC,0.85
c2,liver,B,DSC,0.7
"""


def test_long_segmentation(tmp_path):
    pc = read_long(write(tmp_path, "long.csv", LONG_SEG))
    assert pc.kind == "segmentation"
    assert pc.methods == ["A", "B"] and pc.tasks == ["liver"] and pc.metrics == ["dsc"]
    m = pc.matrix("liver")
    assert m.loc["c2", "B"] == pytest.approx(0.7)
    assert list(pc.table.columns) == ["case_id", "task", "method", "metric", "value"]


def test_long_classification(tmp_path):
    text = """
case_id,task,method,metric,value,ground_truth
1,t,A,label,cat,cat
2,t,A,label,dog,cat
1,t,B,label,cat,cat
2,t,B,label,cat,cat
"""
    pc = read_long(write(tmp_path, "l.csv", text), classes=["cat", "dog"])
    assert pc.kind == "classification" and pc.classes == ("cat", "dog")
    corr = pc.correctness("t")
    assert corr.loc["2", "A"] == 0 and corr.loc["2", "B"] == 1


def test_long_classification_label_outside_class_set(tmp_path):
    text = """
case_id,task,method,metric,value,ground_truth
1,t,A,label,cat,cat
2,t,A,label,bird,dog
1,t,B,label,cat,cat
2,t,B,label,dog,dog
"""
    with pytest.raises(PerCaseValidationError) as exc:
        read_long(write(tmp_path, "l.csv", text), classes=["cat", "dog"])
    msg = problems_text(exc)
    assert "row 3" in msg and "'value'" in msg and "'bird'" in msg and "class set" in msg
    # without a given class set, the labels of truth and predictions form it, with a note
    pc = read_long(write(tmp_path, "l.csv", text))
    assert pc.classes == ("bird", "cat", "dog")
    assert any("['bird'] never occur in the ground truth" in n for n in pc.notes)


def test_long_non_numeric_and_out_of_range(tmp_path):
    text = LONG_SEG.replace("c2,liver,A,DSC,0.8", "c2,liver,A,DSC,abc").replace(
        "c2,liver,B,DSC,0.7", "c2,liver,B,DSC,70")
    with pytest.raises(PerCaseValidationError) as exc:
        read_long(write(tmp_path, "bad.csv", text))
    msg = problems_text(exc)
    assert "bad.csv, row 3, column 'value': got 'abc'; expected a number" in msg
    # the range check runs once all cells parse
    with pytest.raises(PerCaseValidationError) as exc:
        read_long(write(tmp_path, "bad2.csv", LONG_SEG.replace("0.7", "70")))
    assert "row 5" in problems_text(exc) and "[0, 1]" in problems_text(exc)


def test_long_missing_case_for_one_method(tmp_path):
    text = "\n".join(LONG_SEG.strip().splitlines()[:-1]) + "\n"
    with pytest.raises(PerCaseValidationError) as exc:
        read_long(write(tmp_path, "m.csv", text))
    assert "method 'B'" in str(exc.value) and "c2" in str(exc.value)
    pc = read_long(write(tmp_path, "m.csv", text), case_mismatch="intersect")
    assert any("lacks 1 case" in n for n in pc.notes)


def test_long_duplicate_and_missing_column(tmp_path):
    with pytest.raises(PerCaseValidationError) as exc:
        read_long(write(tmp_path, "d.csv", LONG_SEG + "c1,liver,A,DSC,0.5\n"))
    assert "row 6" in str(exc.value) and "duplicate" in str(exc.value)
    with pytest.raises(PerCaseValidationError) as exc:
        read_long(write(tmp_path, "c.csv", LONG_SEG.replace("metric", "measure")))
    assert "'metric'" in str(exc.value)


def test_long_fewer_than_two_methods(tmp_path):
    text = "case_id,task,method,metric,value\nc1,t,A,dsc,0.5\nc2,t,A,dsc,0.6\n"
    with pytest.raises(PerCaseValidationError, match="at least 2 methods"):
        read_long(write(tmp_path, "one.csv", text))


# ------------------------------------------------------------------ wide per method


def test_wide_per_method(tmp_path):
    a = write(tmp_path, "A.csv", "name,liver,spleen\ns1,0.9,\ns2,0.8,0.7\n")
    b = write(tmp_path, "B.csv", "name,liver,spleen\ns1,0.95,\ns2,0.6,0.75\n")
    pc = read_wide_per_method([a, b])
    assert pc.methods == ["A", "B"] and pc.tasks == ["liver", "spleen"]
    # empty cell = organ absent: no row, but noted
    assert len(pc.table) == 6
    assert any("1 empty cell" in n for n in pc.notes)


def test_wide_different_case_ids(tmp_path):
    a = write(tmp_path, "A.csv", "name,liver\ns1,0.9\ns2,0.8\n")
    b = write(tmp_path, "B.csv", "name,liver\ns1,0.95\ns3,0.6\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_wide_per_method({"A": a, "B": b})
    msg = str(exc.value)
    assert "B.csv" in msg and "s2" in msg and "A.csv" in msg and "s3" in msg


def test_wide_non_numeric_and_column_mismatch(tmp_path):
    a = write(tmp_path, "A.csv", "name,liver\ns1,0.9\ns2,n/a\n")
    b = write(tmp_path, "B.csv", "name,kidney\ns1,0.95\ns2,0.6\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_wide_per_method([a, b])
    msg = problems_text(exc)
    assert "A.csv, row 3, column 'liver': got 'n/a'; expected a number" in msg
    assert "B.csv" in msg and "'liver'" in msg


def test_wide_touchstone_real_files():
    files = sorted((EXTERNAL / "touchstone-totalsegmentator-dsc").glob("*.csv"))
    with pytest.raises(PerCaseValidationError, match="STU-Net_H"):
        read_wide_per_method(files)  # two models were run on fewer cases
    pc = read_wide_per_method(files, case_mismatch="intersect")
    assert len(pc.methods) == 19 and len(pc.tasks) == 9
    assert pc.table["value"].between(0, 1).all()


# ------------------------------------------------------------------ Claims Reloaded


def test_claims_reloaded_segmentation(tmp_path):
    p = write(tmp_path, "seg.csv", "case_id,alg_unet,alg_nnunet\n1,0.8,0.85\n2,0.7,0.9\n")
    assert detect_layout(p) == "claims_reloaded"
    pc = read_percase(p)
    assert pc.kind == "segmentation" and pc.methods == ["nnunet", "unet"]
    assert pc.matrix("task").loc["2", "nnunet"] == pytest.approx(0.9)


def test_claims_reloaded_classification(tmp_path):
    p = write(tmp_path, "cls.csv",
              "case_id,ground_truth,alg_a,alg_b\n1,0,0,1\n2,1,1,1\n3,1,0,1\n")
    pc = read_claims_reloaded(p)
    assert pc.kind == "classification" and pc.classes == ("0", "1")
    c = pc.correctness("task")
    assert c["a"].tolist() == [1, 1, 0] and c["b"].tolist() == [0, 1, 1]


def test_claims_reloaded_malformed(tmp_path):
    # label outside the class set, empty prediction, duplicate case id
    p = write(tmp_path, "cls.csv",
              "case_id,ground_truth,alg_a,alg_b\n1,0,0,2\n2,1,,1\n2,1,1,1\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_claims_reloaded(p)
    msg = problems_text(exc)
    assert "row 3, column 'alg_a'" in msg
    p = write(tmp_path, "cls2.csv", "case_id,ground_truth,alg_a,alg_b\n1,0,0,2\n2,1,1,1\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_claims_reloaded(p, classes=["0", "1"])
    assert "row 2, column 'alg_b': got '2'" in problems_text(exc)
    p = write(tmp_path, "cls3.csv", "case_id,ground_truth,alg_a,alg_b\n1,0,0,1\n1,1,1,1\n")
    with pytest.raises(PerCaseValidationError, match="each case id once"):
        read_claims_reloaded(p)
    p = write(tmp_path, "seg.csv", "case_id,alg_a,alg_b\n1,0.8,x\n2,0.7,\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_claims_reloaded(p)
    msg = problems_text(exc)
    assert "row 2, column 'alg_b': got 'x'" in msg and "row 3, column 'alg_b': got ''" in msg
    p = write(tmp_path, "one.csv", "case_id,alg_a\n1,0.8\n")
    with pytest.raises(PerCaseValidationError, match="at least 2 method columns"):
        read_claims_reloaded(p)


def test_claims_reloaded_explicit_class_set(tmp_path):
    p = write(tmp_path, "cls.csv", "case_id,ground_truth,alg_a,alg_b\n1,0,0,1\n2,1,1,1\n")
    with pytest.raises(PerCaseValidationError, match="class set"):
        read_claims_reloaded(p, classes=["1", "2"])


# ------------------------------------------------------------------ predictions + labels


def test_predictions_with_labels(tmp_path):
    labels = write(tmp_path, "meta.csv", "image,lesion,extra\ni1,MEL,3\ni2,NV,4\ni3,NV,5\n")
    a = write(tmp_path, "m1.csv", "image,predicted_lesion,MEL,NV\ni1,MEL,0.9,0.1\ni2,MEL,0.6,0.4\n")
    b = write(tmp_path, "m2.csv", "image,predicted_lesion,MEL,NV\ni1,NV,0.2,0.8\ni2,NV,0.1,0.9\n")
    pc = read_predictions_with_labels([a, b], labels, task="skin")
    assert pc.classes == ("MEL", "NV") and pc.methods == ["m1", "m2"]
    assert pc.scores.shape == (8, 5)
    c = pc.correctness("skin")
    assert c.loc["i1"].tolist() == [1, 0] and c.loc["i2"].tolist() == [0, 1]


def test_predictions_malformed(tmp_path):
    labels = write(tmp_path, "meta.csv", "image,lesion\ni1,MEL\ni2,NV\n")
    a = write(tmp_path, "m1.csv", "image,predicted_lesion,MEL,NV\ni1,XYZ,0.9,0.1\ni9,MEL,0.6,0.4\n")
    b = write(tmp_path, "m2.csv", "image,predicted_lesion,MEL,NV\ni1,NV,0.2,abc\ni2,NV,0.1,0.9\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_predictions_with_labels([a, b], labels)
    msg = problems_text(exc)
    assert "m1.csv, row 3, column 'image': got 'i9'" in msg   # case without a label
    assert "m2.csv, row 2, column 'NV': got 'abc'" in msg     # non-numeric score
    a = write(tmp_path, "m1.csv", "image,predicted_lesion,MEL,NV\ni1,XYZ,0.9,0.1\ni2,MEL,0.6,0.4\n")
    b = write(tmp_path, "m2.csv", "image,predicted_lesion,MEL,NV\ni1,NV,0.2,0.8\ni2,NV,0.1,0.9\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_predictions_with_labels([a, b], labels)
    assert "m1.csv, row 2, column 'predicted_lesion': got 'XYZ'" in problems_text(exc)
    a = write(tmp_path, "m1.csv", "image,predicted_lesion,MEL,NV\ni1,MEL,0.9,0.1\ni2,MEL,0.6,0.4\n")
    labels = write(tmp_path, "meta2.csv", "image,lesion\ni1,MEL\ni2,FOO\n")
    with pytest.raises(PerCaseValidationError) as exc:
        read_predictions_with_labels([a, b], labels)
    assert "meta2.csv, row 3, column 'lesion': got 'FOO'" in problems_text(exc)


def test_predictions_isic_real_files():
    d = EXTERNAL / "isic2018-skin-tone-predictions"
    pc = read_predictions_with_labels(sorted(d.glob("predictions_01*.csv")),
                                      d / "metadata.csv", task="g1")
    assert len(pc.methods) == 3 and pc.table["case_id"].nunique() == 2927
    assert set(pc.classes) == {"MEL", "NV", "BCC", "AKIEC", "BKL", "DF", "VASC"}


def test_concat_and_errors(tmp_path):
    a = read_long(write(tmp_path, "a.csv", LONG_SEG))
    b = read_long(write(tmp_path, "b.csv", LONG_SEG.replace("liver", "spleen")))
    both = PerCase.concat([a, b])
    assert both.tasks == ["liver", "spleen"]
    with pytest.raises(ValueError, match="repeat"):
        PerCase.concat([a, a])
    with pytest.raises(FileNotFoundError):
        read_long(tmp_path / "nope.csv")
    with pytest.raises(ValueError, match="cannot tell the layout"):
        detect_layout(write(tmp_path, "x.csv", "foo,bar\n1,2\n"))
    assert np.isfinite(both.table["value"]).all()


def test_fast_pivot_and_sort_equal_pandas():
    """PerCase.matrix/correctness build the wide table from sorted codes; it must equal
    pandas' pivot, also with cases some methods lack."""
    import numpy as np
    import pandas as pd

    from falseclaims.percase import model

    rng = np.random.default_rng(0)
    rows = [(f"c{rng.integers(1000):04d}", m) for m in ("b", "a", "c") for _ in range(300)]
    sub = pd.DataFrame(rows, columns=["case_id", "method"]).drop_duplicates()
    sub["case_id"] = sub["case_id"].astype("string")
    values = rng.random(len(sub))
    got = model._pivot(sub, values)
    want = sub.assign(v=values).pivot(index="case_id", columns="method", values="v")
    pd.testing.assert_frame_equal(got, want)
    order = np.argsort(model._codes(sub, ["method", "case_id"], sort=True), kind="stable")
    pd.testing.assert_frame_equal(sub.iloc[order].reset_index(drop=True),
                                  sub.sort_values(["method", "case_id"]).reset_index(drop=True))
    dup = pd.concat([sub, sub.iloc[:1]])
    with pytest.raises(ValueError):
        model._pivot(dup, np.r_[values, 0.5])


@pytest.mark.parametrize("name", ["classification", "segmentation"])
def test_gzip_file_reads_like_the_plain_file(tmp_path, name):
    """A per-case file compressed with gzip (``.csv.gz``) gives the same cases and values
    as the plain file, with a note; the fast path leaves it to the careful reader."""
    import gzip
    import shutil
    from pathlib import Path

    from falseclaims.examples.percase_files import FILES
    from falseclaims.percase.readers import read_percase

    plain = Path(__file__).resolve().parents[1] / "data" / "example" / FILES[name]
    packed = tmp_path / (plain.name + ".gz")
    with open(plain, "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    a, b = read_percase(plain), read_percase(packed)
    assert a.kind == b.kind and a.classes == b.classes
    cols = ["case_id", "method", "value"]
    left = a.table[cols].astype(str).sort_values(cols).reset_index(drop=True)
    right = b.table[cols].astype(str).sort_values(cols).reset_index(drop=True)
    assert left.equals(right)
    assert any("gzip" in n for n in b.notes)


@pytest.mark.parametrize("text, suggested", [
    ("case;methodA;methodB\n1;0,81;0,79\n2;0,85;0,80\n3;0,9;0,88\n",
     "--columns case_id=case,alg_methodA=methodA,alg_methodB=methodB"),
    ("Image ID,label,ResNet 50,ViT-B\nim1,1,1,0\nim2,0,0,0\nim3,1,1,1\n",
     "--columns 'case_id=Image ID,ground_truth=label,alg_ResNet_50=ResNet 50,alg_ViT_B=ViT-B'"),
])
def test_a_wide_file_of_methods_gets_the_mapping_that_reads_it(tmp_path, capsys, text,
                                                                suggested):
    """A file with a case column and one column per method is refused (which columns are
    results is the user's to say), and the refusal ends with the --columns that reads it;
    given back as written, the file is read with the methods it names."""
    import shlex

    from falseclaims.cli import main

    path = write(tmp_path, "wide.csv", text)
    task = "classification" if "label" in text else "segmentation"
    assert main(["percase", str(path), "--task", task]) == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(suggested), err
    assert main(["percase", str(path), "--task", task, "--json",
                 *shlex.split(suggested)]) == 0
    out = capsys.readouterr().out
    assert ("ResNet_50" in out and "ViT_B" in out) or ("methodA" in out and "methodB" in out)


@pytest.mark.parametrize("header", ["foo,bar,baz", "case,methodA", "case,label,methodA",
                                    "case,a=b,c"])
def test_no_mapping_is_suggested_without_a_case_column_and_two_methods(tmp_path, header):
    path = write(tmp_path, "x.csv", header + "\n" + ",".join(["1"] * len(header.split(",")))
                 + "\n")
    with pytest.raises(ValueError, match="cannot tell the layout") as err:
        detect_layout(path)
    assert "holds one method's per-case results" not in str(err.value)
