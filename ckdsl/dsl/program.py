"""Every effect and formula of a rule set, checked and compiled once.

``check_rules`` reports every fault of every effect and formula as a ``file:line:col``
diagnostic (``ckdsl validate`` runs it); ``compile_programs`` builds the programs the
engine runs (``CompiledRules.programs``), for a rule set that passed the checks.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Protocol, TypeVar

from ckdsl import jsondata
from ckdsl.core.allow import Env
from ckdsl.core.compiled import ENGINE_PARAMETERS
from ckdsl.diagnostics import Diagnostic, JsonPath
from ckdsl.dsl import parsed
from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.base.types import (
    BOOL,
    CARD,
    CITY,
    EDGE,
    GOOD,
    INT,
    INTERSECTION,
    KNIGHT,
    PIECE,
    PLAYER,
    TILE,
    TRACK,
    Type,
)
from ckdsl.dsl.compiler.blocks import RunCode, run_code
from ckdsl.dsl.compiler.blocks import opening_code as opening_code_of
from ckdsl.dsl.compiler.program import STOP, Fn, Names, Program
from ckdsl.dsl.compiler.pycode import closures_only, to_python
from ckdsl.dsl.compiler.selections import filter_code, first_code
from ckdsl.dsl.compiler.statements import Compiler
from ckdsl.dsl.source import diagnostic
from ckdsl.jsondata import JsonObject, JsonValue, arr, integer, obj
from ckdsl.rules import disk
from ckdsl.rules.checks import ENGINE_TITLES, effects, entries
from ckdsl.rules.positions import Positions
from ckdsl.rules.ruleset import RuleSet
from ckdsl.rules.ruleset import load_ruleset as load_data
from ckdsl.rules.schemas import load_schema

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

# The sections whose ids and values effects may name.
NAME_SECTIONS = ("terrains", "cards", "tracks", "resources", "commodities", "parameters")

FORMULAS: dict[str, dict[str, Type]] = {
    "strength": {},  # barbarian strength: no player of its own
    "defence": {"p": PLAYER},  # one player's part of the defence
}

TURN_FORMULAS: dict[str, tuple[dict[str, Type], Type]] = {
    "win": ({"p": PLAYER}, BOOL),  # whether p wins now
    "discard_limit": ({"p": PLAYER}, INT),  # the cards p may hold when a 7 is rolled
}
"""The formulas of the `turn` section: their variables and what they give."""

ENTRY_HOOKS: dict[str, dict[str, Type]] = {
    "turn_start": {},  # a turn begins (me: its player)
    "after_roll": {},  # the dice are rolled (me: the roller)
    "turn_end": {},  # a turn ends (me: its player)
    "between_turns": {},  # after a turn's end, before the next begins (me: who ended)
    "city_lost": {"c": CITY},  # the barbarians take a city (me: its owner; c: the city)
    "knight_acted": {"k": KNIGHT},  # knight k of me moved, displaced or chased the robber
    "card_played": {"c": CARD},  # me plays progress card c (before its effect)
    # me placed a piece in set-up / built one (a move or an effect's `build`): the piece,
    # and where: i, its intersection (a road: -1), or e, its edge (a road's; else -1)
    "setup_placed": {"piece": PIECE, "i": INTERSECTION, "e": EDGE},
    "built": {"piece": PIECE, "i": INTERSECTION, "e": EDGE},
    "stolen": {"victim": PLAYER, "g": GOOD},  # me stole good g from victim (one card)
    # declared: the robber's steal (a 7, a chase) offers "steal nothing", which runs it
    "steal_declined": {},
}
"""The hooks the turn machine runs itself, with their variables: the contract between
the engine and a rule set. Every other hook runs only when a hook says `run` it."""

MOVES: dict[str, dict[str, Type]] = {
    "robber": {"t": TILE},  # the robber goes to tile t (a 7, a knight, a card)
    "road": {"e": EDGE},
    "settlement": {"i": INTERSECTION},
    "city": {"i": INTERSECTION},
    "city_wall": {"i": CITY},
    "knight": {"i": INTERSECTION},  # build a basic knight
    "activate": {"k": KNIGHT},
    "promote": {"k": KNIGHT},
    "knight_acts": {"k": KNIGHT},  # whether knight k may act at all now
    "move_knight": {"k": KNIGHT, "i": INTERSECTION},
    "displace": {"k": KNIGHT, "other": KNIGHT},
    # a displaced knight of me goes to i (was: the intersection it was pushed off)
    "relocate": {"i": INTERSECTION, "was": INTERSECTION},
    "chase": {"k": KNIGHT},
    "improve": {"t": TRACK},
    "play": {"c": CARD},
    "bank": {"give": GOOD, "get": GOOD},  # a trade with the bank
    "offer": {},  # an offer to the other players
    "steal": {"victim": PLAYER},  # a card stolen from victim (a 7, a chase, a card's `steal`)
}
"""The built-in moves and the variables of their `allow` conditions (``me``: who moves)."""


_T = TypeVar("_T")


class ItemFilter(Protocol):
    """``f(env, items)``: the items for which a condition holds, in their order
    (``compiler.selections.filter_code``); the items are the caller's, whatever their type."""

    def __call__(self, env: Env, items: Iterable[_T], /) -> list[_T]: ...


class FirstItem(Protocol):
    """``f(env, items)``: the first item for which a condition holds, or None
    (``compiler.selections.first_code``)."""

    def __call__(self, env: Env, items: Iterable[_T], /) -> _T | None: ...


@dataclass(frozen=True)
class DeclaredTitle:
    """A title or source of points the rule set declares (``titles.<id>`` other than the
    engine's two): its points (a formula for ``p``, or ``constant``), and for a title
    the score that decides its holder (docs/variants.md, "Titles and points by formula")."""

    id: str
    points: Fn | None  # None: ``constant``
    constant: int
    score: Fn | None  # None: points for every player, no holder
    at_least: int
    ties: str  # keep | nobody | shared


@dataclass(frozen=True)
class Action:
    """A main-phase action of the rule set: its price, condition and effect."""

    id: str
    cost: tuple[tuple[str, int], ...]
    allow: Fn | None
    program: Program


@dataclass(frozen=True)
class Programs:
    """The compiled effects of a rule set: cards, abilities (level id -> (when, program))
    and the barbarian formulas.

    Read-only all the way down, like the ``CompiledRules`` that carry it (every game of a
    rule set shares one): the mappings are ``MappingProxyType`` views of copies, the
    programs frozen dataclasses of tuples. The one thing that changes is ``filters``, a
    memo of compiled code made at first use (the same for every game)."""

    cards: Mapping[str, Program]
    abilities: Mapping[str, tuple[str, Program]]
    strength: Fn
    defence: Fn
    hooks: Mapping[str, Program] = field(default_factory=dict)
    allow: Mapping[str, Fn] = field(default_factory=dict)  # moves with a condition
    never: frozenset[str] = frozenset()  # moves whose condition is `false`
    actions: Mapping[str, Action] = field(default_factory=dict)
    win: Fn | None = None
    win_reads: frozenset[str] | None = None  # what `turn.win` reads (None: not declared)
    # What `barbarians.strength`, `barbarians.defence` and `turn.discard_limit` read (None:
    # not declared), so that a caller may keep their values by those parts of the state.
    strength_reads: frozenset[str] | None = None
    defence_reads: frozenset[str] | None = None
    discard_limit_reads: frozenset[str] | None = None
    discard_limit: Fn | None = None
    # Each `allow` condition (by its path, as ``formula_at`` names it) split at its
    # top-level `and`s, each part compiled alone (``ckdsl.dsl.conjuncts``): read only to
    # say why an answer is refused (``ckdsl.turn.refusals``), never to list options.
    conjuncts: Mapping[JsonPath, tuple[tuple[str, Fn], ...]] = field(default_factory=dict)
    # The titles and points declared in data, in the order written (``ckdsl.turn.titles``).
    titles: tuple[DeclaredTitle, ...] = ()
    # Each card's opening (``Program.opening``): instructions the runtime reads, passed on.
    openings: Mapping[str, tuple[tuple[object, ...], ...]] = field(init=False)
    # What each card's opening reads of the state (``Program.opening_reads``; None:
    # something undeclared): ``ckdsl.turn.cards`` keeps a playability on these.
    opening_reads: Mapping[str, frozenset[str] | None] = field(init=False)
    # What the engine asks most, compiled to Python functions (``compiler``; not when
    # compiled under ``closures_only``: then ``python`` is false, and the engine runs the
    # closures itself): each hook from its start (``run_code``; a hook without one runs
    # instruction by instruction), each card's opening (``opening_code``: why the card
    # cannot be played now, or None), an `allow` condition over many items and `turn.win`
    # over the players (``filter_code``, made at first use by ``filter``; ``first_code``).
    python: bool = field(init=False, default=True)
    hook_code: Mapping[str, RunCode] = field(init=False)
    opening_code: Mapping[str, Callable[[Env], str | None]] = field(init=False)
    filters: dict[tuple[str, str], ItemFilter] = field(init=False, default_factory=dict)
    win_first: FirstItem | None = field(init=False, default=None)

    def __post_init__(self) -> None:
        def fix(name: str, value: Mapping[str, object]) -> None:
            object.__setattr__(self, name, MappingProxyType(dict(value)))

        for name in ("cards", "abilities", "hooks", "allow", "actions", "conjuncts"):
            fix(name, getattr(self, name))
        # Each card's opening, once: the engine asks at every main-phase decision.
        fix("openings", {card: p.opening for card, p in self.cards.items()})
        fix("opening_reads", {card: p.opening_reads for card, p in self.cards.items()})
        python = to_python()
        object.__setattr__(self, "python", python)
        hook_code: dict[str, RunCode] = {}
        opening_code: dict[str, Callable[[Env], str | None]] = {}
        if python:  # else closures alone: the runtime runs each instruction itself
            if self.win is not None:
                object.__setattr__(self, "win_first", first_code(self.win, "p"))
            for card, opening in self.openings.items():
                found_opening = opening_code_of(opening) if opening else None
                if found_opening is not None:
                    opening_code[card] = found_opening
            for hook, program in self.hooks.items():
                found = run_code(program.code)
                if found is not None:
                    hook_code[hook] = found
        fix("hook_code", hook_code)
        fix("opening_code", opening_code)

    def __getstate__(self) -> dict[str, object]:
        """Pickled (``ckdsl.rules.disk``) without the code made at first use."""
        return {**self.__dict__, "filters": {}}

    def filter(self, move: str, var: str) -> ItemFilter | None:
        """``f(env, items)``: the items for which ``move``'s condition holds, each named
        ``var`` (``compiler.selections.filter_code``; made at its first use), or None if the move
        has no condition."""
        found = self.filters.get((move, var))
        if found is None:
            condition = self.allow.get(move)
            if condition is None or not self.python:
                return None
            found = self.filters[(move, var)] = filter_code(condition, var)
        return found

    def formula_at(self, path: JsonPath) -> Fn | None:
        """The compiled formula of the rule set at ``path`` (as ``conditions`` names it),
        or None if there is none (an `allow` of `true` or `false`)."""
        if path[0] == "barbarians":
            return self.strength if path[1] == "strength" else self.defence
        if path[0] == "turn":
            return self.win if path[1] == "win" else self.discard_limit
        if path[0] == "allow":
            return self.allow.get(str(path[1]))
        if path[0] == "titles":
            for title in self.titles:
                if title.id == path[1]:
                    return title.score if path[-1] == "score" else title.points
            return None
        action = self.actions.get(str(path[1]))
        return action.allow if action is not None else None

    def barbarian_strength(self, game: Game) -> int:
        return int(self.strength(Env(game, game.state.current, {})))

    def defence_of(self, game: Game, player: int) -> int:
        return int(self.defence(Env(game, player, {"p": player})))


def compile_effect(
    text: str, names: Names, variables: dict[str, Type] | None = None, read: set[str] | None = None
) -> tuple[Program | None, list[DslError]]:
    """The program of an effect, or its faults; ``read`` collects the parameters it names."""
    try:
        tree = parsed.parse(text)
    except DslError as err:
        from ckdsl.dsl.parser import syntax_errors  # Lark is loaded: it raised ``err``

        return None, syntax_errors(text, err)
    deep = _nesting_fault(tree)
    if deep is not None:
        return None, [deep]
    compiler = Compiler(names, variables)
    program = compiler.effect(tree)
    if read is not None:
        read |= compiler.parameters_read
    return program, compiler.errors


def compile_formula(
    text: str,
    names: Names,
    variables: dict[str, Type],
    want: Type = INT,
    read: set[str] | None = None,
) -> tuple[Fn | None, list[DslError]]:
    """The function of a formula, or its faults; ``read`` collects the parameters it names."""
    try:
        expr = parsed.parse_expression(text)
    except DslError as err:
        return None, [err]
    deep = _nesting_fault(expr)
    if deep is not None:
        return None, [deep]
    compiler = Compiler(names, variables)
    fn = compiler.formula(expr, want)
    if read is not None:
        read |= compiler.parameters_read
    return fn, compiler.errors


def _nesting_fault(tree: object) -> DslError | None:
    """An error at the first place the tree nests deeper than the DSL allows."""
    from ckdsl.dsl.base.ast import MAX_DEPTH, too_deep  # not on a start from the cache

    found = too_deep(tree)
    if found is None:
        return None
    _, node = found
    return DslError(
        node.line,
        node.col,
        f"nested too deeply: more than {MAX_DEPTH} levels here (blocks, brackets or a chain "
        "of operators)",
        "split it with `let`, or into a hook of its own",
    )


def effect_variables(path: JsonPath) -> dict[str, Type]:
    """The variables an effect starts with besides ``me`` (an entry hook's)."""
    if path[0] == "hooks":
        return ENTRY_HOOKS.get(str(path[1]), {})
    return {}


def conditions(data: JsonObject) -> Iterator[tuple[JsonPath, str, dict[str, Type], Type]]:
    """Every condition and formula of the rule set outside effects: (path, text, its
    variables, what it must give)."""
    barbarians = data.get("barbarians")
    for key, variables in FORMULAS.items():
        formula = barbarians.get(key) if isinstance(barbarians, dict) else None
        if isinstance(formula, str):
            yield ("barbarians", key), formula, variables, INT
    turn = data.get("turn")
    for key, (variables, want) in TURN_FORMULAS.items():
        formula = turn.get(key) if isinstance(turn, dict) else None
        if isinstance(formula, str):
            yield ("turn", key), formula, variables, want
    allow = data.get("allow")
    for move, text in allow.items() if isinstance(allow, dict) else ():
        if isinstance(text, str) and move in MOVES:
            yield ("allow", move), text, MOVES[move], BOOL
    for key, spec in entries(data.get("actions")):
        condition = spec.get("allow")
        if isinstance(condition, str):
            yield ("actions", key, "allow"), condition, {}, BOOL
    for key, spec in entries(data.get("titles")):
        for part in ("points", "score") if key not in ENGINE_TITLES else ():
            formula = spec.get(part)
            if isinstance(formula, str):
                yield ("titles", key, part), formula, {"p": PLAYER}, INT


def load_ruleset(
    target: str | Path | None = None,
) -> tuple[RuleSet | None, list[Diagnostic]]:
    """A rule set as ``ckdsl.rules.ruleset.load_ruleset`` loads it, with every effect,
    hook, condition and formula checked as well (``check_rules``). A parameter that
    nothing reads is an error in a rule set, a warning in a variant (which may switch a
    rule off and leave its parameter behind)."""
    variant = target is not None and Path(target).is_file()
    severity = "warning" if variant else "error"
    return load_data(target, extra_checks=(partial(check_rules, unread=severity),))


def check_rules(
    data: JsonObject, positions: Positions, *, unread: str = "error"
) -> list[Diagnostic]:
    """Every fault of every effect and formula of ``data``, at its file, line and column
    (docs/dsl.md, "Errors"), and every parameter that nothing reads (of severity
    ``unread``)."""
    if any(not isinstance(data.get(s), dict) for s in NAME_SECTIONS):
        return []  # the names effects use are missing: that error is reported already
    names = Names.of(data)
    out: list[Diagnostic] = []
    read = set(ENGINE_PARAMETERS)
    shape = _shape(names)
    for path, _, text in effects(data):
        errors = _faults(text, names, shape, effect_variables(path), None, read)
        out += [diagnostic(e, text, positions.value(path), path) for e in errors]
    for path, text, variables, want in conditions(data):
        errors = _faults(text, names, shape, variables, want, read)
        out += [diagnostic(e, text, positions.value(path), path) for e in errors]
    if not out:
        from ckdsl.dsl.hook_loops import endless_hooks  # the syntax tree: only to check

        out += endless_hooks(data, positions)
    parsed.save()  # the texts parsed for the first time, for the next check
    if all(d.severity != "error" for d in out):  # (an effect in error: its reads unknown)
        parameters = data.get("parameters")
        known = load_schema("rules")["properties"]["parameters"]["properties"]
        for key in parameters if isinstance(parameters, dict) else ():
            if key in known and key not in read:  # an unknown key: the schema says so
                at: JsonPath = ("parameters", key)
                pos = positions.key(at)
                message = (
                    f"parameter '{key}' is read by nothing: neither the engine nor any "
                    "effect, hook, condition or formula of the rule set names it"
                )
                out.append(Diagnostic(pos.file, pos.line, pos.col, message, at, unread))
    return out


def _faults(
    text: str,
    names: Names,
    shape: bytes,
    variables: dict[str, Type],
    want: Type | None,
    read: set[str],
) -> tuple[DslError, ...]:
    """The faults of an effect (``want`` None) or a formula, with the parameters it reads
    added to ``read`` (``_compiled``, closures only: nothing to compile to Python)."""
    with closures_only():
        _, errors, reads = _compiled(text, names, shape, variables, want)
    read |= reads
    return errors


def _compiled(
    text: str, names: Names, shape: bytes, variables: dict[str, Type], want: Type | None
) -> tuple[Program | Fn | None, tuple[DslError, ...], frozenset[str]]:
    """``compile_effect`` (``want`` None) or ``compile_formula``: the program or function,
    the faults and the parameters read, remembered by all they depend on: the text, the
    rule set's names in their order (``shape``: ``_shape``), the variables, the type
    wanted, whether code is compiled to Python, and the value of each parameter the text
    reads (a variant of a rule set checks and compiles its parent's effects again, most of
    them untouched by the parameters it changes: a sweep loads dozens of variants, the
    test suite hundreds)."""
    key = (text, shape, tuple(variables.items()), want, to_python())
    known = _COMPILED.get(key, ())
    for values, found in known:
        if all(_value(names, k) == v for k, v in values):
            return found
    reads: set[str] = set()
    result: Program | Fn | None
    if want is None:
        result, errors = compile_effect(text, names, variables, reads)
    else:
        result, errors = compile_formula(text, names, variables, want, reads)
    found = (result, tuple(errors), frozenset(reads))
    values = tuple((k, _value(names, k)) for k in sorted(reads))
    with _COMPILED_LOCK:  # (the web table loads rule sets in its request threads)
        _COMPILED[key] = ((values, found), *known[: COMPILED_VALUES - 1])
        while len(_COMPILED) > COMPILED_KEEP:
            del _COMPILED[next(iter(_COMPILED))]  # the oldest
    return found


def _value(names: Names, key: str) -> tuple[type, object]:
    value = names.params.get(key)
    return type(value), value  # (True == 1, but a flag and a number compile apart)


def _shape(names: Names) -> bytes:
    """The sha256 of a rule set's names but its parameters' values, as they are, in their
    order (a rule set of thousands of cards is hashed once, not once per effect)."""
    import hashlib

    shape = (tuple(names.ids.items()), tuple(names.params), tuple(names.goods))
    return hashlib.sha256(repr(shape).encode("utf-8", "surrogatepass")).digest()


COMPILED_KEEP = 4096
"""How many texts ``_compiled`` keeps (a rule set has ~100 effects and formulas)..."""
COMPILED_VALUES = 8
"""... and for how many values of the parameters each reads."""
_Compiled = tuple[Program | Fn | None, tuple[DslError, ...], frozenset[str]]
_COMPILED: dict[tuple[object, ...], tuple[tuple[tuple[tuple[str, object], ...], _Compiled], ...]]
_COMPILED = {}
_COMPILED_LOCK = threading.Lock()


def compile_programs(ruleset: RuleSet) -> Programs:
    """The programs of a checked rule set (an effect that does not compile is left out:
    ``ckdsl validate`` reports it, and the card is then played without effect).

    Kept in the cache on disk (``ckdsl.rules.disk``) by the rule set's data (its hash),
    whether code is compiled to Python, and ckdsl's own source: the workers of an
    experiment, which get the data alone, compile a rule set once, not once each."""
    key = f"{ruleset.hash}\0python={to_python()}"
    found = disk.load("programs", key)
    if found is not None and isinstance(found[0], Programs):
        return found[0]
    programs = _compile_programs(ruleset)
    disk.store("programs", key, (), programs)
    return programs


def _compile_programs(ruleset: RuleSet) -> Programs:
    from ckdsl.dsl.conjuncts import conjuncts  # the syntax tree: not on a start from the cache

    data = ruleset.data
    names = Names.of(data)
    shape = _shape(names)
    cards: dict[str, Program] = {}
    abilities: dict[str, tuple[str, Program]] = {}
    hooks: dict[str, Program] = {}
    actions: dict[str, Program] = {}
    for path, kind, text in effects(data):
        program = _compiled(text, names, shape, effect_variables(path), None)[0]
        if not isinstance(program, Program):
            continue
        if kind == "card":
            cards[str(path[1])] = program
        elif kind == "hook":
            if program.code != ((STOP,),):  # a hook that does nothing is not run at all
                hooks[str(path[1])] = program
        elif kind == "action":
            actions[str(path[1])] = program
        else:
            level = obj(_at(data, path[:4]))
            when = jsondata.text(obj(level["ability"])["when"])
            abilities[jsondata.text(level["id"])] = (when, program)
    fns: dict[JsonPath, Fn | None] = {}
    parts: dict[JsonPath, tuple[tuple[str, Fn], ...]] = {}
    never = set()
    for path, text, variables, want in conditions(data):
        if path[0] == "allow" and text.strip() in ("true", "false"):
            if text.strip() == "false":
                never.add(str(path[1]))
            continue  # `true`: nothing to check (the hot path skips it)
        fn = _compiled(text, names, shape, variables, want)[0]
        fns[path] = None if isinstance(fn, Program) else fn
        if fns[path] is not None and (path[0] == "allow" or path[-1] == "allow"):
            parts[path] = conjuncts(text, names, variables)
    win_reads = _reads(data, names, ("turn", "win"))
    if win_reads is not None and not win_reads <= {"points", "current"}:
        win_reads = None  # ``Game.check_winner`` counts changes of these two only
    parsed.save()
    return Programs(
        cards,
        abilities,
        fns.get(("barbarians", "strength")) or _zero,
        fns.get(("barbarians", "defence")) or _zero,
        hooks=hooks,
        allow={str(p[1]): fn for p, fn in fns.items() if p[0] == "allow" and fn is not None},
        never=frozenset(never),
        actions={
            key: Action(key, _cost(data, key), fns.get(("actions", key, "allow")), program)
            for key, program in actions.items()
        },
        win=fns.get(("turn", "win")),
        win_reads=win_reads,
        strength_reads=_reads(data, names, ("barbarians", "strength")),
        defence_reads=_reads(data, names, ("barbarians", "defence")),
        discard_limit_reads=_reads(data, names, ("turn", "discard_limit")),
        discard_limit=fns.get(("turn", "discard_limit")),
        conjuncts=parts,
        titles=_titles(data, fns),
    )


def _titles(data: JsonObject, fns: Mapping[JsonPath, Fn | None]) -> tuple[DeclaredTitle, ...]:
    """The titles and points the rule set declares, compiled (``DeclaredTitle``)."""
    out = []
    for key, spec in entries(data.get("titles")):
        if key in ENGINE_TITLES:
            continue
        points = spec.get("points")
        out.append(
            DeclaredTitle(
                key,
                fns.get(("titles", key, "points")),
                points if isinstance(points, int) else 0,
                fns.get(("titles", key, "score")),
                integer(spec.get("at_least", 1)),
                jsondata.text(spec.get("ties", "keep")),
            )
        )
    return tuple(out)


def _at(data: JsonObject, path: JsonPath) -> JsonValue:
    """The value at ``path`` (keys and list indices) in the rule set's data."""
    value: JsonValue = data
    for step in path:
        value = arr(value)[step] if isinstance(step, int) else obj(value)[step]
    return value


def _cost(data: JsonObject, action: str) -> tuple[tuple[str, int], ...]:
    """What action ``action`` costs: (good, amount) in the order written (none: free)."""
    cost = obj(_at(data, ("actions", action))).get("cost")
    return tuple((good, integer(n)) for good, n in obj(cost).items()) if cost else ()


def _reads(data: JsonObject, names: Names, path: JsonPath) -> frozenset[str] | None:
    """What the formula at ``path`` reads of the state (``Function.reads``)."""
    for at, text, variables, want in conditions(data):
        if at == path:
            compiler = Compiler(names, variables)
            with closures_only():  # only what it reads is wanted
                compiler.formula(parsed.parse_expression(text), want)
            return frozenset(compiler.reads) if compiler.reads is not None else None
    return None


def _zero(env: Env) -> int:
    return 0
