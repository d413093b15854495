# figures rules (being written)
