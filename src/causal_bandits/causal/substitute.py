"""FindRSI (Huang & Wu, Algorithm 3): recoverable substitute interventions for P_x(y | c).

P_x(y | c) = Σ_w P_x(y | c, w) P_x(w | c) is a convex combination, so it lies between the smallest
and the largest P_x(y | c, w) over the values w of any observed set W (Eq. 8). A set W is a
*recoverable substitute* when every P_x(y | c, w) equals the selected-data conditional
P(y | x, c, w, S=1), which holds when

* (Y ⊥ X | C ∪ W) in G with the edges out of X removed (do-calculus rule 2: do(x) → x), and
* (Y ⊥ S | X ∪ C ∪ W) in G (selection is ignorable given X, C, W).

Both tests run as d-separation on the DAG with latent variables explicit (networkx). This is the
conditional form of the paper's Lemma 1 / Theorem 4 condition; the paper's own condition
(Y, C ⊥ W, S | X in G_{X̄ W̲}) rejects W = {I1} in Figure 2 because of I1 ← C1 → Y, yet the
paper reports D = {{I1}} — the form above accepts it and its bounds provably contain the truth
(docs/papers/bounds.md#bounds-a-findrsi-condition). Candidates are all subsets of the observed variables other than X,
C, Y and S, by increasing size (the empty set included: it passes when P_x(y | c) is itself recoverable).
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import combinations

import networkx as nx


def find_rsi(
    dag: nx.DiGraph,
    *,
    observed: Sequence[str],
    treatment: Sequence[str],
    context: Sequence[str],
    outcome: str,
    selection: str,
) -> tuple[tuple[str, ...], ...]:
    """Every recoverable substitute set W (Algorithm 3), smallest first, each as sorted names."""
    x, c = set(treatment), set(context)
    candidates = sorted(set(observed) - x - c - {outcome, selection})
    cut = nx.DiGraph(dag)
    cut.remove_edges_from([(a, b) for a, b in dag.edges if a in x])
    found = []
    for size in range(len(candidates) + 1):
        for w in combinations(candidates, size):
            given = c | set(w)
            if nx.is_d_separator(cut, {outcome}, x, given) and nx.is_d_separator(
                dag, {outcome}, {selection}, x | given
            ):
                found.append(w)
    return tuple(found)
