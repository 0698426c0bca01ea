"""One package per paper (``papers/<key>/``): its config schema, experiments, runs, tables, figures
and claims. A paper is registered here and nowhere else (see CONTRIBUTING.md)."""

#: The registered papers, in pipeline and report order.
PAPERS = ("nonmanip", "bounds", "fairness", "cpe", "unknown_graph")
