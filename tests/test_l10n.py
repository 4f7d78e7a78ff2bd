"""Localization: plural rules, transliteration, catalogs, and every kind of l10n finding."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import plainyaml
import pytest

from ckdsl.diagnostics import CkdslError
from ckdsl.dsl.program import load_ruleset
from ckdsl.l10n import plural
from ckdsl.l10n.catalog import Catalog, load_catalog
from ckdsl.l10n.check import check_languages, expected_units, present_units
from ckdsl.l10n.translit import to_latin
from ckdsl.paths import locales_dir
from ckdsl.rules.ruleset import RuleSet

REPO = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def base() -> RuleSet:
    ruleset, _ = load_ruleset()
    assert ruleset is not None
    return ruleset


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("en", ("one", "other")),
        ("fr", ("one", "many", "other")),
        ("it", ("one", "many", "other")),
        ("pt", ("one", "many", "other")),
        ("pl", ("one", "few", "many", "other")),
        ("sr", ("one", "few", "other")),
        ("sr-Latn", ("one", "few", "other")),
    ],
)
def test_plural_categories_come_from_babel(language: str, expected: tuple[str, ...]) -> None:
    assert plural.categories(language) == expected


def test_plural_category_of_numbers() -> None:
    assert [plural.category("pl", n) for n in (1, 2, 5, 22, 25, 112)] == [
        "one", "few", "many", "few", "many", "many"
    ]  # fmt: skip
    assert [plural.category("sr", n) for n in (1, 3, 5, 21, 11)] == [
        "one", "few", "other", "one", "other"
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [
        ("Љубав и њива", "Ljubav i njiva"),
        ("ЉУБАВ", "LJUBAV"),
        ("Џеп, ЏЕП", "Džep, DŽEP"),
        ("Ђурђевдан, Ћуприја, Шаргарепа, Жути", "Đurđevdan, Ćuprija, Šargarepa, Žuti"),
        ("{count} цигле", "{count} cigle"),
        ("Тврђава", "Tvrđava"),
    ],
)
def test_serbian_transliteration(cyrillic: str, latin: str) -> None:
    assert to_latin(cyrillic) == latin


def test_catalog_messages_pick_the_plural_form() -> None:
    catalog = Catalog(
        "pl",
        {"messages": {"copies": {"one": "{count} egzemplarz", "few": "{count} egzemplarze",
                                 "many": "{count} egzemplarzy", "other": "{count} egzemplarza"}}},
    )  # fmt: skip
    assert [catalog.message("copies", n) for n in (1, 3, 5, 22)] == [
        "1 egzemplarz", "3 egzemplarze", "5 egzemplarzy", "22 egzemplarze"
    ]  # fmt: skip


def test_catalog_falls_back_to_english_then_to_the_id(base: RuleSet) -> None:
    english = load_catalog("en", base)
    catalog = Catalog("fr", {"names": {"resources": {"brick": "Brique"}}}, english)
    assert catalog.name("resources", "brick") == "Brique"
    assert catalog.name("resources", "ore") == "⟨en⟩ Ore"  # English, visibly so
    assert catalog.name("resources", "unobtainium") == "unobtainium"
    assert catalog.message("no_such_message") == "no_such_message"
    assert catalog.message("copies", 2, unknown="x") == "⟨en⟩ 2 copies"


def test_catalog_counted_goods(base: RuleSet) -> None:
    catalog = load_catalog("pl", base)
    assert catalog.counted("brick", 5).startswith("5 ")
    assert catalog.counted("brick", 1) != catalog.counted("brick", 5).replace("5", "1")


def test_unknown_language() -> None:
    with pytest.raises(CkdslError, match="unknown language 'de'"):
        load_catalog("de")


def test_expected_units_cover_every_id(base: RuleSet) -> None:
    english = load_catalog("en", base).data
    units = expected_units(base.data, english)
    assert ("names", "levels", "merchant_guild") in units
    assert ("names", "knight_levels", "mighty_knight") in units
    assert ("names", "event_faces", "science_gate") in units
    assert ("cards", "bishop", "text") in units
    assert units[("counted", "coin")] is True
    assert sum(1 for u in units if u[:2] == ("names", "levels")) == 15
    assert set(units) == set(present_units(english))


def findings(base: RuleSet, folder: Path, language: str) -> list[tuple[str, str]]:
    found = check_languages(base, (language,), folder)
    return [(f.kind, f.diagnostic.format(relative_to=str(folder))) for f in found]


def test_english_kinds_of_findings(base: RuleSet, locales_copy: Callable[..., Path]) -> None:
    folder = locales_copy(
        {"en.yaml": [
            ("    brick: Brick\n", ""),
            ("    ore: Ore\n", "    ore: Ore\n    oar: Oar\n"),
            ('  copies: {one: "{count} copy", other: "{count} copies"}',
             '  copies: {one: "{count} copy", other: "{cuont} copies", few: "x {count}"}'),
        ]},
    )  # fmt: skip
    copies = (
        (folder / "en.yaml")
        .read_text(encoding="utf-8")
        .splitlines()
        .index('  copies: {one: "{count} copy", other: "{cuont} copies", few: "x {count}"}')
    )
    assert findings(base, folder, "en") == [
        ("missing", "en.yaml:31:3: missing: names.resources.brick has no English text "
                    "[$.names.resources.brick]"),
        ("extra", "en.yaml:36:5: unknown id: names.resources.oar is not in the rule set "
                  "(did you mean 'ore'?) [$.names.resources.oar]"),
        ("plural", f"en.yaml:{copies + 1}:58: English does not use the plural form 'few' "
                   "[$.messages.copies.few]"),
    ]  # fmt: skip


def test_translation_kinds_of_findings(base: RuleSet, locales_copy: Callable[..., Path]) -> None:

    fr = plainyaml.safe_load((locales_dir() / "fr.yaml").read_text(encoding="utf-8"))
    brick = fr["names"]["resources"]["brick"]
    folder = locales_copy(
        {
            "fr.yaml": [
                (f"    brick: {brick}\n", "    brick: Brick\n"),
                ("  copies:", "  copies_old:"),
            ]
        }
    )
    kinds = sorted({kind for kind, _ in findings(base, folder, "fr")})
    assert kinds == ["extra", "identical", "missing"]
    text = "\n".join(line for _, line in findings(base, folder, "fr"))
    assert "left identical to English ('Brick'); translate it, or list " in text
    assert "'names.resources.brick' under same_as_english" in text
    assert "missing: messages.copies has no French text" in text


def test_placeholder_and_plural_findings(base: RuleSet, locales_copy: Callable[..., Path]) -> None:
    folder = locales_copy()
    path = folder / "pl.yaml"
    import yaml

    data = plainyaml.safe_load(path.read_text(encoding="utf-8"))
    data["messages"]["copies"] = {"one": "{n} egzemplarz", "other": "{count egzemplarzy"}
    data["same_as_english"] = [*data.get("same_as_english", []), "cards.nothing.name"]
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    kinds = [kind for kind, _ in findings(base, folder, "pl")]
    assert kinds.count("plural") == 2  # few and many missing
    assert kinds.count("placeholder") == 2  # {n} instead of {count}; broken braces
    assert kinds.count("stale") == 1


def test_broken_locale_file_is_invalid_not_a_crash(
    base: RuleSet, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy()
    (folder / "it.yaml").write_text("language: it\nnames: [oops]\n", encoding="utf-8")
    found = findings(base, folder, "it")
    assert found == [
        ("invalid", "it.yaml:2:8: expected a mapping (key: value lines), found a list [$.names]")
    ]


def test_language_must_match_the_file_name(
    base: RuleSet, locales_copy: Callable[..., Path]
) -> None:
    folder = locales_copy()
    text = (folder / "pt.yaml").read_text(encoding="utf-8").replace("language: pt", "language: br")
    (folder / "pt.yaml").write_text(text, encoding="utf-8")
    (kind, line), *_ = findings(base, folder, "pt")
    assert kind == "invalid"
    assert "the file is named 'pt.yaml' but says `language: br`" in line


def test_variant_names_count_for_the_check() -> None:
    ruleset, _ = load_ruleset(REPO / "examples/variants/royal_wedding.yaml")
    assert ruleset is not None
    assert check_languages(ruleset) == []
    bare, _ = load_ruleset(REPO / "examples/variants/royal_wedding.yaml")
    assert bare is not None
    del bare.names["it"]
    missing = [f for f in check_languages(bare) if f.kind == "missing"]
    assert {f.language for f in missing} == {"it"}
    assert {f.diagnostic.path for f in missing} == {
        ("cards", "royal_wedding", "name"),
        ("cards", "royal_wedding", "text"),
    }


def test_a_played_log_has_no_english_in_another_language(tmp_path: Path) -> None:
    """Issue 17: the log of whole games, effect stops included, rendered in each language
    holds no line that reads as English's, no fallback mark, no placeholder left."""
    from ckdsl.commands.common import bot_specs
    from ckdsl.l10n.catalog import all_languages, load_catalog
    from ckdsl.l10n.events import EventRenderer
    from ckdsl.session import GameSetup, load_rules, play, start

    variant = tmp_path / "stops.yaml"
    variant.write_text(
        "extends: base\noverride:\n  hooks:\n    turn_start:\n      effect: |\n"
        "        remove road edge(3, 40)\n"
    )
    loaded = load_rules(str(variant))
    colours = loaded.compiled.names("player_colours")
    english = EventRenderer(load_catalog("en", loaded.ruleset), colours, lambda p, at: str(at))
    for seed in (1, 2):
        game = start(GameSetup(rules=str(variant), seed=seed))
        play(
            game, [s.make(seed * 10 + p) for p, s in enumerate(bot_specs("random," * 3 + "random"))]
        )
        assert any(e["event"] == "hook_failed" for e in game.events)
        for lang in all_languages():
            if lang == "en":
                continue
            catalog = load_catalog(lang, loaded.ruleset)
            renderer = EventRenderer(catalog, colours, lambda p, at: str(at))
            for event in game.events:
                line, said = renderer.render(event), english.render(event)
                if line is None:
                    continue
                assert line != said and "⟨en⟩" not in line and "{" not in line, (lang, line)
                assert str(event.get("reason", "\0")) not in line, (lang, line)


def test_player_names_take_the_case_a_message_asks_for() -> None:
    """Issue 17, item 6: Polish and Serbian name a player in the case the sentence needs
    ("graczowi Czerwonemu", "од играча Црвеног"), from `player_forms` in their files."""
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.l10n.events import EventRenderer
    from ckdsl.session import load_rules

    ruleset = load_rules("base").ruleset
    steal = {"event": "steal", "player": 2, "victim": 0, "good": "?"}  # as the others see it
    trade = {"event": "trade", "player": 2, "partner": 3, "give": {"ore": 1}, "get": {"wool": 1}}
    said = {}
    for lang in ("pl", "sr", "sr-Latn", "en"):
        renderer = EventRenderer(load_catalog(lang, ruleset), ["red", "blue", "white", "orange"],
                                 lambda p, at: str(at))  # fmt: skip
        said[lang] = (renderer.render(steal), renderer.render(trade))
    assert said["pl"] == ("Biały kradnie kartę graczowi Czerwonemu",
                          "Biały wymienia z graczem Pomarańczowym (oddaje: 1 karta kamienia; "
                          "otrzymuje: 1 karta wełny)")  # fmt: skip
    assert said["sr"][0] == "Бели краде карту од играча Црвеног"
    assert said["sr-Latn"][0] == "Beli krade kartu od igrača Crvenog"
    assert said["en"][0] == "White steals a card from Red"


def test_a_form_of_a_player_name_must_be_declared(locales_copy: Callable[..., Path]) -> None:
    """`{victim_dative}` is a placeholder only where the locale declares the form."""
    from ckdsl.l10n.check import check_languages

    ruleset = load_ruleset()[0]
    assert ruleset is not None
    used = ('{player} vole une carte à {victim}"', '{player} vole une carte à {victim_dative}"')
    folder = locales_copy({"fr.yaml": [used]})
    found = [f for f in check_languages(ruleset, ("fr",), folder) if f.kind == "placeholder"]
    assert len(found) == 1 and "{victim_dative}" in found[0].diagnostic.message
    fr = folder / "fr.yaml"
    forms = "\nplayer_forms:\n  dative: {red: Rouge}\n\ncards:\n"
    fr.write_text(fr.read_text(encoding="utf-8").replace("\ncards:\n", forms, 1), encoding="utf-8")
    assert [f for f in check_languages(ruleset, ("fr",), folder) if f.kind == "placeholder"] == []


@pytest.mark.parametrize("lang", ["en", "fr", "it", "pl", "pt", "sr", "sr-Latn"])
def test_every_message_renders_in_every_language(lang: str) -> None:
    """Issue 17, item 4: every message of English, with a value for each of its fields,
    reads in each language with no placeholder, fallback mark or key left over, and not
    as English reads unless the locale says the text is the same (`same_as_english`)."""

    from ckdsl.l10n.catalog import FALLBACK_MARK, load_catalog, locale_path
    from ckdsl.l10n.check import placeholders

    ruleset = load_ruleset()[0]
    english, catalog = load_catalog("en", ruleset), load_catalog(lang, ruleset)
    source = lang.split("-")[0]
    data = plainyaml.safe_load(locale_path(source).read_text(encoding="utf-8"))
    same = set(data.get("same_as_english") or ())
    messages = plainyaml.safe_load(locale_path("en").read_text(encoding="utf-8"))["messages"]
    for key, text in messages.items():
        forms = text if isinstance(text, dict) else {"other": text}
        fields = set().union(*(placeholders(t) or set() for t in forms.values())) - {"count"}
        values = {name: f"<{name}>" for name in fields}
        forms = catalog.data.get("player_forms") or {}
        values |= {f"{name}_{form}": f"<{name} {form}>" for name in fields for form in forms}
        for count in (1, 2, 5):
            line = catalog.message(key, count, **values)
            raw = key in line if "_" in key else line == key  # the key shown for the text
            assert "{" not in line and FALLBACK_MARK not in line and not raw, (key, line)
            if lang != "en" and f"messages.{key}" not in same:
                assert line != english.message(key, count, **values), (key, line)


def test_a_cards_reason_given_as_a_key_is_said_in_the_language(tmp_path: Path) -> None:
    """Issue 17, item 4: `require ... else "key"` in a variant, the key translated in its
    names block: the refusal reads in English and in French from it."""
    from ckdsl.core.decisions import IllegalAnswer
    from ckdsl.l10n.catalog import load_catalog
    from ckdsl.l10n.refusals import say
    from ckdsl.scenario.position import apply_position
    from ckdsl.session import GameSetup, load_rules, start
    from ckdsl.turn.notation import parse_answer

    variant = tmp_path / "v.yaml"
    variant.write_text(
        "extends: base\noverride:\n  cards:\n    bishop:\n      effect: |\n"
        '        require false else "refused_never_today"\n        gain 1 ore\n'
        'names:\n  en: {messages: {refused_never_today: "not today"}}\n'
        '  fr: {messages: {refused_never_today: "pas aujourd\'hui"}}\n'
    )
    game = start(GameSetup(rules=str(variant)))
    position = {"phase": "after_roll", "players": {"red": {"progress": ["bishop"]}}}
    assert apply_position(game, position, load_rules(str(variant)).ruleset.positions) == []
    with pytest.raises(IllegalAnswer) as refused:
        parse_answer(game, "play bishop")
    ruleset = load_rules(str(variant)).ruleset
    assert say(load_catalog("en", ruleset), refused.value).endswith("not today")
    french = say(load_catalog("fr", ruleset), refused.value)
    assert french.endswith("pas aujourd'hui") and "refused_" not in french
    scenario = tmp_path / "s.yaml"
    scenario.write_text(
        "name: a variant's reason\nrules: v.yaml\nposition:\n  phase: after_roll\n"
        "  players:\n    red: {progress: [bishop]}\nsteps:\n"
        "  - refuse: play bishop\n    message: not today\n"
    )
    from ckdsl.scenario import run_file

    assert run_file(scenario).status == "pass"
