"""The types of the effect DSL, checked when a rule set is validated.

Values at run time are plain data: players, tiles, intersections and edges are ints;
goods, cards, tracks, decks and terrains are their ids; a bundle is ``{good: amount}``.
The static type says which is which. Types come in families (a knight is an intersection
with a knight on it, a resource is a good): a value fits a parameter of its own family,
and the verb checks the finer point when the effect runs.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Type:
    name: str
    item: Type | None = None  # the element type of a list
    words: frozenset[str] | None = None  # a word parameter: the words it accepts

    def __str__(self) -> str:
        if self.item is not None:
            return f"a list of {plural(self.item)}"
        if self.words is not None:
            return "one of " + ", ".join(sorted(self.words))
        return _ARTICLE.get(self.name, f"a {self.name}")


def plural(t: Type) -> str:
    """A type's name for many of them: "tiles", "cities"."""
    return _PLURAL.get(t.name, t.name + "s")


def list_of(item: Type) -> Type:
    return Type("list", item)


def words(*choices: str) -> Type:
    return Type("word", None, frozenset(choices))


INT = Type("number")
LITERAL = Type("literal")  # a number written out: also a tile or intersection id
BOOL = Type("truth")
TEXT = Type("text")
PLAYER = Type("player")
TILE = Type("tile")
INTERSECTION = Type("intersection")
EDGE = Type("edge")
KNIGHT = Type("knight")
ROAD = Type("road")
CITY = Type("city")
SETTLEMENT = Type("settlement")
BUILDING = Type("building")
GOOD = Type("good")
RESOURCE = Type("resource")
COMMODITY = Type("commodity")
CARD = Type("card")
TRACK = Type("track")
TERRAIN = Type("terrain")
BUNDLE = Type("bundle")
HOOK = Type("hook")  # a hook of the rule set, by id (`run attack`)
COUNTER = Type("counter")  # a counter of the rule set, by id
PHASE = Type("phase")  # a phase of the rule set, by id
PIECE = Type("piece")  # a piece of the rule set, by id (road, settlement, city, ...)
ANY = Type("any")

_ARTICLE = {
    "number": "a number",
    "literal": "a number",
    "truth": "true or false",
    "text": 'a text in quotes ("...")',
    "intersection": "an intersection",
    "edge": "an edge",
    "any": "anything",
    "bundle": "goods like {ore: 2, grain: 1}",
    "good": "a good (resource or commodity)",
}
_PLURAL = {
    "literal": "numbers",
    "city": "cities",
    "commodity": "commodities",
    "truth": "true/false values",
    "any": "things",
}

_FAMILY = {
    "resource": "good",
    "commodity": "good",
    "knight": "intersection",
    "city": "intersection",
    "settlement": "intersection",
    "building": "intersection",
    "road": "edge",
}

# What `choose KIND` picks, by kind.
CHOICE_KINDS: dict[str, Type] = {
    t.name: t
    for t in (
        TILE,
        INTERSECTION,
        EDGE,
        PLAYER,
        KNIGHT,
        ROAD,
        CITY,
        SETTLEMENT,
        BUILDING,
        CARD,
        RESOURCE,
        COMMODITY,
        GOOD,
        INT,
        TRACK,
        TERRAIN,
    )
}


# What a number written out may stand for: a number, or a tile or intersection by its id.
_NUMBERED = frozenset({"number", "literal", "tile", "intersection"})


def family(t: Type) -> str:
    return _FAMILY.get(t.name, t.name)


def fits(actual: Type, expected: Type) -> bool:
    """Whether a value of type ``actual`` may be given where ``expected`` is wanted."""
    if expected.name == "any" or actual.name == "any":
        return True
    if "literal" in (actual.name, expected.name):
        other = expected if actual.name == "literal" else actual
        return other.item is None and family(other) in _NUMBERED
    if expected.item is not None or actual.item is not None:
        if expected.item is None or actual.item is None:
            return False
        return fits(actual.item, expected.item)
    return family(actual) == family(expected)


def specificity(actual: Type, expected: Type) -> int:
    """How well ``actual`` matches ``expected`` (for overloads): 2 exact, 1 same family."""
    if actual == expected:
        return 2
    return 1 if fits(actual, expected) else 0
