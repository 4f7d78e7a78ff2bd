"""The event schema (``ckdsl.events``): games log exactly what it says, and its readers
(the readable log, the l10n check, scenario ``log:`` expectations, the reference page)
follow it."""

from __future__ import annotations

import re
from collections.abc import Callable, Container, Mapping
from pathlib import Path

import plainyaml
import pytest

from ckdsl.board import Topology
from ckdsl.dsl.program import load_ruleset
from ckdsl.events import (
    EVENT_KINDS,
    EVENTS,
    FIELD_TYPES,
    REGENERATE,
    EventSpec,
    FieldType,
    markdown,
    problems,
    secret_fields,
)
from ckdsl.l10n.catalog import LANGUAGES, all_languages, load_catalog
from ckdsl.l10n.check import check_languages
from ckdsl.l10n.events import EventRenderer, placeholders
from ckdsl.rules.checks import improvement_levels, knight_levels
from ckdsl.rules.ruleset import RuleSet
from ckdsl.scenario import run_file

REPO = Path(__file__).resolve().parent.parent
VARIANTS = sorted((REPO / "examples" / "variants").glob("*.yaml"))

# --- the schema itself ----------------------------------------------------------------------


def test_every_kind_has_one_spec_with_the_player_first() -> None:
    assert list(EVENTS) == list(EVENT_KINDS)
    for kind, spec in EVENTS.items():
        assert spec.kind == kind
        names = [f.name for f in spec.fields]
        assert names[0] == "player" and spec.fields[0].type == "player", kind
        assert len(names) == len(set(names)), kind
        assert "event" not in names, kind
        assert spec.doc.endswith("."), kind
        for f in spec.fields:
            assert f.type in FIELD_TYPES and f.doc, (kind, f.name)
            assert f.shared_with is None or (f.secret and f.shared_with in names), (kind, f)
            assert not f.nobody or f.type == "player", (kind, f)
        for message in spec.messages:
            assert message.key.startswith("log_"), kind
            assert message.when is None or message.when[0] in names, (kind, message)
        assert spec.messages or spec.quiet, f"{kind} has no message and is not quiet"


def test_a_field_name_means_one_thing_in_the_readable_log() -> None:
    """A placeholder name is filled the same way by every event that has it (apart from
    an intersection that is sometimes a place, and a level of a knight or of a track, both
    shown by name), so one message text reads right."""
    types: dict[str, set[FieldType]] = {}
    for spec in EVENTS.values():
        for f in spec.fields:
            types.setdefault(f.name, set()).add(f.type)
    mixed = {n: t for n, t in types.items() if len(t) > 1}
    assert mixed == {"at": {"intersection", "place"}, "level": {"level", "knight_level"}}


# Events the engine logs under a computed name (the answer's verb, the failing source).
COMPUTED = {"accept", "decline", "card_failed", "level_failed", "hook_failed", "action_failed"}


def test_every_event_the_source_logs_is_in_the_schema() -> None:
    """Each ``log("kind", ...)`` in ckdsl names a kind of the schema, and each kind is
    logged somewhere (literally, or under a computed name)."""
    source = "".join(p.read_text(encoding="utf-8") for p in (REPO / "ckdsl").rglob("*.py"))
    logged = set(re.findall(r'\blog\(\s*"([a-z_]+)"', source))
    assert logged - set(EVENTS) == set()
    assert set(EVENTS) - logged <= COMPUTED


def test_secret_fields_are_what_the_views_mask() -> None:
    from ckdsl.core.view import HIDDEN, visible_event

    secrets = secret_fields()
    assert secrets == {
        "draw": ("card", None),
        "discard_card": ("card", None),
        "steal": ("good", "victim"),
        "seize": ("card", "victim"),
        "reveal_hand": ("cards", "viewer"),
    }
    for kind, (name, party) in secrets.items():
        event = {**sample(EVENTS[kind]), "player": 0}
        if party is not None:
            event[party] = 1
        assert visible_event(event, 0)[name] != HIDDEN
        assert visible_event(event, 2)[name] == HIDDEN, kind
        assert (visible_event(event, 1)[name] == HIDDEN) is (party is None), kind


# --- problems() -----------------------------------------------------------------------------


def test_problems_names_each_fault() -> None:
    good = {"event": "build", "player": 1, "piece": "road", "at": 17}
    assert problems(good) == []
    assert problems({"event": "bild", "player": 1}) == ["unknown event 'bild'"]
    assert problems({"player": 1}) == ["unknown event None"]
    assert problems({"event": "build", "player": 1, "piece": "road"}) == [
        "build: missing field 'at'"
    ]
    assert problems({**good, "colour": "red"}) == ["build: unknown field 'colour'"]
    assert problems({**good, "at": "17"}) == [
        "build: 'at' should be a whole number, 0 or more (place), found '17'"
    ]
    assert problems({**good, "player": True}) == [
        "build: 'player' should be a whole number (player), found True"
    ]
    assert problems({**good, "player": -1}) == ["build: 'player' is no player (-1)"]
    assert problems({"event": "unfinished", "player": -1, "turns": 3}) == []
    assert problems({"event": "produce", "player": 0, "goods": {"ore": "2"}}) == [
        "produce: 'goods' should be a mapping of good ids to whole numbers (goods), "
        "found {'ore': '2'}"
    ]


def test_problems_with_known_ids() -> None:
    known: dict[FieldType, Container[object]] = {
        "player": range(4),
        "good": {"ore", "brick"},
        "edge": range(72),
        "intersection": range(54),
    }
    assert problems({"event": "build", "player": 1, "piece": "road", "at": 60}, known) == []
    assert problems({"event": "build", "player": 1, "piece": "city", "at": 60}, known) == [
        "build: 'at' is no intersection (60)"
    ]
    assert problems({"event": "turn", "player": 4, "turn": 1}, known) == [
        "turn: 'player' is no player (4)"
    ]
    assert problems({"event": "produce", "player": 0, "goods": {"oar": 1}}, known) == [
        "produce: 'goods' is no good ('oar')"
    ]


# --- games log what the schema says ---------------------------------------------------------


def known_ids(
    ruleset: RuleSet, players: int, topology: Topology
) -> dict[FieldType, Container[object]]:
    """The valid value of each id-like field type in a game of ``ruleset``."""
    data = ruleset.data
    faces = data["dice"]["event_die"]["faces"]
    return {
        "player": range(players),
        "good": {*data["resources"], *data["commodities"]},
        "piece": set(data["pieces"]),
        "card": set(data["cards"]),
        "deck": set(data["decks"]),
        "track": set(data["tracks"]),
        "level": set(improvement_levels(data)),
        "knight_level": set(knight_levels(data)),
        "face": set(faces),
        "action": set(data.get("actions") or {}),
        "hook": set(data.get("hooks") or {}),
        "title": set(data.get("titles") or {}),
        "intersection": range(len(topology.inter_tiles)),
        "edge": range(len(topology.edge_ends)),
        "tile": range(len(topology.hexes)),
    }


@pytest.mark.parametrize(
    "rules", ["base", *map(str, VARIANTS)], ids=["base", *(p.stem for p in VARIANTS)]
)
def test_games_log_only_what_the_schema_says(
    rules: str, example_table: Callable[[Path], tuple[int, str]]
) -> None:
    """Random bots play a few games; every event logged (and every event a listener
    hears) has a known kind, every field it must have, no other, each of its type and
    naming ids of the game."""
    from ckdsl.bots import RandomBot
    from ckdsl.session import GameSetup, play, start

    n, board = (4, "standard") if rules == "base" else example_table(Path(rules))
    ruleset, _ = load_ruleset(None if rules == "base" else rules)
    assert ruleset is not None
    kinds: set[str] = set()
    for seed in range(3):
        game = start(GameSetup(rules=rules, map=board, players=n, seed=seed))
        heard: list[Mapping[str, object]] = []
        game.listen(heard.append)
        play(game, [RandomBot(seed * 10 + p) for p in range(n)])
        known = known_ids(ruleset, n, game.topo)
        faults = [(e, p) for e in game.events for p in problems(e, known)]
        assert faults == [], faults[:5]
        assert [dict(e) for e in heard] == game.events[-len(heard) :]
        kinds |= {e["event"] for e in game.events}
    assert {"turn", "roll", "produce", "build"} <= kinds


# --- the readable log -----------------------------------------------------------------------

SAMPLES: dict[FieldType, object] = {
    "player": 1,
    "goods": {"brick": 2, "coin": 1},
    "good": "ore",
    "count": 3,
    "number": 4,
    "intersection": 12,
    "edge": 3,
    "place": 12,
    "tile": 7,
    "piece": "city",
    "card": "bishop",
    "cards": ["bishop", "spy"],
    "deck": "politics",
    "track": "science",
    "level": "aqueduct",
    "knight_level": "strong_knight",
    "face": "ship",
    "flag": True,
    "text": "no free place",
    "action": "hire",
    "hook": "seven",
    "title": "longest_road",
    "stop": {"key": "stop_no_edge", "value": 99, "last": 71},
}


def sample(spec: EventSpec) -> dict[str, object]:
    """An event of this kind with a value of the right type in every field."""
    return {"event": spec.kind, **{f.name: SAMPLES[f.type] for f in spec.fields}}


def variants(spec: EventSpec) -> list[dict[str, object]]:
    """Samples of ``spec``: one per message it may be told by."""
    base = sample(spec)
    out = [base]
    for message in spec.messages:
        if message.when is not None:
            name, value = message.when
            out.append({**base, name: value})
            if isinstance(value, bool):
                out.append({**base, name: not value})
    return out


@pytest.mark.parametrize("lang", all_languages())
def test_every_kind_of_event_renders_in_every_language(lang: str) -> None:
    """Each kind of event, with every field the schema gives it, reads as a sentence in
    each language: no placeholder or message key left over."""
    ruleset, _ = load_ruleset()
    assert ruleset is not None
    catalog = load_catalog(lang, ruleset)
    colours = ["red", "blue", "white", "orange"]
    renderer = EventRenderer(catalog, colours, lambda piece, at: f"{piece or 'spot'}#{at}")
    for spec in EVENTS.values():
        for event in variants(spec):
            line = renderer.render(event)
            if spec.quiet:
                assert line is None
                continue
            assert line is not None and "{" not in line and "log_" not in line, (event, line)


STOPS: dict[str, dict[str, object]] = {
    "stop_no_tile": {"value": 99, "last": 18},
    "stop_no_intersection": {"value": 99, "last": 53},
    "stop_no_edge": {"value": 99, "last": 71},
    "stop_not_neighbours": {"a": 3, "b": 40},
    "stop_budget": {"budget": 10000},
    "stop_too_large": {"a": 4294967296, "b": 4294967296},
    "stop_no_gate": {},
    "stop_hooks": {"limit": 2000},
    "stop_events": {"limit": 20000},
    "stop_counter_too_large": {"counter": "hired"},
    "stop_negative": {"value": -5},
}
"""Every reason an effect stops for, with the fields the engine gives it."""


@pytest.mark.parametrize("lang", all_languages())
def test_why_an_effect_stopped_reads_in_every_language(lang: str) -> None:
    """An effect's stop is told in the log's language (issue 17, item 4): every `stop_*`
    message of English is one the engine raises (the list above), and each renders with
    no placeholder left and, outside English, not as English's sentence."""
    ruleset, _ = load_ruleset()
    assert ruleset is not None
    english, catalog = load_catalog("en", ruleset), load_catalog(lang, ruleset)
    messages = load_ruleset_locale_keys()
    assert {k for k in messages if k.startswith("stop_")} == set(STOPS)
    renderer = EventRenderer(catalog, ["red", "blue"], lambda piece, at: str(at))
    for key, fields in STOPS.items():
        event = {"event": "hook_failed", "player": 0, "hook": "seven", "line": 2,
                 "reason": "in English", "stop": {"key": key, **fields}}  # fmt: skip
        line = renderer.render(event)
        assert line is not None and "{" not in line and "stop_" not in line, line
        assert "in English" not in line
        if lang != "en":
            assert english.message(key, None, **fields) not in line, (key, line)


def load_ruleset_locale_keys() -> list[str]:
    from ckdsl.l10n.catalog import locale_path

    data = plainyaml.safe_load(locale_path("en").read_text(encoding="utf-8"))
    return list(data["messages"])


def test_the_renderer_names_what_the_schema_types() -> None:
    ruleset, _ = load_ruleset()
    assert ruleset is not None
    renderer = EventRenderer(
        load_catalog("en", ruleset), ["red", "blue"], lambda piece, at: f"{piece}:{at}"
    )
    assert renderer.render({"event": "build", "player": 1, "piece": "road", "at": 3}) == (
        "Blue builds: Road at road:3"
    )
    assert renderer.render({"event": "move_knight", "player": 0, "at": 4, "to": 8}) == (
        "Red moves the knight at :4 to :8"
    )
    assert renderer.render({"event": "discard", "player": 0, "good": "ore"}) == (
        "Red discards 1 card: 1 ore"  # a run of one
    )
    lost = {"event": "longest_road", "player": -1, "previous": 0, "length": 5}
    assert renderer.render(lost) == "Nobody holds the longest road any more"
    assert renderer.render({"event": "win", "player": 0, "points": 1}).endswith("1 victory point")
    assert renderer.render({"event": "modifier", "player": 0, "kind": "rate"}) is None


def test_placeholders_follow_the_field_types() -> None:
    assert placeholders(EVENTS["roll"]) == {"player", "white", "red", "event", "total"}
    assert placeholders(EVENTS["discard"]) == {"player", "goods", "count"}  # a run
    assert placeholders(EVENTS["win"]) == {"player", "count"}
    assert placeholders(EVENTS["attack"]) == {"player", "strength", "defence"}


# --- the l10n check -------------------------------------------------------------------------


def findings(ruleset: RuleSet, folder: Path, language: str) -> list[tuple[str, str]]:
    found = check_languages(ruleset, (language,), folder)
    return [(f.kind, f.diagnostic.format(relative_to=str(folder))) for f in found]


@pytest.fixture(scope="module")
def base() -> RuleSet:
    ruleset, _ = load_ruleset()
    assert ruleset is not None
    return ruleset


def test_every_locale_tells_every_event(base: RuleSet) -> None:
    assert check_languages(base, LANGUAGES) == []


def test_a_message_missing_for_an_event(base: RuleSet, locales_copy: Callable[..., Path]) -> None:
    folder = locales_copy(
        {"en.yaml": [('  log_chase: "{player}\'s knight at {at} chases the robber away"\n', "")]}
    )
    (kind, line), *more = findings(base, folder, "en")
    assert more == []
    assert kind == "missing"
    assert line.endswith("missing: messages.log_chase has no English text [$.messages.log_chase]")


def test_a_message_naming_a_field_its_event_lacks(
    base: RuleSet, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy(
        {"en.yaml": [("moves the robber to tile {tile}", "moves the robber to {tyle}")]}
    )
    ((kind, line),) = findings(base, folder, "en")
    assert kind == "placeholder"
    assert line.endswith(
        "{tyle}: the event 'robber' has no such field (it fills {player, tile}) "
        "[$.messages.log_robber]"
    )


def test_a_translation_naming_a_field_its_event_lacks(
    base: RuleSet, locales_copy: Callable[..., Path]
) -> None:
    """Said once, as the event's fault, not again as a difference from English."""
    folder = locales_copy({"fr.yaml": [("sur la tuile {tile}", "sur la tuile {tuile}")]})
    ((kind, line),) = findings(base, folder, "fr")
    assert kind == "placeholder"
    text = (folder / "fr.yaml").read_text(encoding="utf-8")
    at = text[: text.index("{tuile}")].count("\n") + 1
    assert line == (
        f"fr.yaml:{at}:15: {{tuile}}: the event 'robber' has no such field (it fills "
        "{player, tile}) [$.messages.log_robber]"
    )


def test_a_message_for_no_event(base: RuleSet, locales_copy: Callable[..., Path]) -> None:
    folder = locales_copy({"en.yaml": [("  log_chase:", '  log_chace: "x"\n  log_chase:')]})
    ((kind, line),) = findings(base, folder, "en")
    assert kind == "extra"
    assert line.endswith(
        "unknown id: messages.log_chace tells no event of the log (did you mean "
        "'log_chase'?) [$.messages.log_chace]"
    )


# --- scenario log expectations --------------------------------------------------------------

SCENARIO = """name: log expectations
position: {{turn: red}}
steps:
  - dice: [2, 3, ship]
  - answer: roll
  - expect:
      log: [{pattern}]
"""


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("{event: rol, player: red}",
         "s.yaml:7:21: unknown event 'rol' (did you mean 'roll'?) (the events are listed in "
         "docs/events.md) [$.steps[2].expect.log[0].event]"),
        ("{event: roll, player: red, totl: 5}",
         "s.yaml:7:40: the event 'roll' has no field 'totl' (did you mean 'total'?) (its "
         "fields: player, white, red, face, total) [$.steps[2].expect.log[0].totl]"),
        ("{player: red, peice: road}",
         "s.yaml:7:27: no event has a field 'peice' (did you mean 'piece'?) "
         "[$.steps[2].expect.log[0].peice]"),
    ],
)  # fmt: skip
def test_a_log_expectation_names_events_and_fields_of_the_schema(
    tmp_path: Path, pattern: str, expected: str
) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(SCENARIO.format(pattern=pattern), encoding="utf-8")
    outcome = run_file(path)
    assert outcome.status == "error"
    assert [d.format(relative_to=str(tmp_path)) for d in outcome.diagnostics] == [expected]


def test_a_right_log_expectation_passes(tmp_path: Path) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(
        SCENARIO.format(pattern="{event: roll, player: red, white: 2, red: 3, total: 5}"),
        encoding="utf-8",
    )
    assert run_file(path).status == "pass"


# --- the reference page ---------------------------------------------------------------------


def test_the_reference_page_is_generated_from_the_schema() -> None:
    page = REPO / "docs" / "events.md"
    assert page.read_text(encoding="utf-8") == markdown(), (
        f"docs/events.md is not what the schema generates: run `{REGENERATE}`"
    )


def test_the_reference_page_shows_every_event_and_field() -> None:
    page = markdown()
    for kind, spec in EVENTS.items():
        assert f"### `{kind}`" in page
        for f in spec.fields:
            assert f"| `{f.name}` | {f.type} |" in page


def test_the_thief_and_the_victim_are_told_which_card_was_stolen() -> None:
    """Review 2026-11-27, friction #9: "Blue steals a card from Red" told nobody which."""
    from ckdsl.core.view import visible_event

    ruleset, _ = load_ruleset(None)
    assert ruleset is not None
    catalog = load_catalog("pl", ruleset)
    renderer = EventRenderer(catalog, ["red", "blue", "white"], lambda piece, at: str(at))
    steal = {"event": "steal", "player": 1, "victim": 0, "good": "wool"}
    told = {seat: renderer.render(visible_event(steal, seat)) for seat in (0, 1, 2)}
    assert told[1] == "Niebieski kradnie kartę graczowi Czerwonemu: 1 karta wełny"
    assert told[0] == told[1]  # the victim knows it too
    assert told[2] == "Niebieski kradnie kartę graczowi Czerwonemu"
