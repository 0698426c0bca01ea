# nonmanip_sensitivity's globals and input functions (its rules are in nonmanip_sensitivity.smk).
if NONMANIP_SENS_NAMES:
    TARGETS["nonmanip"] += [
        *(f"figures/nonmanip/sensitivity_{p}.{ext}" for p in NONMANIP_PANELS for ext in ("pdf", "png")),
        "figures/nonmanip/sensitivity.md",
    ]


def nonmanip_sensitivity_summaries(wildcards):
    return {
        f"{e}/{s}/{a}": [
            summary_path(run_path("nonmanip")).format(experiment=e, strategy=s, algorithm=a, chunk=k)
            for k in range(len(nonmanip_chunks(e, s)))
        ]
        for e in NONMANIP_SENS_NAMES
        for s in ("POMIS", POMIS_PLUS)
        for a in NONMANIP["algorithms"]
    }
