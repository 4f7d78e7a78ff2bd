"""``ckdsl validate --play N``: the faults of a rule set that only show when it is played.

``ckdsl validate`` reads a rule set; some faults only happen in a game: a hook that
stops on a fault (``hook_failed``: a tile the board lacks, an edge between intersections
that are not neighbours, a loop past its budget), an effect that ends early because a
choice has nothing to choose from, a game stopped by a limit (``turn_limit``: no one
won; too many hooks in one step). This plays N games of heuristic bots on the rule set's
table and reports each such fault once, at the line of the rule's file, with how many
games it happened in.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from ckdsl.bots.base import make_bot
from ckdsl.diagnostics import CkdslError, Diagnostic, Pos
from ckdsl.dsl.source import locate
from ckdsl.jsondata import arr, obj, text
from ckdsl.rules.checks import effects
from ckdsl.rules.ruleset import RuleSet
from ckdsl.session import GameSetup, load_rules, start

FAILED_EVENTS = {
    "hook_failed": ("hook", "hook"),
    "card_failed": ("card", "card"),
    "level_failed": ("ability", "level"),
    "action_failed": ("action", "action"),
}
"""The events of an effect that stopped on a fault: its kind, and the field naming it."""

BUDGET_STOPS = {"stop_budget", "stop_hooks"}
"""The `stop` keys of a fault that is a budget running out (loop steps, hooks per step)."""


@dataclass(frozen=True)
class Finding:
    """One fault seen in play: where (the rule's file and line) and what."""

    where: Pos
    what: str

    def diagnostic(self, games: int, of: int) -> Diagnostic:
        return Diagnostic(
            self.where.file,
            self.where.line,
            self.where.col,
            f"{self.what} (in {games} of {of} games)",
        )


def play_check(
    rules: str, games: int, map_name: str = "standard", layout: str | None = None
) -> list[Diagnostic]:
    """Play ``games`` games of ``rules`` (seeds 1 to N; heuristic bots, as many as the
    rule set's table says, else 4) and report what went wrong in them."""
    loaded = load_rules(rules)
    ruleset = loaded.ruleset
    table = ruleset.table
    players = int(table.get("players", 4))
    map_name = str(table.get("map", map_name))
    layout = table.get("layout", layout)
    places = _effect_places(ruleset)
    seen: Counter[Finding] = Counter()
    for seed in range(1, games + 1):
        setup = GameSetup(rules=rules, map=map_name, layout=layout, players=players, seed=seed)
        try:
            game = start(setup)
            game.play_out([make_bot("heuristic", seed * 10 + p) for p in range(players)])
        except CkdslError:
            raise
        except Exception as exc:  # a crash is a finding too, not a traceback
            where = Pos(rules, 0, 0)
            seen[Finding(where, f"game {seed} crashed: {type(exc).__name__}: {exc}")] += 1
            continue
        found: set[Finding] = set()
        for event in game.events:
            finding = _finding(event, places, rules)
            if finding is not None:
                found.add(finding)
        for src, key, line in game.empty_choices:
            where = _at(places, src, key, line, rules)
            what = f"the {_kind_name(src)} {key} ends at its line {line}: nothing to choose"
            found.add(Finding(where, what))
        seen.update(found)
    return [f.diagnostic(n, games) for f, n in sorted(seen.items(), key=_order)]


def _order(item: tuple[Finding, int]) -> tuple[str, int, int, str]:
    f = item[0]
    return f.where.file, f.where.line, f.where.col, f.what


def _finding(event: Mapping[str, object], places: Places, rules: str) -> Finding | None:
    kind = str(event.get("event"))
    if kind == "unfinished":
        turns = event.get("turns")
        return Finding(Pos(rules, 0, 0), f"budget stop: no one won in {turns} turns (turn_limit)")
    if kind not in FAILED_EVENTS:
        return None
    src, field = FAILED_EVENTS[kind]
    key, line = str(event.get(field)), int(str(event.get("line", 0)))
    stop = event.get("stop")
    budget = isinstance(stop, dict) and stop.get("key") in BUDGET_STOPS
    label = "budget stop: " if budget else ""
    reason = event.get("reason")
    what = f"{label}{kind}: the {_kind_name(src)} {key} stops at its line {line}: {reason}"
    return Finding(_at(places, src, key, line, rules), what)


Places = dict[tuple[str, str], Pos]
"""Where each effect's text is in its file, by (kind, id): ``hook``, ``card``, ``action``,
``ability`` (by the level's id)."""


def _effect_places(ruleset: RuleSet) -> Places:
    out: Places = {}
    for path, kind, _ in effects(ruleset.data):
        key = str(path[1])
        if kind == "ability":  # a level's ability, by the level's id
            levels = arr(obj(obj(ruleset.data["tracks"])[key])["levels"])
            key = text(obj(levels[int(path[3])])["id"])
        out[(kind, key)] = ruleset.positions.value(path)
    return out


def _at(places: Places, src: str, key: str, line: int, rules: str) -> Pos:
    """The file position of line ``line`` of the effect ``key`` (the rules' name if the
    effect is not in a file: it cannot be)."""
    pos = places.get((src, key))
    if pos is None:
        return Pos(rules, 0, 0)
    return locate(pos, max(line, 1), 1)


def _kind_name(src: str) -> str:
    return {"ability": "ability of", "hook": "hook", "card": "card", "action": "action"}[src]
