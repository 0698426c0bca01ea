"""Rule cpe_claims: evaluate each claim (docs/papers/cpe.md#cpe-results) on our results."""

from causal_bandits import store
from causal_bandits.claims import document, note_texts
from causal_bandits.logs import logged
from causal_bandits.papers.cpe import claims, results

inp, p = snakemake.input, snakemake.params
with logged(snakemake.log[0]) as log:
    found = results.load(inp.stopping, inp.budget, inp.quantities, inp.theory)
    rows = [claim.check(found) for claim in claims.claims(p.algorithms)]
    store.write_json(
        snakemake.output[0],
        document(
            "cpe",
            p.scale,
            rows,
            scale=f"sample cap {p.scale['horizon']:,}, {p.scale['n_seeds']:,} seeds per setting",
            notes=note_texts(claims.NOTES, rows, found),
        ),
    )
    log.info("%d claims evaluated", len(rows))
