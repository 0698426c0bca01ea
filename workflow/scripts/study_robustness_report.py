"""Rule robustness_report: the orderings per instance and solver, the figure, the table and the study's claims."""

from pathlib import Path

from causal_bandits import store, studies
from causal_bandits.aggregate import read_finals
from causal_bandits.logs import logged
from causal_bandits.studies import robustness_instances
from causal_bandits.studies import robustness_outputs as outputs

out, p = snakemake.output, snakemake.params
with logged(snakemake.log[0]) as log:
    instances = {Path(f).parent.name: store.read_json(f) for f in snakemake.input.instances}
    finals = read_finals(snakemake.input, ("experiment", "strategy", "algorithm"))
    finals["family"] = finals["experiment"].map(p.families)
    orderings = outputs.orderings(finals, instances)
    store.write_atomic(out.orderings, lambda tmp: orderings.to_csv(tmp, index=False, float_format="%.6g"))
    graphs = store.read_json(snakemake.input.graphs[0]) if snakemake.input.graphs else None
    section = p.section
    scale = (
        f"Each instance: {section['n_seeds']} simulations of T = {section['horizon']:,} rounds per strategy and solver."
    )
    sampled = robustness_instances.graphs_run(graphs, section) if graphs else 0
    md = outputs.markdown(outputs.shares(orderings), graphs, p.titles, scale, sampled)
    store.write_atomic(out.md, lambda tmp: tmp.write_text(md))
    outputs.figure(
        orderings,
        out.pdf,
        out.png,
        scale=f"each point: mean final regrets over {section['n_seeds']} seeds of T = {section['horizon']:,} rounds "
        "per strategy",
    )
    rows = [c.check({"robustness": orderings, "robustness_graphs": graphs}) for c in outputs.claims({})]
    doc_scale = f"T = {section['horizon']:,}, {section['n_seeds']} seeds per instance, {len(instances)} instances"
    store.write_json(out.claims, studies.document("robustness", doc_scale, rows, {}))
    log.info("%d instances, %d (instance, solver, ordering) rows", len(instances), len(orderings))
