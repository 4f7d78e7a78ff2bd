"""Variants: the examples load, and every error points into the variant file."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from ckdsl.dsl.program import load_ruleset

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples" / "variants").glob("*.yaml"))


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.stem for p in EXAMPLES])
def test_every_example_variant_is_valid(path: Path) -> None:
    ruleset, problems = load_ruleset(path)
    assert ruleset is not None, [p.format() for p in problems]
    assert problems == []
    per_deck: dict[str, int] = {}
    for card in ruleset.cards.values():
        per_deck[card["deck"]] = per_deck.get(card["deck"], 0) + card["count"]
    assert per_deck == {d: s["size"] for d, s in ruleset.decks.items()}


def test_fifteen_points_overrides_parameters_and_costs() -> None:
    ruleset, _ = load_ruleset(REPO / "examples/variants/fifteen_points.yaml")
    assert ruleset is not None
    assert ruleset.parameters["points_to_win"] == 15
    assert ruleset.data["pieces"]["city"] == {
        "cost": {"grain": 2, "ore": 2},
        "supply": 4,
        "points": 2,
    }
    assert ruleset.parameters["hand_limit"] == 7  # untouched values stay
    assert ruleset.name == "fifteen_points"
    assert [Path(layer).name for layer in ruleset.layers] == ["base", "fifteen_points.yaml"]


def test_royal_wedding_changes_counts_and_copies_a_card() -> None:
    ruleset, _ = load_ruleset(REPO / "examples/variants/royal_wedding.yaml")
    assert ruleset is not None
    cards = ruleset.cards
    assert cards["merchant"]["count"] == 4
    assert cards["royal_wedding"] == {**cards["wedding"], "count": 1}
    assert ruleset.decks["trade"]["size"] == 16
    assert ruleset.names["pl"]["cards"]["royal_wedding"]["name"] == "Królewskie Zaślubiny"
    base, _ = load_ruleset()
    assert base is not None and ruleset.hash != base.hash


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def errors(path: Path) -> list[str]:
    ruleset, problems = load_ruleset(path)
    assert ruleset is None
    return [p.format(relative_to=str(path.parent)) for p in problems]


def test_a_variant_of_a_variant(tmp_path: Path) -> None:
    write(tmp_path, "a.yaml", "extends: base\noverride:\n  parameters: {points_to_win: 15}\n")
    b = write(tmp_path, "b.yaml", "extends: a.yaml\noverride:\n  parameters: {hand_limit: 9}\n")
    ruleset, problems = load_ruleset(b)
    assert ruleset is not None, problems
    assert (ruleset.parameters["points_to_win"], ruleset.parameters["hand_limit"]) == (15, 9)
    assert len(ruleset.layers) == 3


def test_errors_of_a_variant_point_into_it(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "bad.yaml",
        """extends: base
override:
  parameters:
    points_to_wn: 15
    hand_limit: seven
  cards:
    bishopp: {count: 1}
    merchant: {count: 5}
add:
  cards:
    spy: {deck: politics, count: 1, effect: x}
    twin_spy: {like: spyy, count: 1}
remove:
  cards: [saboteur, saboteurr]
""",
    )
    found = errors(path)
    assert found == [
        "bad.yaml:4:5: unknown key 'points_to_wn' (did you mean 'points_to_win'?) "
        "[$.override.parameters.points_to_wn]",
        "bad.yaml:5:17: expected a whole number, found the text 'seven' "
        "[$.override.parameters.hand_limit]",
        "bad.yaml:7:5: cannot override 'bishopp': there is no 'bishopp' in 'cards' "
        "(did you mean 'bishop'?) [$.cards.bishopp]",
        "bad.yaml:8:23: the cards of deck 'trade' add up to 17, but its size is 18: change a "
        "card's count or the deck's size (decks.trade.size) [$.cards.merchant.count]",
        found[4],
        "bad.yaml:12:16: cannot copy 'spyy': there is no 'spyy' in 'cards' "
        "(did you mean 'spy'?) [$.cards.spyy]",
        "bad.yaml:14:11: the cards of deck 'politics' add up to 16, but its size is 18: "
        "change a card's count or the deck's size (decks.politics.size) [$.cards.saboteur]",
        "bad.yaml:14:21: cannot remove 'saboteurr': there is no 'saboteurr' in 'cards' "
        "[$.cards.saboteurr]",
    ]
    assert found[4].startswith("bad.yaml:11:5: cannot add 'spy': 'cards' already has it")
    assert found[4].endswith(
        "use `override` to change some of its keys or `replace` to redefine it [$.cards.spy]"
    )


def test_an_added_card_must_be_complete(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "extends: base\nadd:\n  cards:\n    lone: {count: 1}\n")
    assert errors(path) == [
        "v.yaml:4:5: missing key 'deck' in 'lone' [$.cards.lone.deck]",
        "v.yaml:4:5: missing key 'effect' in 'lone' [$.cards.lone.effect]",
    ]


def test_removing_something_still_used_is_reported_at_the_removal(tmp_path: Path) -> None:
    path = write(tmp_path, "v.yaml", "extends: base\nremove:\n  resources: [wool]\n")
    found = errors(path)
    assert len(found) == 5
    assert all(
        f.startswith("v.yaml:3:15: 'wool' is removed here but is still used at ") for f in found
    )
    assert any("pieces.yaml:28:12 [$.pieces.knight.cost.wool]" in f for f in found)


def test_replace_redefines_a_card_whole(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "v.yaml",
        "extends: base\nreplace:\n  cards:\n    spy: {deck: politics, count: 3, effect: stop}\n",
    )
    ruleset, problems = load_ruleset(path)
    assert ruleset is not None, problems
    assert ruleset.cards["spy"] == {"deck": "politics", "count": 3, "effect": "stop"}


def test_remove_then_resize(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "v.yaml",
        "extends: base\nremove:\n  cards: [spy]\noverride:\n  decks:\n    politics: {size: 15}\n",
    )
    ruleset, problems = load_ruleset(path)
    assert ruleset is not None, problems
    assert "spy" not in ruleset.cards
    assert ruleset.positions.value(("decks", "politics", "size")).file == str(path)


def test_override_of_a_removed_card(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        "v.yaml",
        "extends: base\nremove:\n  cards: [spy]\noverride:\n  cards:\n    spy: {count: 1}\n",
    )
    assert errors(path)[-1].startswith(
        "v.yaml:6:5: cannot override 'spy': there is no 'spy' in 'cards'; it was removed at "
    )


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        (
            {"a.yaml": "extends: b.yaml\n", "b.yaml": "extends: a.yaml\n"},
            "b.yaml:1:10: the variants extend each other in a circle: "
            "a.yaml -> b.yaml -> a.yaml [$.extends]",
        ),
        (
            {"a.yaml": "extends: a.yaml\n"},
            "a.yaml:1:10: the variants extend each other in a circle: a.yaml -> a.yaml [$.extends]",
        ),
        (
            {"a.yaml": "extends: 3\n"},
            "a.yaml:1:10: expected a text, found the number 3 [$.extends]",
        ),
        ({"a.yaml": "override: {}\n"}, "a.yaml:1:1: missing key 'extends' here [$.extends]"),
    ],
)
def test_broken_extends(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    for name, text in files.items():
        write(tmp_path, name, text)
    assert errors(tmp_path / "a.yaml") == [expected]


def test_missing_parent(tmp_path: Path) -> None:
    path = write(tmp_path, "a.yaml", "extends: ./nowhere.yaml\n")
    (found,) = errors(path)
    assert found.startswith("a.yaml:1:10: cannot find './nowhere.yaml' (looked for ")


@pytest.mark.parametrize(
    "path", sorted((REPO / "examples" / "variants").glob("*.yaml")), ids=lambda p: p.stem
)
def test_every_example_variant_plays_a_whole_game(
    path: Path, example_table: Callable[[Path], tuple[int, str]]
) -> None:
    """Each house rule in examples/ loads, and random bots (four, unless it seats other
    counts) play it to the end."""
    from ckdsl.bots import RandomBot
    from ckdsl.session import GameSetup, play, start

    n, board = example_table(path)
    game = start(GameSetup(rules=str(path), map=board, players=n, seed=5))
    play(game, [RandomBot(5 + p) for p in range(n)])
    assert game.pending.kind == "over"
    assert all(game.state.players[p].points == game.recount_points(p) for p in range(n))


def test_an_override_of_goods_that_keeps_others_is_a_warning(tmp_path: Path) -> None:
    """`city: {wool: 2}` over `{wool: 1, cloth: 1}` keeps the cloth (issue 16, item 7):
    said at the override, with both ways out; naming the kept good silences it."""
    body = (
        "extends: base\noverride:\n  terrains:\n    pasture:\n      produces:\n"
        "        city: {wool: 2}\n"
    )
    variant = tmp_path / "v.yaml"
    variant.write_text(body)
    ruleset, problems = load_ruleset(variant)
    assert ruleset is not None  # a warning, not an error
    assert ruleset.data["terrains"]["pasture"]["produces"]["city"] == {"wool": 2, "cloth": 1}
    (warning,) = problems
    assert (warning.severity, warning.line, warning.col) == ("warning", 6, 9)
    assert "gives {wool: 2, cloth: 1}, keeping cloth: 1" in warning.message
    assert "redefine 'pasture' under `replace: terrains:`" in warning.message
    variant.write_text(body.replace("{wool: 2}", "{wool: 2, cloth: 1}"))
    assert load_ruleset(variant)[1] == []
