"""One package per paper: its experiments, tables, figures and claims (``papers/<key>/``)."""
