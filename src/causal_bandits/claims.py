"""Claims as data: what a paper reports, where, the rule we check it by, and its verdict on our results.

A :class:`Claim` pairs a paper's statement (a value, an ordering, a set) with a declared :class:`Rule` (its
kind, band or tolerance and basis, as data with a fingerprint: :mod:`causal_bandits.preregistration` keeps
the registered fingerprints and the amendments) and a function that evaluates it on the pipeline's results
and returns a :class:`Verdict`, one of :data:`STATUSES`:

* *reproduced*: independent agreement only; for a number from random runs, our whole 95 % interval lies
  inside the paper's band (:func:`within`, :func:`in_band`); for an ordering, the intervals are apart in the
  paper's direction (:func:`ordered`);
* *fitted*: agreement partly by construction (a model searched or rebuilt so that it gives the paper's
  number), with the reason;
* *vacuous*: holds only through a tie or an identity (identical arm sets, a method playing its fallback),
  with the reason;
* *differs*: our interval lies wholly outside the paper's band (both numbers shown: a finding);
* *inconclusive at this scale*: our interval straddles a band edge; the note says about how many seeds
  would decide it (:func:`seeds_to_decide`);
* *not specified by the paper*: the paper gives nothing to compare with;
* *not evaluated*: this run cannot check it (a paper-scale value in a quick run, say; the note says which).

A verdict's ``note`` is what it alone says; what several claims of a paper say alike (the scale of the
run, a rule they share, the reconstruction they rest on) is a *shared note*, listed once in the paper's
claims module (a ``NOTES`` mapping from key to text, or to a function of the results writing the text)
and cited by key in :attr:`Verdict.notes`. The claims document carries the texts of the notes its rows
cite (:func:`note_texts`), so the report says each once per paper, and, under each row, the amendments of
its rule (:func:`causal_bandits.preregistration.amendments_of`).
"""

from __future__ import annotations

import ast
import hashlib
import importlib
import inspect
import json
import math
import textwrap
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

REPRODUCED = "reproduced"
FITTED = "fitted"
VACUOUS = "vacuous"
DIFFERS = "differs"
INCONCLUSIVE = "inconclusive at this scale"
NOT_SPECIFIED = "not specified by the paper"
NOT_EVALUATED = "not evaluated"
#: Every verdict, in the order the report counts them (the one list the report's modules read).
STATUSES = (REPRODUCED, FITTED, VACUOUS, DIFFERS, INCONCLUSIVE, NOT_SPECIFIED, NOT_EVALUATED)
#: Verdicts that must say why (:attr:`Verdict.reason`).
NEEDS_REASON = (FITTED, VACUOUS)

Results = Mapping[str, Any]
#: A shared note: its text, or a function writing it from the results (for the run's scale, say).
Note = str | Callable[[Results], str]
#: A two-sided interval (lo, hi) on one of our numbers; (x, x) for an exact number.
Interval = tuple[float, float]


@dataclass(frozen=True)
class Rule:
    """How a claim is judged, declared before the results are seen: its ``kind`` (``"band"``: our interval
    against a band around the paper's number; ``"ordering"``: intervals apart in the paper's direction;
    ``"exact"``: an exact computation or equality; ``"threshold"``, ``"readings"``, ``"report"``: reported,
    not judged), its ``band`` (the tolerance's numbers, by name) and its ``basis`` (what the interval or
    the comparison rests on, in words); ``code``: the names of the functions of its paper's claims module
    (``module``, set by :func:`declared`) that apply it. Its :attr:`fingerprint`, what the registry records,
    covers the text and the code that applies it (:func:`code_digest`)."""

    kind: str
    basis: str
    band: Mapping[str, Any] = field(default_factory=dict)
    code: tuple[str, ...] = ()
    module: str = ""

    def data(self) -> dict[str, Any]:
        return {"kind": self.kind, "band": dict(self.band), "basis": self.basis}

    @property
    def text_fingerprint(self) -> str:
        """sha256 of the rule's canonical JSON (keys sorted, no spaces, UTF-8): its text alone."""
        text = json.dumps(self.data(), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()

    @property
    def code_fingerprint(self) -> str:
        """:func:`code_digest` of the functions that apply the rule: its kind's judges (:data:`JUDGES`) and the
        functions named in ``code``."""
        functions = [*JUDGES.get(self.kind, JUDGES["threshold"])]
        if self.code:
            module = importlib.import_module(self.module)
            functions += [getattr(module, name) for name in self.code]
        return code_digest(functions)

    @property
    def fingerprint(self) -> str:
        """sha256 of the text fingerprint and the code fingerprint, joined by a colon."""
        return combined_fingerprint(self.text_fingerprint, self.code_fingerprint)


def combined_fingerprint(text: str, code: str) -> str:
    """A rule's fingerprint from its text fingerprint and its code fingerprint (:class:`Rule`)."""
    return hashlib.sha256(f"{text}:{code}".encode()).hexdigest()


def code_digest(functions: Sequence[Callable[..., Any]]) -> str:
    """sha256 of the source of ``functions``, each normalised (parsed, docstrings dropped, printed back by
    :func:`ast.unparse`), so an edit to comments, docstrings or layout leaves it, and any edit to what the code
    does moves it."""
    parts = []
    for function in functions:
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and body:
                first = body[0]
                if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                    node.body = body[1:] or [ast.Pass()]
        parts.append(f"{function.__module__}.{function.__qualname__}\n{ast.unparse(tree)}")
    return hashlib.sha256("\n\n".join(parts).encode()).hexdigest()


def declared(module: str, rules: Mapping[str, Rule], code: Mapping[str, Sequence[str]]) -> dict[str, Rule]:
    """A paper's ``RULES``: ``rules`` with their claims ``module`` (``__name__``) and, from ``code``, the names of
    the functions of that module that apply each (:attr:`Rule.code`). Raises ``KeyError`` naming a rule that
    ``code`` leaves out or a key it has that no rule has."""
    if set(code) != set(rules):
        raise KeyError(f"{module}: the functions applying rules {sorted(set(rules) ^ set(code))} are not declared")
    return {key: replace(rule, module=module, code=tuple(code[key])) for key, rule in rules.items()}


@dataclass(frozen=True)
class Verdict:
    """A claim's verdict: ``note`` is what this verdict alone says, ``notes`` the keys of the paper's
    shared notes it also cites, in the order a reader should read them; ``reason`` why a *fitted* or
    *vacuous* agreement is not independent; ``interval`` our 95 % interval where the verdict rests on one."""

    status: str
    paper: str
    ours: str
    note: str = ""
    notes: tuple[str, ...] = ()
    reason: str = ""
    interval: Interval | None = None

    def __post_init__(self) -> None:
        if self.status not in STATUSES:
            raise ValueError(f"unknown verdict status {self.status!r}")
        if self.status in NEEDS_REASON and not self.reason:
            raise ValueError(f"a {self.status} verdict must say why (Verdict.reason)")

    def replace(self, **changes: Any) -> Verdict:
        return Verdict(**{**asdict(self), **changes})


@dataclass(frozen=True)
class Claim:
    id: str
    source: str  # where the paper says it: "Table 1", "§3, Prop. 1", "Fig. 5b"
    statement: str
    evaluate: Callable[[Results], Verdict]
    #: The rule's key in its paper's ``RULES`` and the rule (None: a study's claim, judged by no paper rule).
    rule_key: str = ""
    rule: Rule | None = None

    def check(self, results: Results) -> dict[str, Any]:
        """Evaluate on ``results``; the row the report prints (``notes``: a list of shared-note keys; ``rule``:
        the rule's key, data and fingerprint)."""
        verdict = self.evaluate(results)
        row = {"id": self.id, "source": self.source, "statement": self.statement, **asdict(verdict)}
        row["interval"] = list(verdict.interval) if verdict.interval is not None else None
        if self.rule is not None:
            row["rule"] = {"key": self.rule_key, **self.rule.data(), "fingerprint": self.rule.fingerprint}
        return {**row, "notes": list(verdict.notes)}


def ruled(rules: Mapping[str, Rule], key: str) -> dict[str, Any]:
    """The ``rule_key`` and ``rule`` arguments of a :class:`Claim` judged by ``rules[key]``."""
    return {"rule_key": key, "rule": rules[key]}


def note_texts(notes: Mapping[str, Note], rows: Sequence[Mapping[str, Any]], results: Results) -> dict[str, str]:
    """The texts of the shared ``notes`` (a paper's ``NOTES``) that ``rows`` cite, by key, in order of first
    citation; a function is called on ``results``. Raises ``KeyError`` naming a key no note has."""
    cited = dict.fromkeys(key for row in rows for key in row.get("notes", ()))
    unknown = [key for key in cited if key not in notes]
    if unknown:
        raise KeyError(f"claims cite shared notes {unknown} that the paper's NOTES does not list")
    return {key: text if isinstance(text, str) else text(results) for key in cited for text in (notes[key],)}


def document(
    paper: str,
    section: Mapping[str, Any],
    rows: list[dict[str, Any]],
    scale: str | None = None,
    notices: Sequence[str] = (),
    notes: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A paper's evaluated claims as the report reads them, with the scale of the run that made them.

    Every paper's config section holds ``horizon`` and ``n_seeds`` at its top level; by default the
    scale line reads ``"T = <horizon>, <n_seeds> seeds"``, and a paper whose horizon means something else
    (a pure-exploration sample cap) gives its own ``scale`` text. ``notices`` are what a reader must
    know before any verdict of the paper (synthetic stand-in data, say): the report puts them at its
    top and in the paper's header. A document without notices has no ``notices`` key. ``notes`` are the
    texts of the shared notes the rows cite (:func:`note_texts`), by key. A row judged by a rule that was
    amended carries the amendments (``amendments``: date, commit, reason, the verdict under the old rule and
    the new, :mod:`causal_bandits.preregistration`); the texts of the reasons they share are the document's
    ``shared_reasons``, by key, each once.
    """
    from causal_bandits.preregistration import amendments_of, shared_reasons

    for row in rows:
        found = amendments_of(paper, row["rule"]["key"]) if row.get("rule") else []
        if found:
            row["amendments"] = found
    scale = scale or f"T = {section['horizon']:,}, {section['n_seeds']:,} seeds"
    doc = {"paper": paper, "scale": scale, "claims": rows, "notes": dict(notes or {})}
    cited = sorted({a["shared"] for row in rows for a in row.get("amendments", ()) if "shared" in a})
    doc |= {"shared_reasons": {key: shared_reasons()[key] for key in cited}} if cited else {}
    return {**doc, "notices": list(notices)} if notices else doc


def fmt(x: float, digits: int = 2) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.{digits}f}"


def t_quantile(n: int) -> float:
    """The 0.975 quantile of Student's t with n − 1 degrees of freedom (n = 5: 2.78; n = 100: 1.98): the one
    quantile of every 95 % interval on a mean over ``n`` seeds (or runs); infinite for n < 2."""
    if n < 2:
        return math.inf
    from scipy import stats  # here, not at the top: the workflow plans with this module, never with scipy.stats (2 s)

    return float(stats.t.ppf(0.975, n - 1))


def mean_interval(mean: float, sd: float, n: int) -> Interval:
    """The two-sided 95 % interval of a mean over ``n`` seeds with standard deviation ``sd``: mean ± t·sd/√n
    (:func:`t_quantile`); unbounded for n < 2."""
    if n < 2:
        return (-math.inf, math.inf)
    half = t_quantile(n) * sd / math.sqrt(n)
    return (mean - half, mean + half)


def t_estimate(point: float, half_z: float, n: int) -> Estimate:
    """A mean over ``n`` seeds whose table gives a 95 % half-width at the normal quantile (1.96 sd/√n, the
    aggregates' and Table 1's), as an :class:`Estimate` with the t-quantile of its n (:func:`t_quantile`)."""
    half = half_z / 1.96 * t_quantile(n) if n >= 2 else math.inf
    return Estimate(point, point - half, point + half, n)


def ratio_estimate(top: float, top_se: float, bottom: float, bottom_se: float, n: int, scale: float = 1.0) -> Estimate:
    """``scale`` · ``top`` / ``bottom`` of two means with their standard errors over ``n`` runs each, with a 95 %
    interval by the delta method (the two relative errors combined as if independent; ``scale`` exact) at the
    t-quantile of ``n`` (:func:`t_quantile`)."""
    point = scale * top / bottom
    half = t_quantile(n) * abs(point) * math.hypot(top_se / top, bottom_se / bottom)
    return (
        Estimate(point, point - half, point + half, n)
        if math.isfinite(half)
        else Estimate(point, -math.inf, math.inf, n)
    )


def wilson(successes: int, n: int) -> Interval:
    """The Wilson 95 % interval of a rate of ``successes`` in ``n`` runs (:func:`scipy.stats.binomtest`); NaNs for
    no run."""
    if n == 0:
        return float("nan"), float("nan")
    from scipy.stats import binomtest  # here, not at the top: see mean_interval

    ci = binomtest(int(successes), int(n)).proportion_ci(method="wilson")
    return float(ci.low), float(ci.high)


def interval_text(point: float, interval: Interval, digits: int = 2) -> str:
    """``point [lo, hi]``: a number with its 95 % interval beside it."""
    return f"{point:.{digits}f} [{interval[0]:.{digits}f}, {interval[1]:.{digits}f}]"


def seeds_to_decide(n: int, half: float, distance: float) -> int | None:
    """About how many seeds would decide a straddling interval, if the estimate stays where it is: the interval of
    half-width ``half`` at ``n`` seeds is t(n)·s/√n (:func:`t_quantile`), so it clears an edge ``distance`` away
    from the point at the fewest m seeds with t(m)·s/√m ≤ ``distance`` (None: the point is on the edge, or the
    width is unknown). At n = 5 the t-quantile alone halves the count a 1/√n scaling would give."""
    if distance <= 0 or not math.isfinite(half) or n < 2:
        return None
    spread = half * math.sqrt(n) / t_quantile(n)  # the standard deviation behind the interval

    def clears(m: int) -> bool:
        return t_quantile(m) * spread / math.sqrt(m) <= distance

    high = max(2, math.ceil((t_quantile(2) * spread / distance) ** 2))  # t(m) ≤ t(2): clears at this m
    low = 2
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if clears(middle) else (middle + 1, high)
    return low


def _undecided(n: int, half: float, distance: float, unit: str, fixed: str = "") -> str:
    """What would decide a straddling interval: ``fixed`` says why no number of ``unit`` would (the band shares our
    standard error, or the quantity does not narrow with more of them), else :func:`seeds_to_decide`."""
    if fixed:
        return f"not decidable by more {unit}: {fixed}"
    needed = seeds_to_decide(n, half, distance)
    if needed is None:
        return "no number of " + unit + " decides it (the point is on the edge, or the interval is unbounded)"
    return f"about {needed:,} {unit} (this run: {n:,}) would decide it if the estimate stays where it is"


def in_band(
    point: float,
    interval: Interval,
    band: Interval,
    n: int,
    unit: str = "seeds",
    digits: int = 2,
    fixed: str = "",
    needed: Callable[[float], int | None] | None = None,
) -> tuple[str, str]:
    """(status, note) of a number against the paper's ``band`` (lo, hi; an edge may be infinite, for a one-sided
    threshold): reproduced when our whole 95 % ``interval`` lies inside, differs when wholly outside, else
    inconclusive at this scale (the note says how many ``unit`` would decide it, :func:`seeds_to_decide`, from the
    interval's side that faces the nearest edge: an asymmetric interval, a Wilson interval near 0 or 1 say, is
    narrower on its other side; ``fixed``: why no number of them would, :func:`_undecided`; ``needed``: the count
    that would clear a given edge, where the interval is not a t-interval, :func:`rate_in_band`)."""
    lo, hi = interval
    edges = f"[{band[0]:.{digits}f}, {band[1]:.{digits}f}]"
    if band[0] <= lo and hi <= band[1]:
        return REPRODUCED, f"95 % interval inside the band {edges}"
    if hi < band[0] or lo > band[1]:
        return DIFFERS, f"95 % interval wholly outside the band {edges}"
    # the edges the interval crosses (a rate of 1 against [1 − δ, 1] crosses only the lower one), nearest first
    crossed = [(abs(point - band[0]), point - lo, band[0])] if lo < band[0] else []
    crossed += [(abs(point - band[1]), hi - point, band[1])] if hi > band[1] else []
    distance, half, edge = min(crossed)
    if needed is not None and not fixed:
        count = needed(edge)
        more = f"about {count:,} {unit} (this run: {n:,})" if count else f"no number of {unit}"
        return INCONCLUSIVE, f"95 % interval straddles the band {edges}; {more} would decide it if the rate stays"
    return INCONCLUSIVE, f"95 % interval straddles the band {edges}; " + _undecided(n, half, distance, unit, fixed)


def _wilson_edges(rate: float, n: int) -> Interval:
    """The Wilson 95 % interval of a rate ``rate`` observed in ``n`` runs, in closed form (z = 1.96)."""
    z2 = 1.96**2
    centre, spread = rate + z2 / (2 * n), 1.96 * math.sqrt(rate * (1 - rate) / n + z2 / (4 * n * n))
    return (centre - spread) / (1 + z2 / n), (centre + spread) / (1 + z2 / n)


def runs_to_decide(rate: float, n: int, edge: float, limit: int = 10**7) -> int | None:
    """The fewest runs at which the Wilson 95 % interval of ``rate`` (if the rate stays) clears ``edge`` (None:
    the rate is on the edge, or more than ``limit`` runs)."""
    lo_side = rate > edge
    if rate == edge:
        return None

    def clears(m: int) -> bool:
        lo, hi = _wilson_edges(rate, m)
        return lo >= edge if lo_side else hi < edge

    if not clears(limit):
        return None
    low, high = n, limit
    while low < high:
        middle = (low + high) // 2
        low, high = (low, middle) if clears(middle) else (middle + 1, high)
    return low


def rate_in_band(successes: int, n: int, band: Interval, unit: str = "runs", digits: int = 3) -> tuple[str, str]:
    """(status, note) of a rate of ``successes`` in ``n`` runs against ``band``: its Wilson 95 % interval
    (:func:`wilson`) by :func:`in_band`, the runs that would decide a straddling interval from the Wilson interval
    itself (:func:`runs_to_decide`)."""
    rate = successes / n
    return in_band(rate, wilson(successes, n), band, n, unit, digits, needed=lambda edge: runs_to_decide(rate, n, edge))


def within(
    ours: float,
    paper: float,
    rel_tol: float,
    ours_text: str | None = None,
    *,
    interval: Interval,
    n: int,
    unit: str = "seeds",
) -> Verdict:
    """Verdict for a number the paper reports, with a relative tolerance fixed in advance: our 95 % ``interval``
    (over ``n`` seeds; (x, x) for an exact number) against the band paper·(1 ± rel_tol) (:func:`in_band`)."""
    band = (paper - abs(paper) * rel_tol, paper + abs(paper) * rel_tol)
    status, text = in_band(ours, interval, band, n, unit)
    exact = interval[0] == interval[1]
    shown = ours_text or (fmt(ours) if exact else interval_text(ours, interval))
    note = f"{(ours - paper) / paper:+.1%} from the paper (tolerance ±{rel_tol:.0%})" + ("" if exact else f"; {text}")
    return Verdict(status, fmt(paper), shown, note, interval=None if exact else interval)


@dataclass(frozen=True)
class Estimate:
    """One of our numbers with its 95 % interval (lo, hi) over ``n`` seeds (or runs)."""

    point: float
    lo: float
    hi: float
    n: int

    @property
    def half(self) -> float:
        return (self.hi - self.lo) / 2


#: What an exact tie in every seed (or identical runs) says of an ordering: a strict one fails, and no number of
#: seeds parts it; a non-strict one holds only through the tie.
TIE_STRICT = "an exact tie in every seed: the paper's strict ordering fails, and no number of seeds parts a tie"
TIE_WEAK = "holds only through an exact tie in every seed (the same number in each), not by any difference"


def tie(strict: bool) -> tuple[str, str]:
    """(status, note) of an ordering between two numbers equal in every seed: *differs* where the paper states a
    strict inequality, *vacuous* (the note is its reason) where it holds only through the tie."""
    return (DIFFERS, TIE_STRICT) if strict else (VACUOUS, TIE_WEAK)


def ordered(smaller: Estimate, larger: Estimate, unit: str = "seeds", strict: bool = True) -> tuple[str, str]:
    """(status, note) of the ordering ``smaller`` < ``larger`` (≤ unless ``strict``): reproduced when the 95 %
    intervals are apart in that direction, differs when apart the other way, an exact tie in every seed (both
    intervals one and the same point: a paired difference of 0 in every seed against 0, say) judged by
    :func:`tie`, else inconclusive (overlap; how many ``unit`` would part them if the points stay, from the
    claim's own n). Non-overlap of two intervals is conservative for runs that share random streams (their
    paired difference's interval is narrower), and the note says so where it matters."""
    if smaller.lo == smaller.hi == larger.lo == larger.hi:
        return tie(strict)
    if smaller.hi < larger.lo:
        return REPRODUCED, ""
    if smaller.lo > larger.hi:
        return DIFFERS, ""
    n = min(smaller.n, larger.n)
    gap = abs(larger.point - smaller.point)
    return INCONCLUSIVE, "intervals overlap; " + _undecided(n, smaller.half + larger.half, gap, unit)


def combine(statuses: Sequence[str]) -> str:
    """One verdict of several parts judged alike: differs if any part differs, reproduced if all are, vacuous if
    every part is reproduced or vacuous and one is vacuous (the whole holds only through it), else
    inconclusive."""
    if DIFFERS in statuses:
        return DIFFERS
    if all(s == REPRODUCED for s in statuses):
        return REPRODUCED
    return VACUOUS if all(s in (REPRODUCED, VACUOUS) for s in statuses) else INCONCLUSIVE


def holds(condition: bool, paper: str, ours: str, note: str = "", notes: Sequence[str] = ()) -> Verdict:
    """Verdict for an exact or qualitative statement (no sampling error): reproduced when it holds on our
    results."""
    return Verdict(REPRODUCED if condition else DIFFERS, paper, ours, note, tuple(notes))


#: The functions of this module that apply each kind of rule, in its fingerprint (:attr:`Rule.code_fingerprint`):
#: every kind judged on intervals shares the one interval and tie standard; ``exact`` is :func:`holds`.
_INTERVALS = (
    t_quantile,
    _wilson_edges,
    runs_to_decide,
    rate_in_band,
    mean_interval,
    t_estimate,
    ratio_estimate,
    wilson,
    seeds_to_decide,
    _undecided,
    in_band,
    within,
    tie,
    ordered,
    combine,
)
JUDGES: dict[str, tuple[Callable[..., Any], ...]] = {
    "exact": (holds,),
    "report": (),
    **dict.fromkeys(("band", "ordering", "threshold", "readings"), _INTERVALS),
}
