"""Time and peak memory of reading hostile sheets (docs/benchmarks.md, "Hostile inputs").

    python benchmarks/bench_hostile.py [--keep DIR]

Generates each file in a temporary directory, then reads it as a venue's papers sheet in a
fresh process (``read_venue``, what ``validate_sheets`` and ``falseclaims sheet check``
call) and prints the file size, the wall and CPU time, the peak RSS of that process and the
first lines of the outcome (CPU time moves less than wall time on a shared machine). Nothing here is a test.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
from xlsx_parts import number_cell, text_cell, write_xlsx  # noqa: E402

READ = """
import resource, sys
from falseclaims.sheets import read_venue
try:
    s = read_venue({"papers": sys.argv[1], "results": sys.argv[1], "layout": "long",
                    "units": "auto"}, base_dir="/", venue="v")
    out = f"read: {len(s.papers)} papers"
except Exception as exc:
    out = str(exc).splitlines()[0] + " | " + (str(exc).splitlines() + [""])[1][:150]
print(out)
r = resource.getrusage(resource.RUSAGE_SELF)
print(f"{r.ru_maxrss // 1024} {r.ru_utime + r.ru_stime:.1f}")
"""


def _far(path: Path) -> None:
    write_xlsx(path, ['<row r="1">' + text_cell("A1", "paper_id") + "</row>",
                      '<row r="1048576">' + number_cell("XFD1048576", 1) + "</row>"])


def _tall(path: Path, n: int = 3_000_000) -> None:
    head = '<row r="1">' + text_cell("A1", "paper_id") + "</row>"
    write_xlsx(path, [head] + ["".join(f'<row r="{r}"><c r="B{r}"><v>{r}</v></c></row>'
                                       for r in range(s, min(s + 10_000, n + 1)))
                               for s in range(2, n + 1, 10_000)])


def _bad_column_csv(path: Path, n: int = 450_000) -> None:  # ~20 MB
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("paper_id,title,task,in_scope,values_only_in_figures,split,n_test\n")
        for i in range(n):
            fh.write(f"p{i},t,classification,maybe,no,train_test,5\n")


def _random(path: Path) -> None:
    path.write_bytes(os.urandom(20 * 2**20 - 1))


CASES = {"far_cell.xlsx": _far, "tall_3e6_rows.xlsx": _tall,
         "tall_1e6_rows.xlsx": lambda p: _tall(p, 1_000_000),
         "bad_column_450k_rows.csv": _bad_column_csv, "random_20MB.csv": _random}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, help="write the files here and keep them")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or Path(tmp)
        folder.mkdir(parents=True, exist_ok=True)
        for name, make in CASES.items():
            path = folder / name
            make(path)
            t0 = time.perf_counter()
            res = subprocess.run([sys.executable, "-c", READ, str(path)],
                                 capture_output=True, text=True, check=True)
            wall = time.perf_counter() - t0
            outcome, usage = res.stdout.strip().rsplit("\n", 1)
            rss, cpu = usage.split()
            print(f"{name}: {path.stat().st_size / 2**20:.2f} MB, wall {wall:.1f} s, CPU "
                  f"{cpu} s, peak RSS {rss} MB\n    {outcome[:300]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
