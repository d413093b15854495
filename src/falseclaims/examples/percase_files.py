"""Synthetic per-case example files for ``falseclaims percase`` (data/example/).

Run as ``python -m falseclaims.examples.percase_files [--config PATH] [--out DIR]``. Sizes,
method effects and the seed come from ``claim_check.examples`` in config/config.yaml.
The files are **synthetic** (labelled so in their names): the real per-case data in
``data/external/`` (Touchstone, ISIC) are CC BY-NC-ND and may only be shipped verbatim, so
``percase`` reads those in place instead (docs/percase.md).

Generative model (shared latent case difficulty makes methods congruent, as real ones are):
- segmentation: DSC = expit(mu_k + s_case z_i + s_noise e_ik), z, e ~ N(0, 1): left-skewed
  DSC near 1 and non-normal paired differences;
- classification: method k is right with probability expit(mu_k - s_case z_i); a wrong
  prediction is another class drawn uniformly;
- binary with scores: score = expit(logit-scale separation * (2y - 1) + shared + own
  noise); the predicted label thresholds the score at 0.5.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit

from falseclaims.config import load_config

__all__ = ["FILES", "binary_with_scores", "classification", "segmentation", "write_examples"]

FILES = {
    "segmentation": "percase_segmentation_synthetic.csv",
    "classification": "percase_classification_synthetic.csv",
    "binary": "percase_binary_synthetic.csv",
    "binary_scores": "percase_binary_scores_synthetic.csv",
}


def _case_ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i:04d}" for i in range(1, n + 1)]


def segmentation(spec: dict, rng: np.random.Generator) -> pd.DataFrame:
    n = int(spec["n_cases"])
    z = rng.standard_normal(n)
    out = {"case_id": _case_ids("seg", n)}
    for name, mu in spec["methods"].items():
        e = rng.standard_normal(n)
        dsc = expit(float(mu) + float(spec["case_sd"]) * z + float(spec["noise_sd"]) * e)
        out[f"alg_{name}"] = np.round(dsc, 4)
    return pd.DataFrame(out)


def classification(spec: dict, rng: np.random.Generator) -> pd.DataFrame:
    n = int(spec["n_cases"])
    classes = list(spec["classes"])
    truth = rng.choice(classes, size=n, p=spec.get("class_shares"))
    z = rng.standard_normal(n)
    out = {"case_id": _case_ids("cls", n), "ground_truth": truth}
    for name, mu in spec["methods"].items():
        right = rng.random(n) < expit(float(mu) - float(spec["case_sd"]) * z)
        wrong = np.array([rng.choice([c for c in classes if c != t]) for t in truth])
        out[f"alg_{name}"] = np.where(right, truth, wrong)
    return pd.DataFrame(out)


def binary_with_scores(spec: dict, rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    n = int(spec["n_cases"])
    y = (rng.random(n) < float(spec["prevalence"])).astype(int)
    shared = rng.standard_normal(n)
    ids = _case_ids("bin", n)
    labels = {"case_id": ids, "ground_truth": y}
    scores = {"case_id": ids}
    for name, sep in spec["methods"].items():
        logit = float(sep) * (2 * y - 1) + float(spec["shared_sd"]) * shared \
            + float(spec["noise_sd"]) * rng.standard_normal(n)
        s = np.round(expit(logit), 4)
        scores[f"alg_{name}"] = s
        labels[f"alg_{name}"] = (s >= 0.5).astype(int)
    return pd.DataFrame(labels), pd.DataFrame(scores)


def write_examples(cfg: dict, out_dir: str | Path) -> list[Path]:
    spec = cfg["claim_check"]["examples"]  # required by the schema (load_config validates)
    rng = np.random.default_rng(int(spec["seed"]))
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    frames = {"segmentation": segmentation(spec["segmentation"], rng),
              "classification": classification(spec["classification"], rng)}
    frames["binary"], frames["binary_scores"] = binary_with_scores(spec["binary"], rng)
    written = []
    for key, df in frames.items():
        path = out / FILES[key]
        df.to_csv(path, index=False, lineterminator="\n")
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--config", help="config file whose claim_check.examples block sets the "
                    "sizes, method effects and seed; found and merged over the packaged "
                    "defaults as by the falseclaims commands (config/README.md)")
    ap.add_argument("--out", default="data/example", help="output folder")
    args = ap.parse_args(argv)
    for p in write_examples(load_config(args.config), args.out):
        print(p)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
