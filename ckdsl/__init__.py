"""ckdsl: a rules engine for Catan: Cities & Knights in which the rules are data."""

__version__ = "0.2.0"
