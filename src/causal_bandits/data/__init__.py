"""Raw input data: where the files live, proof that they are the right files, and their parsers.

* :mod:`~causal_bandits.data.raw` locates a pinned raw file under the configured raw-data
  directory (plain or gzip-compressed), checks its sha256 against the config, and downloads the
  official file when it is missing (a generic mechanism any paper can reuse).
* :mod:`~causal_bandits.data.adult` and :mod:`~causal_bandits.data.youtube` parse the UCI Adult
  file and the netsg YouTube crawl format, rejecting malformed input with one-line errors.

A paper whose raw files can be replaced by labelled synthetic stand-ins writes them in its own package (the
fairness paper's Adult and YouTube stand-ins: :mod:`causal_bandits.papers.fairness.standin`), under
:data:`~causal_bandits.data.raw.STANDIN_DIR`.
"""
