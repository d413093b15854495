"""How a rule's job runs: ``falseclaims.pipeline.run_script`` forks it from a server that has
imported the library (docs/benchmarks.md). Each job must still behave as a process of its own:
its working directory, its log, its exit status, and no state left by another job."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from falseclaims.pipeline import (SERVER_PRELOAD, JobFailed, job_context, run_script,
                                  script_imports)

SCRIPTS = Path(__file__).resolve().parents[1] / "workflow" / "scripts"


def write_script(folder: Path, name: str, body: str) -> Path:
    script = folder / f"{name}.py"
    script.write_text(textwrap.dedent(body), encoding="utf-8")
    return script


def run(script: Path, tmp_path: Path, outputs=("out.txt",), rule="demo"):
    output = [str(tmp_path / name) for name in outputs]
    log = [str(tmp_path / "logs" / f"{rule}.log")]
    run_script(script, [], output, SimpleNamespace(), {}, log, rule)
    return output, log[0]


def test_every_module_the_server_imports_exists():
    """multiprocessing skips a preloaded module that fails to import, without a word: a
    renamed module would silently bring back the start-up cost in every job."""
    names = [n for n in (*SERVER_PRELOAD, *script_imports(SCRIPTS)) if n != "__main__"]
    assert "falseclaims.pipeline" in names and "pandas" not in names
    for name in [*names, "falseclaims.job_server_ready"]:
        importlib.import_module(name)


def test_script_imports_reads_top_level_imports(tmp_path):
    write_script(tmp_path, "a", """\
        import logging
        from falseclaims.io.table_io import read_table

        def main(smk):
            from falseclaims.survey.numbers import venue_numbers
        """)
    assert script_imports(tmp_path) == ["falseclaims.io.table_io", "logging"]


def test_a_job_runs_in_the_callers_folder_and_writes_its_log(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    script = write_script(tmp_path, "where", """\
        import os
        from pathlib import Path
        from falseclaims.pipeline import run_job

        def main(smk):
            Path(smk.output[0]).write_text(os.getcwd())

        run_job(snakemake, main)  # noqa: F821
        """)
    output, log = run(script, tmp_path, outputs=("sub_out.txt",))
    assert Path(output[0]).read_text() == str(tmp_path)
    assert "resources:" in Path(log).read_text()


def test_a_failing_job_stops_the_rule_and_names_its_log(tmp_path):
    script = write_script(tmp_path, "bad", """\
        from falseclaims.errors import FalseclaimsInputError
        from falseclaims.pipeline import run_job

        def main(smk):
            raise FalseclaimsInputError("sheet.csv, row 3, column n: expected a number")

        run_job(snakemake, main)  # noqa: F821
        """)
    with pytest.raises(JobFailed, match=r"rule demo stopped \(exit status 1\).*demo\.log"):
        run(script, tmp_path)
    text = (tmp_path / "logs" / "demo.log").read_text()
    assert "ERROR in rule demo" in text and "row 3, column n" in text


def test_a_job_starts_from_the_servers_state_not_from_the_last_job(tmp_path):
    """Jobs are forked from the server, never from each other: a setting one job changes
    (matplotlib's, a module's) is not seen by the next, so outputs do not depend on order."""
    body = """\
        from pathlib import Path
        import matplotlib
        import falseclaims.style as style
        from falseclaims.pipeline import run_job

        def main(smk):
            seen = (matplotlib.rcParams["lines.linewidth"], getattr(style, "_probe", None))
            Path(smk.output[0]).write_text(repr(seen))
            matplotlib.rcParams["lines.linewidth"] = 9.0
            style._probe = "left by a job"

        run_job(snakemake, main)  # noqa: F821
        """
    script = write_script(tmp_path, "state", body)
    first, _ = run(script, tmp_path, outputs=("first.txt",))
    second, _ = run(script, tmp_path, outputs=("second.txt",))
    assert Path(first[0]).read_text() == Path(second[0]).read_text()
    assert "left by a job" not in Path(second[0]).read_text()


def test_the_jobs_are_forked_where_the_platform_can():
    import multiprocessing

    method = job_context(SCRIPTS).get_start_method()
    expected = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    assert method == expected


def test_jobs_started_and_awaited_from_several_threads_keep_their_exit_status(tmp_path):
    """Snakemake runs `run:` blocks in several threads; every job that succeeds must be seen
    to succeed (multiprocessing lost a status read by two threads at once: exit status 255)."""
    from concurrent.futures import ThreadPoolExecutor

    script = write_script(tmp_path, "quick", """\
        from pathlib import Path
        from falseclaims.pipeline import run_job

        def main(smk):
            Path(smk.output[0]).write_text("ok")

        run_job(snakemake, main)  # noqa: F821
        """)

    def one(i):
        return run(script, tmp_path, outputs=(f"out{i}.txt",), rule=f"quick{i}")

    with ThreadPoolExecutor(max_workers=6) as pool:
        done = list(pool.map(one, range(60)))
    assert all(Path(out[0]).read_text() == "ok" for out, _ in done)


def test_end_of_run_cancels_the_timers_python_would_wait_for_at_exit():
    import threading

    from falseclaims.pipeline import end_of_run

    fired = []
    timer = threading.Timer(30, fired.append, args=[1])
    timer.start()
    end_of_run()
    timer.join(timeout=5)
    assert not timer.is_alive() and not fired


def test_a_job_does_not_run_the_parents_main_program_again(tmp_path):
    """Snakemake's program (run by its path, bin/snakemake) imports all of Snakemake:
    multiprocessing would run it again in every job. The server's __main__ is marked as that
    program (pipeline.MAIN_PROGRAM), so a program's top level runs once, in the parent."""
    import subprocess
    import sys

    script = write_script(tmp_path, "step", """
        from pathlib import Path
        Path(snakemake.output[0]).write_text("done")
    """)
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(f"""
        from pathlib import Path
        with open({str(tmp_path / "runs.txt")!r}, "a") as fh:
            fh.write("top level ran\\n")
        if __name__ == "__main__":
            from types import SimpleNamespace
            from falseclaims.pipeline import run_script
            for k in range(3):
                run_script({str(script)!r}, [], [{str(tmp_path)!r} + f"/out{{k}}.txt"],
                           SimpleNamespace(), {{}}, [{str(tmp_path)!r} + f"/log{{k}}.txt"],
                           "demo")
    """), encoding="utf-8")
    subprocess.run([sys.executable, str(program)], check=True, cwd=tmp_path, timeout=120)
    assert all((tmp_path / f"out{k}.txt").read_text() == "done" for k in range(3))
    assert (tmp_path / "runs.txt").read_text().splitlines() == ["top level ran"]
