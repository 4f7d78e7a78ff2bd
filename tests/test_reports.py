"""What the commands print, computed by ``ckdsl.reports`` and checked without Click:
the board description, a game's report, the cards' facts, the bots, validation and
localization counts, scenario outcomes and the DSL's reference."""

from __future__ import annotations

from pathlib import Path

import pytest

from ckdsl.board import fixed_layout, random_layout
from ckdsl.bots import RandomBot
from ckdsl.diagnostics import Diagnostic, display_path
from ckdsl.dsl.explain import explain
from ckdsl.dsl.program import load_ruleset
from ckdsl.l10n.catalog import LANGUAGES, load_catalog
from ckdsl.l10n.check import Finding
from ckdsl.reports.board import board_json, board_lines, board_title, default_drawing, drawn_words
from ckdsl.reports.bots import bot_lines, bot_rows
from ckdsl.reports.cards import card_facts, card_lines, card_rows
from ckdsl.reports.checks import (
    checked_lines,
    chosen_languages,
    error_count,
    finding_counts,
    l10n_json,
    l10n_lines,
    validation_json,
)
from ckdsl.reports.dsl import explain_lines, vocabulary_lines
from ckdsl.reports.game import game_json, game_lines, scores
from ckdsl.reports.scenarios import outcome_lines, passed_line, shown
from ckdsl.rules.ruleset import RuleSet
from ckdsl.scenario.runner import Mismatch, Outcome
from ckdsl.session import GameSetup, load_board, play, start
from ckdsl.turn.game import Game
from ckdsl.validate import Checked, Report


@pytest.fixture(scope="module")
def ruleset() -> RuleSet:
    loaded, problems = load_ruleset(None)
    assert loaded is not None, problems
    return loaded


# --- the board ---------------------------------------------------------------------------


def test_the_default_drawing_is_the_beginner_layout_else_seed_0() -> None:
    spec, _ = load_board("standard")
    assert "beginner" in spec.layouts
    assert default_drawing(spec, None, None) == ("beginner", None)
    assert default_drawing(spec, None, 7) == (None, 7)
    assert default_drawing(spec, "beginner", None) == ("beginner", None)
    english, polish = load_catalog("en"), load_catalog("pl")
    assert drawn_words(english, None, 7) == "seed 7"
    assert drawn_words(english, "beginner", None) == "layout beginner"
    assert drawn_words(polish, "beginner", None) == "układ beginner"


def test_the_board_description_names_every_id() -> None:
    spec, topology = load_board("standard")
    drawn = random_layout(spec, topology, 7)
    report = board_json(spec, topology, drawn, None, 7)
    assert list(report) == [
        "map", "layout", "tiles", "intersections", "edges", "harbors", "robber"
    ]  # fmt: skip
    assert report["layout"] == {"seed": 7}
    assert len(report["tiles"]) == len(topology.hexes) == 19
    assert len(report["intersections"]) == 54 and len(report["edges"]) == 72
    desert = [t for t in report["tiles"] if t["number"] is None]
    assert [t["id"] for t in desert] == [report["robber"]]
    edge = report["edges"][0]
    assert edge["name"] == "-".join(str(end) for end in edge["ends"])
    assert {h["edge"] for h in report["harbors"]} <= {e["name"] for e in report["edges"]}
    assert sum(e["coast"] for e in report["edges"]) == len(topology.coast_edges)


def test_the_board_lines_show_tiles_and_harbors() -> None:
    spec, topology = load_board("standard")
    drawn = fixed_layout(spec, topology, "beginner")
    lines = board_lines(spec, topology, drawn, "beginner", None, load_catalog("en"))
    assert lines[0] == f"{spec.name}: 19 tiles, 54 intersections, 72 edges"
    assert lines[1] == f"  layout beginner; the robber starts on tile {drawn.robber}"
    assert sum(line.startswith("  tile ") for line in lines) == 19
    assert sum(line.startswith("  harbor ") for line in lines) == len(drawn.harbors)
    robber = next(line for line in lines if line.startswith(f"  tile {drawn.robber:>2} "))
    assert " - " in robber  # the desert has no number
    assert board_title(spec, None, 3, load_catalog("en")) == f"{spec.name}: seed 3"
    polish = board_lines(spec, topology, drawn, "beginner", None, load_catalog("pl"))
    assert polish[0] == f"{spec.name}: pola: 19, skrzyżowania: 54, krawędzie: 72"
    assert "tile" not in "\n".join(polish) and "harbor" not in "\n".join(polish)
    assert any(line.startswith("  pole  0  ") and "narożniki" in line for line in polish)


# --- a game -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def finished_game() -> Game:
    game = start(GameSetup(seed=3, players=3))
    play(game, [RandomBot(seat) for seat in range(3)])
    return game


def test_the_game_report_has_the_outcome_and_the_log(finished_game: Game) -> None:
    report = game_json(finished_game)
    assert list(report) == [
        "winner", "finished", "turns", "scores", "answers", "state_digest", "log"
    ]  # fmt: skip
    assert list(report["scores"]) == ["red", "blue", "white"][: len(report["scores"])]
    assert report["scores"] == scores(finished_game)
    assert report["answers"] == len(finished_game.history)
    assert report["finished"] == (report["winner"] is not None)
    if report["winner"] is not None:
        assert report["scores"][report["winner"]] == max(report["scores"].values())
    assert report["log"] is finished_game.events


def test_the_game_lines_end_with_the_scores_in_the_language(
    ruleset: RuleSet,
    finished_game: Game,
) -> None:
    catalog = load_catalog("en", ruleset)
    lines = game_lines(finished_game, catalog)
    heading = catalog.message("final_scores")
    at = lines.index(heading)
    assert lines[at - 1] == ""
    assert len(lines) - at - 1 == finished_game.n
    assert all(line.startswith("  ") for line in lines[at + 1 :])
    assert None not in lines and len(lines) > finished_game.n + 2


# --- cards --------------------------------------------------------------------------------


def test_card_rows_have_the_facts_of_the_rules(ruleset: RuleSet) -> None:
    catalog = load_catalog("en", ruleset)
    rows = card_rows(ruleset, catalog)
    assert [r["id"] for r in rows] == list(ruleset.cards)
    assert sum(r["count"] for r in rows) == 54
    bishop = next(r for r in rows if r["id"] == "bishop")
    assert bishop["deck"] == ruleset.cards["bishop"]["deck"]
    assert bishop["name"] == catalog.card_name("bishop")
    science = card_rows(ruleset, catalog, "science")
    assert science and {r["deck"] for r in science} == {"science"}


def test_card_facts_name_only_what_sets_a_card_apart(ruleset: RuleSet) -> None:
    catalog = load_catalog("en", ruleset)
    rows = card_rows(ruleset, catalog)
    for row in rows:
        facts = card_facts(row, catalog)
        assert facts[0] == catalog.message("copies", row["count"])
        assert len(facts) == 1 + (row["timing"] != "after_roll") + bool(row["points"])


def test_card_lines_group_the_cards_by_deck(ruleset: RuleSet) -> None:
    catalog = load_catalog("fr", ruleset)
    rows = card_rows(ruleset, catalog, "trade")
    lines = card_lines(ruleset, catalog, rows)
    total = sum(r["count"] for r in rows)
    heading = f"{catalog.name('decks', 'trade')} ({catalog.message('cards_in_deck', total)})"
    assert lines[:2] == [heading, "=" * len(heading)]
    assert lines[-1] == ""
    assert all(len(line) <= 88 for line in lines if line.startswith("    "))
    assert sum(f"[{r['id']}]" in line for r in rows for line in lines) == len(rows)


# --- bots ---------------------------------------------------------------------------------


def test_bot_rows_list_every_bot_and_parameter() -> None:
    rows = bot_rows()
    names = [r["name"] for r in rows]
    assert names == sorted(names) and {"heuristic", "mcts", "random"} <= set(names)
    mcts = next(r for r in rows if r["name"] == "mcts")
    iterations = next(p for p in mcts["params"] if p["name"] == "iterations")
    assert iterations["type"] == "int" and isinstance(iterations["default"], int)
    lines = bot_lines(rows)
    assert lines[0].startswith(f"{names[0]}  (version ")
    assert f"    iterations={iterations['default']}  (int)  {iterations['doc']}" in lines


# --- validation and localization ----------------------------------------------------------


def test_validation_report_and_lines() -> None:
    error = Diagnostic("a.yaml", 3, 4, "bad")
    warning = Diagnostic("a.yaml", 1, 1, "odd", severity="warning")
    report = Report(
        checked=[Checked("a.yaml", "variant", False, "extends base"), Checked("b", "locale", True)],
        diagnostics=[error, warning],
    )
    data = validation_json(report)
    assert data["ok"] is False
    assert data["checked"][0] == {
        "path": "a.yaml", "kind": "variant", "ok": False, "summary": "extends base"
    }  # fmt: skip
    assert [d["line"] for d in data["diagnostics"]] == [1, 3]
    assert checked_lines(report) == ["FAILED variant   a.yaml (extends base)", "ok     locale    b"]
    assert error_count([error, warning]) == "1 error"
    assert error_count([error, error]) == "2 errors"
    assert error_count([]) is None


def test_l10n_counts_every_kind_of_every_language() -> None:
    assert chosen_languages(("sr-Latn", "fr", "sr"), LANGUAGES) == ("sr", "fr")
    assert chosen_languages((), LANGUAGES) == LANGUAGES
    missing = Finding("fr", "missing", Diagnostic("fr.yaml", 2, 1, "missing 'x'"))
    counts = finding_counts([missing, missing], ("en", "fr"))
    assert counts["fr"]["missing"] == 2 and sum(counts["en"].values()) == 0
    assert l10n_lines([missing], ("en", "fr")) == ["en  complete", "fr  1 missing"]
    data = l10n_json([missing], ("fr",))
    assert data["ok"] is False and data["findings"][0]["language"] == "fr"
    assert l10n_json([], ("fr",))["ok"] is True


# --- scenarios ----------------------------------------------------------------------------


def test_a_failed_scenario_shows_each_mismatch(tmp_path: Path) -> None:
    file = str(tmp_path / "s.yaml")
    failed = Outcome(
        file, "knights", "fail", step=2, where="s.yaml:4:3", reason="state differs",
        mismatches=[Mismatch("players.red.points", 3, "é")],
    )  # fmt: skip
    lines = outcome_lines(failed)
    assert lines[0].startswith("FAIL  knights  (")
    assert lines[1:] == [
        "      step 2 (s.yaml:4:3): state differs",
        "      players.red.points",
        "        expected: 3",
        '        actual:   "é"',
    ]
    passed = Outcome(file, "roads", "pass")
    assert outcome_lines(passed) == [f"PASS  roads  ({display_path(file)})"]
    assert passed_line([failed, passed]) == "1 of 2 scenarios passed"
    assert shown({"a": [1, None]}) == '{"a": [1, null]}'


# --- the DSL ------------------------------------------------------------------------------


def test_explain_lines_print_the_card_and_its_effect(ruleset: RuleSet) -> None:
    report = explain(ruleset, "bishop", load_catalog("en", ruleset))
    lines = explain_lines(report)
    assert lines[0] == f"{report['name']}  [bishop]"
    assert lines[1] == " · ".join(report["facts"])
    heading = f"{report['effect_heading']} ({report['source']}):"
    at = lines.index(heading)
    assert lines[at - 1] == ""
    assert lines[at + 1 :] == ["    " + line for line in report["effect"].splitlines()]


def test_vocabulary_lines_list_verbs_then_functions() -> None:
    table = {
        "verbs": [{"form": "give N", "doc": "gives", "example": "give 1 ore"}],
        "functions": [{"form": "count(x)", "result": "number", "doc": "counts"}],
    }
    assert vocabulary_lines(table) == [
        "Verbs",
        "  give N",
        "      gives  (e.g. give 1 ore)",
        "Functions",
        "  count(x) -> number",
        "      counts",
    ]


def test_the_scores_of_a_game_not_over_are_not_final() -> None:
    """`ckdsl replay` of an unfinished save printed "Final scores" (issue 34)."""
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.reports.game import score_lines
    from ckdsl.session import GameSetup, load_rules, start

    game = start(GameSetup(seed=1))
    lines = score_lines(game, load_catalog("en", load_rules("base").ruleset))
    assert lines[0] == "Scores so far (the game is not over)" and len(lines) == 5
