"""The reference docs describe the code as it is: every key of config/config.yaml is in
config/README.md, every module of the package is in docs/architecture.md, every path and
`falseclaims.` name the docs give exists, and every test docs/robustness.md cites exists."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "falseclaims"
README = ROOT / "README.md"
TASKS = ("classification", "segmentation")

# maps whose keys the user chooses (venues, sources, groups): the README documents their
# entries as <venue>, <source>, <name>, ... ("*" below); `use` is a fixed key among them
NAMED_ENTRIES = [("venues",), ("congruence",), ("sd_model",),
                 ("estimation", "congruence_sources"), ("estimation", "sd_sources"),
                 ("estimation", "congruence_sources", "*", "groups"), ("venues", "*", "cells")]
# maps holding data rather than settings (their keys are headers, metrics, method names)
DATA_MAPS = [("venues", "*", "columns", "*"), ("venues", "*", "constants"),
             ("venues", "*", "values"), ("venues", "*", "skip_rows_where"),
             ("figures", "metric_labels"), ("claim_check", "examples", "*", "methods"),
             ("numbers", "paper"), ("numbers", "paper_notes")]


def _matches(path: tuple, pattern: tuple) -> bool:
    return len(path) == len(pattern) and all(q in ("*", p) for p, q in zip(path, pattern))


def _key_paths(node, path=()):
    """Every key path of a config, named entries as "*", lists of mappings entered."""
    if isinstance(node, dict):
        named = any(_matches(path, pat) for pat in NAMED_ENTRIES)
        for key, value in node.items():
            sub = (*path, "*" if named and key != "use" else str(key))
            yield sub
            if not any(_matches(sub, pat) for pat in DATA_MAPS):
                yield from _key_paths(value, sub)
    elif isinstance(node, list):
        for item in node:
            yield from _key_paths(item, path)


def _sections(text: str, level: str = "##") -> dict[str, str]:
    pattern = rf"^{level} (.+?)\s*$(.*?)(?=^{level} |\Z)"
    return {m.group(1).strip("`/ "): m.group(2)
            for m in re.finditer(pattern, text, re.S | re.M)}


def _word(word: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", text) is not None


def test_every_config_key_is_documented():
    """A key path is documented when every fixed key on it appears in the README section of
    its block (`<task>` stands for the task names)."""
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    sections = _sections((ROOT / "config" / "README.md").read_text(encoding="utf-8"))
    missing = []
    for path in sorted(set(_key_paths(cfg))):
        section = sections.get(path[0])
        if section is None:
            missing.append(f"{path[0]} (no '## {path[0]}' section)")
            continue
        for key in path[1:]:
            if key == "*" or _word(key, section) or (key in TASKS and "<task>" in section):
                continue
            missing.append(".".join(path))
            break
    assert not missing, "config keys missing from config/README.md: " + ", ".join(missing)


def test_config_key_check_finds_an_undocumented_key():
    paths = set(_key_paths({"planner": {"target": 0.05, "new_knob": 1},
                            "venues": {"v": {"label": "x", "constants": {"task": "a"}}}}))
    assert ("planner", "new_knob") in paths and ("venues", "*", "label") in paths
    assert ("venues", "*", "constants", "task") not in paths


def _modules():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.name != "__init__.py" or len(rel.parts) == 1:
            yield rel


def test_architecture_lists_every_module():
    """Each module is named in docs/architecture.md: as `sub/mod.py`, as `falseclaims`-style
    `sub.mod`, or as `mod.py` / `mod` in the section of its subpackage."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    sections = {**_sections(doc, "##"), **_sections(doc, "###")}
    sections = {name.split(":")[0].strip("`/ ").lower(): text for name, text in sections.items()}
    missing = []
    for rel in _modules():
        stem = rel.stem
        if len(rel.parts) == 1:
            found = _word(rel.name, doc)
        else:
            sub = "/".join(rel.parts[:-1])  # a nested package: its own section, e.g. sheets/read
            section = sections.get(sub, "")
            found = (f"{sub}/{rel.name}" in doc or f"{sub.replace('/', '.')}.{stem}" in doc
                     or f"`{rel.name}`" in section or f"`{stem}`" in section)
        if not found:
            missing.append(str(rel))
    assert not missing, "modules missing from docs/architecture.md: " + ", ".join(missing)


DOCS = [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md", ROOT / "config" / "README.md",
        ROOT / "data" / "README.md", ROOT / "workflow" / "schemas" / "README.md"]
REPO_PATH = re.compile(r"(?<![\w/.-])((?:src|workflow|tests|tools|config|docs|benchmarks|profiles"
                       r"|envs)/[\w./-]*\w)")


@pytest.mark.parametrize("doc", [d for d in DOCS if d.is_file()], ids=lambda d: d.name)
def test_docs_name_existing_paths_and_modules(doc):
    """Repository paths (`src/...`, `workflow/...`, ...) exist and `falseclaims.x.y` names
    import; placeholders such as `{venue}`, `<name>` or `*` are not checked."""
    text = doc.read_text(encoding="utf-8")
    stale = []
    for m in REPO_PATH.finditer(text):
        path = m.group(1)
        if text[m.end():m.end() + 1] in ("{", "<", "*") or path.endswith("/x.py"):
            continue  # a pattern such as results/{venue}/ or workflow/scripts/x.py
        if not (ROOT / path).exists():
            stale.append(path)
    for m in re.finditer(r"(?<![\w./])falseclaims(?:\.[a-zA-Z_]\w*)+", text):
        if not _resolves(m.group(0)):
            stale.append(m.group(0))
    assert not stale, f"{doc.relative_to(ROOT)} names what does not exist: {sorted(set(stale))}"


def _resolves(dotted: str) -> bool:
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def _test_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in ast.walk(tree)
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test")}


def test_every_test_cited_in_robustness_exists():
    """`tests/test_x.py::test_name[param]` and bare `test_name` citations name real tests."""
    text = (ROOT / "docs" / "robustness.md").read_text(encoding="utf-8")
    names = {p.name: _test_names(p) for p in (ROOT / "tests").glob("test_*.py")}
    every = set().union(*names.values())
    bad = []
    cited = 0
    for m in re.finditer(r"(?:tests/)?(test_\w+\.py)(?:::(test_\w+))?", text):
        cited += 1
        file, name = m.group(1), m.group(2)
        if file not in names or (name and name not in names[file]):
            bad.append(m.group(0))
    for m in re.finditer(r"`(test_\w+)(?:\[[^\]]*\])?`", text):
        cited += 1
        if m.group(1) not in every:
            bad.append(m.group(1))
    assert cited >= 30, "docs/robustness.md should cite a test per row"
    assert not bad, f"docs/robustness.md cites tests that do not exist: {bad}"


def test_readme_outputs_table_names_every_output_directory():
    """Each top-level output directory the rules write (results/…, figures/…) is in the
    README table "Outputs and where they land"."""
    table = README.read_text(encoding="utf-8").split("## Outputs and where they land")[1]
    table = table.split("\n## ")[0]
    rules = "".join(p.read_text(encoding="utf-8") for p in (ROOT / "workflow" / "rules")
                    .glob("*.smk"))
    dirs = set(re.findall(r'"((?:results|figures)/[A-Za-z_]+)/', rules))
    assert dirs, "no output paths found in workflow/rules"
    missing = sorted(d for d in dirs if f"`{d}/" not in table)
    assert missing == []


def test_report_files_of_documented_commands_are_git_ignored():
    """`--report X.html` in README and docs/ writes X.html into the checkout: ignored."""
    import shutil
    import subprocess
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    texts = [README, *sorted((ROOT / "docs").glob("*.md"))]
    names = sorted({m for p in texts
                    for m in re.findall(r"--report (\S+\.html)", p.read_text(encoding="utf-8"))
                    if m != "FILE.html"})
    assert names, "no --report commands found"
    out = subprocess.run(["git", "check-ignore", "--no-index", *names], cwd=ROOT,
                         capture_output=True, text=True)
    assert sorted(out.stdout.split()) == names


def test_every_venue_figure_is_documented_captioned_and_in_the_report():
    """Each figure a venue job draws (Fig 5, its companion "congruence sources compared",
    Fig 6, ...) has a row in docs/figures.md and its caption file; the report entries come
    from the same registry (tests/test_figure_registry.py)."""
    from falseclaims.figures.registry import VENUE_FIGURES, figure

    docs = (ROOT / "docs" / "figures.md").read_text(encoding="utf-8")
    rows = [line for line in docs.splitlines() if line.startswith("| ")]
    missing = []
    for fig in map(figure, VENUE_FIGURES):
        if not any(f"/{fig.name}`" in row for row in rows):
            missing.append(f"{fig.name}: no row in docs/figures.md")
        if not (ROOT / "workflow" / "report" / f"{fig.caption}.rst").is_file():
            missing.append(f"{fig.name}: no caption {fig.caption}.rst")
    assert not missing, "; ".join(missing)
    assert "fig5_congruence_sources" in VENUE_FIGURES


def test_documented_fig6_levels_are_the_config_defaults():
    """config/README.md and docs/figures.md state the Fig 6 level default (the venue's
    median winner value) and the inferred levels of the MICCAI example; they must be the
    config's."""
    cfg = yaml.safe_load((ROOT / "config" / "config.yaml").read_text(encoding="utf-8"))
    grid = cfg["lookup_grid"]
    assert grid["classification"]["level"] == grid["segmentation"]["level"] == "median_winner"
    inferred = grid["inferred_levels"]
    cls, seg = inferred["classification"], inferred["segmentation"]
    readme = _sections((ROOT / "config" / "README.md").read_text(encoding="utf-8"))["lookup_grid"]
    assert "`median_winner` (default)" in readme
    assert f"Defaults {cls:g} (4,064" in readme and f"{seg:g} (616" in readme
    docs = (ROOT / "docs" / "figures.md").read_text(encoding="utf-8")
    assert "`lookup_grid.<task>.level: median_winner`" in docs
    assert f"{cls:g} (Accuracy)\n  and {seg:g} (DSC)" in docs


# --- the data contracts of docs/architecture.md against the headers the library writes

SURVEY_TABLES = ("validated/papers.csv", "validated/results.csv", "validated/notes.csv",
                 "eligible.csv", "exclusions.csv", "flow.csv", "top2.csv", "sd_imputed.csv",
                 "congruence.csv", "probabilities.csv", "summary.csv", "exceedance.csv",
                 "numbers.csv")


def documented_columns(doc: str) -> dict[str, list[str]]:
    """{file: columns} of the table under "### Survey tables: columns": the first
    backticked list of a row, or the columns of the file named by "same as `...`"."""
    section = _sections(doc, "###")["Survey tables: columns"]
    rows = re.findall(r"^\| `([^`]+)` \| (.+) \|$", section, re.M)
    out, same = {}, {}
    for name, cell in rows:
        if cell.startswith("same as "):
            same[name] = re.match(r"same as `([^`]+)`", cell).group(1)
        else:
            out[name] = [c.strip() for c in re.match(r"`([^`]+)`", cell).group(1).split(",")]
    return {**out, **{name: out[other] for name, other in same.items()}}


def _survey_headers(root: Path, cfg: dict, venue_cfg: dict) -> dict[str, list[str]]:
    """The survey chain of workflow/rules/survey.smk and numbers.smk on a small venue, each
    table written with write_table as the rules' scripts do; the header of each file."""
    from falseclaims.config import Analysis, congruence_sources, sd_models
    from falseclaims.sheets import read_venue
    from falseclaims.survey.congruence_assignment import assign_congruence
    from falseclaims.survey.eligibility import select_papers
    from falseclaims.survey.numbers import venue_numbers
    from falseclaims.survey.headline import Headline
    from falseclaims.survey.exceedance import (exceedance_curve, mark_headline,
                                               read_for_shares, share_above)
    from falseclaims.survey.probabilities import iter_compact_probabilities
    from falseclaims.survey.sd_imputation import impute_sd
    from falseclaims.io.table_io import read_table, write_table, write_table_parts

    out = root / "results"
    sheets = read_venue(venue_cfg, base_dir=root, venue="mini")
    for name in ("papers", "results", "notes"):
        write_table(getattr(sheets, name), out / "validated" / f"{name}.csv")
    sel = select_papers(read_table(out / "validated" / "papers.csv"),
                        read_table(out / "validated" / "results.csv"),
                        Analysis.from_config(cfg).eligibility,
                        venue="mini")
    for name in ("eligible", "exclusions", "flow", "top2"):
        write_table(getattr(sel, name), out / f"{name}.csv")
    top2 = read_table(out / "top2.csv")
    write_table(impute_sd(top2, sd_models(cfg), cfg["analysis"]["use_reported_sd_over"]),
                out / "sd_imputed.csv")
    write_table(assign_congruence(top2, congruence_sources(cfg)), out / "congruence.csv")
    write_table_parts(iter_compact_probabilities(top2, read_table(out / "congruence.csv"),
                                                 read_table(out / "sd_imputed.csv")),
                      out / "probabilities.csv")
    probs = read_for_shares(out / "probabilities.csv")
    write_table(mark_headline(share_above(probs, cfg["analysis"]["cutoffs"]),
                              Headline.from_config(cfg)), out / "summary.csv")
    write_table(exceedance_curve(probs, cfg["analysis"]["exceedance_grid"]),
                out / "exceedance.csv")
    tables = {"papers": read_table(out / "validated" / "papers.csv"),
              **{k: read_table(out / f"{k}.csv") for k in ("flow", "top2", "summary")}}
    write_table(venue_numbers(tables, cfg, "mini"), out / "numbers.csv")
    return {name: (out / name).read_text(encoding="utf-8").splitlines()[0].split(",")
            for name in SURVEY_TABLES}


def test_documented_survey_columns_are_the_written_headers(tmp_path, config):
    """Every contract table of "### Survey tables: columns" has exactly the header the
    library functions write (a small venue of both tasks run through the survey stages),
    and the sheet tables' columns are those of their schemas."""
    import venue_fixtures as vf

    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    documented = documented_columns(doc)
    assert sorted(documented) == sorted(SURVEY_TABLES)
    cfg = {**config, "congruence": {**config["congruence"], "use": ["paper"]},
           "sd_model": {**config["sd_model"], "use": ["msd_reference"]}}
    papers = ["c1,Cls A,classification,yes,no,train_test,500",
              "c2,Cls B,classification,yes,no,cv_only,",
              "s1,Seg A,segmentation,yes,no,train_test,40",
              "s2,Seg B,segmentation,yes,no,train_val_test,120"]
    results = ["c1,Ours,accuracy,0.91,,,", "c1,ViT,accuracy,0.90,,,",
               "c2,Ours,accuracy,0.8,,,", "c2,X,accuracy,0.7,,,",
               "s1,Ours,dsc,0.85,0.05,test,", "s1,U-Net,dsc,0.83,,,",
               "s2,Ours,dsc,0.78,,,", "s2,U-Net,dsc,0.775,,,"]
    written = _survey_headers(tmp_path, cfg, vf.write_long(tmp_path, "mini", papers, results))
    wrong = {name: {"documented": documented[name], "written": written[name]}
             for name in SURVEY_TABLES if documented[name] != written[name]}
    assert not wrong, f"docs/architecture.md columns differ from the written headers: {wrong}"
    for name in ("papers", "results"):
        schema = yaml.safe_load((PACKAGE / "schemas" / f"{name}.schema.yaml")
                                .read_text(encoding="utf-8"))
        assert documented[f"validated/{name}.csv"] == schema["required"], name


def test_documented_columns_parser_sees_a_wrong_column():
    """The parser above reads what the page says: a column renamed in the text is seen."""
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    wrong = doc.replace("`venue, task, step, label, n_papers`", "`venue, task, step, n_papers`")
    assert wrong != doc
    assert documented_columns(wrong)["flow.csv"] == ["venue", "task", "step", "n_papers"]
    assert documented_columns(doc)["exceedance.csv"] == documented_columns(doc)["summary.csv"][:-1]


def test_architecture_package_diagram_is_drawn_from_the_imports():
    """docs/architecture.md's package diagram is what tools/package_graph.py draws from the
    code's imports today, and the drawing leaves out only arrows a longer path implies."""
    pytest.importorskip("grimp")
    import subprocess
    import sys
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import package_graph
    finally:
        sys.path.remove(str(ROOT / "tools"))
    res = subprocess.run([sys.executable, str(ROOT / "tools" / "package_graph.py")],
                         capture_output=True, text=True, timeout=120, check=True)
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    assert f"```mermaid\n{res.stdout.strip()}\n```" in doc
    edges = {"a": {"b", "c"}, "b": {"c"}, "c": set()}
    assert package_graph.reduced(edges) == {"a": {"b"}, "b": {"c"}, "c": set()}
    assert "  a[a] --> b[b]" in package_graph.mermaid(package_graph.reduced(edges))
