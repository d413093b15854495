"""A results table written to a file, as table mode's tests hand it to the reader."""

from pathlib import Path


def write_table_file(tmp_path: Path, name: str, text: str) -> Path:
    """``text`` written to ``tmp_path / name`` (UTF-8); the file's path."""
    f = tmp_path / name
    f.write_text(text, encoding="utf-8")
    return f
