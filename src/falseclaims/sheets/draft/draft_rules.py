"""The ``values:`` rules and metric words a drafted venue block uses (read by the role guesses
of :mod:`falseclaims.sheets.draft.roles` too): free text of a statistical-test or split column ->
category, header words -> metric and task."""

STAT_RULES = {r"(?i)^(no|none|n/?a|n/?m\*?|-|no test|not (reported|done|tested|mentioned)|"
               r"n\.?r\.?)$": "no",
               r"(?i)p\s*[-<=>]|p-?val|wilcoxon|t-?test|mann|delong|mcnemar|bootstrap|"
               r"permutation|anova|friedman|signific|yes": "yes"}
SPLIT_RULES = {r"(?i)fold.*test|cv.*test": "cv_plus_test",
                r"(?i)\d+\s*-?\s*folds?|cross": "cv_only",
                r"(?i)train\s*/\s*val\s*/\s*test": "train_val_test",
                r"(?i)hold-?out|train\s*/\s*test": "train_test"}
DRAFT_RULES = {"statistical_test": STAT_RULES, "split": SPLIT_RULES}
METRIC_TASK = [(r"dice|dsc|iou|jaccard|hausdorff|\bhd", "dsc", "segmentation"),
                (r"\bacc(uracy)?\b", "accuracy", "classification")]
