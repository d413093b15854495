"""`falseclaims check` (being written; registers nothing yet)."""


def register(sub) -> None:
    pass
