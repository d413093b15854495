"""Multiplicity of the state of the art: the best of m classifiers (``best_of_m``) and the
tables behind the multiplicity outputs (``tables``)."""
