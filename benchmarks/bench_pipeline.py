"""Wall time and peak memory of the pipeline and the per-case checker, and where time goes.

Everything runs in a fresh copy of a repository (``--repo``, default: this one; nothing in
it changes), with ``PYTHONPATH`` pointing at the copy's ``src`` so that the copy's code is
measured. Measurements (``--which``):

* ``example``: ``snakemake -n`` on a clean copy (start-up + DAG), the default target from
  clean with ``--cores 2``, an up-to-date rerun (nothing to do), one venue's survey stages
  again (``--forcerun validate_sheets`` on its tables), ``snakemake --report``
  (size of the HTML file) and the per-rule table from the ``resources:`` line every job
  writes into its log (``logs/``: seconds, CPU and peak memory per job);
* ``big``: a generated venue of ``--papers`` papers (default 10^5; the synthetic survey of
  ``falseclaims.examples.survey_sheet`` tiled with fresh paper ids). The congruence/SD estimation
  it needs is built first (not timed); then the survey stages (``survey.smk``: sheet
  validation to summaries) run with ``--cores 1`` under ``/usr/bin/time -v``;
* ``percase``: ``falseclaims percase`` on a generated Claims Reloaded file of
  ``--cases`` cases (default 10^6) x 4 methods, classification and segmentation.

"Peak RSS" is the largest process GNU time sees (``Maximum resident set size``): Snakemake
and what it waits for; each job's own peak is in the per-rule table. The
1-minute load average is printed next to every measurement: the machine may be shared.
Prints Markdown.

    python benchmarks/bench_pipeline.py [--repo DIR] [--which example big percase]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

REPO = Path(__file__).resolve().parents[1]
SKIP = {"results", "figures", "logs", ".snakemake", ".git", "report.html", ".venv"}
CACHES = {".pytest_cache", "__pycache__", ".hypothesis"}
CLI = "import sys; from falseclaims.cli import main; sys.exit(main(sys.argv[1:]))"
SURVEY_TABLES = ["exclusions", "flow", "probabilities", "summary", "curves"]


def cpu_model() -> str:
    for line in Path("/proc/cpuinfo").read_text().splitlines():
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def load() -> float:
    return os.getloadavg()[0]


def copy_repo(src: Path, dest: Path) -> Path:
    """Copy without outputs and caches (``SKIP`` at the top level; caches anywhere)."""
    def ignore(d, names):
        top = Path(d).resolve() == src.resolve()
        return [n for n in names if (top and n in SKIP) or n in CACHES]

    shutil.copytree(src, dest, ignore=ignore)
    return dest


def env_for(work: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(work / "src")
    return env


def timed(cmd, cwd: Path, env=None) -> dict:
    """Wall time, peak RSS and load average of one command under GNU time."""
    before = load()
    t = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-v", *cmd], cwd=cwd, capture_output=True,
                          text=True, check=False, env=env)
    wall = time.perf_counter() - t
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-3000:] + proc.stderr[-5000:])
        raise SystemExit(f"failed: {' '.join(map(str, cmd))}")
    rss = int(re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr).group(1))
    cpu = sum(float(re.search(rf"{k} time \(seconds\): ([\d.]+)", proc.stderr).group(1))
              for k in ("User", "System"))  # this process and every job it waited for
    return {"wall_s": wall, "cpu_s": cpu, "peak_rss_mb": rss / 1024,
            "load": max(before, load()), "stdout": proc.stdout}


def row(name: str, m: dict) -> str:
    return (f"| {name} | {m['wall_s']:.1f} | {m['cpu_s']:.1f} | {m['peak_rss_mb']:.0f} "
            f"| {m['load']:.1f} |")


HEAD = ("| step | wall (s) | CPU, user + sys (s) | peak RSS (MB) | load avg (1 min) |\n"
        "|---|---|---|---|---|")


# ------------------------------------------------------------------ per-rule benchmark files


# what falseclaims.pipeline.job_resources writes into a rule's log, after "falseclaims.<rule>: "
RESOURCES = re.compile(r"falseclaims\.(\w+): resources: ([\d.]+) s wall; CPU ([\d.]+) s user \+ "
                       r"([\d.]+) s system; peak memory (\d+) MiB")


def benchmark_table(workdir: Path) -> pd.DataFrame:
    """Per-rule sums of the jobs' own measurements, from the ``resources:`` line each job writes
    into its log under logs/ (seconds of the step, CPU and peak memory of the job's process;
    a job runs in a process forked by a server that GNU time of Snakemake does not see)."""
    rows = []
    for log in sorted((workdir / "logs").rglob("*.log")):
        for m in RESOURCES.finditer(log.read_text(encoding="utf-8", errors="replace")):
            rows.append({"rule": m.group(1), "jobs": 1, "s": float(m.group(2)),
                         "cpu_time": float(m.group(3)) + float(m.group(4)),
                         "max_rss": float(m.group(5))})
    if not rows:
        return pd.DataFrame(columns=["rule", "jobs", "s", "max_s", "cpu", "max_rss"])
    df = pd.DataFrame(rows)
    out = df.groupby("rule").agg(jobs=("jobs", "sum"), s=("s", "sum"), max_s=("s", "max"),
                                 cpu=("cpu_time", "sum"),
                                 max_rss=("max_rss", "max")).reset_index()
    return out.sort_values("s", ascending=False)


def benchmark_markdown(df: pd.DataFrame) -> str:
    lines = ["| rule | jobs | s (sum over jobs) | s (slowest job) | CPU s (sum) | peak memory (MiB) |",
             "|---|---|---|---|---|---|"]
    for r in df.itertuples():
        rss = "-" if pd.isna(r.max_rss) else f"{r.max_rss:.0f}"
        cpu = "-" if pd.isna(r.cpu) else f"{r.cpu:.1f}"
        lines.append(f"| {r.rule} | {r.jobs} | {r.s:.1f} | {r.max_s:.1f} | {cpu} | {rss} |")
    cpu = df["cpu"].sum(min_count=1)
    lines.append(f"| **total** | {int(df['jobs'].sum())} | {df['s'].sum():.1f} | | "
                 f"{'-' if pd.isna(cpu) else f'{cpu:.1f}'} | |")
    return "\n".join(lines)


def rule_durations(log: Path) -> pd.DataFrame:
    """Per-rule durations from a Snakemake log (for checkouts without benchmark files)."""
    stamp, starts, rows, rule = None, {}, [], None
    for line in log.read_text().splitlines():
        m = re.match(r"\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]", line)
        if m:
            stamp = datetime.strptime(m.group(1), "%a %b %d %H:%M:%S %Y")
            continue
        m = re.match(r"(?:local)?rule (\w+):", line)
        if m:
            rule = m.group(1)
            continue
        m = re.match(r"\s+jobid: (\d+)", line)
        if m and rule:
            starts[m.group(1)] = (rule, stamp)
            rule = None
            continue
        m = re.match(r"Finished jobid: (\d+)", line)
        if m and m.group(1) in starts:
            name, t0 = starts.pop(m.group(1))
            rows.append({"rule": name, "jobs": 1, "s": (stamp - t0).total_seconds()})
    df = pd.DataFrame(rows, columns=["rule", "jobs", "s"])
    out = df.groupby("rule").agg(jobs=("jobs", "sum"), s=("s", "sum"),
                                 max_s=("s", "max")).reset_index()
    out["cpu"] = np.nan
    out["max_rss"] = np.nan
    return out.sort_values("s", ascending=False)


def per_rule(workdir: Path) -> pd.DataFrame:
    df = benchmark_table(workdir)
    if len(df):
        return df
    logs = sorted((workdir / ".snakemake" / "log").glob("*.snakemake.log"))
    return rule_durations(logs[-1]) if logs else df


# ------------------------------------------------------------------ measurements


def run_example(repo: Path, root: Path) -> None:
    work = copy_repo(repo, root / "example")
    env = env_for(work)
    smk = [sys.executable, "-m", "snakemake", "--cores", "2"]
    dry = timed([*smk, "-n"], work, env)
    full = timed(smk, work, env)
    table = per_rule(work)
    noop = timed(smk, work, env)
    dry2 = timed([*smk, "-n"], work, env)
    # one venue's survey stages (sheet validation to summaries) again, nothing else
    venue = next(iter(yaml.safe_load((work / "config" / "config.yaml").read_text())["venues"]))
    one = timed([*smk, *(f"results/{venue}/{t}.csv" for t in SURVEY_TABLES),
                 "--forcerun", "validate_sheets"], work, env)  # (it takes every name after)
    rep = timed([*smk, "--report", "report.html"], work, env)
    size = (work / "report.html").stat().st_size  # the target is in MB = 10^6 bytes
    print("\n### Example pipeline (default target, every configured venue)\n")
    print(HEAD)
    print(row("`snakemake -n`, clean copy (start-up + DAG)", dry))
    print(row("default target from clean, `--cores 2`", full))
    print(row("up-to-date rerun (nothing to do)", noop))
    print(row("`snakemake -n` after the run", dry2))
    print(row(f"one venue's survey stages ({venue}), `--cores 2`", one))
    print(row(f"`snakemake --report` ({size / 1e6:.2f} MB HTML)", rep))
    print(f"\nreport size: {size:,} bytes = {size / 1e6:.3f} MB = {size / 2**20:.3f} MiB\n")
    print(benchmark_markdown(table))


def big_sheet(dest: Path, papers: int) -> tuple[Path, Path]:
    try:
        from falseclaims.examples.survey_sheet import generate_survey
    except ImportError:  # checkouts before the examples/ subpackage
        from falseclaims.example_data import generate_survey

    p, r, _ = generate_survey()
    copies = -(-papers // len(p))
    ps, rs = [], []
    for k in range(copies):
        ids = {pid: f"{pid}_{k:05d}" for pid in p["paper_id"]}
        ps.append(p.assign(paper_id=p["paper_id"].map(ids)))
        rs.append(r.assign(paper_id=r["paper_id"].map(ids)))
    pp = pd.concat(ps, ignore_index=True).iloc[:papers]
    rr = pd.concat(rs, ignore_index=True)
    rr = rr[rr["paper_id"].isin(set(pp["paper_id"]))]
    dest.mkdir(parents=True, exist_ok=True)
    out = dest / "big_papers.csv", dest / "big_results.csv"
    pp.to_csv(out[0], index=False)
    rr.to_csv(out[1], index=False)
    return out


def run_big(repo: Path, root: Path, papers: int) -> None:
    work = copy_repo(repo, root / "big")
    env = env_for(work)
    cfg_path = work / "config" / "config.yaml"
    cfg = yaml.safe_load(cfg_path.read_text())
    p_csv, r_csv = big_sheet(work / "data" / "big", papers)
    cfg["venues"] = {"big": {"label": f"generated, {papers} papers",
                             "papers": str(p_csv.relative_to(work)),
                             "results": str(r_csv.relative_to(work)),
                             "layout": "long", "units": "auto", "columns": {}}}
    cfg_path.write_text(yaml.safe_dump(cfg, sort_keys=False))
    smk = [sys.executable, "-m", "snakemake", "--cores", "1"]
    est = [f"results/estimation/congruence/{s}.yaml" for s in cfg["congruence"]["use"]
           if s not in cfg["congruence"]]
    est += [f"results/estimation/sd_model/{s}.yaml" for s in cfg["sd_model"]["use"]
            if s not in cfg["sd_model"]]
    timed([*smk, *est], work, env)  # prerequisites, not timed
    shutil.rmtree(work / "logs", ignore_errors=True)
    targets = [f"results/big/{t}.csv" for t in SURVEY_TABLES]
    full = timed([*smk, *targets], work, env)
    table = per_rule(work)
    sizes = {t: (work / "results" / "big" / f"{t}.csv").stat().st_size / 2**20
             for t in ("probabilities", "summary")}
    print(f"\n### Survey stages, generated venue of {papers} papers\n")
    print(HEAD)
    print(row("survey stages (sheet validation to summaries), `--cores 1`", full))
    print(f"\nprobabilities.csv: {sizes['probabilities']:.1f} MB; "
          f"summary.csv: {sizes['summary'] * 1024:.1f} kB\n")
    print(benchmark_markdown(table))


def percase_files(dest: Path, cases: int) -> dict[str, Path]:
    """Claims Reloaded files: 4 methods, segmentation (DSC) and classification (3 classes)."""
    rng = np.random.default_rng(1)
    dest.mkdir(parents=True, exist_ok=True)
    ids = pd.Series([f"case{i:07d}" for i in range(cases)])
    z = rng.normal(size=cases)
    seg = pd.DataFrame({"case_id": ids})
    for j, mu in enumerate([2.05, 1.95, 1.85, 1.6]):
        seg[f"alg_m{j}"] = 1 / (1 + np.exp(-(mu + z + 0.45 * rng.normal(size=cases))))
    labels = np.array(["benign", "malignant", "normal"])
    y = rng.choice(3, cases, p=[0.5, 0.3, 0.2])
    cls = pd.DataFrame({"case_id": ids, "ground_truth": labels[y]})
    for j in range(4):
        right = rng.random(cases) < 0.8 - 0.05 * j
        cls[f"alg_m{j}"] = labels[np.where(right, y, rng.choice(3, cases))]
    out = {"segmentation": dest / "seg.csv", "classification": dest / "cls.csv"}
    seg.to_csv(out["segmentation"], index=False, float_format="%.6f")
    cls.to_csv(out["classification"], index=False)
    return out


def run_percase(repo: Path, root: Path, cases: int) -> None:
    work = copy_repo(repo, root / "percase")
    env = env_for(work)
    files = percase_files(root / "percase_data", cases)
    print(f"\n### `falseclaims percase`, {cases} cases x 4 methods (Claims Reloaded CSV)\n")
    print(HEAD)
    for task, path in files.items():
        m = timed([sys.executable, "-c", CLI, "percase", str(path), "--task", task], work,
                  env)
        print(row(f"{task} ({path.stat().st_size / 2**20:.0f} MB file)", m))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=REPO, help="repository to measure (copied)")
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--cases", type=int, default=1_000_000)
    ap.add_argument("--which", nargs="+", default=["example", "big", "percase"],
                    choices=["example", "big", "percase"])
    ap.add_argument("--keep", action="store_true", help="keep the temporary copies")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(args.repo.resolve() / "src"))  # its synthetic survey generator
    print(f"repository: {args.repo}; machine: {cpu_model()}, {os.cpu_count()} cores, "
          f"{os.sysconf('SC_PAGE_SIZE') * os.sysconf('SC_PHYS_PAGES') / 2**30:.0f} GiB; "
          f"load average at start {load():.1f}; {datetime.now():%Y-%m-%d %H:%M}")
    root = Path(tempfile.mkdtemp(prefix="falseclaims_bench_"))
    try:
        for which in args.which:
            if which == "example":
                run_example(args.repo.resolve(), root)
            elif which == "big":
                run_big(args.repo.resolve(), root, args.papers)
            else:
                run_percase(args.repo.resolve(), root, args.cases)
            sys.stdout.flush()
    finally:
        if args.keep:
            print(f"\nkept {root}")
        else:
            shutil.rmtree(root, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
