"""Every effect and formula of a rule set, checked and compiled once.

``check_rules`` reports every fault of every effect and formula as a ``file:line:col``
diagnostic (``ckdsl validate`` runs it); ``compile_programs`` builds the programs the
engine runs (``CompiledRules.programs``), for a rule set that passed the checks.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.dsl.compiler import Compiler, Fn, Names, Program
from ckdsl.dsl.errors import DslError
from ckdsl.dsl.parser import parse, parse_expression
from ckdsl.dsl.source import diagnostic
from ckdsl.dsl.types import INT, PLAYER, Type
from ckdsl.dsl.vocabulary import Env
from ckdsl.rules.positions import Positions

if TYPE_CHECKING:
    from ckdsl.engine.game import Game
    from ckdsl.rules.ruleset import RuleSet

# The sections whose ids and values effects may name.
NAME_SECTIONS = ("terrains", "cards", "tracks", "resources", "commodities", "parameters")

FORMULAS: dict[str, dict[str, Type]] = {
    "strength": {},  # barbarian strength: no player of its own
    "defence": {"p": PLAYER},  # one player's part of the defence
}


@dataclass(frozen=True)
class Programs:
    """The compiled effects of a rule set: cards, abilities (level id -> (when, program))
    and the barbarian formulas."""

    cards: dict[str, Program]
    abilities: dict[str, tuple[str, Program]]
    strength: Fn
    defence: Fn
    openings: dict[str, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Each card's opening, once: the engine asks at every main-phase decision.
        self.openings.update({card: p.opening for card, p in self.cards.items()})

    def barbarian_strength(self, game: Game) -> int:
        return int(self.strength(Env(game, game.state.current, {})))

    def defence_of(self, game: Game, player: int) -> int:
        return int(self.defence(Env(game, player, {"p": player})))


def effects(data: dict[str, Any]) -> Iterator[tuple[JsonPath, str, str]]:
    """Every effect of the rule set: (path of its text, kind, text). Kind: card, ability."""
    cards = data.get("cards")
    for card, spec in cards.items() if isinstance(cards, dict) else ():
        if isinstance(spec, dict) and isinstance(spec.get("effect"), str):
            yield ("cards", card, "effect"), "card", spec["effect"]
    tracks = data.get("tracks")
    for track, spec in tracks.items() if isinstance(tracks, dict) else ():
        levels = spec.get("levels") if isinstance(spec, dict) else None
        for k, level in enumerate(levels if isinstance(levels, list) else []):
            ability = level.get("ability") if isinstance(level, dict) else None
            if isinstance(ability, dict) and isinstance(ability.get("effect"), str):
                yield (
                    ("tracks", track, "levels", k, "ability", "effect"),
                    "ability",
                    ability["effect"],
                )


def compile_effect(text: str, names: Names) -> tuple[Program | None, list[DslError]]:
    try:
        tree = parse(text)
    except DslError as err:
        return None, [err]
    compiler = Compiler(names)
    program = compiler.effect(tree)
    return program, compiler.errors


def compile_formula(
    text: str, names: Names, variables: dict[str, Type]
) -> tuple[Fn | None, list[DslError]]:
    try:
        expr = parse_expression(text)
    except DslError as err:
        return None, [err]
    compiler = Compiler(names, variables)
    fn = compiler.formula(expr, INT)
    return fn, compiler.errors


def check_rules(data: dict[str, Any], positions: Positions) -> list[Diagnostic]:
    """Every fault of every effect and formula of ``data``, at its file, line and column."""
    names = Names.of(data)
    out: list[Diagnostic] = []
    for path, _, text in effects(data):
        _, errors = compile_effect(text, names)
        out += [diagnostic(e, text, positions.value(path), path) for e in errors]
    barbarians = data.get("barbarians")
    for key, variables in FORMULAS.items():
        formula = barbarians.get(key) if isinstance(barbarians, dict) else None
        if isinstance(formula, str):
            _, errors = compile_formula(formula, names, variables)
            at: JsonPath = ("barbarians", key)
            out += [diagnostic(e, formula, positions.value(at), at) for e in errors]
    return out


def compile_programs(ruleset: RuleSet) -> Programs:
    """The programs of a checked rule set (an effect that does not compile is left out:
    ``ckdsl validate`` reports it, and the card is then played without effect)."""
    data = ruleset.data
    names = Names.of(data)
    cards: dict[str, Program] = {}
    abilities: dict[str, tuple[str, Program]] = {}
    for path, kind, text in effects(data):
        program, _ = compile_effect(text, names)
        if program is None:
            continue
        if kind == "card":
            cards[str(path[1])] = program
        else:
            level = data["tracks"][path[1]]["levels"][path[3]]
            abilities[level["id"]] = (level["ability"]["when"], program)
    formulas = []
    for key, variables in FORMULAS.items():
        fn, _ = compile_formula(data["barbarians"][key], names, variables)
        formulas.append(fn or _zero)
    return Programs(cards, abilities, formulas[0], formulas[1])


def _zero(env: Env) -> int:
    return 0
