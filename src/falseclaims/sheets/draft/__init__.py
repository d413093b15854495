"""The drafting assistant behind ``falseclaims sheet inspect``: guesses each column's role
in a sheet nobody has mapped yet and drafts the venue's config block for it."""
