"""Semantic checks of a merged rule set: what a schema cannot say.

Each check reads the merged data defensively (the schema may have found the shape
wrong, and we still want every other error reported) and reports at the position of the
value at fault: a reference to an id that is not defined, a deck whose cards do not add
up to its size, improvement levels whose costs go down, and so on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import NamedTuple

from ckdsl.diagnostics import Diagnostic, JsonPath, Pos, display_path
from ckdsl.jsondata import JsonObject, JsonValue
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import suggest


class Removed(NamedTuple):
    """An entry a variant removed: where it did so, and what the entry was."""

    pos: Pos
    value: JsonValue


ExtraCheck = Callable[[JsonObject, Positions], list[Diagnostic]]
"""A check a higher layer adds (the DSL's: every effect, hook, condition and formula)."""


def run(
    data: JsonObject,
    positions: Positions,
    removed: dict[tuple[str, str], Removed],
    extra: Iterable[ExtraCheck] = (),
) -> list[Diagnostic]:
    """Every semantic error of ``data`` (and those the ``extra`` checks find)."""
    ctx = _Context(data, positions, removed)
    for check in CHECKS:
        check(ctx)
    for more in extra:
        ctx.out.extend(more(data, positions))
    return ctx.out


@dataclass
class _Context:
    data: JsonObject
    positions: Positions
    removed: dict[tuple[str, str], Removed]
    out: list[Diagnostic] = field(default_factory=list)

    def section(self, name: str) -> JsonObject:
        return _mapping(self.data.get(name))

    def error(self, path: JsonPath, message: str, *, at_key: bool = False) -> None:
        pos = self.positions.key(path) if at_key else self.positions.value(path)
        self.out.append(Diagnostic.at(pos, message, path))

    def still_used(self, removed: Removed, path: JsonPath, value: str) -> None:
        """Report a use of an entry a variant removed, at the removal."""
        here = self.positions.key(path)
        self.out.append(
            Diagnostic.at(
                removed.pos,
                f"'{value}' is removed here but is still used at "
                f"{display_path(here.file)}:{here.line}:{here.col}",
                path,
            )
        )

    def reference(
        self, path: JsonPath, value: JsonValue, section: str, what: str, *, at_key: bool = False
    ) -> bool:
        """Check that ``value`` names an entry of ``section``; report it if not."""
        if not isinstance(value, str):
            return False
        known = self.section(section)
        if value in known:
            return True
        removed = self.removed.get((section, value))
        if removed is not None:
            self.still_used(removed, path, value)
            return False
        self.error(path, f"unknown {what} '{value}'{suggest(value, known)}", at_key=at_key)
        return False


def _mapping(value: JsonValue) -> JsonObject:
    return value if isinstance(value, dict) else {}


def _items(value: JsonValue) -> Iterator[tuple[int, JsonObject]]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict):
                yield i, item


def _int(value: JsonValue) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


# --- goods and costs --------------------------------------------------------------


def _goods(ctx: _Context) -> None:
    """Resource and commodity ids share one namespace: costs mix them."""
    resources = ctx.section("resources")
    for key in ctx.section("commodities"):
        if key in resources:
            ctx.error(
                ("commodities", key),
                f"'{key}' is both a resource and a commodity; give them different ids",
                at_key=True,
            )


def _good_ref(ctx: _Context, path: JsonPath, good: str) -> None:
    if good in ctx.section("resources") or good in ctx.section("commodities"):
        return
    removed = ctx.removed.get(("resources", good)) or ctx.removed.get(("commodities", good))
    if removed is not None:
        ctx.still_used(removed, path, good)
        return
    names = [*ctx.section("resources"), *ctx.section("commodities")]
    ctx.error(path, f"unknown resource or commodity '{good}'{suggest(good, names)}", at_key=True)


def _amounts(ctx: _Context, path: JsonPath, amounts: JsonValue) -> None:
    for good in _mapping(amounts):
        _good_ref(ctx, (*path, good), good)


def _costs(ctx: _Context) -> None:
    pieces = ctx.section("pieces")
    for piece, spec in pieces.items():
        for field_name in ("cost", "activate_cost", "promote_cost"):
            _amounts(ctx, ("pieces", piece, field_name), _mapping(spec).get(field_name))
    for terrain, spec in ctx.section("terrains").items():
        produces = _mapping(_mapping(spec).get("produces"))
        for building, amounts in produces.items():
            path = ("terrains", terrain, "produces", building)
            _amounts(ctx, path, amounts)
            if _mapping(spec).get("land") is False:
                ctx.error(path, f"'{terrain}' is not land, so nothing can be built next to it")


# --- improvement tracks -----------------------------------------------------------


def _tracks(ctx: _Context) -> None:
    faces = _mapping(ctx.section("dice").get("red_die")).get("faces")
    red = {n for f in (faces if isinstance(faces, list) else []) if (n := _int(f)) is not None}
    seen: dict[str, JsonPath] = {}
    for track, spec in ctx.section("tracks").items():
        spec = _mapping(spec)
        commodity = spec.get("commodity")
        path = ("tracks", track, "commodity")
        if isinstance(commodity, str) and commodity in ctx.section("resources"):
            ctx.error(path, f"'{commodity}' is a resource; a track's levels cost a commodity")
        elif isinstance(commodity, str):
            ctx.reference(path, commodity, "commodities", "commodity")
        levels = list(_items(spec.get("levels")))
        previous: int | None = None
        for i, level in levels:
            lpath: JsonPath = ("tracks", track, "levels", i)
            lid = level.get("id")
            if isinstance(lid, str):
                if lid in seen:
                    first = ctx.positions.value(seen[lid])
                    ctx.error(
                        (*lpath, "id"),
                        f"level id '{lid}' is used twice; it is already the id at "
                        f"{first.file}:{first.line}:{first.col}",
                    )
                else:
                    seen[lid] = (*lpath, "id")
            cost = _int(level.get("cost"))
            if cost is not None and previous is not None and cost < previous:
                ctx.error(
                    (*lpath, "cost"),
                    f"level {i + 1} costs {cost}, less than level {i} ({previous}); "
                    "improvement levels cannot get cheaper",
                )
            previous = cost if cost is not None else previous
            on_red = level.get("progress_on_red")
            for j, value in enumerate(on_red if isinstance(on_red, list) else []):
                if red and _int(value) is not None and value not in red:
                    ctx.error(
                        (*lpath, "progress_on_red", j),
                        f"the red die has no face {value} (its faces: "
                        f"{', '.join(str(f) for f in sorted(red))})",
                    )
        metro = _mapping(spec.get("metropolis"))
        start, take = _int(metro.get("level")), _int(metro.get("take_level"))
        mpath: JsonPath = ("tracks", track, "metropolis")
        if start is not None and levels and start > len(levels):
            ctx.error((*mpath, "level"), f"the track has only {len(levels)} levels, not {start}")
        if take is not None and levels and take > len(levels):
            ctx.error(
                (*mpath, "take_level"), f"the track has only {len(levels)} levels, not {take}"
            )
        if start is not None and take is not None and take <= start:
            ctx.error(
                (*mpath, "take_level"),
                f"take_level ({take}) must be above level ({start}): the metropolis is "
                "taken from its holder by reaching a higher level first",
            )


def improvement_levels(data: JsonObject) -> list[str]:
    """Every improvement level id, track by track."""
    out = []
    for spec in _mapping(data.get("tracks")).values():
        for _, level in _items(_mapping(spec).get("levels")):
            lid = level.get("id")
            if isinstance(lid, str):
                out.append(lid)
    return out


def knight_levels(data: JsonObject) -> list[str]:
    knight = _mapping(_mapping(data.get("pieces")).get("knight"))
    return [lid for _, lv in _items(knight.get("levels")) if isinstance(lid := lv.get("id"), str)]


def _knights(ctx: _Context) -> None:
    knight = _mapping(ctx.section("pieces").get("knight"))
    levels = improvement_levels(ctx.data)
    seen: set[str] = set()
    strength: int | None = None
    for i, level in _items(knight.get("levels")):
        path: JsonPath = ("pieces", "knight", "levels", i)
        lid = level.get("id")
        if isinstance(lid, str):
            if lid in seen:
                ctx.error((*path, "id"), f"knight level id '{lid}' is used twice")
            seen.add(lid)
        s = _int(level.get("strength"))
        if s is not None and strength is not None and s <= strength:
            ctx.error(
                (*path, "strength"),
                f"a knight level must be stronger than the one before ({s} <= {strength})",
            )
        strength = s if s is not None else strength
        required = level.get("requires")
        if isinstance(required, str) and required not in levels:
            ctx.error(
                (*path, "requires"),
                f"unknown improvement level '{required}'{suggest(required, levels)}",
            )


# --- decks and cards --------------------------------------------------------------


def _deck_tracks(ctx: _Context) -> None:
    """Each deck belongs to an existing track, and each track has at most one deck."""
    owner: dict[str, str] = {}
    for name, spec in ctx.section("decks").items():
        track = _mapping(spec).get("track")
        path: JsonPath = ("decks", name, "track")
        if ctx.reference(path, track, "tracks", "improvement track") and isinstance(track, str):
            if track in owner:
                ctx.error(path, f"track '{track}' already has the deck '{owner[track]}'")
            owner[track] = name


def _deck_sizes(ctx: _Context) -> None:
    """The counts of a deck's cards add up to its size (18 in the base: docs/rules.md, "Files")."""
    counts: dict[str, int] = {}
    contributors: dict[str, list[tuple[JsonPath, Pos]]] = {}
    unsure: set[str] = set()  # decks with a card whose count is already an error
    for card, spec in ctx.section("cards").items():
        spec = _mapping(spec)
        deck = spec.get("deck")
        if not ctx.reference(("cards", card, "deck"), deck, "decks", "deck"):
            unsure.update(ctx.section("decks"))  # the card belongs to some deck or other
            continue
        assert isinstance(deck, str)
        count = _int(spec.get("count"))
        if count is not None and count > 0:
            counts[deck] = counts.get(deck, 0) + count
            path: JsonPath = ("cards", card, "count")
            contributors.setdefault(deck, []).append((path, ctx.positions.value(path)))
        else:
            unsure.add(deck)
    for (section, card), removed in ctx.removed.items():
        deck = _mapping(removed.value).get("deck")
        if section == "cards" and isinstance(deck, str):
            contributors.setdefault(deck, []).append((("cards", card), removed.pos))
    for name, spec in ctx.section("decks").items():
        size = _int(_mapping(spec).get("size"))
        total = counts.get(name, 0)
        if size is None or total == size or name in unsure:
            continue
        size_path: JsonPath = ("decks", name, "size")
        culprit = _latest(
            ctx, [(size_path, ctx.positions.value(size_path)), *contributors.get(name, [])]
        )
        ctx.out.append(
            Diagnostic.at(
                culprit[1],
                f"the cards of deck '{name}' add up to {total}, but its size is {size}: "
                f"change a card's count or the deck's size (decks.{name}.size)",
                culprit[0],
            )
        )


def _revealed_cards(ctx: _Context) -> None:
    """A card revealed when drawn is a points card (Printer, Constitution: docs/rules.md)."""
    for card, spec in ctx.section("cards").items():
        spec = _mapping(spec)
        if spec.get("timing") == "on_draw" and not _int(spec.get("points")):
            ctx.error(
                ("cards", card, "timing"),
                "a card revealed on draw (timing: on_draw) must be worth points",
            )


def _latest(ctx: _Context, candidates: list[tuple[JsonPath, Pos]]) -> tuple[JsonPath, Pos]:
    """Of several places behind one error, the first from the latest file to change them.

    Files rank in the order they were merged, so a value a variant set (or an entry it
    removed) wins over the base rules; among places in one file, the first given wins.
    """
    files = [pos.file for pos in ctx.positions.values.values()]
    files += [r.pos.file for r in ctx.removed.values()]
    rank = {f: i for i, f in enumerate(dict.fromkeys(files))}
    order = range(len(candidates))
    best = max(order, key=lambda i: (rank.get(candidates[i][1].file, -1), -i))
    return candidates[best]


# --- dice and parameters ----------------------------------------------------------


def _dice(ctx: _Context) -> None:
    event = _mapping(ctx.section("dice").get("event_die"))
    gates: set[str] = set()
    for face, spec in _mapping(event.get("faces")).items():
        spec = _mapping(spec)
        path: JsonPath = ("dice", "event_die", "faces", face)
        has_track, has_ship = "track" in spec, "advances_barbarians" in spec
        if has_track and has_ship:
            ctx.error(path, f"face '{face}' both advances the barbarians and opens a gate")
        elif not has_track and not has_ship:
            ctx.error(
                path,
                f"face '{face}' does nothing: give it `advances_barbarians` or a `track`",
                at_key=True,
            )
        track = spec.get("track")
        if has_track and ctx.reference((*path, "track"), track, "tracks", "track"):
            gates.add(str(track))
    if not event:
        return
    for track in ctx.section("tracks"):
        if track not in gates:
            ctx.error(
                ("tracks", track),
                f"track '{track}' has no gate on the event die, so its progress cards "
                "can never be drawn",
                at_key=True,
            )


def _parameters(ctx: _Context) -> None:
    p = ctx.section("parameters")

    def at_least(low: str, high: str) -> None:
        a, b = _int(p.get(low)), _int(p.get(high))
        if a is not None and b is not None and b < a:
            ctx.error(("parameters", high), f"{high} ({b}) is below {low} ({a})")

    at_least("hand_limit", "hand_limit_cap")
    at_least("progress_hand_limit", "progress_hand_limit_own_turn")
    at_least("players_min", "players_max")
    colours, most = p.get("player_colours"), _int(p.get("players_max"))
    if isinstance(colours, list) and most is not None and len(colours) < most:
        ctx.error(
            ("parameters", "player_colours"),
            f"{len(colours)} player colours for up to {most} players (players_max)",
        )


ENGINE_TITLES: dict[str, tuple[str, ...]] = {
    "defender": ("supply",),  # awarded by `award defender` (the `best_defender` hook)
    "longest_road": ("min_length",),  # kept by the engine as roads are built and cut
}
"""The titles the engine awards itself, with the keys they need; any other title is
declared in data (a `score`, or points by formula: ``ckdsl.turn.titles``)."""

TITLE_ONLY_KEYS = ("score", "at_least", "ties")


def _titles(ctx: _Context) -> None:
    """The engine's two titles are there, with their keys; every other one has a `score`
    (a title) or its `points` by formula, and no key of the engine's titles. Its id is
    not a piece's nor a card's: a player's points are shown by source, and one id names
    one source."""
    if not isinstance(ctx.data.get("titles"), dict):
        return  # missing or of the wrong shape: the schema says so
    titles = ctx.section("titles")
    for key, needs in ENGINE_TITLES.items():
        if key not in titles:
            message = (
                f"the engine's title '{key}' is missing: it awards it itself (change its "
                "points, never take it away)"
            )
            removed = ctx.removed.get(("titles", key))
            if removed is not None:  # at the variant's `remove`
                ctx.out.append(Diagnostic.at(removed.pos, message, ("titles", key)))
            else:
                ctx.error(("titles",), message)
            continue
        spec = _mapping(titles[key])
        for need in needs:
            if need not in spec:
                ctx.error(("titles", key), f"the title '{key}' needs `{need}`")
        for extra in TITLE_ONLY_KEYS:
            if extra in spec:
                why = f"'{key}' is the engine's, which awards it itself"
                message = f"`{extra}` is for a title declared in data; {why}"
                ctx.error(("titles", key, extra), message, at_key=True)
        if isinstance(spec.get("points"), str):
            message = f"the engine's title '{key}' is worth a number of points, not a formula"
            ctx.error(("titles", key, "points"), message)
    pieces, cards = ctx.section("pieces"), ctx.section("cards")
    for key, spec in entries(titles):
        if key in ENGINE_TITLES:
            continue
        for own, needs in ENGINE_TITLES.items():
            for need in needs:
                if need in spec:
                    message = f"`{need}` is for the title '{own}' only"
                    ctx.error(("titles", key, need), message, at_key=True)
        if key in pieces or key in cards:
            what = "piece" if key in pieces else "card"
            message = (
                f"'{key}' is a {what} already: a title needs an id of its own (the tables "
                "show points by source)"
            )
            ctx.error(("titles", key), message, at_key=True)
        if "score" not in spec:
            if not isinstance(spec.get("points"), str):
                message = (
                    "a title needs a `score` (a formula for `p`: the highest holds it), or "
                    "its `points` as a formula for every player"
                )
                ctx.error(("titles", key), message, at_key=True)
            for extra in ("at_least", "ties"):
                if extra in spec:
                    message = f"`{extra}` goes with `score`: points by formula have no holder"
                    ctx.error(("titles", key, extra), message, at_key=True)


CHECKS: tuple[Callable[[_Context], None], ...] = (
    _goods,
    _costs,
    _tracks,
    _knights,
    _deck_tracks,
    _deck_sizes,
    _revealed_cards,
    _dice,
    _parameters,
    _titles,
)


def effects(data: JsonObject) -> Iterator[tuple[JsonPath, str, str]]:
    """Every effect of the rule set: (path of its text, kind, text). Kind: card, ability,
    hook, action. Reads what is there: a section or entry of the wrong shape is the
    schema's error, reported already."""
    for section, kind in (("hooks", "hook"), ("actions", "action")):
        for key, spec in entries(data.get(section)):
            effect = spec.get("effect")
            if isinstance(effect, str):
                yield (section, key, "effect"), kind, effect
    for card, spec in entries(data.get("cards")):
        effect = spec.get("effect")
        if isinstance(effect, str):
            yield ("cards", card, "effect"), "card", effect
    for track, spec in entries(data.get("tracks")):
        levels = spec.get("levels")
        for k, level in enumerate(levels if isinstance(levels, list) else []):
            ability = level.get("ability") if isinstance(level, dict) else None
            effect = ability.get("effect") if isinstance(ability, dict) else None
            if isinstance(effect, str):
                yield ("tracks", track, "levels", k, "ability", "effect"), "ability", effect


def entries(section: JsonValue) -> Iterator[tuple[str, JsonObject]]:
    """The entries of a section that are mappings (none if the section is not one)."""
    for key, spec in section.items() if isinstance(section, dict) else ():
        if isinstance(spec, dict):
            yield key, spec
