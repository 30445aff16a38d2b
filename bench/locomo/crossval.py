"""Fusion settings checked on conversations they were not fitted on (leave one conversation out).

    # 1. a store holding the LoCoMo ingest and passages (run.py has built it), then:
    NEO4J_URI=bolt://127.0.0.1:7687 .venv/bin/python bench/locomo/crossval.py dump
    # 2. offline, no database: the fusion settings (grid), the rerank weights, ablations
    .venv/bin/python bench/locomo/crossval.py fit
    .venv/bin/python bench/locomo/crossval.py rerank
    .venv/bin/python bench/locomo/crossval.py rerank --facts    # groups that are no turn
    .venv/bin/python bench/locomo/crossval.py rerank --lexical  # queries without a vector
    .venv/bin/python bench/locomo/crossval.py ablate
    # 3. the work weights: a store holding the new users' trials (bench/trials/run.py), then
    NEO4J_URI=bolt://127.0.0.1:7787 .venv/bin/python bench/locomo/crossval.py dump --trials
    .venv/bin/python bench/locomo/crossval.py rerank --work     # tools' results, agents' notes

``dump`` runs recall's own candidate queries (``graph_schema.recall.pipeline.candidate_lists`` and
``neighbours``, every list on, the question's conversation as scope) for every question of
categories 1-4 and stores them with the gold dialog ids (``var/locomo-candidates.pkl``).

``rerank`` fits the weights of the learned rerank (``graph_schema.recall.rerank``, step 5) by
pairwise logistic regression over the shipped fusion's top groups, with the same
leave-one-conversation-out protocol, and prints the weights to ship.

``rerank --work`` fits the weights recall uses when a tool's result or an agent's own note is
among a query's groups (``rerank.WORK_WEIGHTS``) on LoCoMo and the ``fit`` split of the new
users' trials (``bench/trials``), each conversation held out in turn, and scores them on the
trials' ``test`` split, which no fit reads.

``fit`` replays fusion offline with recall's own ``graph_schema.recall.fusion.fuse``: the start
values and the shipped defaults first (the latter reproduce run.py's numbers), then, for
each conversation in turn, a coordinate ascent over a small grid of round values of the
fusion parameters, fitted on the *other four* conversations and scored on the held-out one.
The pooled held-out scores are the estimate for conversations the settings have never seen;
the in-sample score of the settings fitted on all five is printed next to it. Nothing here
looks at a question's text beyond what recall itself does.
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from multiprocessing import Pool
from pathlib import Path
from statistics import mean
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(ROOT), str(Path(__file__).resolve().parent)]

from scoring import (
    ANSWERABLE,
    Outcome,
    Rule,
    dedupe,
    fit_rule,
    gold_ids,
    hit_at,
    reciprocal_rank,
    rule_held_out,
)

from bench import harness
from graph_schema.recall import rerank
from graph_schema.recall.fusion import (
    ANSWER_THRESHOLD,
    Candidate,
    FusionConfig,
    Scored,
)

DUMP = ROOT / "var/locomo-candidates.pkl"
LISTS = (
    "passage_vector",
    "context_vector",
    "passage_fulltext",
    "context_fulltext",
    "assertion_vector",
    "assertion_fulltext",
)
GRID: dict[str, tuple[float, ...]] = {
    "k": (5, 10, 20, 30),
    "speaker": (0.0, 0.5, 1.0, 2.0, 3.0, 4.0),
    "time": (0.0, 0.5, 1.0, 2.0, 3.0, 4.0),
    "neighbour": (0.0, 0.1, 0.2, 0.3, 0.4, 0.5),
    **{name: (0.0, 0.25, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0) for name in LISTS},
}


# where every fit starts: the hand-set values recall shipped before the first fit
START = FusionConfig(
    k=10,
    speaker=0.5,
    time=0.5,
    neighbour=0.2,
    weights={**dict.fromkeys(LISTS[:4], 1.0), "assertion_vector": 0.5, "assertion_fulltext": 0.5},
    disabled=frozenset({"rerank"}),
)
# the fusion the rerank is fitted on: the shipped settings, without the rerank
FUSED = FusionConfig(disabled=frozenset({"rerank"}))
DEPTH = 30  # fused groups per question the rerank learns from
C = 0.01  # inverse regularisation strength of the logistic regression


@dataclass
class Question:
    sample: str
    category: int
    text: str
    gold: set[str]
    lists: dict[str, list[Candidate]]
    neighbours: dict[str, list[Candidate]]


# --- dump (needs the store) -------------------------------------------------------------------


@dataclass(frozen=True)
class Asked:
    """A question to dump: its conversation (the recall filter and the sample), category,
    text and gold turn ids (as ``_dialog_ids`` names them)."""

    sample: str
    category: int
    text: str
    gold: set[str]


def locomo_questions(file: Path) -> list[Asked]:
    """The answerable LoCoMo questions (categories 1-4) with gold dialog ids."""
    import json

    asked = []
    for sample in json.loads(file.read_text("utf-8")):
        for qa in sample["qa"]:
            gold = set(gold_ids(qa.get("evidence", [])))
            if qa["category"] in ANSWERABLE and gold:
                asked.append(Asked(sample["sample_id"], qa["category"], qa["question"], gold))
    return asked


def trial_questions(file: Path) -> list[Asked]:
    """The answerable English questions of the new users' trials (``bench/trials``), category
    0, gold turn numbers: a Chinese question is read without a vector (the lexical weights,
    ``--lexical``), so it has no place in a fit of weights for queries with one."""
    import json

    asked = []
    for conversation in json.loads(file.read_text("utf-8"))["conversations"]:
        for q in conversation["questions"]:
            if q["answerable"] and q["lang"] == "en":
                gold = {turn.split(":", 1)[1] for turn in q["evidence"]}
                asked.append(Asked(conversation["id"], 0, q["question"], gold))
    return asked


def dump(asked: list[Asked], out: Path) -> None:
    from graph_schema.core.types import Principal
    from graph_schema.recall.pipeline import RecallQuery, candidate_lists, neighbours, parameters
    from graph_schema.recall.types import RecallFilters
    from ingest.embeddings.embedder import make_embedder
    from ingest.embeddings.model import default_model_path
    from ingest.embeddings.texts import query_vector
    from server.settings import Settings, open_driver

    settings = Settings()
    embedder = make_embedder(default_model_path(), batch_size=16)
    assert embedder is not None
    principal = Principal(id="bench", role="admin")
    config = FusionConfig(weights=dict.fromkeys(LISTS, 1.0))
    driver = open_driver(settings)
    dias = _dialog_ids(driver, settings.neo4j_database)
    questions: list[Question] = []
    now = datetime.now(UTC)
    for a in asked:
        query = RecallQuery(
            text=a.text,
            k=10,
            as_of=now,
            known_at=now,
            filters=RecallFilters(conversation_id=a.sample),
            vector=query_vector(embedder, a.text),
        )
        p = parameters(principal, query)
        with driver.session(
            database=settings.neo4j_database, default_access_mode="READ"
        ) as session:
            lists = session.execute_read(candidate_lists, p, query, config)
            gids = list(dict.fromkeys(c.gid for rows in lists.values() for c in rows))
            near = session.execute_read(neighbours, p, gids)
        lists = {n: [_as_dia(c, dias) for c in rows] for n, rows in lists.items()}
        near = {dias.get(g, g): [_as_dia(c, dias) for c in rows] for g, rows in near.items()}
        questions.append(Question(a.sample, a.category, a.text, a.gold, lists, near))
    print(f"{len(questions)} questions dumped", flush=True)
    driver.close()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pickle.dumps(questions))


def _dialog_ids(driver: Any, database: str) -> dict[str, str]:
    """observation id -> dialog id, from the idempotency key ``{sample}:{dia}``."""
    records, _, _ = driver.execute_query(
        "MATCH (o:Observation) WHERE o.idempotency_key CONTAINS ':' "
        "RETURN o.id AS id, o.idempotency_key AS key",
        database_=database,
    )
    return {r["id"]: r["key"].split(":", 1)[1] for r in records}


def _as_dia(c: Candidate, dias: dict[str, str]) -> Candidate:
    return replace(c, gid=dias.get(c.gid, c.gid))


# --- fit (offline) ----------------------------------------------------------------------------


def ranking(
    q: Question, config: FusionConfig, weights: Mapping[str, float] = rerank.WEIGHTS
) -> list[str]:
    """recall's ranking (``rerank.rank``) on the stored lists; a weight of 0 switches a list off."""
    return dedupe(s.gid for s in _ranked(q, config, weights)[:10])


def _ranked(q: Question, config: FusionConfig, weights: Mapping[str, float]) -> list[Scored]:
    lists = {n: rows for n, rows in q.lists.items() if config.weights.get(n, 0.0) > 0}

    def near(gids: list[str]) -> dict[str, list[Candidate]]:
        return {g: q.neighbours.get(g, []) for g in gids}

    return rerank.rank(lists, q.text, config, near, weights)


def metrics(ranked: list[tuple[list[str], set[str]]]) -> dict[str, float]:
    return {
        "hit1": mean(hit_at(r, g, 1) for r, g in ranked),
        "hit5": mean(hit_at(r, g, 5) for r, g in ranked),
        "hit10": mean(hit_at(r, g, 10) for r, g in ranked),
        "mrr": mean(reciprocal_rank(r, g) for r, g in ranked),
    }


def evaluate(questions: list[Question], config: FusionConfig) -> dict[str, float]:
    return metrics([(ranking(q, config), q.gold) for q in questions])


def objective(s: dict[str, float]) -> float:
    return s["hit10"] + s["mrr"]


def with_value(config: FusionConfig, name: str, value: float) -> FusionConfig:
    if name in LISTS:
        return replace(config, weights={**config.weights, name: value})
    if name == "k":
        return replace(config, k=int(value))
    return replace(config, **{name: value})


def fit(questions: list[Question], start: FusionConfig, rounds: int = 3) -> FusionConfig:
    """Coordinate ascent over GRID: each parameter in turn takes its best grid value."""
    best, best_value = start, objective(evaluate(questions, start))
    for _ in range(rounds):
        improved = False
        for name, values in GRID.items():
            for value in values:
                candidate = with_value(best, name, value)
                value_of = objective(evaluate(questions, candidate))
                if value_of > best_value + 1e-9:
                    best, best_value, improved = candidate, value_of, True
        if not improved:
            break
    return best


def describe(config: FusionConfig) -> str:
    weights = ", ".join(f"{n}={config.weights.get(n, 0.0):g}" for n in LISTS)
    return (
        f"K={config.k} speaker={config.speaker:g} time={config.time:g} "
        f"neighbour={config.neighbour:g} {weights}"
    )


def show(label: str, s: dict[str, float]) -> None:
    print(
        f"{label:<50} Hit@1 {s['hit1']:.3f}  Hit@5 {s['hit5']:.3f}"
        f"  Hit@10 {s['hit10']:.3f}  MRR {s['mrr']:.3f}",
        flush=True,
    )


def _fit_fold(args: tuple[list[Question], str | None]) -> FusionConfig:
    questions, held_out = args
    return fit([q for q in questions if q.sample != held_out], START)


def cross_validate(questions: list[Question], jobs: int) -> None:
    show("start values (all)", evaluate(questions, START))
    show("shipped fusion, no rerank (all)", evaluate(questions, FUSED))
    samples: list[str | None] = sorted({q.sample for q in questions})
    with Pool(jobs) as pool:
        configs = pool.map(_fit_fold, [(questions, s) for s in [*samples, None]])
    held: list[tuple[list[str], set[str]]] = []
    for sample, fitted in zip(samples, configs, strict=False):
        test = [q for q in questions if q.sample == sample]
        show(f"held out {sample} ({len(test)})", evaluate(test, fitted))
        print(f"    fitted on the others: {describe(fitted)}", flush=True)
        held += [(ranking(q, fitted), q.gold) for q in test]
    show("held-out, pooled", metrics(held))
    show("fitted on all five (in-sample)", evaluate(questions, configs[-1]))
    print(f"    {describe(configs[-1])}")


# --- rerank (offline) -------------------------------------------------------------------------


@dataclass
class Sample:
    sample: str
    values: Any  # DEPTH x len(rerank.FEATURES)
    gold: Any  # DEPTH booleans


def _sample(q: Question) -> Sample:
    import numpy as np

    fused = _ranked(q, FUSED, rerank.WEIGHTS)  # the word weights read all of them, as recall
    values = rerank.table(fused, q.text, FUSED)[:DEPTH]
    gold = np.array([s.gid in q.gold for s in fused[:DEPTH]])
    return Sample(q.sample, np.array(values, dtype=float), gold)


def _pairwise(
    samples: list[Sample],
    without: tuple[str, ...] = (),
    weight: Callable[[Sample], float] | None = None,
) -> dict[str, float]:
    """Logistic regression on (gold - other) differences: P(gold above other); the values
    named in ``without`` are left out (weight 0). ``weight``: each question's weight, shared
    by its pairs (None: every pair counts once, as the shipped turns' weights were fitted)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    diffs, counts = [], []
    for s in samples:
        pairs = [(i, j) for i in np.flatnonzero(s.gold) for j in np.flatnonzero(~s.gold)]
        diffs += [s.values[i] - s.values[j] for i, j in pairs]
        share = 1.0 if weight is None else weight(s) / max(len(pairs), 1)
        counts += [share] * len(pairs)
    x = np.array(diffs)
    x[:, [rerank.FEATURES.index(n) for n in without]] = 0.0
    x = np.vstack([x, -x])
    y = np.r_[np.ones(len(diffs)), np.zeros(len(diffs))]
    w = np.r_[counts, counts] / np.mean(counts)
    scale = x.std(axis=0) + 1e-12
    model = LogisticRegression(C=C, fit_intercept=False, max_iter=5_000)
    model.fit(x / scale, y, sample_weight=w)
    return {
        n: float(f"{w:.3g}") for n, w in zip(rerank.FEATURES, model.coef_[0] / scale, strict=True)
    }


def _calibration(samples: list[Sample], weights: Mapping[str, float]) -> dict[str, float]:
    """The score's calibration (``rerank.SCALE``, ``rerank.OFFSET``): a logistic regression of
    "the group is a gold turn" on the weighted sum, over the same top groups (the pairwise fit
    has no intercept, so its sum has no level of its own)."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    w = np.array([weights.get(n, 0.0) for n in rerank.FEATURES])
    sums = np.concatenate([s.values @ w for s in samples])
    gold = np.concatenate([s.gold for s in samples])
    model = LogisticRegression(C=1e6, max_iter=1_000).fit(sums[:, None], gold)
    scale, offset = float(model.coef_[0][0]), float(model.intercept_[0])
    return {rerank.SCALE: float(f"{scale:.3g}"), rerank.OFFSET: float(f"{offset:.3g}")}


def _reliability(scored: list[tuple[float, bool]], label: str) -> None:
    """Mean score against the share of gold among the same results, and the Brier score."""
    if not scored:
        return
    scores, gold = [s for s, _ in scored], [float(g) for _, g in scored]
    brier = mean((s - g) ** 2 for s, g in zip(scores, gold, strict=True))
    print(
        f"{label:<50} mean score {mean(scores):.3f}  gold share {mean(gold):.3f}"
        f"  Brier {brier:.3f}",
        flush=True,
    )


def lexical(q: Question) -> Question:
    """The question as recall reads a query it has no vector for (a CJK query, no model): no
    vector lists, no cosines (:data:`graph_schema.recall.rerank.LEXICAL_WEIGHTS`)."""

    def plain(rows: list[Candidate]) -> list[Candidate]:
        return [replace(c, similarity=None) for c in rows]

    lists = {n: plain(rows) for n, rows in q.lists.items() if not n.endswith("_vector")}
    near = {g: plain(rows) for g, rows in q.neighbours.items()}
    return replace(q, lists=lists, neighbours=near)


def facts(q: Question) -> Question:
    """The question over a store of facts that are no conversation turn (structured writes,
    events' assertions): only the sentence-level assertion lists, no passage, no turn text, no
    neighbours (:data:`graph_schema.recall.rerank.FACT_WEIGHTS`)."""

    def sentences(rows: list[Candidate]) -> list[Candidate]:
        return [replace(c, turn=False) for c in rows]

    lists = {n: sentences(rows) for n, rows in q.lists.items() if n.startswith("assertion_")}
    near = {g: sentences(rows) for g, rows in q.neighbours.items()}
    return replace(q, lists=lists, neighbours=near)


# Left out of the lexical fit: held out, the IDF-weighted coverage cost 0.003 of Hit@10 there
# (0.829 against 0.832 with `exchange` alone, MRR 0.619 against 0.622): the full-text lists'
# ranks already weigh rare words.
LEXICAL_WITHOUT = ("idf_coverage",)


def fit_rerank(
    questions: list[Question],
    shipped: Mapping[str, float] = rerank.WEIGHTS,
    without: tuple[str, ...] = (),
) -> None:
    show("shipped fusion, no rerank (all)", evaluate(questions, FUSED))
    show("shipped fusion + shipped rerank (all)", _scores(questions, shipped))
    samples = [_sample(q) for q in questions]
    held: list[tuple[list[str], set[str]]] = []
    multi_hop: list[tuple[list[str], set[str]]] = []
    top1: list[tuple[float, bool]] = []
    top10: list[tuple[float, bool]] = []
    for name in sorted({q.sample for q in questions}):
        train = [s for s in samples if s.sample != name]
        weights = _pairwise(train, without)
        weights |= _calibration(train, weights)
        fold = [q for q in questions if q.sample == name]
        test: list[tuple[list[str], set[str]]] = []
        for q in fold:  # one ranking per question: its order and its scores
            ranked = _ranked(q, FusionConfig(), weights)[:10]
            test.append((dedupe(s.gid for s in ranked), q.gold))
            scored = [(s.rerank or 0.0, s.gid in q.gold) for s in ranked]
            top1 += scored[:1]
            top10 += scored
        show(f"held out {name} ({len(test)})", metrics(test))
        held += test
        multi_hop += [t for t, q in zip(test, fold, strict=True) if q.category == 1]
    show("held-out, pooled", metrics(held))
    show(f"held-out, pooled, multi-hop ({len(multi_hop)})", metrics(multi_hop))
    _reliability(top1, "score held out, the first result")
    _reliability(top10, "score held out, the first ten")
    weights = _pairwise(samples, without)
    weights |= _calibration(samples, weights)
    show(
        "fitted on all five (in-sample)",
        _scores(questions, weights),
    )
    print("    WEIGHTS = {" + ", ".join(f"{n!r}: {w}" for n, w in weights.items()) + "}")


TRIALS = ROOT / "bench/trials/conversations.json"
TRIALS_DUMP = ROOT / "var/trials-candidates.pkl"
TRIAL_WEIGHT = 3.0  # a trial question's weight in the work fit against a LoCoMo question's


def splits(file: Path) -> dict[str, str]:
    """Each trial conversation's split (``fit`` or ``test``, bench/trials/README.md)."""
    data = json.loads(file.read_text("utf-8"))
    return {c["id"]: c["split"] for c in data["conversations"]}


def at_work(q: Question) -> bool:
    """Whether recall chooses the work weights for ``q`` (a group among its fused ones is a
    tool's result, an agent's note or a document: ``rerank.WeightSets.choose``)."""
    return any(rerank.at_work(s) for s in _ranked(q, FUSED, rerank.WEIGHTS))


def fit_work(locomo: list[Question], trials: list[Question], split_of: dict[str, str]) -> None:
    """The work weights (``rerank.WORK_WEIGHTS``): fitted on every LoCoMo question and the
    ``fit`` split's questions that choose them (each weighted TRIAL_WEIGHT), each conversation
    held out in turn; scored on the held-out trial questions against the turns' weights, and
    on the ``test`` split with the weights fitted on all."""
    work = [q for q in trials if at_work(q)]
    fit = [q for q in work if split_of[q.sample] == "fit"]
    test = [q for q in work if split_of[q.sample] == "test"]
    samples = [_sample(q) for q in [*locomo, *fit]]

    def weight(s: Sample) -> float:
        return TRIAL_WEIGHT if s.sample in split_of else 1.0

    def fitted(held_out: str | None) -> dict[str, float]:
        train = [s for s in samples if s.sample != held_out]
        weights = _pairwise(train, weight=weight)
        return weights | _calibration(train, weights)

    held: list[tuple[list[str], set[str]]] = []
    for name in sorted({q.sample for q in fit}):
        weights = fitted(name)
        held += [(ranking(q, FusionConfig(), weights), q.gold) for q in fit if q.sample == name]
    show(f"trials fit split ({len(fit)}), the turns' weights", _scores(fit, rerank.WEIGHTS))
    show(f"trials fit split ({len(fit)}), work weights held out", metrics(held))
    weights = fitted(None)
    show(f"trials test split ({len(test)}), the turns' weights", _scores(test, rerank.WEIGHTS))
    show(f"trials test split ({len(test)}), work weights (fitted on all)", _scores(test, weights))
    show("LoCoMo with the work weights (in-sample)", _scores(locomo, weights))
    print("    WORK_WEIGHTS = {" + ", ".join(f"{n!r}: {w}" for n, w in weights.items()) + "}")


def _scores(questions: list[Question], weights: Mapping[str, float]) -> dict[str, float]:
    return metrics([(ranking(q, FusionConfig(), weights), q.gold) for q in questions])


ABLATIONS = (
    ("full pipeline (shipped defaults)", ()),
    ("without the rerank (fusion only)", ("rerank",)),
    ("without the sentence-level assertion lists", ("assertion_vector", "assertion_fulltext")),
    ("without graph expansion", ("graph",)),
    ("without the speaker boost", ("speaker",)),
    ("without the time boost", ("time",)),
    ("without context passages (previous turn + turn)", ("context_vector", "context_fulltext")),
    ("without bare passages", ("passage_vector", "passage_fulltext")),
    ("vector lists only", ("passage_fulltext", "context_fulltext", "assertion_fulltext")),
    ("full-text lists only", ("passage_vector", "context_vector", "assertion_vector")),
)


def ablate(questions: list[Question]) -> None:
    """Each part switched off in turn, as TRACTATUS_RECALL_DISABLE does, on the defaults."""
    for label, off in ABLATIONS:
        show(label, evaluate(questions, FusionConfig.disabling(off)))


def threshold(results: Path, cap: float) -> None:
    """The status rule checked like the weights: for each conversation, the settings that
    keep at most ``cap`` of the other four's answerable questions wrongly not_found with the
    most category 5 not_found, scored on the held-out one (from a run.py result: its relevance
    values). First the one threshold of the rule without the contrast; then, the threshold of
    queries naming no one kept at the shipped value, the person threshold and margin of the
    contrast (``fusion.answered``)."""
    data = json.loads(results.read_text("utf-8"))
    fields = Outcome.__dataclass_fields__
    outcomes = [Outcome(**{k: v for k, v in o.items() if k in fields}) for o in data["outcomes"]]
    # relevance is half a cosine: e5's cosines lie high (unrelated texts ~0.7), so the grids
    # reach 0.95; the margin is finer (the contrast compares two such cosines)
    plain = [Rule(round(0.2 + 0.01 * i, 2)) for i in range(76)]
    floors = [round(0.02 * i, 2) for i in range(46)]
    margins = [round(0.01 * i, 2) for i in range(21)]
    contrast = [Rule(ANSWER_THRESHOLD, t, m) for t in floors for m in margins]
    for label, grid in (("without the contrast", plain), ("the contrast", contrast)):
        print(f"# {label}")
        for row in rule_held_out(outcomes, grid, cap):
            rule = row.get("rule")
            fitted = "" if rule is None else f"{_describe(rule)}  "
            print(
                f"held out {row['held_out']:<8} {fitted}cat 5 not_found {row['cat5']:.3f}"
                f"  answerable wrongly not_found {row['wrongly']:.3f}"
            )
        print(f"fitted on all: {_describe(fit_rule(outcomes, grid, cap))}")


def _describe(rule: Rule) -> str:
    if rule.margin is None:
        return f"threshold {rule.threshold:.2f}"
    return f"person threshold {rule.person_threshold:.2f} margin {rule.margin:.2f}"


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("dump", "fit", "rerank", "ablate", "threshold"))
    parser.add_argument("--results", type=Path, help="threshold: a run.py result (JSON)")
    parser.add_argument("--cap", type=float, default=0.05, help="threshold: wrongly not_found")
    parser.add_argument("--file", type=Path, default=None, help=harness.LOCOMO_HELP)
    parser.add_argument("--dump", type=Path, default=DUMP)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--lexical", action="store_true", help="rerank: fit the weights of queries without a vector"
    )
    parser.add_argument(
        "--trials",
        action="store_true",
        help="dump: the new users' trials (bench/trials, written by its run.py) to --trials-dump",
    )
    parser.add_argument("--trials-dump", type=Path, default=TRIALS_DUMP)
    parser.add_argument(
        "--work",
        action="store_true",
        help="rerank: fit the weights of turns among tools' results and agents' notes",
    )
    parser.add_argument(
        "--facts",
        action="store_true",
        help="rerank: fit the weights of facts that are no turn (assertion lists alone)",
    )
    parser.add_argument(
        "--without",
        action="append",
        choices=rerank.FEATURES,
        help="rerank: leave this value out of the fit (repeatable; --lexical: "
        f"{', '.join(LEXICAL_WITHOUT)} unless given)",
    )
    return parser


def main() -> None:
    parser = _parser()
    args = parser.parse_args()
    if args.command == "dump" and args.trials:
        dump(trial_questions(TRIALS), args.trials_dump)
    elif args.command == "dump":
        dump(locomo_questions(harness.locomo_argument(parser, args.file)), args.dump)
    elif args.command == "threshold":
        threshold(args.results or parser.error("threshold needs --results"), args.cap)
    elif args.command == "ablate":
        ablate(pickle.loads(args.dump.read_bytes()))
    elif args.command == "rerank" and args.work:
        locomo = pickle.loads(args.dump.read_bytes())
        fit_work(locomo, pickle.loads(args.trials_dump.read_bytes()), splits(TRIALS))
    elif args.command == "rerank" and args.facts:
        questions = [facts(q) for q in pickle.loads(args.dump.read_bytes())]
        fit_rerank(questions, rerank.FACT_WEIGHTS)
    elif args.command == "rerank" and args.lexical:
        questions = [lexical(q) for q in pickle.loads(args.dump.read_bytes())]
        without = LEXICAL_WITHOUT if args.without is None else tuple(args.without)
        fit_rerank(questions, rerank.LEXICAL_WEIGHTS, without)
    elif args.command == "rerank":
        fit_rerank(pickle.loads(args.dump.read_bytes()), without=tuple(args.without or ()))
    else:
        cross_validate(pickle.loads(args.dump.read_bytes()), args.jobs)


if __name__ == "__main__":
    main()
