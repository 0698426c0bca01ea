"""Adult-Video (AAAI-22 §4.2, App. E.2): preprocessing, PC graph, counterfactual truth, runs."""

import numpy as np
import pytest
from workflow_helpers import SHARED_RAW

from causal_bandits.data.adult import read_adult
from causal_bandits.data.youtube import read_crawl
from causal_bandits.papers.fairness import adult_video as av
from causal_bandits.papers.fairness import runs as fr
from causal_bandits.papers.fairness import standin
from causal_bandits.papers.fairness.figures import figure3_title

RAW_DIR = SHARED_RAW
needs_raw = pytest.mark.skipif(
    not (RAW_DIR / "adult" / "adult.data.gz").is_file(), reason=f"shared raw data not found at {RAW_DIR}"
)
CFG = {
    "seed": 0,
    "n_sample": 2000,
    "n_graph": 1000,
    "n_videos": 400,
    "age_rule": "ge_median",
    "video_rule": "gt_median",
    "arm_features": ["length", "ratings", "views", "comments"],
    "reward": {"coef": {"age": 0.2, "income": 0.2, "ratings": 0.2, "views": 0.2}, "sigma": 0.1},
    "sensitive": "sex",
    "s_plus": 1,
    "cf_mode": "identifiable",
    "graph": {
        "alpha": 0.05,
        "max_cond_vars": 3,
        "enforce_paper_W": True,
        "user_order": ["sex", "race", "age", "income"],
        "video_order": ["length", "views", "ratings", "comments"],
    },
}
RUN = {
    "horizon": 300,
    "ucb": {"per_context": False},
    "fairlinucb": {"alpha": 1.0, "lambda": 1.0, "gamma": 1.0},
    "fucb": {"alpha_r": 1.0, "alpha_c": 1.0, "fallback": "unconstrained", "safe_arm": {}},
}


def pipeline(adult_path, youtube_path, cfg=CFG, graph_edit=None):
    users, _ = av.binarize_users(read_adult(adult_path), cfg["age_rule"])
    sample = av.sample_users(users, cfg["n_sample"], cfg["n_graph"], cfg["seed"])
    pool, _ = av.select_videos(
        read_crawl([youtube_path], 0.05).videos,
        cfg["n_videos"],
        cfg["seed"],
        cfg["arm_features"],
        cfg["video_rule"],
    )
    offline = av.offline_table(sample, pool, cfg["arm_features"], cfg["reward"], cfg["seed"])
    graph = av.graph_document(offline, cfg["arm_features"], cfg)
    if graph_edit:
        graph = graph_edit(graph)
    doc = av.instance_document(sample, pool, offline, graph, cfg, provenance="test")
    return sample, pool, offline, graph, doc


@pytest.fixture(scope="module")
def standin_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("standin")
    standin.write_lines(d / "adult.data", standin.adult_lines(0))
    standin.write_lines(d / "yt.txt", standin.youtube_lines(0))
    return d / "adult.data", d / "yt.txt"


@pytest.fixture(scope="module")
def standin_run(standin_files):
    return pipeline(*standin_files)


def test_sample_split_and_binarisation(standin_run):
    sample, pool, offline, _, doc = standin_run
    assert len(sample) == 2000 and (sample["split"] == "graph").sum() == 1000
    assert sample["row_id"].is_unique and set(sample[["age", "sex", "race", "income"]].stack()) <= {0, 1}
    bits = pool[[f"{f}_b" for f in CFG["arm_features"]]].to_numpy()
    np.testing.assert_array_equal(pool["arm_id"], bits @ np.array([8, 4, 2, 1]))
    assert len(offline) == 1000 and offline["R5"].between(0, 4).all()
    assert len(doc["users"]["row_id"]) == 1000


def test_exact_means_follow_the_linear_reward(standin_run):
    *_, doc = standin_run
    names = [v["name"] for v in doc["variables"]]
    values = np.asarray(doc["linucb_features"])
    expected = 0.2 * values[..., [names.index(v) for v in ("age", "income", "ratings", "views")]].sum(axis=2)
    np.testing.assert_allclose(np.asarray(doc["mu"]), expected)


def test_counterfactual_truth_is_zero_without_descendants_and_not_with(standin_files):
    def force(graph, edge):
        graph = dict(graph)
        edges = [e for e in graph["edges"] if (set(e) != set(edge) and "sex" not in e) or e[1] == "R"]
        graph["edges"] = [*edges, list(edge)]
        return graph

    _, _, _, _graph, doc = pipeline(*standin_files, graph_edit=lambda g: force(g, ("race", "income")))
    assert doc["sensitive"]["descendants_in_X"] == [] and np.all(np.asarray(doc["delta_true"]) == 0.0)
    cfg = {**CFG, "cf_mode": "auto"}
    _, _, _, _graph, doc = pipeline(*standin_files, cfg, lambda g: force(g, ("sex", "income")))
    assert doc["sensitive"]["descendants_in_X"] == ["income"] and doc["cf_mode_used"] == "bounds"
    delta = np.asarray(doc["delta_true"])
    assert np.abs(delta).max() > 0.01 and np.abs(delta).max() <= 0.2 + 1e-12  # at most the income coefficient
    assert np.asarray(doc["models"]["ducb"]["cf_contexts"]).shape == (16, 2, 2)


@pytest.mark.parametrize("name", ["fairlinucb", "fucb_tau0.3"])
def test_adult_runs_do_not_depend_on_the_seed_chunking(standin_run, name):
    import dataclasses

    from engine_helpers import FairnessRounds

    from causal_bandits.bandits.audit import FairnessAuditor
    from causal_bandits.bandits.causal_environment import CausalEnvironment
    from causal_bandits.bandits.cells import CellModel
    from causal_bandits.bandits.engine import Streams, simulate

    *_, doc = standin_run

    def run(seeds):
        rounds = FairnessRounds(FairnessAuditor(CellModel.from_document(doc["models"]["ducb"]), [0.3]))
        simulate(
            fr.build_policy(name, doc, RUN),
            CausalEnvironment.from_document(doc),
            Streams("fairness", "adult_video", np.asarray(seeds)),
            RUN["horizon"],
            [rounds],
        )
        return rounds

    both = run([3, 4])
    np.testing.assert_array_equal(both.arms[1], run([4]).arms[0])
    np.testing.assert_array_equal(both.rewards[0], run([3]).rewards[0])
    env = CausalEnvironment.from_document(doc)
    ids = dataclasses.replace(env, user_contexts=np.arange(len(env.user_contexts)))  # a user's id as its context
    ids.reset(Streams("fairness", "adult_video", np.array([3])), 1000)
    env.reset(Streams("fairness", "adult_video", np.array([3])), 1000)
    sequence = np.stack([ids.contexts(t, None, np.array([0])) for t in range(1, 1001)])
    assert np.unique(sequence).size == 1000  # each online user exactly once
    assert (np.stack([env.contexts(t, None, np.array([0])) for t in range(1, 1001)]) < 16).all()


def test_figure3_title_says_when_data_are_synthetic():
    assert "SYNTHETIC STAND-IN" in figure3_title({"data_provenance": "synthetic-standin"})
    assert "SYNTHETIC" not in figure3_title({"data_provenance": "raw"})


@needs_raw
def test_real_data_graph_recovers_the_papers_parents_of_r():
    cfg = {**CFG, "n_sample": 10000, "n_graph": 5000, "n_videos": 1580, "graph": {**CFG["graph"], "max_cond_vars": 5}}
    files = RAW_DIR / "adult" / "adult.data.gz", RAW_DIR / "youtube" / "youtubedata.txt"
    sample, pool, _, graph, doc = pipeline(*files, cfg)
    assert sample["age"].mean() == pytest.approx((sample["age_raw"] >= 37).mean())
    assert np.unique(pool["arm_id"]).size == 16
    assert sorted(graph["pa_R"]) == sorted(av.PAPER_W)
    assert doc["dsep"]["learned_W"] == ["age", "income", "ratings", "views"] and not doc["dsep"]["enforced_paper_W"]
    assert doc["cf_mode_used"] == "identifiable" and np.all(np.asarray(doc["delta_true"]) == 0.0)
