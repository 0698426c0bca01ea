"""Exceptions whose message is the one line a user sees.

Every error the pipeline raises on bad input derives from :class:`CausalBanditsError`; the command
line catches it, prints ``error: <message>`` and exits with status 2, so a config typo or a corrupt
file never ends in a traceback. Messages name the problem and the fix.
"""


class CausalBanditsError(Exception):
    """Base class: bad input that the user can fix."""


class ConfigError(CausalBanditsError):
    """The configuration is invalid (unknown key, impossible value)."""


class DiagramError(CausalBanditsError):
    """A causal diagram is malformed (duplicate or unknown node, directed cycle, ...)."""


class DataError(CausalBanditsError):
    """A data file is missing, corrupt, or does not have the expected shape."""
