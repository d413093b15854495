"""Names of the per-case input layouts (`docs/percase.md`); a module of its own so the
command line lists them without importing the readers."""

LAYOUTS = ("auto", "long", "claims_reloaded", "wide_per_method", "predictions")
