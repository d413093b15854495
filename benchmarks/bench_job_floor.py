"""The example's CPU floor: what its jobs cost before they draw or compute anything.

Every Snakemake job is a fresh Python process: the interpreter starts, Snakemake's script
preamble unpickles the job's ``snakemake`` object, the script imports its stack (pandas,
numpy, the library; matplotlib for figures) and only then does its one step. This measures,
for every job of the example:

* ``floor``: the job's script run with its step replaced by nothing (``run_step`` a no-op),
  i.e. start-up, preamble and the script's imports; imports made inside the step (seaborn
  and the ``scipy.stats`` it loads, in the figure families that draw with it) are not in it;
* ``job``: the same script with its step (it rewrites the same outputs, byte-identical).

It copies the repository's tracked files to a temporary directory, runs the example there
once (``snakemake --cores 2 --skip-script-cleanup``, which keeps each job's script), then
runs every kept script twice in a row per kind. CPU is user + sys of each child
(``resource.getrusage(RUSAGE_CHILDREN)``). The jobs rerun one by one need not add up to
the whole run (other runs, other caches); the floor's share of them is the measure.
Prints Markdown; docs/benchmarks.md has a run.

    python benchmarks/bench_job_floor.py
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

RUNNER = """
import sys
import falseclaims.pipeline as pipeline
if sys.argv[2] == "floor":
    pipeline.run_step = lambda smk, func: None
path = sys.argv[1]
scope = {"__file__": path, "__name__": "__main__"}
exec(compile(open(path).read(), path, "exec"), scope, scope)
"""


def child_cpu(cmd, cwd, env) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def copy_tracked(dest: Path) -> None:
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src = ROOT / name
        if src.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / name)


def rule_of(script: Path) -> str:
    """The script's name; for the venue figure families, the family's rule."""
    name = script.name.split(".", 1)[1].removesuffix(".py")
    match = re.search(r"venue_figures_(?:reporting|deltas|exceedance|lookup)",
                      script.read_text(errors="replace"))
    return match.group(0) if name == "venue_figures" and match else name


def main() -> None:
    argparse.ArgumentParser(description=__doc__.splitlines()[0]).parse_args()
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"))
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        copy_tracked(work)
        total = child_cpu([sys.executable, "-m", "snakemake", "--cores", "2", "--quiet",
                           "--skip-script-cleanup"], work, env)
        runner = work / "floor_runner.py"
        runner.write_text(RUNNER)
        scripts = sorted((work / ".snakemake" / "scripts").glob("*.py"))
        rows = defaultdict(lambda: [0, 0.0, 0.0])
        for script in scripts:
            row = rows[rule_of(script)]
            row[0] += 1
            row[1] += child_cpu([sys.executable, str(runner), str(script), "floor"], work, env)
            row[2] += child_cpu([sys.executable, str(runner), str(script), "job"], work, env)
    floor = sum(r[1] for r in rows.values())
    jobs = sum(r[2] for r in rows.values())
    print(f"Example: {len(scripts)} jobs; whole run {total:.1f} s CPU (Snakemake and its "
          f"jobs); the jobs rerun one by one {jobs:.1f} s, of which floor {floor:.1f} s "
          f"({floor / jobs:.0%}).\n")
    print("| rule | jobs | floor (s CPU) | job (s CPU) | floor share |")
    print("|---|---:|---:|---:|---:|")
    for rule, (count, fl, job) in sorted(rows.items(), key=lambda kv: -kv[1][2]):
        print(f"| {rule} | {count} | {fl:.1f} | {job:.1f} | {fl / job:.0%} |")


if __name__ == "__main__":
    main()
