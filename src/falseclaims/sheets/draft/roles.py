"""Checks of ``sheet inspect``'s column roles against the cells and against each other.

A header word proposes a role (``inspect._NAME_HINTS``); these checks keep it only where the
cells agree, so that a real sheet's draft never maps a column to a field it would fill
wrongly: a category column whose cells are not our categories (``Task/Paradigm: Motor
Imagery``), a size header over text cells (``Training procedure: Standard``), the name of a
paper's one method (``method`` in a sheet of one row per paper), a result column without a
second value to compare it with, or a DOI column next to a better id.
"""

from __future__ import annotations

import re

from falseclaims.sheets.read import cells
from falseclaims.io.raw_table import clean_text, is_missing
from falseclaims.sheets.read.columns import ALIASES, ENUMS
from falseclaims.sheets.draft.draft_rules import DRAFT_RULES, SPLIT_RULES, UNCLEAR_RULE
from falseclaims.sheets.read.errors import CellError

__all__ = ["TASK_WORDS", "DOI", "is_doi", "is_flag", "whole", "named_values", "fit_categories", "settle_ids",
           "settle_methods", "settle_single_value", "header_metric", "settle_metric_pairs",
           "settle_names", "settle_in_scope", "fit_role", "mark_rules",
           "measure_without_metric", "settle_before_after", "drop_same_names",
           "FIT_SHARE"]

DOI = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)?10\.\d{4,9}/\S+$", re.I)
# task words of free-text task cells ("seizure detection", "sleep staging"): the rule is
# written into the draft's values: and listed as unsure
TASK_WORDS = {r"(?i)segment": "segmentation",
              r"(?i)classif|detect|recogni|diagnos|staging|grading|predict|identif|"
              r"discriminat": "classification"}
FREE_SPLIT_SHARE = 0.5  # share of free-text cells naming a split for a split column
FIT_SHARE = 0.8  # share of a category column's cells read for its header word to count
_BOOLS = ("in_scope", "claims_outperformance", "bold_best", "statistical_test",
          "values_only_in_figures")
_VALUES = ("value_proposed", "value_best_prior", "values_compared")
# "U-Net 78.2" / "nnU-Net: 80.1 ± 1.2": a name, then a number at the end
# (a value has decimals or a % sign: "track 1", "59; 32" are no values)
_NAMED_NUMBER = re.compile(r"[A-Za-z].*?[\s:=(]\s*[+-]?(?:\d*[.,]\d+\s*%?|\d+\s*%)\s*"
                           r"(?:(?:±|\+/-|\+-)\s*\d+(?:[.,]\d+)?\s*%?)?\)?$")


def is_flag(vals: list) -> bool:
    """Cells that are all yes/no flags (``Y``, ``N``, ``yes``, ``true``, ...): never a
    method's name."""
    texts = [clean_text(str(v)) for v in vals if not is_missing(v)]
    try:
        return bool(texts) and all(cells.parse_bool(t)[0] is not None for t in texts)
    except CellError:
        return False


def whole(vals: list) -> bool:
    """Every cell a whole number (``12``, ``12.0``): row numbers may be ids, ``0.853`` not."""
    for v in vals:
        try:
            x = float(str(v).strip())
        except ValueError:
            return False
        if x != int(x):
            return False
    return True


def is_doi(text: str) -> bool:
    return bool(DOI.match(clean_text(text)))


def named_values(texts: list[str]) -> bool:
    """';'-separated cells where every part is a method name followed by its value (not
    lists of data sets, channel counts or quotations that happen to hold ';')."""
    listed = [t for t in texts if ";" in t]
    if not listed:
        return False
    good = sum(all(_NAMED_NUMBER.search(p.strip()) for p in t.split(";") if p.strip())
               for t in listed)
    return good >= 0.5 * len(listed)


def _reads(text: str, role: str, rules: dict) -> bool:
    if any(re.search(rx, text) for rx in rules):
        return True
    try:
        if role in _BOOLS:
            return cells.parse_bool(text)[0] is not None
        return cells.parse_enum(text, ENUMS[role], ALIASES.get(role))[0] is not None
    except CellError:
        return False


def fit_categories(role: str, texts: list[str], rules: dict) -> tuple[float, str | None]:
    """(share of the cells that ``role`` reads, with ``rules`` as ``values:``; the first
    text it does not read). Counted over cells: one stray cell (a total under the table)
    does not outweigh a column of yes/no."""
    filled = [t for t in texts if not is_missing(t)]
    if not filled:
        return 1.0, None
    reads = {t: _reads(t, role, rules) for t in dict.fromkeys(filled)}
    bad = [t for t in filled if not reads[t]]
    return 1 - len(bad) / len(filled), (bad[0] if bad else None)


# an id header word followed by what it says about the paper ('Paper Readability',
# 'Reference standard'), not by an id word ('Paper ID', 'Study no.', 'Reference (author)')
_ID_WORD = re.compile(r"^\W*(paper|ref|reference|study|trial|record|citation)s?\b\W*(.*)$", re.I)
_ID_TAIL = re.compile(r"^(ids?|no|nr|num|number|names?|keys?|labels?|codes?|refs?|"
                      r"references?|citations?|authors?|years?|titles?)?\W*$", re.I)
# columns of one name at least this many times: one per review, rater or run
REPEATED_NAME = 3
# a header speaking of who marked the row: its cells mark a review of the paper ('Put 1 if
# the reviewer has commented on ... statistical significance'), never the paper's own
_REVIEWER = re.compile(r"\b(reviewers?|raters?|annotators?|coders?|assessors?)\b", re.I)


def _attribute_header(name: str) -> bool:
    m = _ID_WORD.match(re.sub(r"\([^)]*\)?", " ", name))  # '(author, year)' says how
    return bool(m and m.group(2).strip() and not _ID_TAIL.match(m.group(2).strip()))


def settle_review_marks(guesses: list, not_the_papers: tuple) -> None:
    """Marks on a paper's reviews give no role of the paper's own: a header naming a
    reviewer or rater, and a name on REPEATED_NAME or more columns (one block per review,
    rater or run: 'Error bars or statistical significance' under Review 1, 2, 3): which
    one is the paper's is the user's to say."""
    by_name: dict = {}
    for g in guesses:
        if g.named and g.role not in not_the_papers and \
                _REVIEWER.search(g.name.replace("_", " ")):
            g.role, g.sure = "(ignore)", False
            g.why += (" (the header speaks of a reviewer or rater: a mark on a review of "
                      "the paper, not the paper's own)")
        by_name.setdefault(g.low or g.name.lower(), []).append(g)
    for same in by_name.values():
        if len(same) == 2:
            _rater_copies(same, not_the_papers)
        if len(same) < REPEATED_NAME:
            continue
        letters = ", ".join(g.letter for g in same)
        for g in same:
            if g.role not in not_the_papers:
                g.role, g.sure = "(ignore)", False
                g.why += (f"; the same name on columns {letters} (one per review, rater "
                          "or run?): which is the paper's? map that one")


def _rater_copies(pair: list, not_the_papers: tuple) -> None:
    """Two columns of one name with a role of the paper's and cells that differ (two
    raters' copies of one column: the commonest double extraction): which one is the
    paper's is asked by a one-table draft (its mapping a TODO), never taken by letter.
    Identical copies keep the first's role."""
    roles = [g.role for g in pair if g.role not in not_the_papers]
    if not roles or pair[0].cells == pair[1].cells:
        return
    for g in pair:
        g.sure = False
        g.why += (f"; the same name on columns {pair[0].letter}, {pair[1].letter} with "
                  "different cells (two raters' copies?)")
    pair[0].asked = (roles[0], pair[1].letter)


# a bare row id ("id", "ID", "row id") and an id naming the paper it identifies
_BARE_ID = re.compile(r"(?i)\s*(row[ _]?)?(id|#)\s*")
_NAMED_ID = re.compile(r"(?i)\s*(study|paper|publication|article|record|trial|pub)s?"
                       r"[ _.-]?(id|key|no\.?|nr|number)\s*")


# a cell linking to a publication: the paper a row names
PUBLICATION_LINK = re.compile(r"(?i)\s*https?://(www\.)?(pubmed\.ncbi\.nlm\.nih\.gov|"
                              r"ncbi\.nlm\.nih\.gov/pmc|(dx\.)?doi\.org|arxiv\.org)/\S+\s*")
_PAPER_HEADER = re.compile(r"(?i)pmc?id|pubmed|\bdoi\b|arxiv")


def names_the_paper(g) -> bool:
    """A column whose header or cells name the publication itself (``study_id``,
    ``publication_id``, a PMID, DOI or publication link): rows sharing its id are one
    paper, wherever they stand."""
    name = g.name.replace("_", " ")
    return bool(_NAMED_ID.fullmatch(g.name) or _PAPER_HEADER.search(name) or g.links)


# a BibTeX entry ('@inproceedings{schwartz-2010-reproducible, title = ...'): group 1 its key
BIBTEX = re.compile(r"^\s*@\w+\s*\{\s*([^,\s{}]+)\s*,")


def _bibtex_id(guesses: list) -> bool:
    """A column of distinct BibTeX entries, one per row, while the id drafted repeats
    (authors: a workshop and a conference paper of one title): each entry's citation key
    is the paper id, read by a values: rule. True when it took the id."""
    ids = [g for g in guesses if g.role == "paper_id"]
    bib = [g for g in guesses if g.bibtex and g.unique and g.role != "paper_id"]
    if not bib or not ids or any(g.unique for g in ids):
        return False
    for g in ids:
        g.role, g.sure = "(ignore)", False
        g.why += f"; repeated ids: column {bib[0].letter} {bib[0].name!r} holds each row's " \
            "BibTeX entry, its citation key is the paper id"
    bib[0].role, bib[0].sure = "paper_id", False
    bib[0].why += "; BibTeX entries, distinct: their citation keys are the paper ids"
    bib[0].values = {BIBTEX.pattern: "\\1"}
    return True


def settle_ids(guesses: list) -> None:
    """One paper-id column: unique cells before repeated ones, a named id (``Citation``,
    ``Paper``) before authors or a DOI. Without one, a column of distinct texts filled on
    every row (``2506.10119v1.pdf``) is the id (unsure), not ignored: rows are papers."""
    if _bibtex_id(guesses):
        return
    for g in guesses:  # 'reference_section: yes/no' names no paper
        if g.role == "paper_id" and g.flags:
            g.role, g.sure = "(ignore)", False
            g.why += " (yes/no flags: whether the paper has it, not a paper id)"
        elif g.role == "paper_id" and g.kind == "category" and _attribute_header(g.name):
            g.role, g.sure = "(ignore)", False  # 'Paper Readability': Ok / Low / Good
            g.why += " (a few levels: what the header says of the paper, not a paper id)"
    ids = [g for g in guesses if g.role == "paper_id"]
    if not ids and (keys := [g for g in guesses if _NAMED_ID.fullmatch(g.name)
                             and not g.flags and g.filled]):
        g = keys[0]  # 'publication_id' keying effect sizes: the publication each row is of
        g.role, g.sure = "paper_id", False
        g.why += "; the header names the publication each row comes from: the paper id"
        if not g.unique:
            g.hints.append(f"repeated ids: id: '{{{g.name}}}' numbers the repeats ' (2)', ...")
        return
    if not ids and (links := [g for g in guesses if g.links]):
        g = links[0]  # 'https://pubmed.ncbi.nlm.nih.gov/31100830/': the paper each row names
        g.role, g.sure = "paper_id", False
        g.why += "; publication links (PubMed, DOI, arXiv): the paper each row names"
        if not g.unique:
            g.hints.append(f"repeated ids: id: '{{{g.name}}}' numbers the repeats ' (2)', ...")
        return
    if not ids:
        most = max((g.filled for g in guesses), default=0)
        texts = [g for g in guesses if g.role == "text" and g.unique and g.filled == most
                 and most > 1 and not g.flags]
        if texts:
            texts[0].role, texts[0].sure = "paper_id", False
            texts[0].why += "; no id column: distinct texts on every row read as paper ids"
        return
    if len(ids) < 2:
        return
    weak = re.compile(r"author|doi|url|link", re.I)
    # a column naming what it identifies ("study_id", "publication_id") before a bare
    # "id" (a double extraction's running id: two rows per study, one per researcher)
    if any(_BARE_ID.fullmatch(g.name) for g in ids) and (
            named := [g for g in ids if _NAMED_ID.fullmatch(g.name)]):
        ids = named + [g for g in ids if g not in named]
        for g in ids[len(named):]:
            g.role, g.sure = "(ignore)", False
            g.why += (f"; column {named[0].letter} {named[0].name!r} names the study, a bare "
                      "id numbers the rows")
        ids = named
        if len(ids) < 2:
            return
    # a unique id on (nearly) every row before one filled on a few (a PMID column empty
    # for the records outside PubMed, beside a DOI on every row)
    most = max(g.filled for g in ids)
    best = max(ids, key=lambda g: (g.unique, g.unique and g.filled >= 0.9 * most,
                                   not weak.search(g.name), -ids.index(g)))
    for g in ids:
        if g is not best:
            g.role, g.sure = "(ignore)", False
            g.why += f"; column {best.letter} {best.name!r} is the paper id"


def settle_methods(guesses: list) -> None:
    """A ``method`` column is the long layout's only where a paper fills several rows;
    in a sheet of one row per paper it names the paper's method (``name_proposed``)."""
    ids = [g for g in guesses if g.role == "paper_id"]
    for g in guesses:
        if g.role == "method" and (not ids or ids[0].unique):
            g.role = "name_proposed"
            g.why += "; one row per paper: the name of the paper's method"


def settle_single_value(guesses: list) -> None:
    """A result column without a second value per paper (no state-of-the-art, runner-up
    or compared-methods column) gives no comparison: the sheet runs as a study-design
    sheet, and the column is listed with what to map."""
    roles = {g.role for g in guesses}
    if "value_proposed" not in roles or roles & {"value_best_prior", "values_compared",
                                                  "method"}:  # a method column: long layout
        return
    for g in guesses:
        if g.role == "value_proposed":
            g.role, g.sure = "(ignore)", False
            g.why += ("; one value per paper and no state-of-the-art or runner-up column: "
                      "no comparison to assess (map a second value column to "
                      "value_best_prior, or a long results table, to get probabilities)")


# metric named in a value column's header ("Best_performing_AUROC"): (regex, metric, task);
# the task only where the metric implies it (F1 is used for both)
_METRIC_WORDS = [(r"\b(auroc|auc|roc auc)\b", "auc", "classification"),
                 (r"\b(f1|f ?score|f ?measure)\b", "f1", None),
                 (r"\b(dice|dsc)\b", "dsc", "segmentation"),
                 (r"\b(iou|jaccard)\b", "iou", "segmentation"),
                 (r"\bacc(uracy)?\b", "accuracy", "classification"),
                 (r"\b(ppv|precision)\b", "ppv", "classification"),
                 (r"\b(sensitivity|recall|tpr)\b", "sensitivity", "classification"),
                 (r"\b(specificity|tnr)\b", "specificity", "classification"),
                 (r"\bnpv\b", "npv", "classification")]


# a header of an effect size ('ES_final_ACC': Cohen's d of an accuracy, 'SMD', 'Hedges g'):
# a study's effect, never a method's metric value, whatever metric it names
_EFFECT_HEADER = re.compile(r"^(es|effect ?sizes?|smd|cohen s d|cohens d|hedges g)\b")
# cells naming effect-size types ('d', 'r', "Cohen's d", 'log OR'): how a study's effect is
# measured (a meta-analysis's sheet), not a method's metric
EFFECT_TYPES = re.compile(r"(?i)\s*(?:(?:cohen'?s?\s*)?d|(?:hedges'?s?\s*)?g|r|z|smd|md|"
                          r"(?:log\s*)?(?:or|rr|hr)|odds ratio|risk ratio|hazard ratio|"
                          r"fisher'?s?\s*z|(?:partial\s*)?(?:eta|η)\s*(?:sq(?:uared)?|2|²)?)\s*")


# a header of a study's effect or a test's statistic ('Correlation', "Fisher's Z", 'yi', 'vi',
# 'effect_estimate', 'Std.Err', 'p.twotail', 'df'): a meta-analysis's numbers, no method's value
_STATISTIC_HEADER = re.compile(
    r"^(es|yi|vi|sei?|effect ?(sizes?|estimates?)|correlations?|r|fisher s z|z|t|df|d|d est|"
    r"g|smd|log ?(or|rr|hr)|std ?err(or)?|standard errors?|variances?|p|p ?values?|"
    r"p ?(one|two) ?tail(ed)?|(ci|confidence ?interval) ?(lower|upper|low|high)|"
    r"(lower|upper) ?(ci|confidence ?interval|bound))$")
# one method's score as first reported and as reproduced ('Original_score',
# 'Reproduction_score'): a reproduction, not two methods compared
_REPORTED = re.compile(r"(?i)original|reported|published|claimed")
_REPRODUCED = re.compile(r"(?i)reproduc|replicat|re-?run|re-?implement")


# the mean or SD of a study's group of people ('IQ ID m', 'IQ controls sd', 'mean_magroup'),
# a control group named by one of them: cases against controls, no method's value
_GROUP_STAT = re.compile(r"\b(m|means?|sds?|std|median|iqr)\b")
_CONTROL_GROUP = re.compile(r"\b(controls?|ctrl|hc|healthy|td|\w*group)\b")


def group_statistics(names: list[str]) -> list[str]:
    """The headers among ``names`` of descriptive statistics of a study's groups of people
    (a mean or SD word in each, a control group named by at least one); [] otherwise."""
    norm = {n: re.sub(r"[_\W]+", " ", n.lower()).strip() for n in names}
    stats = [n for n in names if _GROUP_STAT.search(norm[n])]
    return stats if any(_CONTROL_GROUP.search(norm[n]) for n in stats) else []


def names_statistic(name: str) -> bool:
    """A header of an effect size or a test statistic (see ``_STATISTIC_HEADER``)."""
    return bool(_STATISTIC_HEADER.fullmatch(re.sub(r"[_\W]+", " ", name.lower()).strip()))


def reproduced_pair(names: list[str]) -> tuple[str, str] | None:
    """(reported, reproduced) headers of one method's score before and in a reproduction."""
    a = next((n for n in names if _REPORTED.search(n) and not _REPRODUCED.search(n)), None)
    b = next((n for n in names if _REPRODUCED.search(n)), None)
    return (a, b) if a and b else None


def names_effect_size(name: str) -> bool:
    """A header of an effect size ('ES_final_ACC', 'SMD'): it names no metric."""
    return bool(_EFFECT_HEADER.search(re.sub(r"[_\W]+", " ", name.lower()).strip()))


def header_metric(name: str) -> tuple[str, str | None] | None:
    """(metric, task or None) a header names, e.g. 'Best comparator DL AUROC' -> auc."""
    text = re.sub(r"[_\W]+", " ", name.lower())
    if names_effect_size(name):
        return None
    return next(((m, t) for rx, m, t in _METRIC_WORDS if re.search(rx, text)), None)


def effect_types(role: str, why: str, sure: bool, texts: list[str]):
    """(role, why, sure, found): a metric column whose cells are all effect-size types
    ('d', 'r') is set aside (found True): a meta-analysis's sheet, not a method's metric."""
    if role != "metric" or not texts or not all(EFFECT_TYPES.fullmatch(x) for x in texts):
        return role, why, sure, False
    return "(ignore)", why + (" (effect-size types such as d or r: how a study's effect is "
                              "measured, not a method's metric)"), False, True


def measure_without_metric(role: str, why: str, sure: bool, label: str, texts: list[str]):
    """A column drafted the metric only because its header says 'measure'
    ('measurement', 'measurement_method') whose cells name no metric ('Low', 'Moderate';
    'Prospective surveillance with ...'): a risk-of-bias domain or a study's way of
    measuring an outcome, not a method's metric; set aside, unsure."""
    if (role != "metric" or "metric" in label.lower() or not texts
            or any(header_metric(x) for x in texts)):
        return role, why, sure
    return "(ignore)", why + (" (the header says 'measure' but no cell names a metric: how "
                              "a study measured something, not a method's metric)"), False


_BEFORE = re.compile(r"(?i)(?:^|[_\W])(?:baseline|pre|before)(?:$|[_\W])")
_AFTER = re.compile(r"(?i)(?:^|[_\W])(?:post|after|follow[_\W]?up)(?:$|[_\W])")


def settle_before_after(guesses: list) -> None:
    """'baseline_value' beside 'post_value': an outcome measured before and after ONE
    intervention (a trial's or a cohort's), not a proposed method's value against a
    prior method's; both set aside, unsure (a comparison sheet names its methods)."""
    prior = [g for g in guesses if g.role == "value_best_prior" and _BEFORE.search(g.name)]
    ours = [g for g in guesses if g.role == "value_proposed" and _AFTER.search(g.name)]
    if not (prior and ours) or any(g.role in ("name_proposed", "name_best_prior")
                                   for g in guesses):
        return
    for g in prior + ours:
        g.role, g.sure = "(ignore)", False
        g.why += ("; values before and after one intervention ('baseline' / 'post'), "
                  "not a method against a prior method")


def settle_effect_sizes(guesses: list) -> None:
    """In a sheet of effect sizes (a metric column whose cells are 'd', 'r', ...: set aside
    by the column guess), a size without a header word is a study's sample, not a test
    set (a replication database's ``N`` had been drafted as the test-set size), and no
    other column is the metric's."""
    if not any(g.effect_types for g in guesses):
        return
    for g in guesses:
        if g.role == "n_test" and not g.named:
            g.role, g.sure = "(ignore)", False
            g.why += "; a study's sample in a sheet of effect sizes, not a test set"
        elif g.role == "metric":  # 'metric_converted' beside 'metric_reported'
            g.role, g.sure = "(ignore)", False
            g.why += "; a sheet of effect sizes: no method's metric"


def settle_group_statistics(guesses: list) -> None:
    """Numbers under headers of the means and SDs of a study's groups of people ('IQ ID m',
    'IQ controls m'): no method's value (a psychology extraction sheet's group means had
    been drafted as a results table's values)."""
    groups = set(group_statistics([g.name for g in guesses if g.kind == "value_proposed"]))
    for g in guesses:
        if g.name in groups and g.role in ("value", "value_proposed", "value_best_prior"):
            g.role, g.sure = "(ignore)", False
            g.why += "; a mean or SD of a study's group of people (cases, controls), no method's"


def metrics_named(text: str) -> set:
    """Every (metric, task) a header or title names."""
    text = re.sub(r"[_\W]+", " ", text.lower())
    return {(m, t) for rx, m, t in _METRIC_WORDS if re.search(rx, text)}


def settle_metric_pairs(guesses: list) -> tuple[str, str | None] | None:
    """Value columns whose headers name a metric (one pair of columns per metric, several
    comparators): the proposed and the prior column of one metric, the metric whose pair
    has the most filled cells; every other value column is listed. (metric, task) or None."""
    named = [g for g in guesses if g.named and g.role in ("value_proposed", "value_best_prior")
             and header_metric(g.name)]
    by: dict = {}
    for g in named:
        by.setdefault(header_metric(g.name), {}).setdefault(g.role, []).append(g)
    pairs = {m: d for m, d in by.items() if len(d) == 2}
    if not pairs:
        return None
    best = max(pairs, key=lambda m: (min(max(g.filled for g in pairs[m][r])
                                         for r in pairs[m]), -list(by).index(m)))
    chosen = [max(pairs[best][r], key=lambda g: g.filled) for r in pairs[best]]
    why = (f"; value columns paired by the metric their headers name: {best[0]} "
           f"({chosen[0].name!r} vs {chosen[1].name!r}, the pair with most filled cells)")
    for g in guesses:
        if g.role in ("value_proposed", "value_best_prior") and g not in chosen:
            g.role, g.sure = "(ignore)", False
            g.why += why
    settle_names(guesses, chosen)
    for g in chosen:
        if len(pairs[best][g.role]) > 1:
            g.sure = False
            others = ", ".join(repr(o.name) for o in pairs[best][g.role] if o is not g)
            g.why += f"; chosen among columns of one role and metric (also {others})"
    return best


def settle_names(guesses: list, chosen: list) -> None:
    """The method-name column of each chosen value column is the one whose header is the
    value header without its metric ('Best_comparator_traditional' for
    'Best_comparator_traditional_AUROC', 'Best_performing_name' for 'Best_performing_AUROC')."""
    def stem(name):
        words = re.sub(r"[_\W]+", " ", name.lower()).split()
        return [w for w in words if not header_metric(w) and w not in (
            "name", "model", "method", "arm")]  # a trial's or ablation's arm: the method
    for value in chosen:
        twin = "name_" + value.role.removeprefix("value_")
        match = sorted((g for g in guesses if g.kind in ("text", "category")
                        and not g.flags and g is not value
                        and stem(g.name) == stem(value.name)),
                       key=lambda g: "name" not in g.name.lower())  # '_name' before '_model'
        match = [g for g in match if stem(g.name)]
        if not match:
            continue
        for g in guesses:
            if g.role == twin and g is not match[0]:
                g.role, g.sure = "(ignore)", False
                g.why += f"; the name of {value.name!r} is in column {match[0].letter}"
        match[0].role = twin
        match[0].why += f"; names the method of {value.name!r}"


def settle_in_scope(guesses: list) -> None:
    """Several inclusion columns (title/abstract, then full-text screening): the last stage
    decides, the one filled for the fewest rows."""
    inc = [g for g in guesses if g.role == "in_scope" and g.named]
    if len(inc) < 2:
        return
    last = min(inc, key=lambda g: (g.filled, -inc.index(g)))
    for g in inc:
        if g is not last:
            g.role, g.sure = "(ignore)", False
            g.why += (f"; column {last.letter} {last.name!r} is the last screening stage "
                      "(filled for the fewest rows): in_scope")


def fit_role(role: str, why: str, sure: bool, texts: list[str]):
    """(role, why, sure, values: rules) once the cells of a category or yes/no column are
    read: a header word is not enough when most cells are not our categories."""
    if role not in ENUMS and role not in _BOOLS:
        return role, why, sure, {}

    rules = DRAFT_RULES.get(role, {})
    if role == "split" and fit_categories(role, texts, {})[0] < 1:
        return _free_split(why, sure, texts)
    share, bad = fit_categories(role, texts, rules)
    if share >= FIT_SHARE:
        return role, why, sure and share == 1, {}
    if role == "task":
        share2, _ = fit_categories(role, texts, TASK_WORDS)
        if share2 >= FIT_SHARE:
            return role, why + f"; task read from words in the cells (values: rules; " \
                f"e.g. {bad!r})", False, dict(TASK_WORDS)
    if role in _BOOLS and (marks := mark_rules(texts)):
        shown = ", ".join(repr(m) for m in marks["shown"])
        return role, why + f"; check marks read as yes/no ({shown}; values: rules)", False, \
            marks["rules"]
    return "(ignore)", why + f"; most cells are not {role} values (e.g. {bad!r}): map them " \
        f"with values: {{{role}: {{regex: value}}}}", False, {}


# a marked box says yes ('x' as in a ticked checklist box, '✓'), a cross mark no; with the
# reader's yes/no spellings these are the cells of a yes/no column kept with marks
_MARK_YES, _MARK_NO = "x✓✔☑", "✗✘☒☐"
_PLAIN_BOOL = {"yes", "no", "y", "n", "true", "false", "t", "f", "1", "0", "1.0", "0.0"}


def mark_rules(texts: list[str]) -> dict | None:
    """``{'rules': values: rules, 'shown': the marks}`` when every filled cell is a yes/no
    spelling or a check mark and one at least is a mark; else None."""
    filled = {clean_text(str(t)).lower() for t in texts if not is_missing(t)}
    marks = sorted(t for t in filled if len(t) == 1 and t in _MARK_YES + _MARK_NO)
    if not marks or not filled <= _PLAIN_BOOL | set(marks):
        return None
    rules = {}
    for cls, value in ((_MARK_YES, "yes"), (_MARK_NO, "no")):
        if present := [m for m in marks if m in cls]:
            rules[r"(?i)^\s*[" + "".join(present) + r"]\s*$"] = value
    return {"rules": rules, "shown": marks}


def _free_split(why: str, sure: bool, texts: list[str]):
    """A split protocol in free text ("10-fold cross-validation", "70/30 holdout"): read
    with the split rules when at least half the cells say a split, every other cell
    -> unclear (listed in the draft, never guessed); else not a split column."""
    share, bad = fit_categories("split", texts, SPLIT_RULES)
    answers = [t for t in texts if re.fullmatch(r"(?i)\s*(yes|no|y|n)\s*", t)]
    if answers:  # "Cross validation: No": whether the paper did it, not its split
        return "(ignore)", why + f"; yes/no answers (e.g. {answers[0]!r}) say whether, not " \
            "which split: map them with values: {split: {regex: value}}", False, {}
    if share < FREE_SPLIT_SHARE:
        return "(ignore)", why + f"; most cells are not split values (e.g. {bad!r}): map " \
            "them with values: {split: {regex: value}}", False, {}
    return "split", why + "; free text read as split categories by values: rules (each " \
        "cell's category listed below; cells naming no split -> unclear)", False, \
        {**SPLIT_RULES, **UNCLEAR_RULE}


def is_text(c) -> bool:
    return not isinstance(c, (int, float)) and not re.fullmatch(r"[\d.,%\s/±()+-]+", str(c))


def drop_same_names(t, guesses: list) -> None:
    """Method names left unmapped when a row names the same method in both name columns
    (the best model is also the best of the comparators): the two results rows would
    collide; the values are read as 'proposed' and 'best_prior'."""
    at = {g.role: k for k, g in enumerate(guesses)
          if g.role in ("name_proposed", "name_best_prior")}
    if len(at) < 2:
        return
    a, b = at["name_proposed"], at["name_best_prior"]
    same = [r for r, row in t.rows if not is_missing(row[a])
            and clean_text(str(row[a])).lower() == clean_text(str(row[b])).lower()]
    if same:
        for k in (a, b):
            guesses[k].role, guesses[k].sure = "(ignore)", False
            guesses[k].why += (f"; rows {', '.join(map(str, same[:3]))}"
                               f"{' ...' if len(same) > 3 else ''} name the same method in "
                               "both name columns: names not used (methods read as "
                               "'proposed' and 'best_prior')")


# 2x2 counts of a diagnostic-accuracy sheet, by header (after "_" -> " ", lower case);
# the numbers of positives and negatives ("cases", "controls") only beside TP and TN
_COUNT_HEADERS = [(r"^(tp|true positives?|n ?tp)$", "tp"), (r"^(fp|false positives?|n ?fp)$", "fp"),
                  (r"^(fn|false negatives?|n ?fn)$", "fn"), (r"^(tn|true negatives?|n ?tn)$", "tn"),
                  (r"^(cases|positives|diseased|n ?pos(itives?)?)$", "n_positive"),
                  (r"^(controls|negatives|non ?diseased|n ?neg(atives?)?)$", "n_negative")]
COUNT_ROLES = tuple(r for _, r in _COUNT_HEADERS)
# a column naming each row's test beside the counts: the compared method of a long table
_TEST_HEADER = re.compile(r"\b(tests?|test ?names?|index tests?|readers?|modalit(y|ies)|"
                          r"assays?|markers?|devices?|algorithms?|models?|methods?|tools?|ai)\b")


def count_role(label: str) -> str | None:
    """The 2x2 count a header names (``tp``, ``fp``, ``fn``, ``tn``, ``n_positive``,
    ``n_negative``), or None."""
    return next((r for rx, r in _COUNT_HEADERS if re.fullmatch(rx, label)), None)


def counts_complete(roles) -> bool:
    """TP and TN, FN or the positives, FP or the negatives (sheets/read/counts.py)."""
    roles = set(roles)
    return {"tp", "tn"} <= roles and bool(roles & {"fn", "n_positive"}) \
        and bool(roles & {"fp", "n_negative"})


def settle_counts(guesses: list) -> None:
    """2x2 count columns give accuracy and n only together and only where a column names
    each row's test (a long table: a study over its tests' rows): then that column is the
    method. Otherwise the counts are listed, never sizes: one test per study compares
    nothing (the sheet runs as a study design)."""
    counts = [g for g in guesses if g.role in COUNT_ROLES]
    if not counts:
        return
    if {"tp", "tn"} <= {g.role for g in counts}:  # "cases", "controls" beside TP and TN
        for g in guesses:
            role = count_role(g.name.lower().replace("_", " ").strip())
            if role in ("n_positive", "n_negative") and g.role not in COUNT_ROLES:
                g.role, g.sure, g.named = role, True, True
                g.why = f"header {g.name!r}: the {role[2:]}s of a 2x2 table (beside TP and TN)"
                counts.append(g)
    ids = [g for g in guesses if g.role == "paper_id"]
    test = next((g for g in guesses if g.role in ("(ignore)", "category", "text", "method",
                                                  "name_proposed") and not g.unique
                 and _TEST_HEADER.search(g.name.lower().replace("_", " "))), None)
    test = test if ids and not ids[0].unique else None  # one row per study: one test
    if counts_complete(g.role for g in counts) and test is not None:
        test.role, test.sure = "method", True
        test.why += "; names the test of each row of 2x2 counts: the compared method"
        return
    why = ("; 2x2 counts without " + ("a column naming each row's test" if
                                     counts_complete(g.role for g in counts) else
                                     "the other counts") +
           ": no accuracy to compare (read as study design; TP, FP, FN, TN with a test "
           "column give accuracy and n, config/README.md)")
    for g in counts:
        g.role, g.sure, g.why = "(ignore)", False, g.why + why


# what a table's rows are, judged before any column's role: rows wider than the header
# (cells shifted), a second table below the first, a header row that is a row of data, rows
# of pooled estimates rather than papers; each is asked in one question by the draft

def is_measure(v) -> bool:
    """The cell reads as one measured value (0.91, '91 %', '0.91 ± 0.02')."""
    try:
        return cells.parse_measure(v) is not None
    except CellError:
        return False
