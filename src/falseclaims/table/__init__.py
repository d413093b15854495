"""Table mode: every claim in a published results table (``falseclaims table``; docs/table.md)."""
