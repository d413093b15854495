"""The ``values:`` rules and metric words a drafted venue block uses (read by the role guesses
of :mod:`falseclaims.sheets.draft.roles` too): free text of a statistical-test or split column ->
category, header words -> metric and task."""

import re

STAT_RULES = {r"(?i)^(no|none|n/?a|n/?m\*?|-|no test|not (reported|done|tested|mentioned)|"
               r"n\.?r\.?)$": "no",
               r"(?i)p\s*[-<=>]|p-?val|wilcoxon|t-?test|mann|delong|mcnemar|bootstrap|"
               r"permutation|anova|friedman|signific|yes": "yes"}
# first match wins: a category written as ours, then CV with a separate test set, then
# three-way splits, CV alone, and a single held-out test set (config/README.md, splits)
SPLIT_RULES = {r"(?i)^(train_test|train_val_test|cv_only|cv_plus_test|unclear)$": "\\1",
               # a test set said to be missing is no test set: never read as one
               r"(?i)test\w*( set)?( was| is)? not (explicitly )?(reported|specified|"
               r"mentioned|described)|\bno test|test\w*\s*:\s*(n/?a|n/?m|nr|none|-)\b": "unclear",
               r"(?i)(fold|\bcv\b|\bcross).*(test|hold-?out|external|\d+\s*/\s*\d+)|"
               r"(test|hold-?out|external|\d+\s*/\s*\d+).*(fold|\bcv\b|\bcross)": "cv_plus_test",
               r"(?i)train\w*\s*[/:]\s*val\w*\s*[/:]\s*test|train\w*\W.*valid\w*\W.*test|"
               r"\d+\s*%?\s*/\s*\d+\s*%?\s*/\s*\d+|\d+\s*:\s*\d+\s*:\s*\d+": "train_val_test",
               r"(?i)\d+\s*-?\s*folds?|\bcross|\bcv\b|leave.?one.?out|\bloo": "cv_only",
               r"(?i)hold-?out|train\w*\s*/\s*test|train\w*\W.*\btest|external (test|valid)|"
               r"independent test|test (set|cohort)|\d+\s*%?\s*/\s*\d+": "train_test"}
# a free-text split column's cells stating a count of test examples ("Train: 704 epochs /
# Test: 176 epochs" -> 176, "15458 test samples"), first match wins; a split given in %,
# fractions, subjects, sessions, patients, records, days, seconds or per subject gives no
# size ("NA"), nor does any other cell: a size is never guessed from a share or a unit
N_TEST_RULES = {r"(?i)subject|\bsubs?\b|session|patient|record|\bdays?\b|video|participant|"
                r"\bsec\b|\d\s*s\b|\bper\b|test:\s*\d+\s*/": "NA",
                r"(?i)\btest:\s*~?(\d[\d,]*)\b(?![\d.,]*\s*%)": "\\1",
                r"(?i)(\d[\d,]*) test samples": "\\1",
                r".": "NA"}
# a split column is drafted as n_test too when at least this many of its distinct cells
# state a count of test examples (fewer: a chance phrase, listed nowhere as a size)
N_TEST_MIN_CELLS = 3
# a free-text split column: a cell none of the rules reads says no clear split (never guessed)
UNCLEAR_RULE = {r".": "unclear"}
DRAFT_RULES = {"statistical_test": STAT_RULES, "split": SPLIT_RULES}
# whole words only, read in text whose '_' and punctuation are spaces (``metric_words``):
# 'indices' holds 'dice' and 'previous' 'iou', neither names a metric
METRIC_TASK = [(r"\b(dice|dsc|iou|jaccard|hausdorff|hd\d*)\b", "dsc", "segmentation"),
               (r"\bacc(uracy)?\b", "accuracy", "classification")]


def metric_words(text: str) -> str:
    """``text`` lower-cased with '_' and punctuation as spaces, as METRIC_TASK reads it."""
    return re.sub(r"[_\W]+", " ", str(text).lower())


def read_with(rules: dict, text: str) -> str | None:
    """The category the first matching ``values:`` rule gives ``text`` (as the reader does)."""
    for rx, value in rules.items():
        if m := re.search(rx, text):
            return m.expand(value) if "\\" in value else value
    return None
