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


class ArgumentError(ConfigError, ValueError):
    """A public function or constructor of the library was given an impossible value (a probability of 2, a
    table of the wrong length, an unknown node). One check serves the API and the config path
    (:mod:`causal_bandits.checks`), so it is also a :class:`ConfigError`, and a :class:`ValueError` for callers
    that catch the builtin."""


class ArgumentTypeError(ArgumentError, TypeError):
    """A public function or constructor was given a value of the wrong kind (a list where an SCM belongs, a
    recorder where a list of them belongs); also a :class:`TypeError`."""
