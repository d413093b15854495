"""Glue between Snakemake rules and the library: how a job runs, logging and error reporting.

A rule's ``run:`` block calls :func:`run_script` with one of the workflow's scripts; the script
calls ``run_job(snakemake, func)``, and ``func`` receives the snakemake object and does one
library call. Table and YAML I/O is in :mod:`falseclaims.io.table_io`.
"""

from __future__ import annotations

import ast
import errno
import functools
import gc
import logging
import multiprocessing
import multiprocessing.connection
import os
import runpy
import sys
import threading
import time
from pathlib import Path
from types import SimpleNamespace

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
    started = time.perf_counter()
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
        log.debug("%s", job_resources(time.perf_counter() - started))
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


# the line job_resources writes (benchmarks/bench_pipeline.py reads it back)
RESOURCES_LINE = ("resources: {wall:.2f} s wall; CPU {user:.2f} s user + {system:.2f} s "
                  "system; peak memory {peak:.0f} MiB")


def job_resources(wall: float) -> str:
    """The step's wall time, and this process's CPU time and peak memory, for the rule's log
    (Snakemake's ``benchmark:`` measures the whole Snakemake process for a ``run:`` job,
    every job running beside it included, so the rules have none)."""
    try:
        import resource
    except ImportError:  # Windows has no getrusage: the step's wall time only
        return f"resources: {wall:.2f} s wall"
    usage = resource.getrusage(resource.RUSAGE_SELF)
    # ru_maxrss is in KiB on Linux, in bytes on macOS
    peak = usage.ru_maxrss / (2**20 if sys.platform == "darwin" else 2**10)
    return RESOURCES_LINE.format(wall=wall, user=usage.ru_utime, system=usage.ru_stime,
                                 peak=peak)


# The job server imports these before it forks any job: the drawing libraries the figure steps
# import inside their functions, then what the scripts import at their top (script_imports),
# and last the module that freezes the garbage collector's view of it all
# (falseclaims.job_server_ready). "snakemake.io": what a job needs of Snakemake (its input,
# output and params are Snakemake's lists, unpickled in the job).
SERVER_PRELOAD = ("snakemake.io", "matplotlib.pyplot", "seaborn", "scipy.stats")

# Names the parent's main program for the job server. multiprocessing runs the parent's main
# program again in every job unless the server's ``__main__`` is that file; Snakemake's
# program (``bin/snakemake``) imports all of Snakemake: 0.35 s of CPU per job, or 0.8 s in the
# server before the first job can start, for nothing (a job runs library code only).
# falseclaims.job_server_ready gives the server's ``__main__`` that file name instead.
MAIN_PROGRAM = "FALSECLAIMS_JOB_SERVER_MAIN"


_PROCESS_LOCK = threading.Lock()


class JobFailed(Exception):
    """A step's process ended with an error (already reported on the console and in its log)."""


def script_imports(scripts_dir) -> list[str]:
    """The modules the workflow's scripts import at their top, read from their source."""
    names = set()
    for script in sorted(Path(scripts_dir).glob("*.py")):
        for node in ast.parse(script.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
    return sorted(names)


@functools.lru_cache(maxsize=None)
def job_context(scripts_dir):
    """The multiprocessing context the jobs run in: a fork server that has imported what the
    steps need (where the platform has none, a new interpreter per job, as ``script:``).
    Made once per scripts folder: the server reads its preload list only when it starts, so
    reading the scripts' imports again for every job was work for nothing."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    main = sys.modules.get("__main__")
    if getattr(main, "__spec__", None) is None and getattr(main, "__file__", None):
        # a program run by its path (a `python -m` one is never run again in a job)
        os.environ[MAIN_PROGRAM] = os.path.normpath(main.__file__)
    context.set_forkserver_preload([*SERVER_PRELOAD, *script_imports(scripts_dir),
                                    "falseclaims.job_server_ready"])
    return context


def _run_in_child(script: str, smk, cwd: str) -> None:
    # the server's working directory is the one it started in; a job's is its parent's
    os.chdir(cwd)
    runpy.run_path(script, init_globals={"snakemake": smk}, run_name="__main__")


def run_script(script, input, output, params, wildcards, log, rule) -> None:
    """Run one of the workflow's scripts for a rule (its ``run:`` block), in a process of its own.

    The process is forked from a server that imported pandas, matplotlib and the library
    once per Snakemake run (:mod:`multiprocessing`'s forkserver), where Snakemake's
    ``script:`` starts a new Python that imports them again for every job: on the example,
    that start-up was 43 % of the jobs' CPU (docs/benchmarks.md). Each job still has its own
    process (its own matplotlib state, log and exit status), the rule's log is written as
    before, and every job starts from the same state (forked from the server, never from
    another job), so outputs do not depend on the order jobs run in.
    """
    script = Path(script)
    smk = SimpleNamespace(input=input, output=output, params=params, wildcards=wildcards,
                          log=log, rule=rule)
    process = job_context(Path(script.parent)).Process(target=_run_in_child,
                                                 args=(str(script), smk, os.getcwd()))
    # Snakemake calls this from several threads at once. Process.start polls every running
    # child's exit status (multiprocessing.process._cleanup), and two threads reading one
    # child's status lose it (read as 255: a job that had succeeded failed, once in three
    # runs of the example); so starting and reading a status happen one thread at a time,
    # and only the wait for the job is outside the lock.
    with _PROCESS_LOCK:
        process.start()
    multiprocessing.connection.wait([process.sentinel])
    with _PROCESS_LOCK:
        process.join()
    if process.exitcode:
        where = f"; its log: {log[0]}" if len(log) else ""
        raise JobFailed(f"rule {rule} stopped (exit status {process.exitcode}){where}")


def end_of_run() -> None:
    """Called when the run is over (the Snakefile's ``onsuccess``): cancels the timers
    Snakemake's scheduler leaves behind. Every pass of its loop while jobs wait for a core
    starts a timer that wakes it one ``--max-jobs-per-timespan`` span later (1 s by default;
    the limit cannot be switched off), and Python waits for every pending timer before it
    exits: about a second after the last job, doing nothing (measured: docs/benchmarks.md).
    Once the scheduler has returned nobody waits for them."""
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()

