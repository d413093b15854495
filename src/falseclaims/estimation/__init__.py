"""Congruence and SD models estimated from open per-case data (`docs/estimation.md`).

- :mod:`.congruence_sources`: pairwise congruence tables per configured source (MSD,
  Touchstone, ISIC 2018, models trained here with scikit-learn, or user per-case files);
- :mod:`.sklearn_models`: the scikit-learn classifiers x datasets behind the ``sklearn`` source;
- :mod:`.sd_sources`: per-method (mean, SD) pairs per source and the fitted SD model.
"""
