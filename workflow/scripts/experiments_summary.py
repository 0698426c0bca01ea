"""Rule experiments_summary: an own experiment's table (CSV, Markdown), regret figure and report summary."""

from causal_bandits import store
from causal_bandits.experiments import figure, summary
from causal_bandits.logs import logged

out = snakemake.output
with logged(snakemake.log[0]):
    instance = store.read_json(snakemake.input.instance)
    agg = store.read_table(snakemake.input.agg).to_pandas()
    rows = summary.rows(agg, instance, snakemake.params.labels, snakemake.params.skipped, snakemake.params.arguments)
    frame = summary.table(rows)
    store.write_atomic(out.csv, lambda tmp: frame.to_csv(tmp, index=False))
    store.write_atomic(out.md, lambda tmp: tmp.write_text(f"# {instance['title']}\n\n" + summary.markdown(frame)))
    figure.figure(agg, instance["title"], out.pdf, out.png, labels=snakemake.params.labels)
    store.write_json(
        out.summary,
        summary.document(snakemake.wildcards.experiment, instance, rows, snakemake.params.horizon, out.md, out.png),
    )
