"""Classification congruence from real models trained here, mirroring the paper's
"several architectures x several tasks" design ([Christodoulou2025], Methods) at laptop scale.

Every dataset ships with scikit-learn (no downloads). Each is split once, stratified, into a
training and a held-out test part with a fixed seed; every model family is trained on the
training part and predicts the test part. The result is a classification :class:`PerCase`
(task = dataset, method = model family) from which p11 per pair follows.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
from sklearn import datasets
from sklearn.ensemble import HistGradientBoostingClassifier, RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB
from sklearn.neural_network import MLPClassifier
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier
from threadpoolctl import threadpool_limits

from falseclaims.percase.readers import LABEL_METRIC, PerCase

__all__ = ["DATASETS", "MODELS", "make_model", "train_and_predict"]

# loaders of datasets bundled with scikit-learn (all local files)
DATASETS = {
    "breast_cancer": datasets.load_breast_cancer,  # Wisconsin diagnostic, 569 x 30, 2 classes
    "digits": datasets.load_digits,                # 8x8 handwritten digits, 1797 x 64, 10 classes
    "wine": datasets.load_wine,                    # 178 x 13, 3 classes
    "iris": datasets.load_iris,                    # 150 x 4, 3 classes
}

# scikit-learn defaults unless noted; scaling where the family needs it.
# gradient_boosting is available but slow here (~2 min for digits on 2 cores).
MODELS = ("logistic_regression", "svm_rbf", "knn", "naive_bayes", "decision_tree",
          "random_forest", "mlp", "gradient_boosting")


def make_model(name: str, seed: int):
    """A fresh estimator of family ``name`` seeded with ``seed``."""
    if name == "logistic_regression":
        return make_pipeline(StandardScaler(), LogisticRegression(max_iter=5000))
    if name == "svm_rbf":
        return make_pipeline(StandardScaler(), SVC(kernel="rbf"))
    if name == "knn":
        return make_pipeline(StandardScaler(), KNeighborsClassifier(n_neighbors=5))
    if name == "naive_bayes":
        return GaussianNB()
    if name == "decision_tree":
        return DecisionTreeClassifier(random_state=seed)
    if name == "random_forest":
        return RandomForestClassifier(n_estimators=200, random_state=seed, n_jobs=1)
    if name == "mlp":
        return make_pipeline(StandardScaler(), MLPClassifier(hidden_layer_sizes=(64,),
                                                             max_iter=1000, random_state=seed))
    if name == "gradient_boosting":
        return HistGradientBoostingClassifier(random_state=seed)
    raise ValueError(f"unknown model family {name!r}; choose from {list(MODELS)}")


def train_and_predict(dataset_names: Sequence[str], model_names: Sequence[str],
                      test_size: float, seed: int) -> PerCase:
    """Train every model on every dataset and return held-out predictions as a PerCase.

    Case ids are the row numbers in the original dataset (``<dataset>:<row>``), so the test
    split can be traced. The same ``seed`` drives the split and every model.
    """
    for d in dataset_names:
        if d not in DATASETS:
            raise ValueError(f"unknown dataset {d!r}; choose from {list(DATASETS)}")
    for m in model_names:
        make_model(m, seed)  # validates the name
    if len(set(model_names)) < 2:
        raise ValueError("need at least two model families for pairwise congruence")
    if not 0 < test_size < 1:
        raise ValueError(f"test_size must lie in (0, 1); got {test_size!r}")
    rows = []
    for d in dataset_names:
        bunch = DATASETS[d]()
        X, y = bunch.data, bunch.target
        names = np.asarray(bunch.target_names).astype(str)
        idx = np.arange(len(y))
        tr, te = train_test_split(idx, test_size=test_size, random_state=seed, stratify=y)
        for m in model_names:
            # one BLAS/OpenMP thread: identical results on any machine, no oversubscription
            with threadpool_limits(1):
                model = make_model(m, seed).fit(X[tr], y[tr])
                pred = model.predict(X[te])
            rows.append(pd.DataFrame({
                "case_id": [f"{d}:{i}" for i in te], "task": d, "method": m,
                "metric": LABEL_METRIC, "value": names[pred], "ground_truth": names[y[te]],
            }))
    table = pd.concat(rows, ignore_index=True).astype(
        {c: "str" for c in ("case_id", "task", "method", "metric", "value", "ground_truth")})
    classes = tuple(sorted(set(table["ground_truth"]) | set(table["value"])))
    return PerCase(kind="classification", table=table, classes=classes,
                   notes=(f"test_size={test_size}, seed={seed}",))
