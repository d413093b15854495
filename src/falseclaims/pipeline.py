"""Glue between Snakemake rules and the library: logging and error reporting.

Scripts call ``run_job(snakemake, func)``; ``func`` receives the snakemake object and
does one library call. Table and YAML I/O is in :mod:`falseclaims.io.table_io`.
"""

from __future__ import annotations

import errno
import gc
import logging
import os
import sys
from pathlib import Path

from falseclaims.errors import FalseclaimsInputError

# errors the user fixes by changing an input: reported without a Python traceback
EXPECTED_ERRORS = (FalseclaimsInputError, FileNotFoundError)


# errors of the machine, not of the input or the code: disk full, quota, read-only file
# system, permission denied, too many open files, out of memory
ENVIRONMENT_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES,
                                errno.EPERM, errno.EMFILE, errno.ENFILE, errno.ENOMEM})


class EnvironmentProblem(Exception):
    """A step stopped by its environment (reported in one line, without a traceback)."""


def environment_message(exc: OSError) -> str:
    where = f" ({exc.filename})" if exc.filename else ""
    return (f"environment problem, not a bug: {exc.strerror or exc}{where}; free disk space, "
            "fix permissions or choose a writable directory, then rerun")


class _Format(logging.Formatter):
    def format(self, record):
        if getattr(record, "block", False):
            return record.getMessage()
        return super().format(record)


def error_block(rule: str, wildcards: dict, log_path, exc: BaseException) -> str:
    """The message a failing step prints: rule (and wildcards), the problem, the log."""
    where = ", ".join(f"{k}={v}" for k, v in wildcards.items())
    lines = [f"ERROR in rule {rule}" + (f" ({where})" if where else "") + ":"]
    lines += [f"    {line}" for line in str(exc).splitlines() or [type(exc).__name__]]
    if log_path:
        lines.append(f"    (log: {log_path})")
    return "\n".join(lines)


def run_step(snakemake, func) -> None:
    """Run ``func(snakemake)`` with logging into the rule's log file.

    An input error (:data:`EXPECTED_ERRORS`) ends the job with one ``ERROR`` block naming
    the rule, the problem and the log file, and exit status 1; any other exception is a bug
    and is logged with its traceback.
    """
    log_path = snakemake.log[0] if len(snakemake.log) else None
    # the console gets one summary per step (INFO); the rule's log also the details (DEBUG)
    console = logging.StreamHandler(sys.stderr)
    console.setLevel(logging.INFO)
    handlers = [console]
    if log_path:
        Path(log_path).parent.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(log_path, mode="w"))
    fmt = _Format("%(levelname)s %(name)s: %(message)s")
    for handler in handlers:
        handler.setFormatter(fmt)
    logging.basicConfig(level=logging.INFO, handlers=handlers, force=True)
    logging.getLogger("falseclaims").setLevel(logging.DEBUG)
    # PDF font subsetting logs every glyph at INFO
    logging.getLogger("fontTools").setLevel(logging.WARNING)
    log = logging.getLogger(f"falseclaims.{snakemake.rule}")
    try:
        func(snakemake)
        log.debug("done: %s", ", ".join(map(str, snakemake.output)))
    except EXPECTED_ERRORS as exc:
        wildcards = dict(snakemake.wildcards.items()) if snakemake.wildcards else {}
        log.error("%s", error_block(snakemake.rule, wildcards, log_path, exc),
                  extra={"block": True})
        raise SystemExit(1) from None
    except OSError as exc:
        if exc.errno not in ENVIRONMENT_ERRNOS:
            log.exception("unexpected error in rule %s (a bug, not a problem with your "
                          "input; please report it with this log)", snakemake.rule)
            raise SystemExit(1) from None
        wildcards = dict(snakemake.wildcards.items()) if snakemake.wildcards else {}
        log.error("%s", error_block(snakemake.rule, wildcards, log_path,
                                    EnvironmentProblem(environment_message(exc))),
                  extra={"block": True})
        raise SystemExit(1) from None
    except Exception:
        log.exception("unexpected error in rule %s (a bug, not a problem with your input; "
                      "please report it with this log)", snakemake.rule)
        raise SystemExit(1) from None


def run_job(snakemake, func) -> None:
    """A Snakemake script's entry point: :func:`run_step`, then the process ends at once.

    Each job is a process that lives for one step, and two costs of such a process do no
    work for it (measured on the example in docs/benchmarks.md: about a quarter of a figure
    job's CPU, a third of a table job's): the cyclic garbage collector scanning again and
    again the objects the imports created (``gc.freeze`` puts them out of its reach;
    garbage the step makes is still collected), and the interpreter's teardown, which frees
    every object one by one before the process exits (``os._exit`` after the log files and
    standard streams are flushed; every output is closed by the step that writes it). An
    error ends the job as in :func:`run_step` (``SystemExit(1)``).
    """
    gc.freeze()
    run_step(snakemake, func)
    logging.shutdown()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
