"""SHA-256 of every pipeline output, to show that a refactoring changed no byte.

    python tools/output_hashes.py > before.txt          # on the old code, after snakemake
    python tools/output_hashes.py --compare before.txt  # on the new code, after snakemake

Lists every file under results/ and figures/ (PDF and PNG included: the figure writer
stamps no dates, so they are reproducible too). With --compare, prints the files that
differ, are missing or are new, and exits 1 if there is any.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
from pathlib import Path

ROOTS = ("results", "figures")


def output_hashes(repo: Path) -> dict[str, str]:
    out = {}
    for root in ROOTS:
        for path in sorted((repo / root).rglob("*")):
            if path.is_file():
                out[path.relative_to(repo).as_posix()] = hashlib.sha256(
                    path.read_bytes()).hexdigest()
    return out


def read_list(path: Path) -> dict[str, str]:
    """``sha256sum`` format: '<hash>  <path>' per line."""
    pairs = (line.split(maxsplit=1) for line in path.read_text().splitlines() if line.strip())
    return {name.strip(): digest for digest, name in pairs}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=Path("."), help="repository root")
    ap.add_argument("--compare", type=Path, help="hash list to compare against")
    args = ap.parse_args(argv)
    now = output_hashes(args.repo)
    if args.compare is None:
        sys.stdout.writelines(f"{h}  {p}\n" for p, h in now.items())
        return 0
    before = read_list(args.compare)
    changed = sorted(p for p in before.keys() & now.keys() if before[p] != now[p])
    missing, new = sorted(before.keys() - now.keys()), sorted(now.keys() - before.keys())
    for label, names in (("differs", changed), ("missing", missing), ("new", new)):
        for name in names:
            print(f"{label}: {name}")
    same = len(before.keys() & now.keys()) - len(changed)
    print(f"{same} of {len(before)} files byte-identical; {len(changed)} differ, "
          f"{len(missing)} missing, {len(new)} new")
    return 1 if changed or missing or new else 0


if __name__ == "__main__":
    raise SystemExit(main())
