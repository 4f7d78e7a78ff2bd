"""The effect DSL: grammar, hints, static checks, the compiled programs, paused effects.

The cards' behaviour in play is pinned by the scenarios under tests/scenarios/cards/ (one
or more per card, with scripted decisions); this file tests the language itself.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from depth import examples
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark

from ckdsl.cli import cli
from ckdsl.dsl import pretty
from ckdsl.dsl.base import ast
from ckdsl.dsl.base.errors import DslError
from ckdsl.dsl.base.registry import FUNCTIONS, VERBS
from ckdsl.dsl.base.types import PLAYER
from ckdsl.dsl.compiler.program import Names
from ckdsl.dsl.compiler.statements import Compiler
from ckdsl.dsl.parser import _lark, parse, parse_expression
from ckdsl.dsl.program import (
    ENTRY_HOOKS,
    compile_effect,
    compile_formula,
    effect_variables,
    effects,
    load_ruleset,
)
from ckdsl.rules.ruleset import RuleSet
from ckdsl.session import GameSetup, load_rules, replay, start, write_save
from ckdsl.turn.notation import parse_answer

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base() -> RuleSet:
    ruleset, problems = load_ruleset(None)
    assert ruleset is not None, problems
    return ruleset


@pytest.fixture(scope="module")
def names(base: RuleSet) -> Names:
    return Names.of(base.data)


def shape(node: Any) -> Any:
    """A syntax tree without positions, to compare trees of different texts."""
    if isinstance(node, tuple):
        return tuple(shape(n) for n in node)
    if isinstance(node, ast.Effect):
        return ("Effect", shape(node.body))
    if isinstance(node, ast.Node):
        skip = {"line", "col", "kind_line", "kind_col"}
        fields = [f for f in node.__dataclass_fields__ if f not in skip]
        return (type(node).__name__, *(shape(getattr(node, f)) for f in fields))
    return node


# --- every effect of the base rules ------------------------------------------------------


def test_every_base_effect_compiles_and_prints_back(base: RuleSet, names: Names) -> None:
    found = list(effects(base.data))
    assert len([p for p, kind, _ in found if kind == "card"]) == 25
    assert {p[3] for p, kind, _ in found if kind == "ability"} == {2}
    assert {p[1] for p, kind, _ in found if kind == "hook"} >= set(ENTRY_HOOKS)
    for path, _, text in found:
        program, errors = compile_effect(text, names, effect_variables(path))
        assert errors == [] and program is not None, (path, errors)
        printed = pretty.effect(parse(text))
        assert shape(parse(printed)) == shape(parse(text)), (path, printed)


def test_the_formulas_compile_and_count(base: RuleSet) -> None:
    rules = load_rules("base").compiled
    game = start(GameSetup(layout="beginner", seed=1))
    while game.pending.kind.startswith("setup") or game.pending.kind == "gold":
        game.answer(game.pending.options[0])
    assert rules.programs.barbarian_strength(game) == 4  # one city per player
    assert [rules.programs.defence_of(game, p) for p in range(4)] == [0, 0, 0, 0]


def test_no_card_or_hook_id_in_the_engine() -> None:
    """Card and rule logic lives in the DSL: no card and no hook is named in the engine's
    or the DSL's Python (``merchant`` is also a piece: the piece may be named; the engine
    runs its entry hooks, ``ENTRY_HOOKS``, by name)."""
    ruleset, _ = load_ruleset(None)
    assert ruleset is not None
    pieces = set(ruleset.data["pieces"])
    cards = [c for c in ruleset.cards if c not in pieces]
    hooks = [h for h in ruleset.data["hooks"] if h not in ENTRY_HOOKS]
    assert "barbarian_attack" in hooks and "seven" in hooks
    for folder in ("core", "turn", "dsl"):
        for path in (REPO / "ckdsl" / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            for name in cards + hooks:
                assert not re.search(rf"[\"']{name}[\"']", text), (path.name, name)


# --- syntax errors and their hints -------------------------------------------------------

SYNTAX = [
    ("if x > 1\n    stop", 1, 9, "`if` needs a colon at the end", "write `if x > 1:`"),
    ("for p in players where x\n    stop", 1, 25, "`for` needs a colon at the end", None),
    ("letx = 1", 1, 1, "unknown statement 'letx'", "did you mean `let x`?"),
    ("repeat2:\n    stop", 1, 1, "unknown statement 'repeat2'", "did you mean `repeat 2`?"),
    ("let x == 1", 1, 7, "unexpected '=='", "`let` takes a single '='"),
    ("if x = 1:\n    stop", 1, 6, "unexpected '='", "to compare, write '=='"),
    ("let = 3", 1, 5, "`let` needs a name before '='", None),
    ("if x:\nstop", 2, 1, "a block must follow the ':' of the line above", None),
    ("stop\n    stop", 2, 1, "unexpected indentation", None),
    ("if x:\n    stop\n  stop", 3, 3, "does not line up with any block above", None),
    ("gain (1 grain", 1, 9, "unexpected name 'grain'; expected ')'", None),
    ("gain 1 grain)", 1, 13, "')' closes nothing", None),
    ("let x = [1, 2", 1, 9, "'[' is never closed", None),
    ('require x else "abc', 1, 16, "this text in quotes never ends", None),
    ("gain 1 $", 1, 8, "unexpected character '$'", None),
    ("elif x:\n    stop", 1, 1, "`elif` without an `if` block just above it", None),
    ("if x then:\n    stop", 1, 6, "unexpected 'then'", "blocks need no words"),
    ("discard hand_size(p) / 2 by p", 1, 22, "unexpected '/'", "put a calculation in"),
    ("gain 1 grain to", 1, 16, "unexpected end of the line; expected a value", None),
]


@pytest.mark.parametrize(("text", "line", "col", "message", "hint"), SYNTAX)
def test_syntax_errors_say_where_and_what(
    text: str, line: int, col: int, message: str, hint: str | None
) -> None:
    with pytest.raises(DslError) as caught:
        parse(text)
    err = caught.value
    assert (err.line, err.col) == (line, col), err
    assert message in err.message
    if hint is not None:
        assert err.hint is not None and hint in err.hint


def test_comments_blank_lines_and_keywords_as_parts_of_names() -> None:
    effect = parse("# a comment\n\nlet letter = 1  # trailing\nlet forest_count = letter\n")
    assert [s.name for s in effect.body if isinstance(s, ast.Let)] == ["letter", "forest_count"]


def test_a_formula_is_one_expression() -> None:
    assert isinstance(parse_expression("count(cities) + 1"), ast.Binary)
    with pytest.raises(DslError, match="one expression"):
        parse_expression("count(cities)\nstop")
    with pytest.raises(DslError) as caught:
        parse_expression("count(cities) +")
    assert caught.value.col == 16  # columns count in the formula, not in "let value = "


# --- static checks -----------------------------------------------------------------------

CHECKS = [
    ("gain 2 grian", 1, 8, "unknown name 'grian' (did you mean 'grain'?)"),
    ("gian 2 grain", 1, 1, "unknown verb 'gian' (did you mean 'gain'?)"),
    ("gain grain", 1, 1, "`gain` takes 2 arguments (amount good), not 1"),
    ("gain 1 grain at me", 1, 14, "`gain` takes no `at` (it takes: `to`)"),
    ("give 1 grain to me", 1, 1, "`give` needs `from` (giver)"),
    ("gain 1 grain to tiles", 1, 17, "the player must be a player, not a list of tiles"),
    ("move bishop to 3", 1, 6, "`move` takes one of merchant, robber here, not bishop"),
    ("let t = choose tlie", 1, 16, "cannot choose a 'tlie' (did you mean 'tile'?)"),
    ("let n = choose number", 1, 9, "`choose number` needs `from`"),
    ("let t = choose tile where number(t)", 1, 27, "`where` needs true or false here"),
    ("let p = choose player from tiles", 1, 28, "a choice of a player cannot be made from"),
    ("if points(me) + true:\n    stop", 1, 17, "'+' needs numbers on both sides"),
    ("if me == grain:\n    stop", 1, 7, "'==' compares a player with a resource"),
    ("let x = points(me, me)", 1, 9, "'points' does not take a player, a player"),
    ("let x = pointz(me)", 1, 9, "unknown function 'pointz' (did you mean 'points'?)"),
    ("let x = gain(me)", 1, 9, "unknown function 'gain'"),
    ("let x = points", 1, 9, "'points' needs arguments: points(a player)"),
    ("let x = {ore: 2, oar: 1}", 1, 18, "unknown good 'oar' (did you mean 'ore'?)"),
    ("let x = points(each p in players)", 1, 16, "'points' does not take a selection"),
    ("let x = count(each t in tiles where number(t))", 1, 37, "`where` needs true or false"),
    ("grant rate 2 on tiles", 1, 17, "a rate applies on a good or a list of goods"),
    ("grant discount 1 on bridge", 1, 21, "a discount applies on one of"),
    ("for p in me:\n    stop", 1, 10, "expected a list or selection here, not a player"),
    ("repeat grain:\n    stop", 1, 8, "`repeat` needs a number, not a resource"),
    ("let x = [1, me]", 1, 13, "a list holds one kind of thing"),
    ("let x = 3 in 4", 1, 14, "`in` needs a list on its right, not a number"),
]


@pytest.mark.parametrize(("text", "line", "col", "message"), CHECKS)
def test_static_checks_point_at_the_token(
    text: str, line: int, col: int, message: str, names: Names
) -> None:
    program, errors = compile_effect(text, names)
    assert program is None
    found = [(e.line, e.col, e.message) for e in errors]
    assert any((line, col) == (e_line, e_col) and message in m for e_line, e_col, m in found), found


def test_unknown_verbs_list_the_vocabulary(names: Names) -> None:
    _, errors = compile_effect("snatch 1 from p", names)
    assert errors[0].hint is not None and "gain" in errors[0].hint
    _, errors = compile_effect("let x = gain(me)", names)
    assert errors[0].hint == "`gain` is a verb: write it as a statement, like `gain 2 grain`"


def test_every_error_of_an_effect_at_once(names: Names) -> None:
    _, errors = compile_effect("gain 2 oar\nlet x = pointz(me)\nmove bishop to 3", names)
    assert [e.line for e in errors] == [1, 2, 3]


def test_a_formula_checks_its_type_and_its_variables(names: Names) -> None:
    _, errors = compile_formula("count(knights(p))", names, {})
    assert [e.message for e in errors] == ["unknown name 'p'"]
    _, errors = compile_formula("count(knights(p)) > 2", names, {"p": PLAYER})
    assert errors[0].message == "this formula must give a number, not true or false"


def test_the_vocabulary_is_documented() -> None:
    for name, overloads in FUNCTIONS.items():
        assert all(f.doc for f in overloads), name
    for name, verb in VERBS.items():
        assert verb.doc and verb.example, name
        compiled = Compiler(Names())
        compiled.action(parse(verb.example).body[0])  # type: ignore[arg-type]
        unknown = {e.message for e in compiled.errors if "unknown name" not in e.message}
        assert not unknown, (name, unknown)


# --- the broken-effects file: one precise message each -----------------------------------


def test_broken_effects_give_one_precise_message_each(runner: CliRunner) -> None:
    path = REPO / "tests" / "dsl" / "broken_effects.yaml"
    result = runner.invoke(cli, ["validate", str(path)])
    assert result.exit_code == 1
    file = "tests/dsl/broken_effects.yaml"
    heads = [line for line in result.stderr.splitlines() if line.startswith(file)]
    assert heads == [
        f"{file}:11:27: `if` needs a colon at the end [$.cards.bishop.effect]",
        f"{file}:17:9: unknown verb 'snatch' [$.cards.spy.effect]",
        f"{file}:21:14: `gain`: the amount must be a number, not a resource "
        "[$.cards.irrigation.effect]",
        f"{file}:21:20: `gain`: the good must be a good (resource or commodity), not a number "
        "[$.cards.irrigation.effect]",
        f"{file}:25:16: unknown name 'oar' (did you mean 'ore'?) [$.cards.mining.effect]",
    ]
    # Each message shows the effect's line with a caret under the token, and the hint.
    lines = result.stderr.splitlines()
    at = lines.index(heads[0])
    assert lines[at + 1 : at + 4] == [
        "    if robber_unlocked",
        "                      ^",
        "    hint: write `if robber_unlocked:`",
    ]
    at = lines.index(heads[4])
    assert lines[at + 1 : at + 3] == ["    gain 2 oar", "           ^"]


# --- fuzzing: the parser and the checker only ever give clean errors ---------------------

_GRAMMAR = from_lark(_lark(), start="start", explicit={"_INDENT": st.just("    "),
                                                        "_DEDENT": st.just("")})  # fmt: skip


def _expressions() -> st.SearchStrategy[str]:
    """Expressions shaped by the grammar's ``expr`` rules (``grammars/effects.lark``: the
    ternary, or/and/not, comparisons and ``in``, sums, products, unary minus, calls with
    ``each … in … where``, lists, dicts, parentheses), built bottom-up with a bound on their
    size. (``from_lark(start="expr")`` draws these too, but 97% of its draws overrun
    Hypothesis's depth and are thrown away: seconds an example.)"""
    names = st.sampled_from(["x", "k", "me", "players", "count", "walls", "hand", "brick",
                             "city", "points", "turn", "all", "any", "sum"])  # fmt: skip
    atoms = st.one_of(
        st.from_regex(r"\A[0-9]{1,4}\Z"),
        st.from_regex(r'\A"[a-z ]{0,6}"\Z'),
        names,
        st.from_regex(r"\A[A-Za-z_][A-Za-z0-9_]{0,6}\Z"),
    )

    def grow(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        binary = st.sampled_from(["or", "and", "==", "!=", "<=", ">=", "<", ">", "in", "not in",
                                  "+", "-", "*", "/", "%"])  # fmt: skip
        arguments = st.one_of(
            st.lists(inner, min_size=1, max_size=3).map(", ".join),
            st.tuples(inner, names, inner, st.one_of(st.just(""), inner.map(" where ".__add__)))
            .map(lambda t: f"{t[0]} for each {t[1]} in {t[2]}{t[3]}"),
            st.tuples(names, inner, st.one_of(st.just(""), inner.map(" where ".__add__)))
            .map(lambda t: f"each {t[0]} in {t[1]}{t[2]}"),
        )  # fmt: skip
        return st.one_of(
            st.tuples(inner, binary, inner).map(" ".join),
            st.tuples(inner, inner, inner).map(lambda t: f"{t[0]} if {t[1]} else {t[2]}"),
            inner.map("not ".__add__),
            inner.map("-".__add__),
            inner.map(lambda e: f"({e})"),
            st.tuples(names, st.one_of(st.just(""), arguments)).map(lambda t: f"{t[0]}({t[1]})"),
            st.lists(inner, max_size=3).map(lambda items: f"[{', '.join(items)}]"),
            st.lists(st.tuples(names, inner), max_size=2).map(
                lambda pairs: "{" + ", ".join(f"{k}: {v}" for k, v in pairs) + "}"
            ),
        )

    return st.recursive(atoms, grow, max_leaves=12)


_EXPRESSIONS = _expressions()
_FUZZ = settings(deadline=None, suppress_health_check=list(HealthCheck))  # examples: the profile
# Drawn from the grammar, an example costs a third of a second as a whole text: fewer in the
# default run, the deep profile's count by hand (tests/depth.py).
_TEXT_FUZZ = settings(_FUZZ, max_examples=examples(20))


def _only_clean_errors(text: str, names: Names) -> None:
    program, errors = compile_effect(text, names)
    assert (program is None) == bool(errors)
    for err in errors:
        assert isinstance(err, DslError) and err.line >= 1 and err.col >= 1 and err.message


@pytest.mark.slow
@_TEXT_FUZZ
@given(text=_GRAMMAR)
def test_fuzz_texts_shaped_by_the_grammar(text: str) -> None:
    _only_clean_errors(text, Names.of(load_rules("base").ruleset.data))


@_FUZZ
@given(expr=_EXPRESSIONS, prefix=st.sampled_from(["let x = ", "if ", "require ", "gain "]))
def test_fuzz_expressions_in_every_place(expr: str, prefix: str) -> None:
    suffix = ":\n    stop" if prefix == "if " else ""
    _only_clean_errors(prefix + expr + suffix, Names.of(load_rules("base").ruleset.data))


_SYMBOLS = list("abcdefgilmnoprstuwy_ 0123()[]{}:,=<>+-*/\n\t#\"'")


@_FUZZ
@given(text=st.text(alphabet=st.sampled_from(_SYMBOLS), max_size=80))
def test_fuzz_random_text(text: str) -> None:
    _only_clean_errors(text, Names.of(load_rules("base").ruleset.data))


# --- paused effects are plain data -------------------------------------------------------


def paused_in_an_effect() -> Any:
    """A game where red has played a Bishop and must now choose the robber's tile."""
    game = start(GameSetup(layout="beginner", seed=3))
    while game.pending.kind != "roll":
        game.answer(game.pending.options[0])
    state = game.state
    state.attacks, state.robber_unlocked = 1, True
    state.decks[1].remove("bishop")
    state.players[0].progress.append("bishop")
    game.refresh()
    game.state.fixed_rolls.append((2, 2, "ship"))
    game.answer(("roll",))
    game.answer(parse_answer(game, "play bishop"))
    assert game.pending.kind == "choose_tile"
    return game


def test_a_paused_effect_is_plain_data_and_copies_exactly() -> None:
    game = paused_in_an_effect()
    frame = game.state.queue[0][1]
    assert frame["src"] == "card" and frame["id"] == "bishop" and frame["pc"] >= 1
    json.dumps(game.state.to_data())  # nothing but plain data in the state
    twin = copy.deepcopy(game)
    for g in (game, twin):
        g.answer(parse_answer(g, "choose tile 4"))
    assert game.state.digest() == twin.state.digest()
    assert game.state.robber == 4 and game.pending.kind == "main"


def test_a_game_saved_inside_an_effect_replays_to_the_same_decision(tmp_path: Path) -> None:
    setup = GameSetup(seed=11)
    game = start(setup)
    from ckdsl.bots import RandomBot

    bots = [RandomBot(11 + p) for p in range(4)]
    while not game.pending.kind.startswith("choose_"):
        game.answer(bots[game.pending.player].choose(game.view(game.pending.player)))
    write_save(tmp_path / "g.json", game, setup)
    again, _ = replay(tmp_path / "g.json")
    assert again.state.digest() == game.state.digest()
    assert again.pending == game.pending


# --- ckdsl explain -------------------------------------------------------------------------


def test_explain_a_card_in_a_language(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["explain", "bishop", "--lang", "pl"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0] == "Biskup  [bishop]"
    assert "require robber_unlocked" in result.stdout
    assert "    let t = choose tile where robber_may_go(t)" in lines
    report = json.loads(runner.invoke(cli, ["explain", "smith", "--json"]).stdout)
    assert report["count"] == 2 and report["deck"] == "science"
    assert report["effect"].startswith("let knights_up = choose up to 2 knight k from")


def test_explain_an_ability_and_an_unknown_id(runner: CliRunner) -> None:
    result = runner.invoke(cli, ["explain", "aqueduct"])
    assert result.exit_code == 0 and "gain 1 r" in result.stdout
    result = runner.invoke(cli, ["explain", "biship"])
    assert result.exit_code == 2 and "did you mean 'bishop'?" in result.stderr


@pytest.mark.parametrize("lang", ["fr", "it", "pl", "pt", "sr"])
def test_explain_says_everything_in_the_language(runner: CliRunner, lang: str) -> None:
    """Headings, when an ability runs and what it does are the language's words (issue
    17, item 4): none of the English report's words but the effect's own text."""
    for what in ("bishop", "aqueduct", "merchant_guild"):
        english = json.loads(runner.invoke(cli, ["explain", what, "--json"]).stdout)
        report = json.loads(runner.invoke(cli, ["explain", what, "--json", "--lang", lang]).stdout)
        assert report["effect_heading"] != english["effect_heading"]
        assert report["facts"][1:] != english["facts"][1:]
        assert report["text"] and report["text"] != english["text"]


# --- docs/dsl.md: its examples compile and run, its tables are the registry --------------

DOC = REPO / "docs" / "dsl.md"


def doc_blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


@pytest.mark.parametrize("text", doc_blocks("dsl"))
def test_every_dsl_example_of_the_docs_compiles(text: str, names: Names) -> None:
    program, errors = compile_effect(text, names)
    assert errors == [] and program is not None


def test_the_docs_have_an_example_of_every_construct() -> None:
    text = "\n".join(doc_blocks("dsl"))
    for construct in (
        "let ",
        "require ",
        "stop",
        "if ",
        "elif ",
        "else:",
        "for ",
        "repeat ",
        "optional:",
        "choose ",
        "up to",
        " by ",
        "each ",
        " where ",
        "grant ",
        "{",
        "[",
        " in ",
        " not in ",
        " and ",
        " or ",
        "not ",
        "/",
        "%",
        "#",
    ):
        assert construct in text, construct  # fmt: skip


def test_the_docs_scenarios_run(tmp_path: Path) -> None:
    from ckdsl.scenario import run_file

    scenarios = [b for b in doc_blocks("yaml") if "steps:" in b]
    assert scenarios
    for text in scenarios:
        variants = REPO / "examples" / "variants"
        path = tmp_path / "example.yaml"
        path.write_text(text.replace("../variants", str(variants)), encoding="utf-8")
        outcome = run_file(path)
        assert outcome.status == "pass", outcome.to_json()


def test_the_docs_vocabulary_is_the_registry() -> None:
    from ckdsl.dsl import reference

    assert reference.markdown() in DOC.read_text(encoding="utf-8"), (
        "docs/dsl.md is out of date: replace its vocabulary tables with the output of "
        "`ckdsl vocabulary --markdown`"
    )


def test_every_card_has_a_scenario_with_scripted_decisions(base: RuleSet) -> None:
    """Each card is played (or, for points cards, drawn) by a scenario in tests/scenarios/
    cards/, whose answers script every decision of its effect."""
    folder = REPO / "tests" / "scenarios" / "cards"
    texts = {p.stem: p.read_text(encoding="utf-8") for p in folder.glob("*.yaml")}
    for card, spec in base.cards.items():
        mine = [t for stem, t in texts.items() if stem == card or stem.startswith(card + "_")]
        assert mine, f"no scenario for {card} in tests/scenarios/cards/"
        if spec.get("timing") == "on_draw":
            assert any("revealed: {" in t or "revealed:" in t for t in mine), card
        else:
            assert any(f"answer: play {card}" in t for t in mine), card


def test_an_effect_asking_for_what_the_board_lacks_ends_with_a_reason(tmp_path: Path) -> None:
    """Numbers written out as tiles are checked against the board when the effect runs:
    the effect stops there, the log says why, and the game goes on (no crash)."""
    from ckdsl.scenario import run_file

    variant = tmp_path / "v.yaml"
    variant.write_text(
        "extends: base\noverride:\n  cards:\n    bishop:\n      effect: |\n"
        "        let t = choose tile from [4, 99]\n        move robber to 99\n",
        encoding="utf-8",
    )
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: x\nrules: v.yaml\nposition:\n  phase: after_roll\n  players:\n"
        "    red: {progress: [bishop]}\nsteps:\n  - answer: play bishop\n"
        "  - expect:\n      pending: {kind: choose_tile, options: [choose tile 4]}\n"
        "  - answer: choose tile 4\n"
        "  - expect:\n      robber: 9\n      pending: {player: red, kind: main}\n"
        "      log: [{event: card_failed, card: bishop, line: 2,\n"
        "             reason: 'there is no tile 99 on this board (0 to 18)'}]\n",
        encoding="utf-8",
    )
    outcome = run_file(scenario)
    assert outcome.status == "pass", outcome.to_json()


def test_the_grammar_is_cached_where_it_can_be(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The parser Lark builds is kept in the user's cache folder (an entry of
    ``ckdsl.rules.disk``, checked before it is read) and parses alike when loaded from
    it; with no writable folder, or CKDSL_NO_CACHE, nothing is cached."""
    from ckdsl.dsl import parser
    from ckdsl.rules import disk

    text = "for p in opponents where count(cities(p)) > 1:\n    take 1 ore from p"
    plain = repr(parser.parse(text))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("CKDSL_NO_CACHE", raising=False)
    hits = disk.COUNTS["parser", "hit"]
    for _ in range(2):  # the first builds and saves it, the second loads it
        parser._lark.cache_clear()
        assert repr(parser.parse(text)) == plain
    assert disk.COUNTS["parser", "hit"] == hits + 1
    assert len(list((tmp_path / "ckdsl").glob("parser-*.pickle"))) == 1
    for setting, value in (("XDG_CACHE_HOME", str(tmp_path / "file")), ("CKDSL_NO_CACHE", "1")):
        (tmp_path / "file").write_text("not a folder", encoding="utf-8")
        monkeypatch.setenv(setting, value)
        parser._lark.cache_clear()
        assert repr(parser.parse(text)) == plain
        assert disk.COUNTS["parser", "hit"] == hits + 1
    parser._lark.cache_clear()


def test_an_effects_faults_are_remembered_by_all_they_depend_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A variant checks its parent's effects again: their faults and the parameters they
    read come from what was remembered while the names are the same, in the same order,
    and the parameters each text reads have the same values."""
    from ckdsl.dsl import program
    from ckdsl.rules.positions import Positions

    data = copy.deepcopy(load_rules("base").ruleset.data)
    remembered: dict[object, tuple[object, ...]] = {}
    monkeypatch.setattr(program, "_COMPILED", remembered)

    def compiled() -> int:  # texts compiled, for every values of what they read
        return sum(len(values) for values in remembered.values())

    assert program.check_rules(data, Positions()) == []
    texts = len(remembered)
    assert texts > 50 and compiled() == texts
    assert program.check_rules(copy.deepcopy(data), Positions()) == []
    assert compiled() == texts  # none compiled again
    # a parameter's value: only the texts that read it are compiled again
    readers = [k for k, v in remembered.items() if "points_to_win" in v[0][1][2]]
    assert 0 < len(readers) < texts
    data["parameters"]["points_to_win"] += 1
    assert program.check_rules(data, Positions()) == []
    assert compiled() == texts + len(readers)
    # a name more: every text is compiled again (an unknown name's hint lists them all)
    data["counters"]["tally"] = {"start": 0}
    assert program.check_rules(data, Positions()) == []
    assert len(remembered) == 2 * texts
    # a fault is found again as it was
    data["cards"]["alchemist"]["effect"] = "gain 1 grian"
    first = program.check_rules(data, Positions())
    assert len(first) == 1 and "grian" in first[0].message
    assert program.check_rules(copy.deepcopy(data), Positions()) == first
    assert len(remembered) == 2 * texts + 1
    # a parameter read only by an effect whose faults were remembered is still read
    # (were it not, "read by nothing" would be said of it)
    del data["cards"]["alchemist"]
    assert program.check_rules(data, Positions()) == []
