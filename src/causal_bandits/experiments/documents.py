"""Rules experiments_instance and pure_exploration_instance: an own experiment's instance
(:func:`causal_bandits.experiments.instance.instance_document`: arms, exact means, arm lists) and an own graph's
pure-exploration instance (:func:`causal_bandits.experiments.cpe.instance`: arms, exact means, admissible sequences),
as JSON. Apart from those modules, which the run jobs execute, so that these steps' code is not theirs."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from causal_bandits import store
from causal_bandits.experiments import cpe
from causal_bandits.experiments.instance import instance_document
from causal_bandits.papers.nonmanip.documents import instance_line

if TYPE_CHECKING:
    from causal_bandits.stages import Job

log = logging.getLogger(__name__)


def instance_step(job: Job) -> None:
    """Rule experiments_instance: the instance document of the own experiment ``job.wildcards.experiment``."""
    doc = instance_document(job.wildcards.experiment, job.params.experiment)
    store.write_json(job.output[0], doc)
    log.info("%s", instance_line(doc))


def pure_exploration_instance_step(job: Job) -> None:
    """Rule pure_exploration_instance: the cpe instance of the own graph ``job.wildcards.experiment``."""
    name, p = job.wildcards.experiment, job.params.experiment
    inst = cpe.instance(p["scm"], max_intervened=p["max_intervened"], bglm=p["bglm"], name=name)
    store.write_json(job.output[0], inst.to_document())
    log.info("%s: %d arms, best mean %.4f", name, inst.n_arms, inst.mu.max())
