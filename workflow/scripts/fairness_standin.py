"""Rule fairness_standin: our synthetic stand-in (docs/papers/fairness.md#fairness-a24-standin) for a missing raw file
(labelled downstream)."""

from causal_bandits.data import standin
from causal_bandits.logs import logged

p = snakemake.params
with logged(snakemake.log[0]) as log:
    lines = standin.adult_lines(p.seed) if p.kind == "adult" else standin.youtube_lines(p.seed)
    standin.write_lines(snakemake.output[0], lines)
    log.warning(
        "SYNTHETIC STAND-IN written for %s (%d lines): everything built from it is labelled",
        snakemake.wildcards.rawfile,
        len(lines),
    )
