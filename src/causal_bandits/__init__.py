"""Replication package for five causal-bandit papers (see README.md)."""

__version__ = "0.1.0"
