# nonmanip_knobs' globals and input functions (its rule is in nonmanip_knobs.smk).
from causal_bandits.papers.nonmanip.runs import knob_points

if NONMANIP_KNOBS:
    TARGETS["nonmanip"] += [f"figures/nonmanip/knobs.{ext}" for ext in ("pdf", "png", "md")]


def nonmanip_knobs_summaries(wildcards):
    """Per-seed summaries of every point of the study (the main POMIS+ run included), per panel and solver."""
    strategies = dict.fromkeys(s for _, _, s in knob_points(NONMANIP["pomis_plus"]))
    return {
        f"{p}/{s}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=p, strategy=s, algorithm=a, chunk=k)
            for k in range(len(nonmanip_chunks(p, s)))
        ]
        for p in NONMANIP_PANELS
        for s in strategies
        for a in NONMANIP["algorithms"]
        if nonmanip_plays(s, a)
    }
