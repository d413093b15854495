"""Running the command line inside a test: its exit code and output, never a traceback."""

from __future__ import annotations

import pytest

from falseclaims.cli import main


def run_cli(capsys, argv):
    """(exit code, captured output) of ``falseclaims ARGV``; a traceback fails the test."""
    with pytest.raises(SystemExit) as exc:
        raise SystemExit(main(argv))
    out = capsys.readouterr()
    assert "Traceback" not in out.err + out.out
    return exc.value.code, out


def one_line_error(capsys, argv) -> str:
    """The error of a refused input: exit code 2 and one line on stderr."""
    code, out = run_cli(capsys, argv)
    assert code == 2, out.err
    assert len(out.err.strip().splitlines()) == 1, out.err
    return out.err
