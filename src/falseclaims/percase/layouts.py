"""Names of the per-case input layouts (`docs/percase.md`); a module of its own so the
command line lists them without importing the readers."""

LAYOUTS = ("auto", "long", "claims_reloaded", "wide_per_method", "predictions", "nnunet")

# how a report names each layout (the option values are for typing, not for reading)
LAYOUT_WORDS = {
    "long": "one row per case and method (case_id, task, method, metric, value; or one "
            "column per metric)",
    "claims_reloaded": "one column per method (case_id, alg_<method>), the layout of the "
                       "Claims Reloaded calculator",
    "wide_per_method": "one file per method, one column per structure",
    "predictions": "one file of predicted labels per method, with a ground-truth file",
    "nnunet": "one nnU-Net summary.json per method (per-case metrics per label or region; "
              "with per-case CSV files of other methods beside them, their Dice per case)",
}
# the structure name a one-structure layout gives its cases (nothing to report)
SINGLE_STRUCTURE = "task"
