"""The nonmanip paper module: instances, runs, aggregation, Table 1 and claims."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from causal_bandits import config as cb_config
from causal_bandits import store
from causal_bandits.aggregate import aggregate
from causal_bandits.claims import DIFFERS, NOT_EVALUATED, REPRODUCED
from causal_bandits.errors import DiagramError
from causal_bandits.papers.nonmanip import claims, config, experiments, tables
from causal_bandits.papers.nonmanip.runs import run_chunk
from causal_bandits.runs import chunk_seeds

CONFIG = cb_config.validate(cb_config.load(Path(__file__).resolve().parents[1] / "config" / "config.yaml"))
PANELS = CONFIG["nonmanip"]["panels"]


@pytest.fixture(scope="module")
def instances():
    return {name: experiments.instance_document(name, panel) for name, panel in PANELS.items()}


def test_arm_lists_match_the_paper(instances):
    counts = {name: tuple(len(doc["arm_lists"][s]) for s in ("BF", "MIS", "POMIS")) for name, doc in instances.items()}
    assert counts == {"fig5a": (3, 3, 3), "fig5b": (9, 5, 5), "fig5c": (27, 19, 15)}
    assert instances["fig5a"]["identical"] == {"BF": "MIS", "MIS": "POMIS"}
    assert instances["fig5b"]["identical"] == {"MIS": "POMIS"}
    assert instances["fig5c"]["identical"] == {}


def test_arm_ids_follow_the_canonical_order(instances):
    labels = [a["label"] for a in instances["fig5b"]["arms"]]
    assert labels[:5] == ["do()", "do(B=0)", "do(B=1)", "do(C=0)", "do(C=1)"]
    assert labels[5:] == ["do(B=0,C=0)", "do(B=0,C=1)", "do(B=1,C=0)", "do(B=1,C=1)"]
    for doc in instances.values():  # sublists preserve order
        for s in ("MIS", "POMIS"):
            assert doc["arm_lists"][s] == sorted(doc["arm_lists"][s])


def test_check_config_rejects_bad_graphs():
    bad = {"panels": {"p": {**PANELS["fig5a"], "graph": {"nodes": ["X", "Y", "X"], "reward": "Y"}}}}
    with pytest.raises(DiagramError, match="panel 'p'.*listed twice"):
        config.check_config(bad)
    bad = {"panels": {"p": {**PANELS["fig5a"], "non_manipulable": ["Y"]}}}
    with pytest.raises(DiagramError, match="cannot be non-manipulable"):
        config.check_config(bad)


def _run(tmp_path, instance, strategy, algorithm, seeds_per_job, n=7, horizon=60):
    paths = []
    for k, seeds in enumerate(chunk_seeds(n, seeds_per_job)):
        trace = tmp_path / f"{strategy}-{algorithm}-{seeds_per_job}-{k}.parquet"
        run_chunk(instance, strategy=strategy, algorithm=algorithm, seeds=seeds,
                  horizon=horizon, record_points=20, trace_path=trace,
                  summary_path=tmp_path / f"{trace.stem}.summary.parquet", metadata={"test": "1"})
        paths.append(trace)
    return paths


def test_aggregate_is_byte_identical_whatever_the_chunk_size(tmp_path, instances):
    outs = []
    for size in (1, 3, 7):
        settings = {(s, a): _run(tmp_path, instances["fig5b"], s, a, size) for s in ("BF", "POMIS") for a in ("TS", "KLUCB")}
        out = tmp_path / f"agg-{size}.parquet"
        store.write_table(out, aggregate(settings), {"experiment": "fig5b"})
        outs.append(out.read_bytes())
    assert outs[0] == outs[1] == outs[2]


def test_identical_arm_sets_give_identical_runs(tmp_path, instances):
    mis = pq.read_table(_run(tmp_path, instances["fig5b"], "MIS", "TS", 7)[0])
    pomis = pq.read_table(_run(tmp_path, instances["fig5b"], "POMIS", "TS", 7)[0])
    bf = pq.read_table(_run(tmp_path, instances["fig5b"], "BF", "TS", 7)[0])
    assert mis.equals(pomis)
    assert not mis.equals(bf)


def _agg(final: dict[tuple[str, str], tuple[float, float]], horizon=10_000) -> pd.DataFrame:
    rows = []
    for (s, a), (mean, half) in final.items():
        for r, scale in ((1, 0.0), (horizon, 1.0)):
            rows.append({"strategy": s, "algorithm": a, "round": r, "n_seeds": 1000,
                         "mean_cum_regret": mean * scale, "sd_cum_regret": 1.0, "ci95_lo": (mean - half) * scale,
                         "ci95_hi": (mean + half) * scale, "mean_cum_realized_regret": mean * scale,
                         "optimal_arm_prob": 0.5})
    return pd.DataFrame(rows)


def _results(instances, agg_5c, identical_ok=True):
    aggs = {"fig5c": agg_5c}
    inst = {"fig5c": instances["fig5c"]}
    return {"instances": inst, "agg": aggs, "identical_runs": {"fig5c": {}},
            "table1": tables.table1(aggs, inst),
            "arm_sets": {g: experiments.arm_sets_document(g) for g in ("frontdoor", "fig2a", "fig5d")}}


def _verdicts(results):
    return {c.id: c.check(results) for c in claims.claims(results["instances"])}


def test_claims_reproduce_and_differ_on_the_evidence(instances):
    good = _agg({("POMIS", "TS"): (160.0, 5), ("MIS", "TS"): (210.0, 5), ("BF", "TS"): (300.0, 5),
                 ("POMIS", "KLUCB"): (360.0, 5), ("MIS", "KLUCB"): (470.0, 5), ("BF", "KLUCB"): (650.0, 5)})
    v = _verdicts(_results(instances, good))
    assert v["order-fig5c-TS"]["status"] == REPRODUCED
    assert v["ts-below-klucb-fig5c"]["status"] == REPRODUCED
    assert v["table1-TS-POMIS-fig5c"]["status"] == REPRODUCED  # 160 vs 161.54
    assert v["table1-TS-BF-fig5c"]["status"] == REPRODUCED  # 300 vs 313.39, within 15 %
    assert v["table1-TS-POMIS+-fig5c"]["status"] == NOT_EVALUATED
    assert v["pomis-fig2a-NA"]["status"] == REPRODUCED
    assert v["arms-fig5d-NAC"]["status"] == REPRODUCED

    # Overlapping intervals break the strict ordering; a value 30 % off is reported as differing.
    bad = _agg({("POMIS", "TS"): (200.0, 20), ("MIS", "TS"): (210.0, 20), ("BF", "TS"): (220.0, 20),
                ("POMIS", "KLUCB"): (100.0, 5), ("MIS", "KLUCB"): (470.0, 5), ("BF", "KLUCB"): (650.0, 5)})
    v = _verdicts(_results(instances, bad))
    assert v["order-fig5c-TS"]["status"] == DIFFERS
    assert v["ts-below-klucb-fig5c"]["status"] == DIFFERS
    assert v["table1-TS-BF-fig5c"]["status"] == DIFFERS
    assert "313.39" in v["table1-TS-BF-fig5c"]["paper"] and "220.00" in v["table1-TS-BF-fig5c"]["ours"]


def test_values_at_a_shorter_horizon_are_not_evaluated(instances):
    short = _agg({("POMIS", "TS"): (160.0, 5), ("MIS", "TS"): (210.0, 5), ("BF", "TS"): (300.0, 5)}, horizon=1000)
    v = _verdicts(_results(instances, short))
    assert v["table1-TS-POMIS-fig5c"]["status"] == NOT_EVALUATED
    assert "T = 1000" in v["table1-TS-POMIS-fig5c"]["note"]
    # Orderings are low-power checks at quick scale: reported with our numbers, not judged.
    assert v["order-fig5c-TS"]["status"] == NOT_EVALUATED
    assert "210.0" in v["order-fig5c-TS"]["ours"]
    assert v["order-fig5c-KLUCB"]["status"] == NOT_EVALUATED


def test_table1_blanks_follow_the_paper(instances):
    agg = _agg({(s, a): (1.0, 0.1) for s in ("BF", "MIS", "POMIS") for a in ("TS", "KLUCB")})
    table = tables.table1({"fig5b": agg}, {"fig5b": instances["fig5b"]})
    shown = {(r.strategy, r.algorithm): r.shown for r in table.itertuples()}
    assert shown[("BF", "TS")] and shown[("POMIS", "TS")] and not shown[("MIS", "TS")]
    md = tables.table1_markdown(table, {"fig5b": "b"})
    assert "[183.15]" in md and "[93.53]" in md
    assert np.isnan(table.set_index(["strategy", "algorithm"]).loc[("MIS", "TS"), "paper_value"])
