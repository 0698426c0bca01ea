"""The data and offline stages of Huang & Wu (Table 1, Figure 3) and the exact truth.

* Data (§Experiments, Table 2): rows of the Figure 2 SCM (hidden confounder C1, selection node S)
  drawn from the CPT held in the config, from the stream (bounds, experiment, dataset, "data");
  the offline table is the rows with S = 1.
* Exact truth by enumeration (pgmpy): μ(a, c) = P(Y=1 | do(x_a), c) for every (context, arm)
  cell, P(c), the optimal arms, and every offline estimator on the population P(v | S=1).
* Offline estimates: BCE bounds (Algorithm 1) and the CP / Biased baselines in two variants
  (docs/papers/bounds.md#bounds-a-estimand-variant): ``conditional`` (the estimands as the text defines them,
  conditional on the context; drives Figure 4) and ``paper_marginal`` (context-free Truth / Biased / lb / ub, which is
  what the published Table 1 columns match).
* Coverage of the BCE bounds over repeated offline datasets.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd
import pyarrow as pa

from causal_bandits import store
from causal_bandits.causal.baselines import adjusted, conditional_probability
from causal_bandits.causal.bounds import Plan, bce, cells, plan, substitute_bounds
from causal_bandits.causal.joint import Joint
from causal_bandits.papers.bounds import PAPER
from causal_bandits.papers.bounds import scm as bounds_scm
from causal_bandits.papers.bounds.cells import cell_frame, flat
from causal_bandits.rng import generator
from causal_bandits.scm.cpt import CPTModel, configurations

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)

#: Columns of the estimates that are meaningful on the population distribution (no counts or SEs).
POPULATION_COLUMNS = [
    "index",
    "arm",
    "context",
    "cp",
    "biased",
    "lq",
    "uq",
    "lw",
    "uw",
    "bce_lb",
    "bce_ub",
    "truth",
    "truth_exact",
    "covered",
]


# ------------------------------------------------------------------------------ data
def generate(m: CPTModel, n_rows: int, experiment: str, dataset: int) -> pd.DataFrame:
    """``n_rows`` rows of every variable, from the stream (bounds, experiment, dataset, "data")."""
    frame = m.sample(generator(PAPER, experiment, dataset, "data"), n_rows)
    frame.insert(0, "row", np.arange(n_rows, dtype=np.int32))
    return frame


def selected(m: CPTModel, full: pd.DataFrame) -> pd.DataFrame:
    """The offline table: the rows with S = 1."""
    return full[full[m.selection] == 1].reset_index(drop=True)


def to_arrow(frame: pd.DataFrame) -> pa.Table:
    """Generated rows as a typed table: ``row`` int32, one int8 column per variable."""
    fields = [pa.field("row", pa.int32(), nullable=False)]
    fields += [pa.field(c, pa.int8(), nullable=False) for c in frame.columns if c != "row"]
    return pa.Table.from_pandas(frame, schema=pa.schema(fields), preserve_index=False)


# ------------------------------------------------------------------------------ estimators
def _context_prior(m: CPTModel, full: Joint) -> np.ndarray:
    """P(c) from the unselected sample (docs/papers/bounds.md#bounds-a-cfactor-set: not recoverable from S = 1 rows when
    U1 ∈ An(S))."""
    return full.table(list(m.context)).reshape(-1) / full.total


def truths(m: CPTModel) -> tuple[np.ndarray, np.ndarray]:
    """(μ(a, c) per (context, arm), P(Y=1 | x_a) per arm on the unselected population), exact."""
    marginal = [
        m.probability({m.outcome: 1}, evidence=dict(zip(m.treatment, map(int, x))))
        for x in configurations(len(m.treatment))
    ]
    return m.conditional_effects(), np.array([marginal])


def estimates(
    m: CPTModel,
    sel: Joint,
    full: Joint,
    *,
    adjust: tuple[str, ...],
    min_count: int,
    the_plan: Plan,
    truth: tuple[np.ndarray, np.ndarray],
) -> dict[str, pd.DataFrame]:
    """Table 1 in both variants from the selected data ``sel`` (with the ``adjust`` columns) and
    the full unselected data ``full`` (population distributions give the exact values);
    ``truth`` is :func:`truths`."""
    mu, exact_m = truth
    kw: dict[str, Any] = {"outcome": m.outcome, "treatment": m.treatment, "min_count": min_count}
    _, n_sel = sel.conditional(m.outcome, [*m.treatment, *m.context], min_count)
    cp = conditional_probability(sel, context=m.context, **kw)
    base = cell_frame(m).assign(n_sel=flat(cells(n_sel, len(m.treatment), len(m.context))), cp=flat(cp))

    b = bce(m, sel, _context_prior(m, full), min_count=min_count, the_plan=the_plan)
    w = b.substitute
    conditional = base.assign(
        biased=flat(adjusted(sel, context=m.context, adjust=adjust, **kw)),
        lq=flat(b.lq),
        uq=flat(b.uq),
        lw=flat(w.lower),
        uw=flat(w.upper),
        bce_lb=flat(b.lower),
        bce_ub=flat(b.upper),
        n_lb=flat(w.n_lower),
        n_ub=flat(w.n_upper),
        truth=flat(mu),
        truth_exact=flat(mu),
    )
    # paper_marginal (docs/papers/bounds.md#bounds-a-estimand-variant): context-free Truth, Biased, lb, ub broadcast to
    # every context.
    wm = substitute_bounds(sel, context=(), substitutes=the_plan.substitutes, **kw)
    n_ctx = 2 ** len(m.context)
    truth_m = conditional_probability(full, context=(), **kw)
    marginal = base.assign(
        biased=flat(np.repeat(adjusted(sel, context=(), adjust=adjust, **kw), n_ctx, 0)),
        lq=np.nan,
        uq=np.nan,
        lw=flat(np.repeat(wm.lower, n_ctx, 0)),
        uw=flat(np.repeat(wm.upper, n_ctx, 0)),
        bce_lb=flat(np.repeat(wm.lower, n_ctx, 0)),
        bce_ub=flat(np.repeat(wm.upper, n_ctx, 0)),
        n_lb=flat(np.repeat(wm.n_lower, n_ctx, 0)),
        n_ub=flat(np.repeat(wm.n_upper, n_ctx, 0)),
        truth=flat(np.repeat(truth_m, n_ctx, 0)),
        truth_exact=flat(np.repeat(exact_m, n_ctx, 0)),
    )
    return {
        variant: _with_coverage(frame)
        for variant, frame in (("conditional", conditional), ("paper_marginal", marginal))
    }


def _with_coverage(frame: pd.DataFrame) -> pd.DataFrame:
    """A Table 1 variant with the bounds' binomial standard errors and whether they cover the truth, exactly
    and within two standard errors; rows in cell order."""
    with np.errstate(divide="ignore", invalid="ignore"):
        se_lb = np.sqrt(frame.bce_lb * (1 - frame.bce_lb) / frame.n_lb)
        se_ub = np.sqrt(frame.bce_ub * (1 - frame.bce_ub) / frame.n_ub)
    frame = frame.assign(se_lb=se_lb, se_ub=se_ub)
    frame["covered"] = (frame.bce_lb <= frame.truth) & (frame.truth <= frame.bce_ub)
    frame["covered_2se"] = (frame.bce_lb - 2 * frame.se_lb.fillna(0) <= frame.truth) & (
        frame.truth <= frame.bce_ub + 2 * frame.se_ub.fillna(0)
    )
    return frame.sort_values("index", ignore_index=True)


def offline_joints(
    m: CPTModel, full: pd.DataFrame, adjust: tuple[str, ...], selected_rows: pd.DataFrame | None = None
) -> tuple[Joint, Joint]:
    """(joint of the selected rows over the observed and ``adjust`` columns, full-sample joint).

    ``selected_rows`` is the offline table as stored (default: the S = 1 rows of ``full``); a value
    outside a variable's domain raises :class:`~causal_bandits.errors.DataError`.
    """
    observed = list(m.observed)
    sel_vars = observed + [v for v in adjust if v not in observed]
    rows = selected(m, full) if selected_rows is None else selected_rows
    return Joint.from_frame(rows, sel_vars), Joint.from_frame(full, observed)


def population_joints(m: CPTModel, adjust: tuple[str, ...]) -> tuple[Joint, Joint]:
    """The population counterparts of :func:`offline_joints` (exact, by enumeration)."""
    observed = list(m.observed)
    sel_vars = observed + [v for v in adjust if v not in observed]
    return (Joint.from_factor(m.joint(sel_vars, evidence={m.selection: 1})), Joint.from_factor(m.joint(observed)))


# ------------------------------------------------------------------------------ exact truth
def exact_document(m: CPTModel, *, adjust: tuple[str, ...], n_rows: int) -> dict[str, Any]:
    """Ground truth by enumeration: μ per cell, P(c), optimal arms, P(S=1), Algorithm 1's plan,
    and every Table 1 column on the population distribution (both variants)."""
    the_plan, truth = plan(m), truths(m)
    sel, full = population_joints(m, adjust)
    tables = estimates(m, sel, full, adjust=adjust, min_count=1, the_plan=the_plan, truth=truth)
    mu = truth[0]
    mu_star = mu.max(axis=1)
    optimal = np.isclose(mu, mu_star[:, None], rtol=0, atol=1e-12)
    b = bce(m, sel, m.context_distribution(), the_plan=the_plan)
    p_s = m.probability({m.selection: 1})
    return {
        "variables": list(m.order),
        "observed": list(m.observed),
        "context": list(m.context),
        "treatment": list(m.treatment),
        "p_context": m.context_distribution().tolist(),
        "mu": mu.tolist(),
        "mu_star": mu_star.tolist(),
        "optimal_arms": [np.flatnonzero(row).tolist() for row in optimal],
        "interventional_means": m.interventional_means().tolist(),
        "p_selected": p_s,
        "expected_selected_rows": p_s * n_rows,
        "plan": {
            "D": sorted(the_plan.D),
            "components": [sorted(c) for c in the_plan.components],
            "recovered": list(b.recovered),
            "substitutes": [list(w) for w in the_plan.substitutes],
        },
        "n_excluded_by_upper_bound": int((b.upper < mu_star[:, None] - 1e-12).sum()),
        "tables": {variant: frame[POPULATION_COLUMNS].to_dict(orient="list") for variant, frame in tables.items()},
    }


# ------------------------------------------------------------------------------ coverage
def coverage(m: CPTModel, *, n_rows: int, n_datasets: int, adjust: tuple[str, ...], min_count: int) -> pd.DataFrame:
    """Both Table 1 variants on ``n_datasets`` fresh offline datasets (stream "coverage", index r)."""
    the_plan, truth = plan(m), truths(m)
    parts = []
    for r in range(n_datasets):
        sel, full = offline_joints(m, generate(m, n_rows, "coverage", r), adjust)
        for variant, frame in estimates(
            m, sel, full, adjust=adjust, min_count=min_count, the_plan=the_plan, truth=truth
        ).items():
            parts.append(
                frame[["index", "bce_lb", "bce_ub", "truth", "covered", "covered_2se"]].assign(
                    dataset=r, variant=variant
                )
            )
    return pd.concat(parts, ignore_index=True)


# ------------------------------------------------------------------------------ offline summary
def offline_summary(
    m: CPTModel,
    full: pd.DataFrame,
    sel: Joint,
    tables: Mapping[str, pd.DataFrame],
    exact: Mapping[str, Any],
    *,
    min_count: int,
) -> dict[str, Any]:
    """What the online stage and the claims need besides the tables: data sizes, the cells the upper
    bounds exclude (N⁻_pcb, and optimal arms wrongly excluded), and the non-contextual bounds on
    P_x(y) for UCB-PCB (Algorithm 6: Eq. 7 and 10 without P_x(c))."""
    cond = tables["conditional"].sort_values(["context", "arm"])
    n_ctx = 2 ** len(m.context)
    upper = cond["bce_ub"].to_numpy().reshape(n_ctx, -1)
    mu, mu_star = np.asarray(exact["mu"]), np.asarray(exact["mu_star"])[:, None]
    excluded = upper < mu_star - 1e-12
    noncontextual = bce(m.with_context(()), sel, np.ones(1), min_count=min_count)
    return {
        "n_rows": len(full),
        "n_selected": int(sel.total),
        "n_excluded_by_upper_bound": int(excluded.sum()),
        "n_optimal_excluded": int((excluded & np.isclose(mu, mu_star, rtol=0, atol=1e-12)).sum()),
        "noncontextual_bounds": {"lower": noncontextual.lower[0].tolist(), "upper": noncontextual.upper[0].tolist()},
    }


def data_step(job: Job) -> None:
    """Rule bounds_data: the rows of the Figure 2 SCM (:func:`generate`) and the selected offline table (S = 1)."""
    p = job.params
    m = bounds_scm.model({"scm": p.scm})
    full = generate(m, p.n_rows, "offline", p.seed)
    sel = selected(m, full)
    meta = {**store.provenance({"scm": p.scm, "n_rows": p.n_rows, "seed": p.seed}), "offline_seed": str(p.seed)}
    store.write_table(job.output.full, to_arrow(full), meta)
    store.write_table(job.output.selected, to_arrow(sel), meta)
    log.info("%d rows generated, %d selected (S = 1)", len(full), len(sel))


def exact_step(job: Job) -> None:
    """Rule bounds_exact: the ground truth by enumeration (:func:`exact_document`)."""
    p = job.params
    doc = exact_document(bounds_scm.model({"scm": p.scm}), adjust=tuple(p.adjust), n_rows=p.n_rows)
    store.write_json(job.output[0], doc)
    log.info("mu*(c) = %s, optimal arms %s, P(S=1) = %.5f", doc["mu_star"], doc["optimal_arms"], doc["p_selected"])


def offline_step(job: Job) -> None:
    """Rule bounds_offline: BCE bounds (Algorithm 1), CP and Biased on the offline table, both Table 1 variants
    (:func:`estimates`), and their summary."""
    p, out = job.params, job.output
    m = bounds_scm.model({"scm": p.scm})
    adjust = tuple(p.offline["biased_adjust"])
    full = store.read_table(job.input.full).to_pandas()
    sel, full_joint = offline_joints(m, full, adjust, selected_rows=store.read_table(job.input.selected).to_pandas())
    tables = estimates(
        m,
        sel,
        full_joint,
        adjust=adjust,
        min_count=p.offline["min_cell_count"],
        the_plan=plan(m),
        truth=truths(m),
    )
    exact = store.read_json(job.input.exact)
    summary = offline_summary(m, full, sel, tables, exact, min_count=p.offline["min_cell_count"])
    meta = store.provenance({"scm": p.scm, "offline": p.offline})
    for variant, frame in tables.items():
        store.write_table(out[variant], pa.Table.from_pandas(frame, preserve_index=False), meta)
    store.write_json(out.summary, summary)
    log.info(
        "%d selected rows; conditional bounds cover %d/16 cells; upper bounds exclude %d cells",
        summary["n_selected"],
        int(tables["conditional"]["covered"].sum()),
        summary["n_excluded_by_upper_bound"],
    )


def coverage_step(job: Job) -> None:
    """Rule bounds_coverage: the BCE bounds and the truth on fresh offline datasets (:func:`coverage`)."""
    p = job.params
    off = p.offline
    frame = coverage(
        bounds_scm.model({"scm": p.scm}),
        n_rows=off["n_rows"],
        n_datasets=off["coverage_datasets"],
        adjust=tuple(off["biased_adjust"]),
        min_count=off["min_cell_count"],
    )
    meta = store.provenance({"scm": p.scm, "offline": off})
    store.write_table(job.output[0], pa.Table.from_pandas(frame, preserve_index=False), meta)
    cond = frame[frame["variant"] == "conditional"].groupby("dataset")["covered"]
    log.info(
        "%d datasets: all 16 cells covered in %.1f %%, %.2f cells on average",
        cond.ngroups,
        100 * cond.all().mean(),
        cond.sum().mean(),
    )
