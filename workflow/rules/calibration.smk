# calibration rules (being written)
