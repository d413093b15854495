"""The fast paths of `falseclaims percase` give the results of the plain ones.

- clean Claims Reloaded files are read by a typed pass (`percase/claims_fast.py`); the
  careful cell-by-cell reader must give the same PerCase, matrices and CLI output;
- sorted long tables pivot by a reshape; it must equal pandas' own pivot;
- above `claim_check.bootstrap.max_draws` the bootstrap percentiles come from the
  skewness-corrected normal approximation; it must agree with resampling within Monte
  Carlo error where both run.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import yaml
from pandas.testing import assert_frame_equal, assert_series_equal
from scipy.stats import norm

from falseclaims.cli import main
from falseclaims.percase import claims_fast, model, readers
from falseclaims.percase.compare import APPROXIMATE, bootstrap_mean_difference

LABELS = np.array(["benign", "malignant", "normal"])


def seg_frame(n: int, seed: int = 0, shuffle: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    z = rng.normal(size=n)
    df = pd.DataFrame({"case_id": [f"case{i:06d}" for i in range(n)]})
    for j, mu in enumerate([2.05, 1.95, 1.6]):
        df[f"alg_m{j}"] = np.round(1 / (1 + np.exp(-(mu + z + 0.45 * rng.normal(size=n)))), 6)
    df = df[["case_id", "alg_m2", "alg_m0", "alg_m1"]]  # method columns out of order
    return df.sample(frac=1, random_state=seed) if shuffle else df


def cls_frame(n: int, seed: int = 0, shuffle: bool = False) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.choice(3, n, p=[0.5, 0.3, 0.2])
    df = pd.DataFrame({"case_id": [f"c{i}" for i in range(n)], "ground_truth": LABELS[y]})
    for j in range(3):
        right = rng.random(n) < 0.8 - 0.1 * j
        df[f"alg_{'xyz'[j]}"] = LABELS[np.where(right, y, rng.choice(3, n))]
    return df.sample(frac=1, random_state=seed) if shuffle else df


def careful(monkeypatch, *args, **kwargs) -> readers.PerCase:
    with monkeypatch.context() as m:
        m.setattr(claims_fast, "read_clean", lambda *a, **k: None)
        return readers.read_claims_reloaded(*args, **kwargs)


def assert_same_percase(fast: readers.PerCase, slow: readers.PerCase) -> None:
    assert fast.wide is not None and slow.wide is None  # the fast path really ran
    assert (fast.kind, fast.classes, fast.notes) == (slow.kind, slow.classes, slow.notes)
    assert (fast.tasks, fast.methods, fast.metrics) == (slow.tasks, slow.methods, slow.metrics)
    task = slow.tasks[0]
    assert fast.task_metrics(task) == slow.task_metrics(task)
    if slow.kind == "segmentation":
        assert_frame_equal(fast.matrix(task), slow.matrix(task), check_exact=True)
    else:
        assert_frame_equal(fast.correctness(task), slow.correctness(task), check_exact=True)
        assert_series_equal(fast.truth(task), slow.truth(task))
    assert_frame_equal(fast.table, slow.table, check_exact=True)  # built on first read


@pytest.mark.parametrize("make, n", [(seg_frame, 5), (seg_frame, 3000), (cls_frame, 7),
                                     (cls_frame, 4000)], ids=["seg5", "seg3000", "cls7",
                                                              "cls4000"])
@pytest.mark.parametrize("shuffle", [False, True])
def test_clean_file_reads_as_the_careful_reader(tmp_path, monkeypatch, make, n, shuffle):
    f = tmp_path / "claims.csv"
    make(n, shuffle=shuffle).to_csv(f, index=False)
    assert_same_percase(readers.read_claims_reloaded(f), careful(monkeypatch, f))


def test_percent_units_and_metric_name_as_the_careful_reader(tmp_path, monkeypatch):
    f = tmp_path / "seg.csv"
    df = seg_frame(200)
    for c in df.columns[1:]:
        df[c] = (df[c] * 100).round(3)
    df.to_csv(f, index=False)
    kw = {"units": "percent", "task": "liver", "metric": "Dice"}
    fast = readers.read_claims_reloaded(f, **kw)
    assert any("percent divided by 100" in note for note in fast.notes)
    assert_same_percase(fast, careful(monkeypatch, f, **kw))
    kw = {"kind": "segmentation", "metric": "score"}  # not DSC-like: no range check
    assert_same_percase(readers.read_claims_reloaded(f, **kw), careful(monkeypatch, f, **kw))


def test_wide_percase_pickles_and_copies(tmp_path, monkeypatch):
    import copy
    import pickle

    f = tmp_path / "seg.csv"
    seg_frame(50).to_csv(f, index=False)
    for pc in (readers.read_claims_reloaded(f), copy.deepcopy(readers.read_claims_reloaded(f))):
        back = pickle.loads(pickle.dumps(pc))
        assert_frame_equal(back.table, careful(monkeypatch, f).table)
        assert_frame_equal(back.matrix("task"), pc.matrix("task"))


def test_class_set_and_its_note_as_the_careful_reader(tmp_path, monkeypatch):
    f = tmp_path / "cls.csv"
    df = cls_frame(300)
    df.loc[df.index[:4], "alg_y"] = "other"  # a predicted label never in the truth
    df.to_csv(f, index=False)
    fast = readers.read_claims_reloaded(f)
    assert any("never occur in the ground truth" in note for note in fast.notes)
    assert_same_percase(fast, careful(monkeypatch, f))
    kw = {"classes": ["benign", "malignant", "normal", "other", "unused"]}
    assert_same_percase(readers.read_claims_reloaded(f, **kw), careful(monkeypatch, f, **kw))


@pytest.mark.parametrize("edit", [
    lambda t: t.replace("0.", "+0.", 1),            # careful parser's own rounding
    lambda t: t.replace("case000003,", " case000003 ,"),   # padded id
    lambda t: t.replace("case000003,", "case000002,"),     # repeated id
    lambda t: t.replace("case000003,", ","),               # empty id
    lambda t: t.replace(",0.", ",x0.", 1),                 # text among numbers
    lambda t: t.replace(",0.", ",,", 1),                   # empty cell (ragged row)
    lambda t: t.replace(",0.", ",7.", 1),                  # DSC out of range
    lambda t: t.replace(",", ";"),                         # ';'-separated
    lambda t: t.replace("alg_m0", "other"),                # unexpected column
])
def test_irregular_files_go_to_the_careful_reader(tmp_path, edit):
    f = tmp_path / "seg.csv"
    f.write_text(edit(seg_frame(10).to_csv(index=False)))
    assert claims_fast.read_clean(f, None, "task", None, None, 2, "fraction") is None


@pytest.mark.parametrize("edit", [
    lambda df: df.assign(alg_x=df["alg_x"].where(df.index != 3, " benign")),
    lambda df: df.assign(alg_x=df["alg_x"].where(df.index != 3, "")),
    lambda df: df.assign(ground_truth=df["ground_truth"].where(df.index != 3, "")),
])
def test_irregular_labels_go_to_the_careful_reader(tmp_path, edit):
    f = tmp_path / "cls.csv"
    edit(cls_frame(10)).to_csv(f, index=False)
    assert claims_fast.read_clean(f, None, "task", None, None, 2, "fraction") is None
    cls_frame(10).to_csv(f, index=False)
    assert claims_fast.read_clean(f, None, "task", ["benign", "normal"], None, 2,
                                  "fraction") is None  # a label outside --classes


def test_matrix_equals_pandas_pivot(tmp_path):
    """Sorted complete tables take the reshape; tables with missing cases the codes; both
    equal pandas' pivot."""
    rows = [(f"k{i:02d}", "liver", m, "dsc", (i * 7 + len(m)) % 10 / 10)
            for m in ("b", "a", "c") for i in range(12)]
    rows = [r for r in rows if not (r[2] == "c" and r[0] == "k05")]  # c lacks a case
    f = tmp_path / "long.csv"
    pd.DataFrame(rows, columns=list(model.LONG_COLUMNS)).to_csv(f, index=False)
    for mismatch, drop in (("intersect", None), ("error", "k05")):
        table = pd.read_csv(f, dtype={"case_id": str})
        if drop is not None:
            table = table[table["case_id"] != drop]
            table.to_csv(f, index=False)
        pc = readers.read_long(f, case_mismatch=mismatch)
        expect = pc.table.pivot(index="case_id", columns="method", values="value")
        assert_frame_equal(pc.matrix("liver"), expect, check_exact=True)
        assert (model._method_blocks(pc.table) is None) == (drop is None)


def run_cli(args, capsys) -> str:
    assert main(args) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("task,frame", [("segmentation", seg_frame),
                                        ("classification", cls_frame)])
def test_cli_output_equals_the_careful_path(tmp_path, monkeypatch, capsys, task, frame):
    f = tmp_path / "in.csv"
    frame(2500, shuffle=True).to_csv(f, index=False)
    assert claims_fast.read_clean(f, task, "task", None, None, 2, "fraction") is not None
    for extra in ([], ["--json", "--all-pairs"]):
        args = ["percase", str(f), "--task", task, "--bootstrap", "500", *extra]
        fast = run_cli(args, capsys)
        with monkeypatch.context() as m:
            m.setattr(claims_fast, "read_clean", lambda *a, **k: None)
            slow = run_cli(args, capsys)
        assert fast == slow


def skewed(n: int, seed: int = 4) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.beta(8, 1.5, n)  # DSC-like: long left tail
    return x, np.clip(x - rng.gamma(0.5, 0.02, n), 0, 1)


@pytest.mark.parametrize("n", [400, 20_000])
def test_normal_approximation_agrees_with_resampling(n):
    x, y = skewed(n)
    resamples = 4000
    sampled = bootstrap_mean_difference(x, y, resamples, seed=11)
    approx = bootstrap_mean_difference(x, y, resamples, seed=11, max_draws=n * resamples - 1)
    assert "method" not in sampled and approx["method"] == APPROXIMATE
    assert approx["estimate"] == sampled["estimate"]
    d = x - y
    se = d.std() / np.sqrt(n)
    # Monte Carlo SD of a sampled 2.5% / 97.5% quantile, in units of the bootstrap SE
    mc = np.sqrt(0.025 * 0.975 / resamples) / norm.pdf(norm.ppf(0.975))
    for end in ("lower", "upper"):
        assert abs(approx[end] - sampled[end]) < 4 * mc * se
    # the skewness term matters at small n: without it the ends move by more
    g = np.mean((d - d.mean()) ** 3) / d.std() ** 3
    shift = se * g * (1.96**2 - 1) / (6 * np.sqrt(n))
    assert abs(approx["lower"] - (d.mean() - 1.96 * se + shift)) < 1e-3 * se


def test_approximation_only_above_max_draws_and_for_many_values():
    x, y = skewed(1000)
    assert "method" not in bootstrap_mean_difference(x, y, 200, 1, max_draws=200_000)
    assert bootstrap_mean_difference(x, y, 200, 1, max_draws=199_999)["method"] == APPROXIMATE
    a = (np.arange(1000) % 3 == 0).astype(float)  # few distinct differences: exact counts
    b = (np.arange(1000) % 5 == 0).astype(float)
    assert "method" not in bootstrap_mean_difference(a, b, 200, 1, max_draws=1)
    one = bootstrap_mean_difference(x, y, 200, 1, max_draws=1)
    assert one == bootstrap_mean_difference(x, y, 200, 2, max_draws=1) | {"seed": 1}


def test_cli_states_the_approximation(tmp_path, capsys):
    f = tmp_path / "seg.csv"
    seg_frame(300).to_csv(f, index=False)
    cfg = yaml.safe_load(open("src/falseclaims/default_config.yaml"))
    cfg["claim_check"]["bootstrap"]["max_draws"] = 1000
    c = tmp_path / "config.yaml"
    c.write_text(yaml.safe_dump({"claim_check": cfg["claim_check"]}))
    env = json.loads(run_cli(["percase", str(f), "--task", "segmentation", "--json",
                              "--config", str(c)], capsys))
    out = {**env["result"], "notes": env["notes"]}
    assert out["difference_interval"]["method"] == APPROXIMATE
    assert any("normal approximation" in note for note in out["notes"])
    text = run_cli(["percase", str(f), "--task", "segmentation", "--config", str(c)], capsys)
    assert "note: bootstrap interval: 300 cases x 2000 resamples exceed 1,000 draws" in text


def test_command_line_parser_imports_no_analysis_modules():
    heavy = ("scipy", "falseclaims.percase.author", "falseclaims.percase.readers",
             "falseclaims.claims", "falseclaims.multiplicity")
    code = ("import sys; from falseclaims.cli import build_parser; build_parser(); "
            f"print(sorted(m for m in sys.modules if m.startswith({heavy!r})))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
