"""ckdsl: a rules engine for Catan: Cities & Knights in which the rules are data."""

from ckdsl import native

__version__ = "0.2.0"

native.install()  # the compiled modules, if built and as their sources say (ckdsl.native)
