"""The bundled rule set, and the exact diagnostics for each kind of fault in a rule set."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from ckdsl.dsl.program import load_ruleset
from ckdsl.rules.ruleset import RuleSet


@pytest.fixture(scope="module")
def base() -> RuleSet:
    ruleset, problems = load_ruleset()
    assert ruleset is not None, [p.format() for p in problems]
    assert problems == []
    return ruleset


def test_base_has_the_cities_and_knights_components(base: RuleSet) -> None:
    d = base.data
    assert {k: v["bank"] for k, v in d["resources"].items()} == dict.fromkeys(
        ["brick", "lumber", "wool", "grain", "ore"], 19
    )
    assert {k: v["bank"] for k, v in d["commodities"].items()} == dict.fromkeys(
        ["paper", "cloth", "coin"], 12
    )
    assert set(d["terrains"]) == {
        "hills", "forest", "pasture", "fields", "mountains", "desert", "gold", "sea"
    }  # fmt: skip
    assert d["terrains"]["forest"]["produces"]["city"] == {"lumber": 1, "paper": 1}
    assert d["terrains"]["hills"]["produces"]["city"] == {"brick": 2}
    assert d["terrains"]["gold"]["produces_choice"] == {"settlement": 1, "city": 2}
    pieces = d["pieces"]
    assert pieces["city"]["cost"] == {"grain": 2, "ore": 3}
    assert pieces["city_wall"] == {"cost": {"brick": 2}, "supply": 3}
    knight = pieces["knight"]
    assert knight["activate_cost"] == {"grain": 1}
    assert [(lv["id"], lv["strength"], lv["supply"]) for lv in knight["levels"]] == [
        ("basic_knight", 1, 2),
        ("strong_knight", 2, 2),
        ("mighty_knight", 3, 2),
    ]
    assert knight["levels"][2]["requires"] == "fortress"


def test_base_tracks(base: RuleSet) -> None:
    tracks = base.data["tracks"]
    assert {t: s["commodity"] for t, s in tracks.items()} == {
        "trade": "cloth",
        "politics": "coin",
        "science": "paper",
    }
    for spec in tracks.values():
        assert [lv["cost"] for lv in spec["levels"]] == [1, 2, 3, 4, 5]
        assert [max(lv["progress_on_red"]) for lv in spec["levels"]] == [2, 3, 4, 5, 6]
        assert spec["metropolis"] == {"level": 4, "take_level": 5}
    # Level 3 carries the ability where it is an effect (the Fortress is the mighty
    # knight's requirement instead).
    abilities = {t: [i for i, lv in enumerate(s["levels"]) if "ability" in lv]
                 for t, s in tracks.items()}  # fmt: skip
    assert abilities == {"trade": [2], "politics": [], "science": [2]}
    assert [lv["id"] for lv in tracks["trade"]["levels"]] == [
        "market", "trading_house", "merchant_guild", "bank", "great_exchange"
    ]  # fmt: skip


def test_base_decks_have_18_cards_each(base: RuleSet) -> None:
    per_deck: dict[str, int] = {}
    for card in base.cards.values():
        per_deck[card["deck"]] = per_deck.get(card["deck"], 0) + card["count"]
    assert per_deck == {"trade": 18, "politics": 18, "science": 18}
    assert len(base.cards) == 25
    assert base.cards["alchemist"]["timing"] == "before_roll"
    assert {c for c, s in base.cards.items() if s.get("timing") == "on_draw"} == {
        "printer",
        "constitution",
    }
    assert all(s["effect"] for s in base.cards.values())


def test_base_parameters(base: RuleSet) -> None:
    p = base.parameters
    assert p["points_to_win"] == 13
    assert (p["hand_limit"], p["city_wall_hand_bonus"], p["hand_limit_cap"]) == (7, 2, 13)
    assert (p["progress_hand_limit"], p["progress_hand_limit_own_turn"]) == (4, 5)
    assert p["robber_locked_until_first_attack"] is True
    assert p["second_setup_piece"] == "city"
    assert base.data["barbarians"]["track_length"] == 7
    faces = base.data["dice"]["event_die"]["faces"]
    assert sum(f["count"] for f in faces.values()) == 6
    assert faces["ship"]["count"] == 3


def test_hash_is_stable_and_follows_the_rules(
    base: RuleSet, rules_copy: Callable[..., Path]
) -> None:
    again, _ = load_ruleset()
    assert again is not None and again.hash == base.hash
    changed, _ = load_ruleset(
        rules_copy({"game.yaml": [("points_to_win: 13", "points_to_win: 14")]})
    )
    assert changed is not None and changed.hash != base.hash


def errors_of(folder: Path) -> list[str]:
    ruleset, problems = load_ruleset(folder)
    assert ruleset is None
    return [p.format(relative_to=str(folder)) for p in problems]


# Each case: an edit to one file of the base rules, and the one diagnostic it must give.
FAULTS = {
    "unknown key": (
        "progress.yaml",
        (
            "  commercial_harbor:\n    deck: trade\n    count: 2",
            "  commercial_harbor:\n    deck: trade\n    cuont: 2",
        ),
        [
            "progress.yaml:{line:  commercial_harbor:}:3: missing key 'count' in "
            "'commercial_harbor' "
            "[$.cards.commercial_harbor.count]",
            "progress.yaml:{line:cuont}:5: unknown key 'cuont' (did you mean 'count'?) "
            "[$.cards.commercial_harbor.cuont]",
        ],
    ),
    "wrong type": (
        "progress.yaml",
        ("    deck: trade\n    count: 6", "    deck: trade\n    count: six"),
        [
            "progress.yaml:{line:count: six}:12: expected a whole number, found the text 'six' "
            "[$.cards.merchant.count]"
        ],
    ),
    "non-positive count": (
        "progress.yaml",
        ("    deck: politics\n    count: 3", "    deck: politics\n    count: 0"),
        [
            "progress.yaml:{line:count: 0}:12: must be at least 1, found the number 0 "
            "[$.cards.spy.count]"
        ],
    ),
    "unknown deck": (
        "progress.yaml",
        ("  bishop:\n    deck: politics", "  bishop:\n    deck: politcs"),
        [
            "progress.yaml:{line:politcs}:11: unknown deck 'politcs' (did you mean 'politics'?) "
            "[$.cards.bishop.deck]"
        ],
    ),
    "deck size": (
        "progress.yaml",
        ("    deck: trade\n    count: 6", "    deck: trade\n    count: 5"),
        [
            "progress.yaml:{line:  trade: {track}:31: the cards of deck 'trade' add up to 17, "
            "but its size is 18: "
            "change a card's count or the deck's size (decks.trade.size) [$.decks.trade.size]"
        ],
    ),
    "bad enum": (
        "progress.yaml",
        ("timing: before_roll", "timing: befor_roll"),
        [
            "progress.yaml:{line:befor_roll}:13: the text 'befor_roll' is not allowed here "
            "(did you mean "
            "'before_roll'?); expected one of 'after_roll', 'before_roll', 'on_draw' "
            "[$.cards.alchemist.timing]"
        ],
    ),
    "unknown good in a cost": (
        "pieces.yaml",
        ("cost: {grain: 2, ore: 3}", "cost: {grain: 2, oar: 3}"),
        [
            "pieces.yaml:{line:oar: 3}:22: unknown resource or commodity 'oar' "
            "(did you mean 'ore'?) "
            "[$.pieces.city.cost.oar]"
        ],
    ),
    "level costs decrease": (
        "improvements.yaml",
        ("{id: bank, cost: 4,", "{id: bank, cost: 2,"),
        [
            "improvements.yaml:{line:{id: bank, cost: 2}:26: level 4 costs 2, less than "
            "level 3 (3); improvement "
            "levels cannot get cheaper [$.tracks.trade.levels[3].cost]"
        ],
    ),
    "track paid in a resource": (
        "improvements.yaml",
        ("commodity: coin", "commodity: wool"),
        [
            "improvements.yaml:{line:commodity: wool}:16: 'wool' is a resource; a track's "
            "levels cost a commodity "
            "[$.tracks.politics.commodity]"
        ],
    ),
    "metropolis level beyond the track": (
        "improvements.yaml",
        ("metropolis: {level: 4, take_level: 5}", "metropolis: {level: 4, take_level: 6}"),
        [
            "improvements.yaml:{line:take_level: 6}:40: the track has only 5 levels, not 6 "
            "[$.tracks.trade.metropolis.take_level]"
        ],
    ),
    "unknown level required by a knight": (
        "pieces.yaml",
        ("requires: fortress", "requires: fortres"),
        [
            "pieces.yaml:{line:fortres}:63: unknown improvement level 'fortres' "
            "(did you mean 'fortress'?) "
            "[$.pieces.knight.levels[2].requires]"
        ],
    ),
    "red-die value that does not exist": (
        "improvements.yaml",
        ("progress_on_red: [1, 2, 3, 4, 5, 6]}", "progress_on_red: [1, 2, 3, 4, 5, 7]}"),
        [
            "improvements.yaml:{line:4, 5, 7]}:72: the red die has no face 7 "
            "(its faces: 1, 2, 3, 4, 5, 6) "
            "[$.tracks.trade.levels[4].progress_on_red[5]]"
        ],
    ),
    "invalid id": (
        "goods.yaml",
        ("  ore: {bank: 19}", "  ore: {bank: 19}\n  Gold: {bank: 3}"),
        [
            "goods.yaml:{line:Gold}:3: 'Gold' is not a valid id: ids are lower-case letters, "
            "digits "
            "and underscores, starting with a letter (like 'road_building') [$.resources.Gold]",
        ],
    ),
    "duplicate key": (
        "goods.yaml",
        ("  ore: {bank: 19}", "  ore: {bank: 19}\n  ore: {bank: 18}"),
        [
            "goods.yaml:13:3: duplicate key 'ore': it is already defined at line 12, column 3 "
            "[$.resources.ore]"
        ],
    ),
    "parameter out of order": (
        "game.yaml",
        ("hand_limit_cap: 13", "hand_limit_cap: 5"),
        [
            "game.yaml:{line:hand_limit_cap: 5}:19: hand_limit_cap (5) is below hand_limit (7) "
            "[$.parameters.hand_limit_cap]"
        ],
    ),
    "missing parameter": (
        "game.yaml",
        ("  turn_limit: 500\n", ""),
        [
            "game.yaml:{line:parameters:}:1: 'parameters' lacks 'turn_limit' "
            "[$.parameters.turn_limit]"
        ],
    ),
}


@pytest.mark.parametrize("case", list(FAULTS), ids=list(FAULTS))
def test_fault_gives_exact_diagnostic(case: str, rules_copy: Callable[..., Path]) -> None:
    file, edit, expected = FAULTS[case]
    folder = rules_copy({file: [edit]})
    text = (folder / file).read_text(encoding="utf-8")

    def line_of(match: re.Match[str]) -> str:
        """``{line:needle}``: the line where ``needle`` first stands in the edited file."""
        return str(text[: text.index(match[1])].count("\n") + 1)

    wanted = [re.sub(r"\{line:(.+?)\}(?=:)", line_of, e) for e in expected]
    assert errors_of(folder) == wanted


def test_every_fault_of_every_file_is_reported_at_once(rules_copy: Callable[..., Path]) -> None:
    folder = rules_copy(
        {
            "progress.yaml": [("  bishop:\n    deck: politics", "  bishop:\n    deck: politcs")],
            "pieces.yaml": [("cost: {grain: 2, ore: 3}", "cost: {grain: 2, oar: 3}")],
            "goods.yaml": [("  ore: {bank: 19}", "  ore: {bank: 19}\n  ore: {bank: 18}")],
        }
    )
    found = errors_of(folder)
    assert [line.split(":")[0] for line in found] == ["goods.yaml", "pieces.yaml", "progress.yaml"]


def test_id_defined_in_two_files(rules_copy: Callable[..., Path]) -> None:
    folder = rules_copy()
    (folder / "zz_extra.yaml").write_text("resources:\n  wool: {bank: 5}\n", encoding="utf-8")
    assert errors_of(folder) == [
        "zz_extra.yaml:2:3: 'wool' is defined twice in 'resources': it is already defined at "
        f"{folder}/goods.yaml:10:3 [$.resources.wool]"
    ]


def test_section_may_be_split_over_files(rules_copy: Callable[..., Path]) -> None:
    folder = rules_copy({"goods.yaml": [("  coin: {bank: 12}\n", "")]})
    (folder / "more.yaml").write_text("commodities:\n  coin: {bank: 12}\n", encoding="utf-8")
    ruleset, problems = load_ruleset(folder)
    assert ruleset is not None, problems
    assert set(ruleset.data["commodities"]) == {"paper", "cloth", "coin"}


def test_missing_section(rules_copy: Callable[..., Path]) -> None:
    folder = rules_copy()
    (folder / "terrains.yaml").unlink()
    assert errors_of(folder) == [".: the rule set has no 'terrains' section [$.terrains]"]


def test_empty_folder(tmp_path: Path) -> None:
    assert errors_of(tmp_path) == [".: this folder holds no rule files (*.yaml)"]
