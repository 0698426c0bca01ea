"""Logging for workflow steps: each job writes its progress and any traceback to its log file."""

from __future__ import annotations

import logging
import sys
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
