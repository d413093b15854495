"""CPU time and peak memory of single stages, one fresh interpreter per stage.

On a shared machine wall times swing with the load; the CPU time a stage needs (user +
system, from ``resource.getrusage``) moves much less, so before/after comparisons of one
stage are made on it. Each stage runs in a child process with ``PYTHONPATH`` set to the
measured repository's ``src`` (``--repo``, default: this one), so two checkouts can be
compared back to back:

    python benchmarks/bench_stages.py --repo /path/to/old/checkout
    python benchmarks/bench_stages.py

Stages: the dependent best-of-m simulation (default config), the calibration chunks
(default config), the congruence estimation sources, reading and validating a generated
10^5-paper sheet, and the probabilities stage after it. Prints Markdown.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

PRELUDE = """
import json, resource, sys, time, yaml
def done(**extra):
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(json.dumps({"cpu_s": ru.ru_utime + ru.ru_stime, "wall_s": time.perf_counter() - T0,
                      "peak_rss_mb": ru.ru_maxrss / 1024, **extra}))
cfg = yaml.safe_load(open("config/config.yaml"))
T0 = time.perf_counter()
"""

STAGES = {
    "multiplicity dependent simulation (m=1000, n=3000, 2 x 20000 reps)": """
try:
    from falseclaims.multiplicity.tables import dependent_simulation
except ImportError:
    from falseclaims.multiplicity_tables import dependent_simulation
c = cfg["multiplicity"]
dependent_simulation(c["example"]["m"], c["example"]["n"], c["example"]["p"],
                     c["dependent"]["rho"], c["dependent"]["reps"],
                     [cfg["seed"], c["dependent"]["seed_stream"]], c["dependent"]["reference"],
                     c["alpha"])
done()
""",
    "calibration, all chunks of both tasks (default config)": """
try:
    from falseclaims.calibration.simulation import run_chunk
except ImportError:
    from falseclaims.calibration import run_chunk
try:
    from falseclaims.calibration.grid import resolve_grid
    chunks = resolve_grid(cfg["calibration"])["chunks"]
except ImportError:
    chunks = cfg["calibration"]["chunks"]
for task in ("classification", "segmentation"):
    for k in range(chunks):
        run_chunk(cfg, task, k)
done(chunks=chunks)
""",
    "congruence estimation, every configured source (CPU per source in notes)": """
from falseclaims.estimation.stages import estimate_congruence
from falseclaims.io.table_io import write_table, write_yaml
cpu = {}
for name, spec in cfg["estimation"]["congruence_sources"].items():
    t = time.process_time()
    pairs, quartiles, summary = estimate_congruence(name, spec, cfg["seed"])
    write_table(pairs, "{out}/" + name + "_pairs.csv")
    write_table(quartiles, "{out}/" + name + "_q.csv")
    write_yaml(summary, "{out}/" + name + ".yaml")
    cpu[name] = round(time.process_time() - t, 1)
done(**cpu)
""",
    "sheet validation, 10^5 papers (read_venue + writing the 3 tables)": """
from falseclaims.sheets import read_venue
from falseclaims.io.table_io import write_table
v = {"label": "big", "papers": "{data}/big_papers.csv", "results": "{data}/big_results.csv",
     "layout": "long", "units": "auto", "columns": {}}
s = read_venue(v, base_dir=".", venue="big")
for name in ("papers", "results", "notes"):
    write_table(getattr(s, name), "{out}/v_" + name + ".csv")
done(rows=len(s.results))
""",
    "probabilities stage, 10^5 papers (compute + write)": """
from falseclaims.io.table_io import read_table, write_table
try:
    from falseclaims.survey.probabilities import compute_probabilities
except ImportError:
    from falseclaims.survey import compute_probabilities
try:
    from falseclaims.survey.probabilities import compact_probabilities
except ImportError:
    try:
        from falseclaims.survey import compact_probabilities
    except ImportError:
        compact_probabilities = lambda t: t
try:  # what the probabilities rule calls
    from falseclaims.survey.probabilities import iter_compact_probabilities
    import pandas as pd
    compute = lambda *a: pd.concat(list(iter_compact_probabilities(*a)), ignore_index=True)
except ImportError:
    compute = lambda *a: compact_probabilities(compute_probabilities(*a))
t = compute(read_table("{data}/top2.csv"), read_table("{data}/congruence.csv"),
            read_table("{data}/sd_imputed.csv"))
write_table(t, "{out}/probabilities.csv")
import os
done(rows=len(t), mb=os.path.getsize("{out}/probabilities.csv") / 2**20)
""",
}


def run_stage(repo: Path, code: str, data: Path, out: Path) -> dict:
    script = PRELUDE + textwrap.dedent(code).replace("{data}", str(data)).replace(
        "{out}", str(out))
    # no bytecode written into the measured checkout
    env = dict(os.environ, PYTHONPATH=str(repo / "src"), PYTHONDONTWRITEBYTECODE="1")
    proc = subprocess.run([sys.executable, "-c", script], cwd=repo, env=env,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        return {"error": proc.stderr.strip().splitlines()[-1]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=REPO)
    ap.add_argument("--data", type=Path, required=True,
                    help="directory with big_papers.csv, big_results.csv and the survey "
                         "tables top2.csv, congruence.csv, sd_imputed.csv of that sheet "
                         "(e.g. from bench_pipeline.py --which big --keep)")
    ap.add_argument("--only", help="run the stages whose name contains this text")
    args = ap.parse_args(argv)
    repo = args.repo.resolve()
    print(f"repository: {repo}; load average at start {os.getloadavg()[0]:.1f}\n")
    print("| stage | CPU (s) | wall (s) | peak RSS (MB) | load avg (1 min) | notes |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as out:
        for name, code in STAGES.items():
            if args.only and args.only not in name:
                continue
            r = run_stage(repo, code, args.data.resolve(), Path(out))
            if "error" in r:
                print(f"| {name} | - | - | - | {os.getloadavg()[0]:.1f} | {r['error']} |")
                continue
            extra = ", ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}"
                              for k, v in r.items()
                              if k not in ("cpu_s", "wall_s", "peak_rss_mb"))
            print(f"| {name} | {r['cpu_s']:.1f} | {r['wall_s']:.1f} | {r['peak_rss_mb']:.0f} "
                  f"| {os.getloadavg()[0]:.1f} | {extra} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
