"""The archive of a finished run, and its verification by rebuilding a sample of its jobs.

A run of the workflow is archived by ``causal-bandits archive`` (:mod:`.manifest`): a manifest of
every output it wrote (path, bytes, sha256, the rule and wildcards of the job that made it, and
that job's CPU seconds and peak memory), the provenance of the run (:mod:`.provenance`) and a copy of
its final artefacts. ``causal-bandits verify`` (:mod:`.verify`) rebuilds a seeded random sample of
the archived jobs in a scratch folder and compares every file it rebuilt with the manifest. The jobs
of a run and how they depend on each other come from Snakemake's own plan of it (:mod:`.jobs`).
"""
