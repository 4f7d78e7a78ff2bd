"""Environments for reinforcement learning (the ``rl`` extra: PettingZoo, Gymnasium).

``CitiesKnightsEnv`` (``ckdsl.envs.aec``) is imported on first use, so this package can
be imported (and its absence of PettingZoo reported) without the extra."""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    if name == "CitiesKnightsEnv":
        from ckdsl.envs.aec import CitiesKnightsEnv

        return CitiesKnightsEnv
    raise AttributeError(name)


__all__ = ["CitiesKnightsEnv"]
