"""CPU of one pipeline job's process: plain exit vs ``pipeline.run_job``.

Every Snakemake job is a fresh Python process that imports its stack, does one step and
exits. This runs a figure-like job (pandas, matplotlib, seaborn and falseclaims' figure
writer; one seaborn box plot written as PDF, PNG and CSV) and a table-like job (pandas;
one table read and written) as child processes, each ending in one of two ways:

* ``plain``: ``run_step`` returns and the interpreter exits normally (garbage collector at
  its defaults, the interpreter's teardown freeing every object);
* ``run_job``: what the scripts call (``gc.freeze`` before the step, ``os._exit`` after it).

The two are run in turn (``--runs`` each, after one warm-up of each); CPU is user + sys of
the child (``resource.getrusage(RUSAGE_CHILDREN)``). Prints Markdown.

    python benchmarks/bench_job_process.py [--runs 5]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path
from statistics import median

ROOT = Path(__file__).resolve().parents[1]

STEPS = {
    "figure": """
        import numpy as np, pandas as pd, seaborn as sns
        from falseclaims import style
        from falseclaims.figures.output import write_figure

        def step(smk):
            rng = np.random.default_rng(1)
            data = pd.DataFrame({"task": np.repeat(["a", "b"], 200),
                                 "delta": rng.normal(0.02, 0.01, 400)})
            fig, ax = style.figure()
            sns.boxplot(data=data, x="task", y="delta", ax=ax)
            ax.set_ylabel("delta")
            write_figure(fig, data, Path(smk.output[0]))
    """,
    "table": """
        import numpy as np, pandas as pd
        from falseclaims.io.table_io import read_table, write_table

        def step(smk):
            rng = np.random.default_rng(1)
            path = Path(smk.output[0])
            write_table(pd.DataFrame({"x": rng.random(2000)}), path)
            write_table(read_table(path).describe(), path)
    """,
}

END = {"plain": "run_step(smk, step)", "run_job": "run_job(smk, step)"}


def child_code(kind: str, end: str, out: Path) -> str:
    return "\n".join([
        "from pathlib import Path",
        "from types import SimpleNamespace",
        "from falseclaims.pipeline import run_job, run_step",
        textwrap.dedent(STEPS[kind]),
        f"smk = SimpleNamespace(log=[{str(out / 'job.log')!r}], rule='bench', "
        f"output=[{str(out / kind)!r}], wildcards={{}})",
        END[end],
    ])


def child_cpu(code: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "MPLBACKEND": "Agg"}
    subprocess.run([sys.executable, "-c", code], check=True, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args(argv)
    print(f"load average {os.getloadavg()[0]:.1f}; {args.runs} runs each, in turn\n")
    print("| job | plain exit, CPU s | run_job, CPU s | run_job / plain |")
    print("|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for kind in STEPS:
            codes = {end: child_code(kind, end, Path(tmp)) for end in END}
            for code in codes.values():  # warm-up: bytecode caches, font cache
                child_cpu(code)
            cpu = {end: [] for end in END}
            for _ in range(args.runs):
                for end, code in codes.items():
                    cpu[end].append(child_cpu(code))
            plain, job = median(cpu["plain"]), median(cpu["run_job"])
            print(f"| {kind} | {plain:.2f} | {job:.2f} | {job / plain:.2f} |")


if __name__ == "__main__":
    main()
