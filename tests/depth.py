"""How deep the suite goes: a quick default run (CI runs it twice, under 90 s each on two
cores), the full counts when hunting for bugs by hand with ``HYPOTHESIS_PROFILE=deep``.

The profiles themselves are registered in ``conftest.py``; this module lets a test scale what
the profile does not reach (a property test whose every example costs seconds, a loop over
random games)."""

from __future__ import annotations

import os

from hypothesis import settings

DEEP = os.environ.get("HYPOTHESIS_PROFILE") == "deep"


def examples(quick: int) -> int:
    """A costly property test's examples: at most ``quick`` in the default run, the
    profile's own count under the deep profile."""
    profile = settings().max_examples
    return profile if DEEP else min(quick, profile)


def games(quick: int, full: int) -> int:
    """How many random games a loop plays: ``quick`` by default, ``full`` under the deep
    profile."""
    return full if DEEP else quick
