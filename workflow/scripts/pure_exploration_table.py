"""Rule pure_exploration_table: an own graph's Table 2 (CSV, Markdown) from its runs' per-seed summaries, and its
summary for the report."""

from causal_bandits import store
from causal_bandits.experiments import cpe, pure_exploration_summary
from causal_bandits.logs import logged
from causal_bandits.papers.cpe.aggregate import read_summaries
from causal_bandits.papers.cpe.instance import CPEInstance

p, out = snakemake.params, snakemake.output
with logged(snakemake.log[0]):
    inst = CPEInstance.from_document(store.read_json(snakemake.input.instance))
    runs = [store.summary_path(f) for k, files in snakemake.input.items() if k != "instance" for f in files]
    frame = cpe.table(read_summaries(runs), inst, p.experiment["delta"], p.experiment["epsilon"])
    store.write_atomic(out.csv, lambda tmp: frame.to_csv(tmp, index=False))
    notes = "".join(f"\n{algorithm}: not run: {reason}\n" for algorithm, reason in p.skipped.items())
    body = frame.to_markdown(index=False, floatfmt=".4g")
    store.write_atomic(out.md, lambda tmp: tmp.write_text(f"# {p.title}\n\n{body}\n{notes}"))
    name = snakemake.wildcards.experiment
    summary = pure_exploration_summary.document(
        name, p.title, frame, cpe.best_arm(inst), p.skipped, p.experiment, out.md
    )
    store.write_json(out.summary, summary)
