"""The one simulation loop of every paper: all seeds of a job advance together, round by round (or block by block).

Three parts plug into :func:`simulate` (docs/guide/architecture.md#engine):

* an **environment** turns each seed's arm into feedback: the reward (Bernoulli or Gaussian) and,
  when it observes them, the values of every observed variable (binary or K-valued), optionally
  after drawing a context for the round (:class:`Environment`);
* a **policy** chooses an arm for every seed still running and learns from the feedback; a pure-
  exploration policy may also stop seeds on its own and recommend an arm (:class:`Policy`,
  :class:`StoppingPolicy`); a phased algorithm is a policy whose ``select`` follows its phase;
* a policy may also ask to be served in **blocks** (:class:`BlockPolicy`): ``block(t)`` rounds of the
  arms ``select`` returns, pulled at once by the environment's ``pull_block`` with the very uniforms
  those rounds would read one by one, learnt from by ``update_block`` and handed to recorders as
  windows where they all take them (else round by round) (CN-UCB's discovery: B rounds of a fixed
  arm per batch; the parallel bandit's phases);
  ``observed(t)`` tells the environment which variables to sample. A stopping policy's block ends
  where a seed stops or its recommendation changes: recorders see the block's inner rounds before
  ``update_block``, its last round after;
* a policy may also play **windows** of rounds itself (:class:`WindowPolicy`): ``window(t)`` rounds
  whose arms still follow the feedback, played in one compiled pass that draws them with what the
  environment serves (its reward tables, :class:`OutcomeTables` from a :class:`WindowEnvironment`, or
  its compiled node program, :class:`NodeDraws` from a :class:`ProgramEnvironment`) and the very
  uniforms those rounds would read one by one, and handed to recorders as one window when they all
  take one (``record_window``; UCB1 in the unknown_graph runs, LUCB and successive elimination in
  the cpe runs: the same arms and rewards, bit for bit, without a Python round trip per round). A
  stopping policy's window ends with the round after which a seed stops, or at a round a recorder
  reads the policy after (``window_end``: the cpe recommendation checkpoints); that last round is
  recorded as a round by itself, and the uniforms of the rounds not played are read again next;
* **recorders** watch every round and return trace columns on a round grid and per-seed summary
  columns (:mod:`causal_bandits.bandits.recorders`: regret on a grid or every round, the fairness
  auditor's per-round monitor). Stopping summaries (``stopped_at``, ``recommended``, ``censored``)
  are kept by the loop itself.

State is held as arrays with a leading seeds axis; nothing loops over seeds in Python.

Randomness (keyed, never global): the environment reads the stream ``(paper, experiment, seed,
"environment")``, ``noise_width`` uniforms per seed per round, whether or not the seed's arm needs
them; policies read ``(paper, experiment, seed, "policy/<name>")`` streams they ask for at
``reset``. No key names the algorithm or the arm set, so every algorithm of an experiment meets
the same environment draws (common random numbers), two strategies with the same arm list and
algorithm give bit-identical runs (Lee & Bareinboim 2019, footnote 4), and a seed's numbers do not
depend on the other seeds of its job (chunk size and core count change speed, never results).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import numpy as np

from causal_bandits import checks
from causal_bandits.errors import ArgumentError, ArgumentTypeError
from causal_bandits.rng import RoundBlocks, SeedStreams, generator

if TYPE_CHECKING:  # numba, which the node program needs, is imported only by the jobs that draw with one
    from causal_bandits.bandits.node_program import NodeProgram

#: Two means closer than this are the same value (optimal-arm ties).
MEAN_TOLERANCE = 1e-12
#: The most seed-rounds a block holds (rounds times running seeds; a longer block is served in parts; speed and
#: memory only, never results: ``tests/test_engine.py``, ``tests/test_cpe_algorithms.py``).
BLOCK = 1 << 13
#: The most rounds a window holds, and the most uniforms it reads (rounds × running seeds × noise width: 8 MiB) (speed
#: and memory only, never results: ``tests/test_engine_windows.py``, ``tests/test_cpe_algorithms.py``).
WINDOW, WINDOW_UNIFORMS = 4096, 1 << 20
#: Rounds of noise fetched at once for rounds served one by one (speed only).
FETCH = 256
#: The first part of the stream key of a researcher's own experiment (never a paper's key).
EXPERIMENTS = "experiments"


def seed_array(seeds: int | Sequence[int] | np.ndarray) -> np.ndarray:
    """Seeds as an int64 array: a count n gives 0..n-1; a sequence must hold integers >= 0 (a float seed is
    refused, not truncated)."""
    if isinstance(seeds, (int, np.integer)) and not isinstance(seeds, bool):
        if seeds < 1:
            raise ArgumentError(f"seeds = {seeds}: give a count >= 1 or a sequence of seeds")
        return np.arange(int(seeds), dtype=np.int64)
    array = np.asarray(seeds)
    if array.ndim != 1 or array.size == 0 or array.dtype.kind not in "iu":
        raise ArgumentTypeError(f"seeds must be a count or a non-empty sequence of integers, got {seeds!r}")
    if (array < 0).any():
        raise ArgumentError(f"seeds must be >= 0, got {array[array < 0][0]}")
    return array.astype(np.int64)


def check_horizon(horizon: object) -> int:
    """``horizon`` as an int: a whole number of rounds >= 1 (a bool or a fraction is refused)."""
    if isinstance(horizon, bool) or not isinstance(horizon, (int, np.integer)):
        raise ArgumentTypeError(f"horizon must be an integer number of rounds >= 1, got {horizon!r}")
    if horizon < 1:
        raise ArgumentError(f"horizon must be >= 1 round, got {horizon}")
    return int(horizon)


@dataclass(frozen=True)
class Streams:
    """The keyed random streams of one job: (paper, experiment) and the seeds it simulates.

    A study of one's own is keyed by its name alone (:meth:`for_experiment`), apart from every paper.

    Parameters
    ----------
    paper : str
        The first part of every stream's key (a paper's key, or ``"experiments"``).
    experiment : str
        The second part: the experiment whose streams these are.
    seeds : numpy.ndarray
        The seeds simulated together, integers >= 0 (a seed's draws never depend on the others).
    block : int, optional
        Uniforms drawn per refill of a seed's buffer (speed only, never results).

    Examples
    --------
    >>> streams = Streams.for_experiment("my_study", range(3))
    >>> streams.paper, streams.experiment, streams.seeds.tolist()
    ('experiments', 'my_study', [0, 1, 2])
    """

    paper: str
    experiment: str
    seeds: np.ndarray
    block: int = 4096

    def __post_init__(self) -> None:
        """The key parts are names and the block a positive size (one-line
        :class:`~causal_bandits.errors.ArgumentError`); the seeds are checked by :func:`seed_array` where used."""
        checks.text(self.paper, "Streams(paper)")
        checks.text(self.experiment, "Streams(experiment) (the experiment's name)")
        checks.count(self.block, "Streams(block)")

    @classmethod
    def for_experiment(cls, name: str, seeds: int | Sequence[int] | np.ndarray, block: int = 4096) -> Streams:
        """The streams of ``seeds`` of one's own experiment ``name``: keys ("experiments", name, seed,
        purpose), the keys the workflow's ``experiments:`` section uses, so a study run from Python and
        from the workflow draw the same numbers.

        Parameters
        ----------
        name : str
            The experiment's name (its streams' key).
        seeds : int or sequence of int
            A count n (seeds 0..n-1) or the seeds themselves, integers >= 0.
        block : int
            Uniforms drawn per refill of a seed's buffer (speed only, never results).
        """
        return cls(EXPERIMENTS, name, seed_array(seeds), block)

    def uniforms(self, purpose: str) -> SeedStreams:
        """Buffered standard uniforms, one generator per seed, for ``purpose``."""
        return SeedStreams(self.paper, self.experiment, self.seeds, purpose, self.block)

    def generators(self, purpose: str) -> list[np.random.Generator]:
        """One numpy Generator per seed for ``purpose`` (for draws that are not plain uniforms)."""
        return [generator(self.paper, self.experiment, int(s), purpose) for s in self.seeds]


@dataclass
class Feedback:
    """What the environment returns for one round of the running seeds (arrays over those seeds)."""

    arms: np.ndarray  # (n,) arm pulled
    rewards: np.ndarray  # (n,) reward: 0/1 for Bernoulli arms, real for Gaussian ones
    contexts: np.ndarray | None = None  # (n,) context id of the round, None without contexts
    values: np.ndarray | None = None  # (n, n_vars) value (domain index) of every observed variable


@runtime_checkable
class Environment(Protocol):
    """What the loop needs from a stochastic environment (checked by :func:`simulate`)."""

    n_arms: int
    noise_width: int  # uniforms of the "environment" stream consumed per seed per round
    means: np.ndarray  # exact expected reward, (n_contexts, n_arms); one row without contexts

    def reset(self, streams: Streams, horizon: int) -> None:
        """Prepare a job (e.g. draw each seed's user sequence from its own keyed stream)."""

    def contexts(self, t: int, noise: np.ndarray, rows: np.ndarray) -> np.ndarray | None:
        """Context id per running seed at round ``t`` (``rows``: their positions in the job), or None."""

    def pull(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        noise: np.ndarray,
        observe: np.ndarray | None = None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """(rewards, observed values or None) of ``arms`` given the round's uniforms ``noise``.

        ``observe`` is None unless the policy is an :class:`ObservingPolicy`: then the (n, m)
        indices of the variables each seed needs (-1 padding). Environments that observe nothing,
        or always the same variables, ignore it.
        """


@runtime_checkable
class BlockEnvironment(Environment, Protocol):
    """An environment that also serves a :class:`BlockPolicy` many rounds of fixed arms at once."""

    def pull_block(
        self,
        t: int,
        contexts: np.ndarray | None,
        arms: np.ndarray,
        length: int,
        noise: np.ndarray,
        observe: np.ndarray | None,
    ) -> tuple[np.ndarray, np.ndarray | None]:
        """``length`` rounds of ``arms``: noise (n, L, noise_width), rewards (n, L), values (n, L, m) or None."""


@runtime_checkable
class Policy(Protocol):
    """What the loop needs from a bandit algorithm (hyper-parameters in ``__init__``; checked by
    :func:`simulate`)."""

    def reset(self, n_seeds: int, n_arms: int, stream: Callable[[str], SeedStreams]) -> None:
        """Forget everything; ``stream(name)`` returns the policy's keyed uniform stream ``name``."""

    def select(self, t: int, contexts: np.ndarray | None) -> np.ndarray:
        """Arms (int array over the running seeds) to pull at round ``t`` (1-based)."""

    def update(self, feedback: Feedback) -> None:
        """Learn from the round's feedback."""


@runtime_checkable
class BlockPolicy(Protocol):
    """Optional hooks of a policy that plays the same arm for many rounds (CN-UCB's discovery
    batches, the parallel bandit's phases); its environment must be a :class:`BlockEnvironment`."""

    def block(self, t: int) -> int:
        """Rounds, from ``t`` on, during which every seed's arm stays what ``select`` returns (1: one round); for a
        :class:`StoppingPolicy`, also no seed stops and no recommendation changes before the block's last round."""

    def update_block(self, feedback: Feedback) -> None:
        """Learn from a block: ``rewards`` (n, L), ``values`` (n, L, m) or None."""


@dataclass(frozen=True)
class OutcomeTables:
    """A window of rounds of an environment whose reward is a look-up plus noise: seed s pulling arm a at round i
    of the window gets ``value[s, x] + noise[s, i]``, where x = #{k : cdf[s, a, k] <= u[s, i]}."""

    cdf: np.ndarray  # (n_seeds, n_arms, n_outcomes - 1) cumulative law of the outcome given the arm
    value: np.ndarray  # (n_seeds, n_outcomes) reward of each outcome before the noise
    u: np.ndarray  # (n_seeds, L) the uniform that draws each round's outcome
    noise: np.ndarray  # (n_seeds, L) the additive noise of each round's reward


@runtime_checkable
class WindowEnvironment(Protocol):
    """An environment whose rewards a :class:`WindowPolicy` can draw itself (fixed contexts, no observed values)."""

    def outcome_law(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(cdf, value) of :class:`OutcomeTables`, or None when pulls must go round by round (e.g. they return
        observed values)."""

    def outcome_noise(self, noise: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(u, noise) of :class:`OutcomeTables` for rounds that read ``noise`` (n_seeds, L, noise_width)."""


@dataclass(frozen=True)
class NodeDraws:
    """What a window policy draws its rounds with (from a :class:`ProgramEnvironment`): seed s pulling arm a at round i
    of the window gets the value of column ``reward`` of the row that
    :func:`~causal_bandits.bandits.node_program.draw_row` draws with ``program.args`` from ``noise[s, i]``; for a
    policy that observes (``window_observes``), the program draws every node and ``observed`` names the value columns
    of the observed variables."""

    program: NodeProgram
    noise: np.ndarray  # (n_seeds, L, uniforms) each round's uniforms
    reward: int  # the reward's value column
    n_columns: int  # value columns of a row (the scratch row's width)
    observed: np.ndarray | None = None  # the observed variables' value columns (window_observes), else None

    def outputs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Empty arms and rewards of the window's rounds (seeds, L), and a scratch row per seed for ``draw_row``."""
        n, length = self.noise.shape[:2]
        return np.empty((n, length), dtype=np.int64), np.empty((n, length)), np.empty((n, self.n_columns), np.int64)


@runtime_checkable
class ProgramEnvironment(Protocol):
    """An environment whose rounds a :class:`WindowPolicy` can draw itself with a compiled node program."""

    def node_program(self, observed: bool = False) -> tuple[NodeProgram, int, int, np.ndarray | None] | None:
        """(program, the reward's value column, the columns of a row, the observed variables' columns or None) of
        :class:`NodeDraws`, or None when one program does not draw a whole row; with ``observed``, a program that draws
        every node and the observed columns."""


@runtime_checkable
class WindowPolicy(Protocol):
    """Optional hooks of a policy that plays many adaptive rounds in one pass, drawing them with what its environment
    serves: :class:`OutcomeTables` or :class:`NodeDraws` (``window_draws`` names which it takes). A policy that learns
    from the observed variables of its windows' rounds says so with a class attribute ``window_observes = True``
    (optional: its :class:`NodeDraws` then draw whole rows)."""

    window_draws: type

    def window(self, t: int) -> int:
        """Rounds, from ``t`` on, that :meth:`play_window` may play at once (1: serve round ``t`` alone)."""

    def play_window(self, t: int, length: int, draws) -> tuple[np.ndarray, np.ndarray]:
        """Play and learn from up to ``length`` rounds: the arms pulled and the rewards, (n_seeds, rounds played)
        each, exactly those of ``select``, the environment's pull and ``update`` round by round. A
        :class:`StoppingPolicy` ends the window early with the round after which some seed stops."""


@runtime_checkable
class ObservingPolicy(Protocol):
    """Optional hook of a policy that needs only some variables observed in each pull."""

    def observed(self, t: int) -> np.ndarray | None:
        """(n, m) indices of the variables whose values each seed needs (-1 padding), or None."""


@runtime_checkable
class StoppingPolicy(Protocol):
    """A policy that stops seeds on its own (pure exploration) and recommends an arm."""

    def done(self) -> np.ndarray:
        """Bool over the running seeds: True where the seed stops after this round."""

    def recommend(self) -> np.ndarray:
        """The arm each running seed would recommend now."""

    def retain(self, keep: np.ndarray) -> None:
        """Drop the state (and stream rows) of the seeds where ``keep`` is False."""


@dataclass(frozen=True)
class Step:
    """One round as recorders see it; arrays over the running seeds."""

    t: int
    rows: np.ndarray  # positions of the running seeds in the job's seed array
    feedback: Feedback
    gap: np.ndarray  # best mean of the round minus the pulled arm's mean (exact)
    best: np.ndarray | float  # best mean of the round (the best arm's, in the round's context)
    optimal: np.ndarray  # whether the pulled arm is optimal in the round
    stopped: np.ndarray | None = None  # StoppingPolicy only: the seeds that stop after this round


class Recorder(Protocol):
    """Watches every round; returns trace columns on its round grid and per-seed summary columns."""

    def start(self, seeds: np.ndarray, horizon: int, env: Environment, policy: Policy) -> None: ...

    def record(self, step: Step) -> None: ...

    def finish(self) -> tuple[np.ndarray | None, dict[str, np.ndarray], dict[str, np.ndarray]]:
        """(grid rounds or None, trace columns (n_seeds, n_grid), summary columns (n_seeds,))."""


@runtime_checkable
class WindowRecorder(Recorder, Protocol):
    """A recorder that also takes a window of rounds at once (no seed stops inside it)."""

    def record_window(self, window: Window) -> None: ...

    def window_end(self, t: int) -> int:
        """The last round a window from round ``t`` may span (a round whose state the recorder reads after it, as
        a checkpoint of the policy's recommendation, must end a window: that round is recorded by itself)."""


@dataclass(frozen=True)
class Window:
    """Rounds ``t`` .. ``t + L - 1`` as recorders see them; arrays (running seeds, L) unless said."""

    t: int
    rows: np.ndarray  # (running seeds,) positions of the running seeds in the job's seed array
    arms: np.ndarray
    rewards: np.ndarray
    gap: np.ndarray  # best mean of the round minus the pulled arm's mean (exact)
    best: np.ndarray | float  # best mean of the rounds, per seed (n_seeds, 1) or one number
    optimal: np.ndarray  # whether the pulled arm is optimal


@dataclass
class Run:
    """A job's results: per-seed traces on a round grid and per-seed summaries.

    Parameters
    ----------
    seeds : numpy.ndarray
        The seeds, in the order of the rows of every array.
    rounds : numpy.ndarray, optional
        The rounds of the trace grid (None without a trace).
    trace : dict of str to numpy.ndarray
        Trace columns, each (n_seeds, n_rounds).
    summary : dict of str to numpy.ndarray
        Per-seed columns, each (n_seeds,).
    """

    seeds: np.ndarray
    rounds: np.ndarray | None = None
    trace: dict[str, np.ndarray] = field(default_factory=dict)
    summary: dict[str, np.ndarray] = field(default_factory=dict)

    def to_frame(self):
        """The traces as a pandas DataFrame, one row per (seed, round) sorted by both: columns ``seed``,
        ``round`` and every trace column (``cum_regret``, ... for
        :class:`~causal_bandits.bandits.recorders.RegretTrace`), the rows of the run store's trace file
        (:func:`causal_bandits.store.trace_table`).

        >>> run = Run(np.array([1, 0]), np.array([1, 2]), {"cum_regret": np.array([[0.5, 0.5], [0.0, 0.25]])})
        >>> run.to_frame()
           seed  round  cum_regret
        0     0      1        0.00
        1     0      2        0.25
        2     1      1        0.50
        3     1      2        0.50
        """
        from causal_bandits.store import trace_table  # pyarrow and pandas load on first use

        return trace_table(self).to_pandas()


def linear_grid(horizon: int, points: int) -> np.ndarray:
    """About ``points`` rounds spread evenly over 1..horizon, always including both ends.

    Parameters
    ----------
    horizon : int
        The last round, >= 1.
    points : int
        How many rounds to record, >= 1 (both ends are always recorded: 1 gives 2 points; at most ``horizon``).

    Returns
    -------
    numpy.ndarray
        The rounds, increasing, int64.
    """
    horizon = checks.count(horizon, "linear_grid(horizon)")
    n = min(max(checks.count(points, "linear_grid(points)"), 2), horizon)  # both ends, even for 1 point
    return np.unique(np.linspace(1, horizon, n).round().astype(np.int64))


def _start(policy: Policy, env: Environment, streams: Streams, horizon: int, recorders: Sequence[Recorder]) -> _Loop:
    """Check the interfaces, reset the environment, the policy (each on its own keyed streams) and the recorders;
    the round loop, which reads the environment's noise."""
    seeds = seed_array(streams.seeds)
    _check_interfaces(policy, env)
    loop = _Loop(policy, env, seeds, horizon, recorders, streams.uniforms("environment"))
    env.reset(streams, horizon)
    policy.reset(seeds.size, env.n_arms, lambda name: streams.uniforms(f"policy/{name}"))
    for recorder in recorders:
        recorder.start(seeds, horizon, env, policy)
    return loop


def _check_interfaces(policy: Policy, env: Environment) -> None:
    """TypeError naming what is missing when ``policy`` or ``env`` does not satisfy its protocol,
    or when the optional hooks do not fit together (blocks need a block environment)."""
    for obj, protocol in ((policy, Policy), (env, Environment)):
        if not isinstance(obj, protocol):
            members = [*protocol.__annotations__, *(n for n in vars(protocol) if not n.startswith("_"))]
            missing = [name for name in members if not hasattr(obj, name)]
            raise ArgumentTypeError(
                f"{type(obj).__name__} is not a {protocol.__name__}: it lacks {', '.join(sorted(missing))} "
                "(see causal_bandits.bandits.engine)"
            )
    if isinstance(policy, BlockPolicy) and not isinstance(env, BlockEnvironment):
        raise ArgumentTypeError(f"{type(policy).__name__} plays blocks but {type(env).__name__} has no pull_block()")


def simulate(
    policy: Policy,
    env: Environment,
    streams: Streams,
    horizon: int,
    recorders: Sequence[Recorder] = (),
    until: Callable[[], bool] | None = None,
    progress: Callable[[int], None] | None = None,
) -> Run:
    """Run ``policy`` in ``env`` for every seed of ``streams`` for at most ``horizon`` rounds.

    A :class:`StoppingPolicy` ends seeds on its own; the run's summary then holds ``stopped_at``
    (the round of the last pull), ``recommended``, ``correct`` (the recommended arm is optimal; for
    environments without contexts) and ``censored`` (still running at ``horizon``, the sample cap;
    its recommendation is taken there).

    A policy with the block hooks (:class:`BlockPolicy`) is served ``block(t)`` rounds at a time
    where it allows (see the module docstring).
    ``policy`` and ``env`` are checked against their protocols first (TypeError naming what is missing);
    ``horizon`` must be a whole number >= 1 and the seeds integers >= 0 (TypeError or ValueError).

    Parameters
    ----------
    policy : Policy
        The algorithm, vectorised over seeds (``reset``, ``select``, ``update``).
    env : Environment
        The arms (``n_arms``, ``noise_width``, ``reset``, ``contexts``, ``pull``, ``means``).
    streams : Streams
        The keyed random streams and the seeds to simulate.
    horizon : int
        The last round, a whole number >= 1 (the sample cap of a stopping policy).
    recorders : sequence of Recorder, optional
        What to record each round (e.g. :class:`~causal_bandits.bandits.recorders.RegretTrace`).
    until : callable, optional
        Called before every round or block; once it returns True the run ends for every seed, as if the
        horizon were the last round played (a length the policy decides for all seeds at once, e.g.
        CN-UCB's discovery alone; recorders have then seen only the rounds played).
    progress : callable, optional
        Called with ``t`` before every round or block; it may only observe
        (:class:`causal_bandits.runs.ProgressLog` logs how far a long job has got).

    Returns
    -------
    Run
        The recorders' traces on their grid and the per-seed summaries.
    """
    horizon = check_horizon(horizon)
    checks.kind(streams, Streams, "simulate(streams)", "give causal_bandits.Streams.for_experiment(name, seeds)")
    recorders = checks.listed(recorders, "simulate(recorders)", "recorders")
    loop = _start(policy, env, streams, horizon, recorders)
    _play(loop, cast(BlockPolicy, policy), horizon, until, progress)
    return loop.finish()


def _play(
    loop: _Loop,
    policy: BlockPolicy,
    horizon: int,
    until: Callable[[], bool] | None,
    progress: Callable[[int], None] | None,
) -> None:
    """The rounds of :func:`simulate`: one at a time, or a window or a block of them where the policy allows, until
    the horizon, ``until()``, or no seed is left."""
    t = 1
    while t <= horizon and not (until is not None and until()):
        if progress is not None:
            progress(t)
        length = min(policy.block(t), horizon - t + 1, loop.block_rounds()) if loop.blocks else 1
        window = loop.window_rounds(t, horizon) if loop.windows and until is None else 1
        if window > 1 and (played := loop.play_window(t, window)):  # a policy served both takes windows
            length = played
            if not loop.rows.size:
                break
        elif length > 1:
            if not loop.play_block(t, length):
                break
        elif not loop.play_round(t):
            break
        t += length


class _Loop:
    """The state :func:`simulate` keeps between rounds: the exact arm values (for recorders), the environment's
    noise (the running seeds' rows only: a seed that stops leaves its stream), the running seeds' positions (``rows``)
    and, for a :class:`StoppingPolicy`, when each seed stopped and what it recommended."""

    def __init__(
        self,
        policy: Policy,
        env: Environment,
        seeds: np.ndarray,
        horizon: int,
        recorders: Sequence[Recorder],
        noise: SeedStreams,
    ) -> None:
        self.policy, self.env, self.seeds, self.recorders = policy, env, seeds, recorders
        self.means = np.atleast_2d(np.asarray(env.means, dtype=float))
        self.mu_star = self.means.max(axis=1)
        self.gap = self.mu_star[:, None] - self.means
        self.is_optimal = np.isclose(self.means, self.mu_star[:, None], rtol=0.0, atol=MEAN_TOLERANCE)
        self.stopping = isinstance(policy, StoppingPolicy)
        self.blocks = isinstance(policy, BlockPolicy)
        self.observing = isinstance(policy, ObservingPolicy)
        self.law = env.outcome_law() if isinstance(env, WindowEnvironment) else None
        observes = bool(getattr(policy, "window_observes", False))
        self.program = env.node_program(observes) if isinstance(env, ProgramEnvironment) else None
        served = OutcomeTables if self.law is not None else NodeDraws if self.program is not None else None
        #: every recorder takes windows of rounds (blocks' inner rounds are then handed over as windows too)
        self.window_recorders = all(isinstance(recorder, WindowRecorder) for recorder in recorders)
        self.windows = (
            served is not None
            and isinstance(policy, WindowPolicy)
            and policy.window_draws is served
            and self.window_recorders
        )
        # The noise is fetched a window at a time where windows are played (no window straddles two fetches).
        self.noise = RoundBlocks(
            noise, env.noise_width, max(FETCH, self._window_cap(seeds.size)) if self.windows else FETCH
        )
        self.rows = np.arange(seeds.size)
        self.stopped_at = np.full(seeds.size, horizon, dtype=np.int64)
        self.recommended = np.full(seeds.size, -1, dtype=np.int64)

    def block_rounds(self) -> int:
        """The most rounds of a block at the running seeds (:data:`BLOCK` seed-rounds, at least one round)."""
        return max(1, BLOCK // self.rows.size)

    def _observed(self, t: int) -> np.ndarray | None:
        return cast(ObservingPolicy, self.policy).observed(t) if self.observing else None

    def record(self, t: int, feedback: Feedback, rounds: range = range(1), done: np.ndarray | None = None) -> None:
        """Hand the recorders round ``t`` (or rounds ``t + i`` for i in ``rounds`` of a block, one by one)."""
        arms, contexts = feedback.arms, feedback.contexts
        cell = 0 if contexts is None else contexts
        g, opt = self.gap[cell, arms], self.is_optimal[cell, arms]
        best = self.mu_star[0] if contexts is None else self.mu_star[contexts]
        for i in rounds:
            one = feedback if feedback.rewards.ndim == 1 else Feedback(arms, feedback.rewards[:, i], contexts, None)
            step = Step(t + i, self.rows, one, g, best, opt, done)
            for recorder in self.recorders:
                recorder.record(step)

    def play_block(self, t: int, length: int) -> bool:
        """Rounds ``t`` .. ``t + length - 1`` of the arms a :class:`BlockPolicy` selects at ``t``; False once a
        stopping policy has stopped every seed."""
        u = self.noise.next_rounds(length)
        contexts = self.env.contexts(t, u[:, 0], self.rows)
        arms = self.policy.select(t, contexts)
        block_env = cast(BlockEnvironment, self.env)  # _check_interfaces: a BlockPolicy gets a BlockEnvironment
        rewards, values = block_env.pull_block(t, contexts, arms, length, u, self._observed(t))
        feedback = Feedback(arms, rewards, contexts, values)
        running = np.zeros(self.rows.size, dtype=bool) if self.stopping else None
        if self.recorders:  # the inner rounds, before the policy has learnt from the block (its block() promise)
            self._record_inner(t, feedback, length - 1, running)
        cast(BlockPolicy, self.policy).update_block(feedback)
        return self.finish_round(t, feedback, length - 1)

    def _record_inner(self, t: int, feedback: Feedback, inner: int, running: np.ndarray | None) -> None:
        """Rounds ``t`` .. ``t + inner - 1`` of a block to the recorders. When they all take windows, as windows, each
        ending before a round some recorder reads the policy after (``window_end``), which goes as a round by itself;
        else round by round. No seed stops inside a block, so a window sees what the rounds one by one would."""
        if not self.window_recorders:
            self.record(t, feedback, range(inner), running)
            return
        arms = np.broadcast_to(feedback.arms[:, None], feedback.rewards.shape)
        i = 0
        while i < inner:
            ends = [cast(WindowRecorder, recorder).window_end(t + i) for recorder in self.recorders]
            end = min([t + inner - 1, *ends]) - t
            if end > i:
                self._record_window(t + i, arms[:, i:end], feedback.rewards[:, i:end], feedback.contexts)
            self.record(t, feedback, range(end, end + 1), running)
            i = end + 1

    def _record_window(self, t: int, arms: np.ndarray, rewards: np.ndarray, contexts: np.ndarray | None) -> None:
        """Rounds ``t`` .. ``t + L - 1`` (``arms``, ``rewards``: running seeds x L) to the recorders as one window."""
        cell = 0 if contexts is None else contexts[:, None]
        best = self.mu_star[0] if contexts is None else self.mu_star[contexts][:, None]
        window = Window(t, self.rows, arms, rewards, self.gap[cell, arms], best, self.is_optimal[cell, arms])
        for recorder in self.recorders:
            cast(WindowRecorder, recorder).record_window(window)

    def finish_round(self, t: int, feedback: Feedback, i: int = 0) -> bool:
        """After the policy has learnt from round ``t + i``: the recorders see it, stopped seeds leave; False once
        a stopping policy has stopped them all."""
        stopper = cast(StoppingPolicy, self.policy)
        done: np.ndarray | None = np.asarray(stopper.done(), dtype=bool) if self.stopping else None
        if self.recorders:
            self.record(t, feedback, range(i, i + 1), done)
        if done is not None and done.any():  # done is set exactly when stopping
            self.stopped_at[self.rows[done]] = t + i
            self.recommended[self.rows[done]] = stopper.recommend()[done]
            stopper.retain(~done)
            self.noise.retain(~done)
            self.rows = self.rows[~done]
        return self.rows.size > 0

    def _window_cap(self, seeds: int) -> int:
        """The most rounds of a window at ``seeds`` running seeds: :data:`WINDOW` rounds, :data:`WINDOW_UNIFORMS`
        uniforms."""
        return max(1, min(WINDOW, WINDOW_UNIFORMS // max(seeds * self.env.noise_width, 1)))

    def window_rounds(self, t: int, horizon: int) -> int:
        """The most rounds of a window from ``t``: what the policy and every recorder allow, up to :data:`WINDOW` rounds
        and :data:`WINDOW_UNIFORMS` uniforms, and within the noise's current fetch (no copy of its rounds; fetches are
        window-sized)."""
        ends = [cast(WindowRecorder, recorder).window_end(t) for recorder in self.recorders]
        length = min(
            cast(WindowPolicy, self.policy).window(t), min([horizon, *ends]) - t + 1, self._window_cap(self.rows.size)
        )
        return min(length, self.noise.available())

    def play_window(self, t: int, length: int) -> int:
        """Up to ``length`` rounds from ``t`` played by a :class:`WindowPolicy` with what the environment serves; the
        rounds played (their uniforms read, the others left for the next rounds), or 0, with nothing drawn, when the
        policy asks for observed values (then round ``t`` goes alone). A stopping policy's last round (the one after
        which a seed may stop) is recorded and ends its seeds as a round by itself is."""
        if self._observed(t) is not None:
            return 0
        u = self.noise.next_rounds(length)
        if self.law is not None:
            draws: OutcomeTables | NodeDraws = OutcomeTables(
                *self.law, *cast(WindowEnvironment, self.env).outcome_noise(u)
            )
        else:
            program, reward, columns, observed = cast("tuple[NodeProgram, int, int, np.ndarray | None]", self.program)
            draws = NodeDraws(program, u, reward, columns, observed)
        contexts = self.env.contexts(t, u[:, 0], self.rows)
        arms, rewards = cast(WindowPolicy, self.policy).play_window(t, length, draws)
        played = arms.shape[1]
        self.noise.unread(length - played)
        inner = played - 1 if self.stopping else played
        if inner:
            self._record_window(t, arms[:, :inner], rewards[:, :inner], contexts)
        if self.stopping:
            self.finish_round(t + played - 1, Feedback(arms[:, -1], rewards[:, -1], contexts, None))
        return played

    def play_round(self, t: int) -> bool:
        """Round ``t`` for every running seed; False once a stopping policy has stopped them all."""
        u = self.noise.uniform(self.env.noise_width)
        contexts = self.env.contexts(t, u, self.rows)
        arms = self.policy.select(t, contexts)
        rewards, values = self.env.pull(t, contexts, arms, u, self._observed(t))
        feedback = Feedback(arms, rewards, contexts, values)
        self.policy.update(feedback)
        return self.finish_round(t, feedback)

    def finish(self) -> Run:
        """The run: the recorders' columns and, for a stopping policy, the stopping summaries."""
        run = Run(self.seeds)
        for recorder in self.recorders:
            rounds, trace, summary = recorder.finish()
            if rounds is not None:
                run.rounds = rounds
            run.trace.update(trace)
            run.summary.update(summary)
        if self.stopping:
            if self.rows.size:
                self.recommended[self.rows] = cast(StoppingPolicy, self.policy).recommend()
            censored = np.zeros(self.seeds.size, dtype=bool)
            censored[self.rows] = True
            run.summary.update(stopped_at=self.stopped_at, recommended=self.recommended, censored=censored)
            if self.means.shape[0] == 1:
                run.summary["correct"] = self.is_optimal[0, self.recommended]
        return run
