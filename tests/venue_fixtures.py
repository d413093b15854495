"""Small synthetic venues of unusual shapes: one task only, no eligible paper, ids that look
like numbers, names that look like missing values. Each writer returns the venue's config
entry (paths relative to ``root``)."""

from __future__ import annotations

from pathlib import Path

PAPERS_HEADER = "paper_id,title,task,in_scope,values_only_in_figures,split,n_test"
RESULTS_HEADER = "paper_id,method,metric,value,sd,sd_over,n_test"


def write_long(root: Path, name: str, papers: list[str], results: list[str] | None) -> dict:
    folder = Path(root) / "data" / "venues"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}_papers.csv").write_text("\n".join([PAPERS_HEADER, *papers]) + "\n",
                                               encoding="utf-8")
    (folder / f"{name}_results.csv").write_text(
        "\n".join([RESULTS_HEADER, *(results or [])]) + "\n", encoding="utf-8")
    return {"label": name, "papers": f"data/venues/{name}_papers.csv",
            "results": f"data/venues/{name}_results.csv", "layout": "long",
            "units": "fraction"}


def segmentation_only(root: Path, name: str = "seg_only") -> dict:
    """Three segmentation papers; ids 003, 0001 and 1 (distinct as text, equal as numbers),
    a method named None (NA would be a missing cell in a sheet); two eligible, one CV-only."""
    papers = [
        "003,Seg A,segmentation,yes,no,train_test,40",
        "0001,Seg B,segmentation,yes,no,train_val_test,120",
        "1,Seg C,segmentation,yes,no,cv_only,",
    ]
    results = [
        "003,Ours,dsc,0.85,0.05,test,",
        "003,None,dsc,0.83,,,",
        "0001,Ours,dice,0.78,,,",
        "0001,U-Net,dice,0.775,,,",
        "1,Ours,dsc,0.90,,,",
        "1,U-Net,dsc,0.88,,,",
    ]
    return write_long(root, name, papers, results)


def classification_only(root: Path, name: str = "cls_only") -> dict:
    """Three classification papers, all eligible; a method named None."""
    papers = [
        "c1,Cls A,classification,yes,no,train_test,500",
        "c2,Cls B,classification,yes,no,train_val_test,200",
        "c3,Cls C,classification,yes,no,cv_plus_test,1000",
    ]
    results = [
        "c1,Ours,accuracy,0.91,,,",
        "c1,None,accuracy,0.90,,,",
        "c2,Ours,acc,0.85,,,",
        "c2,ViT,acc,0.83,,,",
        "c3,Ours,accuracy,0.95,,,",
        "c3,ResNet,accuracy,0.949,,,",
    ]
    return write_long(root, name, papers, results)


def all_cv_only(root: Path, name: str = "none_eligible") -> dict:
    """Both tasks, but every paper is cross-validation only: nobody is eligible."""
    papers = [
        "p1,Cls,classification,yes,no,cv_only,",
        "p2,Seg,segmentation,yes,no,cv_only,",
    ]
    results = [
        "p1,Ours,accuracy,0.91,,,", "p1,Other,accuracy,0.90,,,",
        "p2,Ours,dsc,0.85,,,", "p2,Other,dsc,0.84,,,",
    ]
    return write_long(root, name, papers, results)


def empty_results(root: Path, name: str = "empty_results") -> dict:
    """Eligible-looking papers of both tasks but a results sheet with only its header."""
    papers = [
        "p1,Cls,classification,yes,no,train_test,100",
        "p2,Seg,segmentation,yes,no,train_test,50",
    ]
    return write_long(root, name, papers, [])


def wide_without_constants(root: Path, name: str = "wide_plain") -> dict:
    """A wide top-2 sheet that lacks in_scope and values_only_in_figures and sets no
    constants: every paper leaves the analysis as out of scope."""
    folder = Path(root) / "data" / "venues"
    folder.mkdir(parents=True, exist_ok=True)
    rows = [
        "paper_id,task,metric,value_proposed,value_best_prior,split,n_test",
        "w1,classification,accuracy,0.91,0.90,train_test,300",
        "w2,segmentation,dsc,0.85,0.84,train_test,60",
    ]
    (folder / f"{name}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return {"label": name, "papers": f"data/venues/{name}.csv", "layout": "wide_top2",
            "units": "fraction"}
