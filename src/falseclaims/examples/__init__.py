"""Seeded generators of the SYNTHETIC example data: the MICCAI-2023-like survey workbook
(``survey_sheet``), the wide top-2 venue B (``venue_b``) and the per-case files
(``percase_files``); ``sampling`` holds the draws they share."""
