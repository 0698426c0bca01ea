"""Logging for workflow steps: each job writes its progress and any traceback to its log file."""

from __future__ import annotations

import logging
import os
import sys
import time
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def logged(path: str | Path):
    """Send log records (INFO and up) to ``path`` and stderr; record any exception before raising."""
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    handlers = [logging.FileHandler(path, mode="w"), logging.StreamHandler(sys.stderr)]
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(name)s %(levelname)s %(message)s", handlers=handlers, force=True
    )
    try:
        yield logging.getLogger("causal_bandits")
    except BaseException:
        logging.getLogger("causal_bandits").exception("step failed")
        raise
    finally:
        for handler in handlers:
            handler.close()


def since_process_start() -> tuple[float, float]:
    """(wall, CPU) seconds since this process started: wall from the kernel's clock since boot and the
    process's start time (``/proc``, Linux, 10 ms resolution; NaN elsewhere), CPU from
    :func:`time.process_time`."""
    try:
        with open("/proc/self/stat") as stat:
            start_ticks = int(stat.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime") as uptime:
            wall = float(uptime.read().split()[0]) - start_ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        wall = float("nan")
    return wall, time.process_time()
