# estimation rules (being written)
