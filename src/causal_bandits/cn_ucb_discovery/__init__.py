"""CN-UCB's structure discovery (Lu, Meisami & Tewari 2021): stages 0-2 of Algorithms 1, 2 and 5.

One paper's algorithms, in a subpackage of their own rather than in the shared :mod:`causal_bandits.causal`:
:mod:`.essential_graph` (E(D), its chain components and their order), :mod:`.central_node`
(Definition 2, Alg. 6), :mod:`.intervention_batches` (what a discovery step asks for and reads back),
:mod:`.reward_parent` (Alg. 3-4, trees), :mod:`.key_clique` (Alg. 7-9, chordal components) and
:mod:`.stages` (Alg. 1, 2 and 5, which chain them). The bandit policy that drives them is
:class:`causal_bandits.bandits.cn_ucb.CNUCB`; the paper's instances live in
:mod:`causal_bandits.papers.unknown_graph`. This module imports nothing: run jobs import only what they use.
"""
