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
from collections.abc import Mapping
from dataclasses import dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import expit

from falseclaims.config import load_config

__all__ = ["FILES", "ExampleSettings", "binary_with_scores", "classification", "segmentation",
           "write_examples"]

FILES = {
    "segmentation": "percase_segmentation_synthetic.csv",
    "classification": "percase_classification_synthetic.csv",
    "binary": "percase_binary_synthetic.csv",
    "binary_scores": "percase_binary_scores_synthetic.csv",
}


def _case_ids(prefix: str, n: int) -> list[str]:
    return [f"{prefix}{i:04d}" for i in range(1, n + 1)]


def _known(block: Mapping, cls: type, where: str) -> dict:
    """The block as a dict; a key ``cls`` has no field for is refused, naming it."""
    unknown = sorted(set(block) - {f.name for f in fields(cls)})
    if unknown:
        raise ValueError(f"config {where}: unknown key(s) {', '.join(map(str, unknown))}")
    return dict(block)


def _effects(methods: Mapping) -> dict[str, float]:
    return {str(name): float(v) for name, v in methods.items()}


@dataclass(frozen=True)
class SegmentationExample:
    """DSC = expit(mu + case_sd z_case + noise_sd e); ``methods``: name -> mu."""
    n_cases: int
    case_sd: float
    noise_sd: float
    methods: dict[str, float]


@dataclass(frozen=True)
class ClassificationExample:
    """P(correct) = expit(mu - case_sd z_case); ``methods``: name -> mu."""
    n_cases: int
    classes: list[str]
    case_sd: float
    methods: dict[str, float]
    class_shares: list[float] | None = None  # None: classes equally likely


@dataclass(frozen=True)
class BinaryExample:
    """score = expit(sep (2y - 1) + shared_sd u + noise_sd e); ``methods``: name -> sep."""
    n_cases: int
    prevalence: float
    shared_sd: float
    noise_sd: float
    methods: dict[str, float]


@dataclass(frozen=True)
class ExampleSettings:
    """``claim_check.examples``: the seed and the model of each synthetic file."""
    seed: int
    segmentation: SegmentationExample
    classification: ClassificationExample
    binary: BinaryExample

    @classmethod
    def from_config(cls, cfg: Mapping) -> ExampleSettings:
        """Read once from a validated config (the schema requires the block)."""
        where = "claim_check.examples"
        block = _known(cfg["claim_check"]["examples"], cls, where)
        seg = _known(block["segmentation"], SegmentationExample, f"{where}.segmentation")
        clf = _known(block["classification"], ClassificationExample,
                     f"{where}.classification")
        binary = _known(block["binary"], BinaryExample, f"{where}.binary")
        shares = clf.get("class_shares")
        return cls(
            seed=int(block["seed"]),
            segmentation=SegmentationExample(
                int(seg["n_cases"]), float(seg["case_sd"]), float(seg["noise_sd"]),
                _effects(seg["methods"])),
            classification=ClassificationExample(
                int(clf["n_cases"]), [str(c) for c in clf["classes"]], float(clf["case_sd"]),
                _effects(clf["methods"]), None if shares is None else [float(x) for x in shares]),
            binary=BinaryExample(
                int(binary["n_cases"]), float(binary["prevalence"]), float(binary["shared_sd"]),
                float(binary["noise_sd"]), _effects(binary["methods"])))


def segmentation(spec: SegmentationExample, rng: np.random.Generator) -> pd.DataFrame:
    n = spec.n_cases
    z = rng.standard_normal(n)
    out = {"case_id": _case_ids("seg", n)}
    for name, mu in spec.methods.items():
        e = rng.standard_normal(n)
        dsc = expit(mu + spec.case_sd * z + spec.noise_sd * e)
        out[f"alg_{name}"] = np.round(dsc, 4)
    return pd.DataFrame(out)


def classification(spec: ClassificationExample, rng: np.random.Generator) -> pd.DataFrame:
    n = spec.n_cases
    classes = list(spec.classes)
    truth = rng.choice(classes, size=n, p=spec.class_shares)
    z = rng.standard_normal(n)
    out = {"case_id": _case_ids("cls", n), "ground_truth": truth}
    for name, mu in spec.methods.items():
        right = rng.random(n) < expit(mu - spec.case_sd * z)
        wrong = np.array([rng.choice([c for c in classes if c != t]) for t in truth])
        out[f"alg_{name}"] = np.where(right, truth, wrong)
    return pd.DataFrame(out)


def binary_with_scores(spec: BinaryExample,
                       rng: np.random.Generator) -> tuple[pd.DataFrame, pd.DataFrame]:
    n = spec.n_cases
    y = (rng.random(n) < spec.prevalence).astype(int)
    shared = rng.standard_normal(n)
    ids = _case_ids("bin", n)
    labels = {"case_id": ids, "ground_truth": y}
    scores = {"case_id": ids}
    for name, sep in spec.methods.items():
        logit = sep * (2 * y - 1) + spec.shared_sd * shared \
            + spec.noise_sd * rng.standard_normal(n)
        s = np.round(expit(logit), 4)
        scores[f"alg_{name}"] = s
        labels[f"alg_{name}"] = (s >= 0.5).astype(int)
    return pd.DataFrame(labels), pd.DataFrame(scores)


def write_examples(cfg: dict, out_dir: str | Path) -> list[Path]:
    spec = ExampleSettings.from_config(cfg)
    rng = np.random.default_rng(spec.seed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    frames = {"segmentation": segmentation(spec.segmentation, rng),
              "classification": classification(spec.classification, rng)}
    frames["binary"], frames["binary_scores"] = binary_with_scores(spec.binary, rng)
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
