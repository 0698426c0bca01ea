"""Rule fairness_email_tables: Tables 4 and 5 re-emitted from the pgmpy network."""

from causal_bandits.logs import logged
from causal_bandits.papers.fairness import email as fe
from causal_bandits.papers.fairness.io import write_csv, write_text
from causal_bandits.papers.fairness.tables import frame_markdown

out = snakemake.output
with logged(snakemake.log[0]):
    bn = fe.email_network(snakemake.params.email)
    t4, t5 = fe.table4_frame(bn), fe.table5_frame(bn)
    write_csv(out.table4_csv, t4)
    write_text(
        out.table4_md,
        frame_markdown(
            t4,
            "Table 4: Variables in Email campaign data — the paper's domains "
            "(verbatim) beside the domains of our network (I3/I4: ambiguity A2).",
        ),
    )
    write_csv(out.table5_csv, t5)
    write_text(
        out.table5_md,
        frame_markdown(
            t5, "Table 5: P(I4 = i | X1, X2, X3), read back from the network's CPD (rows coded X − 1, as in the paper)."
        ),
    )
