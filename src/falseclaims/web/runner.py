"""Run a `falseclaims` command for the page and read its answer.

``check`` and ``plan`` run in this process (they take milliseconds, and the page re-runs
them while the user types); one lock serialises them because the command writes to
stdout. ``percase`` and ``table`` read uploaded files of up to the size limit and can take
longer: they run as a child process in the upload's temporary directory, stopped at the
time limit. Either way the command line of the user's own terminal would give the same
envelope: same arguments, same config file (resolved once when the server starts).
"""

from __future__ import annotations

import io
import itertools
import json
import re
import subprocess
import sys
import threading
from contextlib import redirect_stderr, redirect_stdout
from dataclasses import dataclass

_LOCK = threading.Lock()
# the child runs the same entry point as the `falseclaims` script
_CHILD = "import sys; from falseclaims.cli import main; sys.exit(main())"
_ERROR = re.compile(r"^falseclaims(?: [a-z]+)?: error: (.*)$")
_OPTION = re.compile(r"(?<![\w-])--([a-z][a-z0-9-]*)")


class TimeLimitExceeded(Exception):
    """A command ran longer than the server's time limit."""


@dataclass
class Answer:
    """What a command printed: the envelope (exit code 0 or 1) or its error line."""
    code: int
    stdout: str
    stderr: str

    @property
    def envelope(self) -> dict | None:
        if self.code in (0, 1) and self.stdout.lstrip().startswith("{"):
            return json.loads(self.stdout)
        return None

    @property
    def error(self) -> str | None:
        """The command's error, without the ``falseclaims VERB: error:`` prefix: its line
        and the indented lines after it (``N problem(s) in per-case input:`` lists each
        problem below it; the first line alone said none of them)."""
        if self.code in (0, 1):  # done (1: table/plan answered, with what was not found)
            return None
        lines = self.stderr.splitlines()
        for i, line in enumerate(lines):
            m = _ERROR.match(line.strip())
            if m:
                more = list(itertools.takewhile(lambda x: x[:1].isspace() and x.strip(),
                                                lines[i + 1:]))
                return "\n".join([m.group(1), *(x.strip() for x in more)])
        return self.stderr.strip() or f"the command stopped with exit code {self.code}"


def run_inline(argv: list[str]) -> Answer:
    """``falseclaims *argv`` in this process."""
    from falseclaims.cli import main

    out, err = io.StringIO(), io.StringIO()
    with _LOCK, redirect_stdout(out), redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse refusals exit with 2
            code = exc.code if isinstance(exc.code, int) else 2
    return Answer(int(code), out.getvalue(), err.getvalue())


def run_child(argv: list[str], cwd: str, timeout: float) -> Answer:
    """``falseclaims *argv`` as a child process in ``cwd``, killed after ``timeout`` s."""
    try:
        done = subprocess.run([sys.executable, "-c", _CHILD, *argv], cwd=cwd,
                              capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise TimeLimitExceeded(f"stopped after {timeout:g} s, the time limit of this "
                                "server (falseclaims serve --time-limit)") from None
    return Answer(done.returncode, done.stdout, done.stderr)


def field_of(message: str, fields: dict[str, str], default: str = "form") -> str:
    """The form field a command's error message is about: the first option it names
    (``--sd-a`` -> the field of option ``--sd-a``), else ``default``."""
    for m in _OPTION.finditer(message):
        name = m.group(1)
        if name in fields:
            return fields[name]
    return default
