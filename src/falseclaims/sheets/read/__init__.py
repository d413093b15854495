"""The pipeline's sheet reader: a venue's extraction sheet(s) read, mapped, parsed and
validated into the normalised papers / results / notes tables (:func:`reader.read_venue`)."""
