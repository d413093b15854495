"""Calibration study: its grid of conditions (``grid``), simulated comparisons with known
truth (``simulation``) and the curves, intervals and ECE computed from them (``metrics``)."""
