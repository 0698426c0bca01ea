"""Our synthetic stand-ins for the Adult and YouTube raw files of the fairness paper
(docs/papers/fairness.md#fairness-a24-standin).

Used only when a raw file is missing and the config asks for stand-ins (``fairness.raw.on_missing:
standin``); they are written under :data:`causal_bandits.data.raw.STANDIN_DIR`, never under the raw-data directory, and
everything built from them is labelled ``synthetic-standin``. They reproduce the format of the
real files and the marginals the experiments use, nothing more:

* Adult: 32,561 records in the UCI format; exactly 21,790 ``Male`` / 10,771 ``Female``; age
  17 + floor(Gamma(4.5, 4.91)) clipped to 90 (mean ~38.6, median 37); race White 85.4 %, Black
  9.6 %, Asian-Pac-Islander 3.2 %, Amer-Indian-Eskimo 1.0 %, Other 0.8 %; income >50K from a
  logistic model in (sex, age, race) whose intercepts are solved so that P(>50K | Male) = 0.306
  and P(>50K | Female) = 0.109 in expectation; the other columns plausible UCI values (unused).
* YouTube: crawl-format lines (tab-separated, no related IDs), 11-character IDs, uploader
  ``standin_<k>``, age in [1, 700], length ~ lognormal (median 200 s), views ~ lognormal (median
  5,000, heavy tail), rate in [0, 5], ratings ~ Poisson(0.005 views), comments ~ Poisson(0.002
  views); redrawn until all 16 binary video types (length, ratings, views, comments above their
  medians) occur.
"""

from __future__ import annotations

import logging
import os
from typing import TYPE_CHECKING

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit

from causal_bandits.rng import generator
from causal_bandits.store import write_atomic

if TYPE_CHECKING:
    from causal_bandits.stages import Job


log = logging.getLogger(__name__)

N_ADULT, N_MALE = 32_561, 21_790
RACES = {"White": 0.854, "Black": 0.096, "Asian-Pac-Islander": 0.032, "Amer-Indian-Eskimo": 0.010, "Other": 0.008}
INCOME_RATE = {"Male": 0.306, "Female": 0.109}
EDUCATION = {
    "HS-grad": 9,
    "Some-college": 10,
    "Bachelors": 13,
    "Masters": 14,
    "Assoc-voc": 11,
    "11th": 7,
    "Assoc-acdm": 12,
    "10th": 6,
    "Doctorate": 16,
}
WORKCLASS = ("Private", "Self-emp-not-inc", "Local-gov", "State-gov", "Self-emp-inc", "Federal-gov", "?")
MARITAL = ("Married-civ-spouse", "Never-married", "Divorced", "Separated", "Widowed")
OCCUPATION = (
    "Prof-specialty",
    "Craft-repair",
    "Exec-managerial",
    "Adm-clerical",
    "Sales",
    "Other-service",
    "Machine-op-inspct",
    "Transport-moving",
    "Handlers-cleaners",
    "Tech-support",
    "?",
)
RELATIONSHIP = ("Husband", "Not-in-family", "Own-child", "Unmarried", "Wife", "Other-relative")
COUNTRIES = ("United-States", "Mexico", "Philippines", "Germany", "Canada", "India")
CATEGORIES = (
    "Music",
    "Entertainment",
    "Comedy",
    "People & Blogs",
    "Film & Animation",
    "Sports",
    "News & Politics",
    "Autos & Vehicles",
    "Howto & DIY",
    "Pets & Animals",
    "Travel & Places",
    "Gadgets & Games",
)
ID_ALPHABET = np.array(list("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"))
N_VIDEOS = 2_000


def adult_lines(seed: int) -> list[str]:
    """The stand-in Adult records, one UCI-formatted line each."""
    rng = generator("fairness", "standin", seed, "data/adult")
    sex = rng.permutation(np.array(["Male"] * N_MALE + ["Female"] * (N_ADULT - N_MALE)))
    age = np.minimum(17 + np.floor(rng.gamma(4.5, 4.91, N_ADULT)), 90).astype(int)
    race = rng.choice(list(RACES), N_ADULT, p=np.array(list(RACES.values())) / sum(RACES.values()))
    slope = 0.04 * (age - 38.6) + 0.4 * (race == "White")
    high = np.zeros(N_ADULT, dtype=bool)
    for s, rate in INCOME_RATE.items():
        mask = sex == s
        intercept = brentq(lambda c, mask=mask, rate=rate: expit(c + slope[mask]).mean() - rate, -20.0, 20.0)
        high[mask] = rng.random(mask.sum()) < expit(intercept + slope[mask])
    education = rng.choice(list(EDUCATION), N_ADULT)
    pick = lambda options: rng.choice(options, N_ADULT)  # noqa: E731
    columns = [
        age.astype(str),
        pick(WORKCLASS),
        rng.integers(20_000, 800_000, N_ADULT).astype(str),
        education,
        np.array([str(EDUCATION[e]) for e in education]),
        pick(MARITAL),
        pick(OCCUPATION),
        pick(RELATIONSHIP),
        race,
        sex,
        np.where(rng.random(N_ADULT) < 0.08, rng.integers(1, 20_000, N_ADULT), 0).astype(str),
        np.where(rng.random(N_ADULT) < 0.05, rng.integers(1, 3_000, N_ADULT), 0).astype(str),
        rng.integers(10, 80, N_ADULT).astype(str),
        pick(COUNTRIES),
        np.where(high, ">50K", "<=50K"),
    ]
    return [", ".join(fields) for fields in zip(*columns)]


def youtube_lines(seed: int, n: int = N_VIDEOS) -> list[str]:
    """The stand-in crawl lines; redrawn until all 16 binary video types occur."""
    rng = generator("fairness", "standin", seed, "data/youtube")
    while True:
        length = np.maximum(1, np.round(rng.lognormal(np.log(200.0), 0.8, n))).astype(int)
        views = np.round(rng.lognormal(np.log(5_000.0), 2.0, n)).astype(int)
        ratings, comments = rng.poisson(0.005 * views), rng.poisson(0.002 * views)
        bits = [x > np.median(x) for x in (length, ratings, views, comments)]
        if np.unique(8 * bits[0] + 4 * bits[1] + 2 * bits[2] + bits[3]).size == 16:
            break
    ids = ["".join(row) for row in rng.choice(ID_ALPHABET, (n, 11))]
    age = rng.integers(1, 701, n)
    category = rng.choice(CATEGORIES, n)
    rate = np.round(rng.uniform(0.0, 5.0, n), 2)
    return [
        "\t".join(
            [
                ids[k],
                f"standin_{k}",
                str(age[k]),
                category[k],
                str(length[k]),
                str(views[k]),
                f"{rate[k]:.2f}",
                str(ratings[k]),
                str(comments[k]),
            ]
        )
        for k in range(n)
    ]


def write_lines(path: str | os.PathLike, lines: list[str]) -> None:
    """Write ``lines`` (newline-terminated, plus the final blank line of adult.data) atomically."""
    text = "\n".join(lines) + "\n\n"
    write_atomic(path, lambda tmp: tmp.write_text(text))


#: The stand-in of each data set (its ``raw`` entries' ``dataset``): the lines it writes from a seed.
LINES = {"adult": adult_lines, "youtube": youtube_lines}


def standin_step(job: Job) -> None:
    """Rule fairness_standin: the stand-in of one missing raw file (:data:`LINES` of its data set, ``params.kind``),
    labelled downstream."""
    lines = LINES[job.params.kind](job.params.seed)
    write_lines(job.output[0], lines)
    log.warning(
        "SYNTHETIC STAND-IN written for %s (%d lines): everything built from it is labelled",
        job.wildcards.rawfile,
        len(lines),
    )
