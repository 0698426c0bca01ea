"""The Adult-Video experiment of Huang, Zhang & Wu (AAAI-22, §4.2, Appendix E.2).

Users are UCI Adult records, arms are YouTube videos (netsg crawl), following Huang et al.
(2020). Preprocessing as our reading resolves it (docs/papers/fairness.md#fairness-adult-video):

1. Adult: keep age, sex, race, income and binarise them — age at the median of adult.data
   (``ge_median``: 1{age >= median}, A18), sex 1{Male} (s+ = 1), race 1{White}, income 1{>50K};
   draw ``n_sample`` rows without replacement, the first ``n_graph`` of the sampled order are the
   offline ("graph") users, the rest the online users (A16: adult.data has 32,561 rows).
2. YouTube: a seeded sample of ``n_videos`` valid records (A19); the four arm features (Sec. 4.2:
   length, ratings, views, comments, A17) binarised at their medians within the sample; the video
   type 8 length + 4 ratings + 2 views + comments is the arm (16 types).
3. Offline table: each graph user meets one video drawn uniformly from the pool and gets the
   reward R = (age + income + ratings + views) / 5 + N(0, 0.1^2), recorded as R5 =
   clip(round(5 R), 0, 4) for graph learning (A20).

The learned graph (PC-stable + tiers, :mod:`causal_bandits.causal.discovery`) gives Pa(R), the
d-separation set W and the descendants of sex among the user features; ground-truth
counterfactual discrepancies come from abduction–action–prediction on the user part of the
learned graph with CPTs fitted on the offline users (K2 prior), so they are zero exactly when
the learned graph makes no user feature a descendant of sex.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import networkx as nx
import numpy as np
import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.bandits.cells import CellModel, cell_ids
from causal_bandits.causal.counterfactual import counterfactual_table
from causal_bandits.causal.discovery import learn_graph
from causal_bandits.causal.dseparation import is_dseparator, min_domain_dseparator
from causal_bandits.data.adult import read_adult
from causal_bandits.data.youtube import read_crawl
from causal_bandits.errors import DataError
from causal_bandits.papers.fairness.instance import assignments, cell_model, variables_document
from causal_bandits.rng import generator

warnings.filterwarnings("ignore", message=".*StructureScore.*", category=FutureWarning)

from pgmpy.models import DiscreteBayesianNetwork  # noqa: E402
from pgmpy.parameter_estimator import DiscreteBayesianEstimator  # noqa: E402

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

EXPERIMENT = "adult_video"
PAPER = "fairness"
REWARD = "R"
USER_FEATURES = ("age", "sex", "race", "income")
#: Raw YouTube column of each possible arm feature (``video_age`` is E.2's "age of video").
VIDEO_COLUMNS = {
    "video_age": "age_days",
    "length": "length_s",
    "views": "views",
    "rate": "rate",
    "ratings": "ratings",
    "comments": "comments",
}
#: The paper's d-separation set (§4.2) = the bold parents of R in its Figure 3.
PAPER_W = ("age", "income", "ratings", "views")
LABELS = {
    "age": "Age",
    "sex": "Sex",
    "race": "Race",
    "income": "Income",
    "video_age": "Age of video",
    "length": "Length",
    "views": "Views",
    "rate": "Rate",
    "ratings": "Ratings",
    "comments": "Comments",
}


# --------------------------------------------------------------------------- preprocessing
def binarize_users(adult: pd.DataFrame, age_rule: str) -> tuple[pd.DataFrame, dict[str, Any]]:
    """The four binary user features of every Adult record, and the age threshold used."""
    median = float(adult["age"].median())
    age = adult["age"] >= median if age_rule == "ge_median" else adult["age"] > median
    users = pd.DataFrame(
        {
            "row_id": adult["row_id"].astype(np.int64),
            "age_raw": adult["age"].astype(np.int16),
            "age": age.astype(np.int8),
            "sex": (adult["sex"] == "Male").astype(np.int8),
            "race": (adult["race"] == "White").astype(np.int8),
            "income": (adult["income"] == ">50K").astype(np.int8),
        }
    )
    return users, {
        "age_median": median,
        "age_rule": age_rule,
        "sex": "Male = 1",
        "race": "White = 1",
        "income": ">50K = 1",
    }


def sample_users(users: pd.DataFrame, n_sample: int, n_graph: int, seed: int) -> pd.DataFrame:
    """``n_sample`` users without replacement; the first ``n_graph`` are offline, the rest online."""
    if n_sample > len(users):
        raise DataError(f"fairness.adult_video.n_sample = {n_sample} exceeds the {len(users)} Adult records; lower it")
    order = generator(PAPER, EXPERIMENT, seed, "data/users").choice(len(users), n_sample, replace=False)
    sample = users.iloc[order].reset_index(drop=True)
    sample["split"] = np.where(np.arange(n_sample) < n_graph, "graph", "online")
    sample["sample_pos"] = np.arange(n_sample, dtype=np.int32)
    return sample


def select_videos(
    videos: pd.DataFrame, n_videos: int, seed: int, arm_features: Sequence[str], rule: str
) -> tuple[pd.DataFrame, dict[str, float]]:
    """A seeded sample of ``n_videos`` videos with binarised arm features and their type (arm id)."""
    if n_videos > len(videos):
        raise DataError(
            f"fairness.adult_video.n_videos = {n_videos} exceeds the {len(videos)} valid videos "
            f"of the crawl file(s); lower it or add crawl files"
        )
    order = np.sort(generator(PAPER, EXPERIMENT, seed, "data/videos").choice(len(videos), n_videos, replace=False))
    pool = videos.iloc[order].reset_index(drop=True)
    medians, arm_id = {}, np.zeros(n_videos, dtype=np.int64)
    for name in arm_features:
        column = pool[VIDEO_COLUMNS[name]]
        medians[name] = float(column.median())
        bit = (column > medians[name]) if rule == "gt_median" else (column >= medians[name])
        pool[f"{name}_b"] = bit.astype(np.int8)
        arm_id = 2 * arm_id + bit.to_numpy()
    pool["arm_id"] = arm_id.astype(np.int8)
    return pool, medians


def reward_mean(frame: pd.DataFrame, coef: Mapping[str, float]) -> np.ndarray | int:
    """(age + income + ratings + views) / 5 in general form: sum of coef * binary feature (0 without
    coefficients)."""
    return sum(c * frame[name].to_numpy(float) for name, c in coef.items())


def offline_table(
    users: pd.DataFrame, pool: pd.DataFrame, arm_features: Sequence[str], reward: Mapping[str, Any], seed: int
) -> pd.DataFrame:
    """Each offline user with one uniformly drawn video and a simulated reward (and R5)."""
    graph_users = users[users["split"] == "graph"].reset_index(drop=True)
    rng = generator(PAPER, EXPERIMENT, seed, "data/offline")
    pick = rng.integers(0, len(pool), len(graph_users))
    video = pool.iloc[pick].reset_index(drop=True)
    table = graph_users[["row_id", *USER_FEATURES]].copy()
    table["video_id"] = video["video_id"].to_numpy()
    table["arm_id"] = video["arm_id"].to_numpy()
    for name in arm_features:
        table[name] = video[f"{name}_b"].to_numpy()
    table["reward"] = reward_mean(table, reward["coef"]) + reward["sigma"] * rng.standard_normal(len(table))
    table["R5"] = np.clip(np.round(5 * table["reward"]), 0, 4).astype(np.int8)
    return table


# --------------------------------------------------------------------------- graph
def graph_document(offline: pd.DataFrame, arm_features: Sequence[str], config: Mapping[str, Any]) -> dict[str, Any]:
    """Figure 3: the graph PC-stable learns from the offline table, with tiers, and its Pa(R)."""
    g = config["graph"]
    data = offline[[*USER_FEATURES, *arm_features, "R5"]].rename(columns={"R5": REWARD}).astype(int)
    tiers = [list(g["user_order"]), [f for f in g["video_order"] if f in arm_features], [REWARD]]
    learned = learn_graph(data, tiers, alpha=g["alpha"], max_cond_vars=g["max_cond_vars"], forbidden=[(0, 1)])
    return {
        **learned.to_document(),
        "pa_R": learned.parents(REWARD),
        "paper_pa_R": sorted(PAPER_W),
        "settings": {
            "algorithm": "PC-stable (pgmpy)",
            "ci_test": "chi_square",
            "alpha": g["alpha"],
            "max_cond_vars": g["max_cond_vars"],
            "tiers": tiers,
            "forbidden_tiers": [[0, 1]],
            "n_rows": len(data),
        },
    }


def _user_network(graph: nx.DiGraph, offline: pd.DataFrame) -> DiscreteBayesianNetwork:
    """The learned graph restricted to the user features, CPTs fitted on the offline users (K2)."""
    sub = graph.subgraph(USER_FEATURES)
    bn = DiscreteBayesianNetwork(list(sub.edges()))
    bn.add_nodes_from(USER_FEATURES)
    data = offline[list(USER_FEATURES)].astype(int)
    estimator = DiscreteBayesianEstimator(state_names={v: [0, 1] for v in USER_FEATURES}, prior_type="K2")
    bn.add_cpds(*estimator.fit(bn, data).parameters_)
    bn.check_model()
    return bn


def _user_reward_shift(
    bn: DiscreteBayesianNetwork,
    context: np.ndarray,
    coef: Mapping[str, float],
    sensitive: str,
    s_values: tuple[int, int],
) -> float:
    """E[user part of R | do(S = s+), x] - E[... | do(S = s-), x] by abduction–action–prediction.

    The video part of the reward is fixed by the arm, so this is the counterfactual discrepancy of
    every arm; it is exactly 0 when no rewarded user feature descends from S.
    """
    targets = [v for v in USER_FEATURES if coef.get(v) and v != sensitive]
    evidence = {v: int(x) for v, x in zip(USER_FEATURES, context)}
    table = counterfactual_table(bn, targets, evidence, [sensitive])  # (S states, *target states)
    states = list(bn.get_cpds(sensitive).state_names[sensitive])
    grid = np.zeros(table.shape[1:])
    for k, v in enumerate(targets):
        shape = [1] * len(targets)
        shape[k] = 2
        grid = grid + coef[v] * np.asarray(bn.get_cpds(v).state_names[v], dtype=float).reshape(shape)
    means = [(table[states.index(s)] * grid).sum() + coef.get(sensitive, 0.0) * s for s in s_values]
    shift = float(means[0] - means[1])
    return 0.0 if abs(shift) < 1e-12 else shift


# --------------------------------------------------------------------------- instance
def instance_document(
    users: pd.DataFrame,
    pool: pd.DataFrame,
    offline: pd.DataFrame,
    graph_doc: Mapping[str, Any],
    config: Mapping[str, Any],
    *,
    provenance: str,
    dsep_criterion: str = "W_then_Z",
) -> dict[str, Any]:
    """Everything the Adult-Video runs, tables and claims need (see ``papers/fairness/instance``)."""
    arm_features = tuple(config["arm_features"])
    names = (*USER_FEATURES, *arm_features)
    coef = dict(config["reward"]["coef"])
    sensitive, s_plus = config["sensitive"], int(config["s_plus"])
    s_values = (s_plus, 1 - s_plus)
    graph = nx.DiGraph([tuple(e) for e in graph_doc["edges"]])
    graph.add_nodes_from(graph_doc["nodes"])
    sep = _Separator.of(graph, arm_features, bool(config["graph"]["enforce_paper_W"]), dsep_criterion)
    b_vars, cf_mode = _counterfactual_mode(graph, sensitive, config["cf_mode"])
    contexts = assignments([2] * len(USER_FEATURES))
    present = np.unique(pool["arm_id"].to_numpy())
    arms = assignments([2] * len(arm_features))[present]
    values = np.concatenate(
        [np.repeat(contexts[:, None], len(arms), 1), np.repeat(arms[None], len(contexts), 0)], axis=2
    )
    bn = _user_network(graph, offline)
    shift = np.array([_user_reward_shift(bn, x, coef, sensitive, s_values) for x in contexts])
    model = _ducb_model(arm_features, sep.W, contexts, arms, sensitive, s_values, b_vars, cf_mode)
    return {
        "experiment": EXPERIMENT,
        "data_provenance": provenance,
        "variables": variables_document([(v, LABELS[v], (0, 1), "X" if v in USER_FEATURES else "A") for v in names]),
        "user_features": list(USER_FEATURES),
        "arm_features": list(arm_features),
        "contexts": contexts.tolist(),
        "arms": arms.tolist(),
        "arm_types": present.tolist(),
        "arm_pool_sizes": pool["arm_id"].value_counts().reindex(present).astype(int).tolist(),
        "intermediate": [],
        "reward": {"name": REWARD, "coef": coef, "sigma": float(config["reward"]["sigma"])},
        "mu": (values * np.array([coef.get(v, 0.0) for v in names])).sum(axis=2).tolist(),
        "delta_true": np.repeat(shift[:, None], len(arms), 1).tolist(),
        "users": _online_users(users),
        "linucb_features": values.astype(float).tolist(),
        "linucb_group": np.where(contexts[:, USER_FEATURES.index(sensitive)] == s_plus, 0, 1).tolist(),
        "sensitive": {"name": sensitive, "s_plus": s_plus, "s_minus": 1 - s_plus, "descendants_in_X": b_vars},
        "graph": {
            "nodes": list(graph_doc["nodes"]),
            "edges": graph_doc["edges"],
            "policy_edges": [[x, a] for x in USER_FEATURES for a in arm_features],
        },
        "dsep": sep.document(),
        "pa_R": graph_doc["pa_R"],
        "cf_mode_used": cf_mode,
        "models": {"ducb": model.to_document()},
    }


def _online_users(users: pd.DataFrame) -> dict[str, list[int]]:
    """The online users in arrival order: their Adult row ids and their context cells."""
    online = users[users["split"] == "online"].sort_values("sample_pos")
    return {
        "row_id": online["row_id"].astype(int).tolist(),
        "context": cell_ids(online[list(USER_FEATURES)].to_numpy(), [2] * 4).tolist(),
    }


def _counterfactual_mode(graph: nx.DiGraph, sensitive: str, mode: str) -> tuple[list[str], str]:
    """The user features downstream of the sensitive one, and the counterfactual mode: ``bounds`` when
    asked for, or under ``auto`` when some feature is downstream, else ``identifiable``."""
    b_vars = sorted(nx.descendants(graph, sensitive) & set(USER_FEATURES)) if sensitive in graph else []
    return b_vars, "bounds" if mode == "bounds" or (mode == "auto" and b_vars) else "identifiable"


def _ducb_model(
    arm_features: Sequence[str],
    W: Sequence[str],
    contexts: np.ndarray,
    arms: np.ndarray,
    sensitive: str,
    s_values: tuple[int, int],
    b_vars: Sequence[str],
    cf_mode: str,
) -> CellModel:
    """The D-UCB cell model over the binary user and arm features (no Z: the domain of Z is one cell)."""
    names = (*USER_FEATURES, *arm_features)
    return cell_model(
        cards=dict.fromkeys(names, 2),
        columns={v: i for i, v in enumerate(names)},
        W=W,
        Z=(),
        x_vars=USER_FEATURES,
        a_vars=arm_features,
        contexts=contexts,
        arms=arms,
        p_z=np.ones((len(contexts), len(arms), 1)),
        sensitive=sensitive,
        s_values=s_values,
        b_vars=b_vars if cf_mode == "bounds" else (),
        cf_mode=cf_mode,
    )


@dataclass(frozen=True)
class _Separator:
    """The d-separator W of the reward used for the D-UCB cells: the smallest-domain one of the learned
    graph with the policy's edges (user features into arm features) added, or the paper's W when
    ``graph.enforce_paper_W`` is set and the learned one differs."""

    W: tuple[str, ...]
    learned: tuple[str, ...]
    enforced: bool
    n_valid: int
    criterion: str
    paper_W_separates: bool

    @classmethod
    def of(cls, graph: nx.DiGraph, arm_features: Sequence[str], enforce_paper_W: bool, criterion: str) -> _Separator:
        names = (*USER_FEATURES, *arm_features)
        with_policy = graph.copy()
        with_policy.add_edges_from((x, a) for x in USER_FEATURES for a in arm_features)
        dsep = min_domain_dseparator(with_policy, REWARD, names, names, dict.fromkeys(names, 2), criterion)
        enforce = enforce_paper_W and set(dsep.W) != set(PAPER_W)
        return cls(
            W=tuple(v for v in names if v in PAPER_W) if enforce else dsep.W,
            learned=dsep.W,
            enforced=enforce,
            n_valid=dsep.n_valid,
            criterion=criterion,
            paper_W_separates=is_dseparator(with_policy, REWARD, PAPER_W, names),
        )

    def document(self) -> dict[str, Any]:
        return {
            "W": list(self.W),
            "Z": [],
            "domain_W": int(2 ** len(self.W)),
            "domain_Z": 1,
            "n_valid": self.n_valid,
            "criterion": self.criterion,
            "learned_W": list(self.learned),
            "enforced_paper_W": self.enforced,
            "paper_W_is_dseparator": self.paper_W_separates,
        }


def users_step(job: Job) -> None:
    """Rule fairness_adult_users: binarised Adult users (:func:`binarize_users`), the sample and its graph / online
    split (:func:`sample_users`)."""
    cfg = job.params.adult_video
    manifest = store.read_json(job.input.manifest)
    adult = read_adult(job.input.files[0])
    users, thresholds = binarize_users(adult, cfg["age_rule"])
    sample = sample_users(users, cfg["n_sample"], cfg["n_graph"], cfg["seed"])
    meta = {
        **store.provenance(cfg),
        **{f"threshold_{k}": v for k, v in thresholds.items()},
        "data_provenance": manifest["data_provenance"],
        "source": manifest["files"][0]["file"],
        "n_records": len(adult),
        "n_male": int((adult["sex"] == "Male").sum()),
        "n_female": int((adult["sex"] == "Female").sum()),
    }
    store.write_table(job.output[0], pa.Table.from_pandas(sample, preserve_index=False), meta)
    log.info(
        "%d Adult records (%s), age median %.0f; %d sampled: %d graph, %d online",
        len(adult),
        manifest["data_provenance"],
        thresholds["age_median"],
        len(sample),
        cfg["n_graph"],
        len(sample) - cfg["n_graph"],
    )


def videos_step(job: Job) -> None:
    """Rule fairness_youtube_videos: the video pool (:func:`select_videos`: a seeded sample, binarised features,
    video types)."""
    cfg = job.params.adult_video
    manifest = store.read_json(job.input.manifest)
    crawl = read_crawl(list(job.input.files), job.params.max_skipped)
    pool, medians = select_videos(crawl.videos, cfg["n_videos"], cfg["seed"], cfg["arm_features"], cfg["video_rule"])
    types = np.unique(pool["arm_id"])
    if types.size < 2 ** len(cfg["arm_features"]):
        log.warning(
            "only %d of %d video types occur in the pool; the arms are the present types",
            types.size,
            2 ** len(cfg["arm_features"]),
        )
    meta = {
        **store.provenance(cfg),
        **{f"median_{k}": v for k, v in medians.items()},
        **{f"crawl_{k}": v for k, v in crawl.summary().items()},
        "data_provenance": manifest["data_provenance"],
        "sources": ",".join(f["file"] for f in manifest["files"]),
        "n_valid": len(crawl.videos),
        "n_videos": len(pool),
        "n_types": int(types.size),
    }
    store.write_table(job.output[0], pa.Table.from_pandas(pool, preserve_index=False), meta)
    log.info("crawl %s; pool of %d videos, %d types, medians %s", crawl.summary(), len(pool), types.size, medians)


def offline_step(job: Job) -> None:
    """Rule fairness_offline_table: each offline user with a random video and a simulated reward
    (:func:`offline_table`)."""
    cfg = job.params.adult_video
    users = store.read_table(job.input.users).to_pandas()
    pool = store.read_table(job.input.videos).to_pandas()
    table = offline_table(users, pool, cfg["arm_features"], cfg["reward"], cfg["seed"])
    provenance = store.read_metadata(job.input.users)["data_provenance"]
    if store.read_metadata(job.input.videos)["data_provenance"] != "raw":
        provenance = "synthetic-standin"
    store.write_table(
        job.output[0],
        pa.Table.from_pandas(table, preserve_index=False),
        {**store.provenance(cfg), "data_provenance": provenance},
    )
    log.info(
        "%d offline rows (%s); R5 counts %s", len(table), provenance, table["R5"].value_counts().sort_index().to_dict()
    )


def graph_step(job: Job) -> None:
    """Rule fairness_adult_graph: the Adult-Video graph learned by PC-stable with tiers (Figure 3,
    :func:`graph_document`)."""
    cfg = job.params.adult_video
    offline = store.read_table(job.input.offline).to_pandas()
    doc = graph_document(offline, cfg["arm_features"], cfg)
    doc["data_provenance"] = store.read_metadata(job.input.offline)["data_provenance"]
    store.write_json(job.output[0], doc)
    log.info("learned edges %s; Pa(R) = %s (paper: %s)", doc["edges"], doc["pa_R"], doc["paper_pa_R"])


def instance_step(job: Job) -> None:
    """Rule fairness_adult_video_instance: arms, exact means, counterfactual truth and W of Adult-Video
    (:func:`instance_document`)."""
    p, inp = job.params, job.input
    graph = store.read_json(inp.graph)
    doc = instance_document(
        store.read_table(inp.users).to_pandas(),
        store.read_table(inp.videos).to_pandas(),
        store.read_table(inp.offline).to_pandas(),
        graph,
        p.adult_video,
        provenance=graph["data_provenance"],
        dsep_criterion=p.dsep_criterion,
    )
    store.write_json(job.output[0], doc)
    log.info(
        "%d arms, %d online users, W = %s (enforced: %s), cf mode %s, max |delta_true| = %.4f (%s)",
        len(doc["arms"]),
        len(doc["users"]["row_id"]),
        doc["dsep"]["W"],
        doc["dsep"]["enforced_paper_W"],
        doc["cf_mode_used"],
        max(abs(d) for row in doc["delta_true"] for d in row),
        doc["data_provenance"],
    )
