"""The CLI as a user gets it: a wheel installed in a fresh venv, run from an empty
directory, without the repository (schemas and default config come from the package)."""

from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
import tarfile
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

pytestmark = pytest.mark.wheel


def _run(cmd, cwd, env, timeout=120):
    res = subprocess.run([str(c) for c in cmd], cwd=cwd, env=env, capture_output=True,
                         text=True, timeout=timeout)
    assert res.returncode == 0, f"{cmd}\n{res.stdout}\n{res.stderr}"
    return res.stdout


def _dependency_paths() -> list[str]:
    """site-packages of this interpreter (numpy, pandas, ...), never the source tree."""
    src = str(ROOT / "src")
    return [p for p in sys.path if p and Path(p).is_dir() and src not in p
            and Path(p).name in ("site-packages", "dist-packages")]


def _tree(tmp: Path) -> Path:
    """A copy of what a build reads, so the build leaves nothing in the checkout; links kept
    as links (src/falseclaims/default_config.yaml -> ../../config/config.yaml), so the
    build sees the repository's layout."""
    tree = tmp / "tree"
    (tree / "config").mkdir(parents=True)
    for name in ("pyproject.toml", "README.md", "LICENSE", "config/config.yaml"):
        shutil.copy(ROOT / name, tree / name)
    shutil.copytree(ROOT / "src", tree / "src", symlinks=True,
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    return tree


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("wheel")
    tree = _tree(tmp)
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "FALSECLAIMS_CONFIG", "PYTHONHOME")}
    _run([sys.executable, "-m", "pip", "wheel", tree, "-w", tmp / "dist", "--no-deps", "-q"],
         tmp, env, timeout=300)
    wheel = next((tmp / "dist").glob("falseclaims-*.whl"))
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    py = env_dir / "bin" / "python"
    site = _run([py, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                tmp, env).strip()
    # dependencies from this interpreter, appended after the venv's own site-packages
    Path(site, "_deps.pth").write_text("\n".join(_dependency_paths()) + "\n")
    _run([sys.executable, "-m", "pip", "--python", py, "install", "--no-deps", "-q", wheel],
         tmp, env, timeout=300)
    empty = tmp / "empty"
    empty.mkdir()
    return env_dir, empty, env, wheel


def test_package_comes_from_the_wheel(installed):
    env_dir, empty, env, _ = installed
    where = _run([env_dir / "bin" / "python", "-c",
                  "import falseclaims; print(falseclaims.__file__)"], empty, env)
    assert Path(where.strip()).resolve().is_relative_to(env_dir.resolve()), where


def test_wheel_holds_the_repo_config(installed):
    """The one source of defaults: the wheel holds config/config.yaml's bytes as a regular
    file (the link resolved at build time), and the installed package reads them."""
    env_dir, empty, env, wheel = installed
    with zipfile.ZipFile(wheel) as z:
        info = z.getinfo("falseclaims/default_config.yaml")
        assert stat.S_ISREG(info.external_attr >> 16), oct(info.external_attr >> 16)
        assert z.read(info) == (ROOT / "config" / "config.yaml").read_bytes()
    code = ("from falseclaims.config import DEFAULT_CONFIG as d; "
            "print(d.is_symlink(), d.read_text(encoding='utf-8') == open("
            f"{str(ROOT / 'config' / 'config.yaml')!r}, encoding='utf-8').read())")
    assert _run([env_dir / "bin" / "python", "-c", code], empty, env).split() == ["False",
                                                                                "True"]


def test_sdist_holds_the_repo_config(tmp_path):
    """An sdist (built from the same layout) holds the content, not the link."""
    tree = _tree(tmp_path)
    code = "from setuptools import build_meta as b; print(b.build_sdist(%r))" % str(tmp_path)
    name = _run([sys.executable, "-c", code], tree,
                {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}).split()[-1]
    with tarfile.open(tmp_path / name) as tar:
        member = tar.getmember(f"{name.removesuffix('.tar.gz')}/src/falseclaims/"
                               "default_config.yaml")
        assert member.isfile()
        assert tar.extractfile(member).read() == (ROOT / "config" / "config.yaml").read_bytes()


def test_cli_runs_from_empty_directory(installed, tmp_path):
    env_dir, empty, env, _ = installed
    cli = env_dir / "bin" / "falseclaims"
    out = _run([cli, "check", "--task", "classification", "--n", "100", "--a", "0.9",
                "--b", "0.88", "--congruence", "0.8"], empty, env)
    assert "given" in out
    env_out = json.loads(_run([cli, "check", "--task", "segmentation", "--n", "60", "--a",
                               "0.85", "--b", "0.84", "--json"], empty, env))
    out = {**env_out["result"], "notes": env_out["notes"]}
    assert [r["assumption"] for r in out["results"]] == ["q1", "median", "q3"]
    assert "SD of A imputed" in " ".join(out["notes"])
    out = _run([cli, "plan", "--task", "classification", "--delta", "0.02", "--level", "0.9"],
               empty, env)
    assert "congruence median = 0.67" in out
    out = json.loads(_run([cli, "sota", "--m", "1000", "--n", "3000", "--p", "0.9", "--json"],
                          empty, env))["result"]
    assert abs(out["mean"] - 0.9173) < 5e-4  # [Mollersen2023] Table 1
    data = tmp_path / "percase.csv"
    rows = ["case_id,alg_a,alg_b"] + [f"c{i},{0.80 + 0.01 * (i % 7):.2f},"
                                      f"{0.79 + 0.01 * ((i * 3) % 7):.2f}" for i in range(20)]
    data.write_text("\n".join(rows) + "\n")
    out = json.loads(_run([cli, "percase", data, "--task", "segmentation", "--bootstrap",
                           "200", "--json"], empty, env))["result"]
    assert out["n"] == 20 and out["a"] == "a"
    assert list(empty.iterdir()) == []  # nothing written into the working directory


def test_installed_cli_refuses_bad_config(installed, tmp_path):
    env_dir, empty, env, _ = installed
    bad = tmp_path / "bad.yaml"
    bad.write_text("planer: {target: 0.1}\n")
    res = subprocess.run([str(env_dir / "bin" / "falseclaims"), "plan", "--task",
                          "classification", "--delta", "0.02", "--level", "0.9", "--config",
                          str(bad)], cwd=empty, env=env, capture_output=True, text=True,
                         timeout=120)
    assert res.returncode == 2
    assert res.stderr.strip() == (f"falseclaims plan: error: {bad}: unknown key 'planer' "
                                  "(did you mean 'planner'?)")
