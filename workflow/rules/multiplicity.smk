# multiplicity rules (being written)
