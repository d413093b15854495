"""Per-case results: readers, congruence estimation, classical paired tests, reports."""
