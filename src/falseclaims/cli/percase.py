"""`falseclaims percase` (being written; registers nothing yet)."""


def register(sub) -> None:
    pass
