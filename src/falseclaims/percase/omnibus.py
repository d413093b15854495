"""K >= 3 methods on the same cases: Friedman and Iman–Davenport omnibus tests with Nemenyi and
Holm post-hoc comparisons and the critical difference (CD) ([Rainio2024]; [Demsar2006];
[ImanDavenport1980]; Nemenyi p-values from scikit-posthocs, [Terpilowski2019]).

Each case is a block, the K methods are ranked within it (rank 1 = best = highest DSC or
correct; ties get average ranks) and R_k is method k's average rank over the J cases.

- Friedman chi2_F (scipy.stats.friedmanchisquare: the statistic with the tie correction,
  which on 0/1 correctness equals Cochran's Q) on K - 1 df;
- Iman–Davenport F_F = (J - 1) chi2_F / (J (K - 1) - chi2_F) on K - 1 and (K - 1)(J - 1) df,
  which [Rainio2024] recommends over the conservative chi2_F;
- Nemenyi: all pairs, |R_i - R_j| / sqrt(K (K + 1) / (12 J)) against the studentized range
  on K and infinite df (scikit-posthocs ``posthoc_nemenyi_friedman``), with the critical
  difference CD = q_alpha sqrt(K (K + 1) / (6 J)), q_alpha = studentized-range quantile / sqrt 2;
- Holm: the same rank differences as z = (R_i - R_j) / sqrt(K (K + 1) / (6 J)), two-sided
  normal p-values, Holm step-down adjusted (more powerful than Nemenyi; [Demsar2006],
  Sec. 3.2.2).

Why these libraries: scipy gives the tie-corrected Friedman statistic and the studentized
range; scikit-posthocs gives the Nemenyi p-values and the CD diagram that the field uses,
so neither is hand-written here (the tests check both against hand-computed values).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from falseclaims.percase.compare import holm

__all__ = ["MAX_POSTHOC_METHODS", "OmnibusResult", "friedman_omnibus"]

# each pair's Nemenyi p-value is a numerical integral (scipy's studentized range): 1,000
# methods (499,500 pairs) took 90 s, 3,000 methods over 10 minutes, printing a line per pair
MAX_POSTHOC_METHODS = 100
PAIR_COLUMNS = ["a", "b", "rank_a", "rank_b", "rank_difference", "p_nemenyi", "p_rank_z",
                "p_holm", "differ"]


@dataclass
class OmnibusResult:
    methods: list[str]
    n_cases: int
    mean_ranks: dict            # method -> average rank (1 = best)
    friedman_chi2: float
    friedman_p: float
    iman_davenport_f: float
    iman_davenport_p: float
    critical_difference: float
    alpha: float
    pairs: pd.DataFrame          # a, b, rank_a, rank_b, rank_difference, p_nemenyi, p_holm
    nemenyi: pd.DataFrame        # K x K p-value matrix (for the CD diagram)
    notes: list[str] = field(default_factory=list)

    def as_dict(self) -> dict:
        def num(v):
            v = float(v)
            return v if np.isfinite(v) else None
        return {
            "methods": self.methods, "n_cases": self.n_cases,
            "mean_ranks": {k: float(v) for k, v in self.mean_ranks.items()},
            "friedman": {"statistic": num(self.friedman_chi2), "pvalue": num(self.friedman_p),
                         "df": len(self.methods) - 1},
            "iman_davenport": {"statistic": num(self.iman_davenport_f),
                               "pvalue": num(self.iman_davenport_p),
                               "df": [len(self.methods) - 1,
                                      (len(self.methods) - 1) * (self.n_cases - 1)]},
            "critical_difference": float(self.critical_difference), "alpha": self.alpha,
            "pairs": [{k: (num(v) if isinstance(v, float) else v) for k, v in r.items()}
                      for r in self.pairs.to_dict(orient="records")],
            "notes": self.notes,
        }


def friedman_omnibus(values: pd.DataFrame, alpha: float = 0.05) -> OmnibusResult:
    """Friedman / Iman–Davenport with Nemenyi and Holm post-hoc on a cases x methods table
    (higher values better). Needs K >= 3 methods and J >= 2 complete cases."""
    import scikit_posthocs as sp

    v = values.astype(float)
    k, j = v.shape[1], v.shape[0]
    if k < 3:
        raise ValueError(f"the omnibus test needs at least 3 methods; got {k}")
    if j < 2 or not np.isfinite(v.to_numpy()).all():
        raise ValueError(f"the omnibus test needs >= 2 cases with a value for every method; "
                         f"got {j} cases" + ("" if np.isfinite(v.to_numpy()).all()
                                             else " with missing values"))
    methods = [str(c) for c in v.columns]
    ranks = v.rank(axis=1, ascending=False).mean(axis=0)
    ranks.index = methods
    notes = []
    arr = v.to_numpy()
    if (arr == arr[:, :1]).all():  # every case ties all methods (nunique(axis=1) is slow)
        chi2, p_chi = float("nan"), float("nan")
        notes.append("not computed: every case has the same value for all methods, so the "
                     "within-case ranks are all tied and the Friedman statistic is undefined")
    else:
        res = stats.friedmanchisquare(*[v[c].to_numpy() for c in v.columns])
        chi2, p_chi = float(res.statistic), float(res.pvalue)
    denom = j * (k - 1) - chi2
    if np.isfinite(chi2) and denom > 0:
        f_id = (j - 1) * chi2 / denom
        p_id = float(stats.f.sf(f_id, k - 1, (k - 1) * (j - 1)))
    else:
        f_id, p_id = float("nan"), float("nan")
        if np.isfinite(chi2):
            notes.append("Iman–Davenport not computed: chi2_F reaches its maximum J (K - 1) "
                         "(every case ranks the methods identically), so F_F is infinite; "
                         "the ranking is perfectly consistent")
    se_nem = np.sqrt(k * (k + 1) / (6.0 * j))
    q_alpha = float(stats.studentized_range.ppf(1 - alpha, k, np.inf)) / np.sqrt(2)
    cd = q_alpha * se_nem
    if k > MAX_POSTHOC_METHODS:
        notes.append(f"post-hoc comparisons not computed: {k:,} methods are {k * (k - 1) // 2:,} "
                     f"pairs (at most {MAX_POSTHOC_METHODS} methods, "
                     f"{MAX_POSTHOC_METHODS * (MAX_POSTHOC_METHODS - 1) // 2:,} pairs, are "
                     "compared each with each); compare chosen methods with --a and --b")
        return OmnibusResult(methods, j, {m: float(ranks[m]) for m in methods}, chi2, p_chi,
                             float(f_id), p_id, float(cd), float(alpha),
                             pd.DataFrame(columns=PAIR_COLUMNS), pd.DataFrame(), notes)
    nem = sp.posthoc_nemenyi_friedman(v.to_numpy())
    nem.index = nem.columns = methods
    rows = []
    for a, b in combinations(sorted(methods, key=lambda m: ranks[m]), 2):
        z = (ranks[b] - ranks[a]) / se_nem
        rows.append({"a": a, "b": b, "rank_a": float(ranks[a]), "rank_b": float(ranks[b]),
                     "rank_difference": float(ranks[b] - ranks[a]),
                     "p_nemenyi": float(nem.loc[a, b]),
                     "p_rank_z": float(2 * stats.norm.sf(abs(z)))})
    pairs = pd.DataFrame(rows)
    pairs["p_holm"] = holm(pairs["p_rank_z"].to_numpy())
    pairs["differ"] = pairs["rank_difference"] > cd
    return OmnibusResult(methods, j, {m: float(ranks[m]) for m in methods}, chi2, p_chi,
                         float(f_id), p_id, float(cd), float(alpha), pairs, nem, notes)
