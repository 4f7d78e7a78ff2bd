"""Starting, playing, saving and replaying games: the glue between files and the engine.

The engine knows nothing about files; this module loads a rule set and a map (cached per
process while the files they were read from are unchanged), starts games from a
``GameSetup``, lets bots answer, and writes and reads save files. A save is the setup, the
rule set's hash and the readable answers: replaying it through ``Game.answer`` reaches the
identical state.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, TypedDict

from ckdsl import arguments, board
from ckdsl.core.compiled import CompiledRules, compile_rules
from ckdsl.core.decisions import IllegalAnswer, Option
from ckdsl.diagnostics import CkdslError, Diagnostic, display_path
from ckdsl.dsl.compiler.pycode import to_python
from ckdsl.dsl.program import compile_programs, load_ruleset
from ckdsl.files import write_whole
from ckdsl.jsondata import JsonObject, JsonValue, arr, integer
from ckdsl.jsondata import text as as_text
from ckdsl.paths import base_rules_dir, data_root
from ckdsl.rules import disk
from ckdsl.rules.ruleset import RuleSet
from ckdsl.stamps import Stamp, StampedCache
from ckdsl.turn.game import Game
from ckdsl.turn.notation import format_option, parse_answer
from ckdsl.userfiles import (
    UnsafeFile,
    inside,
    read_user_bytes,
    real_path,
    yaml_suffix_problem,
)

if TYPE_CHECKING:
    from ckdsl.bots import Bot

SAVE_FORMAT = "ckdsl-save"
SEAT_SAVE_FORMAT = "ckdsl-seat-save"  # a web seat's save, sealed (ckdsl.table.web.seat_save)
SAVE_VERSION = 2
# Version 1 saves (ckdsl 0.1) drew every random number from one Mersenne Twister; their
# answers cannot be replayed on the separate streams of version 2.


@dataclass(frozen=True)
class GameSetup:
    """Everything that, with the answers, determines a game."""

    rules: str = "base"  # "base", a rule folder, or a variant file
    map: str = "standard"  # a bundled map's name or a map file
    layout: str | None = None  # a fixed layout of the map; None: drawn from the seed
    players: int = 4
    seed: int = 0

    def __post_init__(self) -> None:
        """A ``Path`` is taken for the rules and the map; a wrong type is a TypeError
        naming the field, here rather than deep inside a game."""
        set_field = object.__setattr__  # (frozen)
        set_field(self, "rules", arguments.file_name(self.rules, "GameSetup.rules"))
        set_field(self, "map", arguments.file_name(self.map, "GameSetup.map"))
        if self.layout is not None:
            arguments.text(self.layout, "GameSetup.layout")
        arguments.whole(self.players, "GameSetup.players")
        arguments.whole(self.seed, "GameSetup.seed")


@dataclass(frozen=True)
class LoadedRules:
    ruleset: RuleSet
    compiled: CompiledRules


_RULES: StampedCache[str, LoadedRules] = StampedCache(maxsize=8)
_BOARDS: StampedCache[str, tuple[board.MapSpec, board.Topology]] = StampedCache(maxsize=8)


SHIPPED_VARIANTS = ("official", "five_six")
"""Variants that ship with ckdsl (``examples/variants/``), named without a path anywhere."""


def rules_target(name: str) -> str:
    """``base``, a shipped variant's name (its file), or ``name`` itself (a path): a file
    of that name where it is run wins, as for a map (``board.map_path``)."""
    if name in SHIPPED_VARIANTS and not Path(name).exists():
        shipped = data_root() / "examples" / "variants" / f"{name}.yaml"
        if shipped.is_file():
            return str(shipped)
    return name


def load_rules(target: str) -> LoadedRules:
    """The rule set ``target`` loaded, checked and compiled; raises CkdslError if broken.

    Cached by resolved path, and served again only while every file it was read from (the
    variant, its ``extends`` chain, the rule folders and their listings) is unchanged: an
    edited variant is reloaded on the next call."""
    target = arguments.file_name(target, "rules")  # (a str or a Path)
    _no_nul(target)
    target = rules_target(target)
    path = base_rules_dir() if target == "base" else Path(target)
    return _RULES.get(_resolved_name(path), lambda: _load_rules(target))


def _resolved_name(path: Path) -> str:
    """``path`` resolved, or a CkdslError naming it if links lead round a loop."""
    try:
        return str(path.resolve())
    except (RuntimeError, OSError):  # (Python 3.11 says a loop with RuntimeError)
        message = "a symbolic link that leads round a loop"
        raise CkdslError([Diagnostic(str(path), 0, 0, message)]) from None


def _no_nul(target: str) -> None:
    """A name with a NUL character names no file (the system refuses it outright): say so
    as for any missing file, rather than fail inside the path functions."""
    if "\0" in target:
        shown = target.replace("\0", "\\0")
        raise CkdslError([Diagnostic(shown, 0, 0, "no such file: a name cannot hold a NUL")])


def _load_rules(target: str) -> tuple[LoadedRules, tuple[Stamp, ...]]:
    """Loaded from the cache on disk if none of its files changed (``ckdsl.rules.disk``),
    else loaded, checked, compiled and stored there (only a rule set without errors)."""
    path = base_rules_dir() if target == "base" else Path(target)
    key = f"{path.resolve()}\0python={to_python()}"
    found = disk.load("rules", key)
    if found is not None and isinstance(found[0], RuleSet):
        cached, stamps = found
        cached.sources = stamps
        # its programs: kept apart by the rule set's hash (``compile_programs``)
        return LoadedRules(cached, compile_rules(cached, compile_programs(cached))), stamps
    ruleset, problems = load_ruleset(None if target == "base" else target)
    errors = [p for p in problems if p.severity == "error"]
    if ruleset is None or errors:
        raise CkdslError(errors or problems)
    programs = compile_programs(ruleset)  # (stored by the rule set's hash)
    # The rule set alone (the compiled rules are made from it and its programs again: a
    # millisecond, and a native build of the engine's classes cannot be unpickled).
    disk.store("rules", key, ruleset.sources, ruleset)
    return LoadedRules(ruleset, compile_rules(ruleset, programs)), ruleset.sources


def load_board(name: str) -> tuple[board.MapSpec, board.Topology]:
    """The map ``name`` (bundled name or file) and its topology; raises CkdslError.

    Cached by the map file's resolved path while the file is unchanged."""
    name = arguments.file_name(name, "map")  # (a str or a Path)
    _no_nul(name)
    path = board.map_path(name)
    problem = yaml_suffix_problem(path)
    if problem is not None:  # a system file named as a map is never read
        raise CkdslError([Diagnostic(str(path), 0, 0, problem)])
    return _BOARDS.get(_resolved_name(path), lambda: _load_board(path))


def _load_board(path: Path) -> tuple[tuple[board.MapSpec, board.Topology], tuple[Stamp, ...]]:
    """Loaded from the cache on disk while the map file is unchanged, else read, checked
    and stored there (only a map without errors)."""
    key = str(path.resolve())
    found = disk.load("board", key)
    if found is not None and isinstance(found[0], tuple):
        return found
    stamp = Stamp.of(path)  # before reading: an edit while reading fails the next check
    spec, problems = board.load_map(path)
    errors = [p for p in problems if p.severity == "error"]
    if spec is None or errors:
        raise CkdslError(errors or problems)
    loaded = (spec, board.topology_for(spec))
    disk.store("board", key, (stamp,), loaded)
    return loaded, (stamp,)


def table_faults(ruleset: RuleSet, compiled: CompiledRules) -> list[Diagnostic]:
    """What does not fit in a variant's ``table:`` (``RuleSet.table``), each at its place:
    a map that cannot be read, a layout the map lacks, a player count out of range."""
    table, at = ruleset.table, ruleset.table_positions
    out = []
    players = table.get("players")
    low, high = compiled.number("players_min"), compiled.number("players_max")
    if isinstance(players, int) and not low <= players <= high:
        message = f"this rule set is for {low} to {high} players, not {players}"
        out.append(Diagnostic.at(at["players"], message, ("table", "players")))
    if "map" not in table and "layout" not in table:
        return out
    map_name = str(table.get("map", "standard"))
    try:
        spec, topology = load_board(map_name)
    except CkdslError as err:
        shown = display_path(map_name)
        message = f"cannot use the map '{shown}': {err.diagnostics[0].message}"
        return [*out, Diagnostic.at(at["map"], message, ("table", "map"))]
    layout = table.get("layout")
    if isinstance(layout, str):
        try:
            board.fixed_layout(spec, topology, layout)
        except (KeyError, ValueError) as exc:
            message = str(exc).strip("'\"")
            out.append(Diagnostic.at(at["layout"], message, ("table", "layout")))
    return out


class PlayersError(CkdslError):
    """The line-up does not fit the rule set (too few or too many players)."""


class LayoutError(CkdslError):
    """The map has no such fixed layout."""


def start(setup: GameSetup, *, log: bool = True) -> Game:
    """A new game; the layout is drawn from the seed's layout stream unless a fixed one is
    named. ``log``: keep the game's log (off for simulations). Raises PlayersError and
    LayoutError (a command's usage errors) and CkdslError."""
    arguments.instance(setup, GameSetup, "setup", "GameSetup(rules=..., seed=...)")
    rules = load_rules(setup.rules)
    low, high = rules.compiled.number("players_min"), rules.compiled.number("players_max")
    if not low <= setup.players <= high:
        message = f"this rule set is for {low} to {high} players, not {setup.players}"
        raise PlayersError([Diagnostic(setup.rules, 0, 0, message)])
    spec, topology = load_board(setup.map)
    _check_room(topology, setup)
    if setup.layout is None:
        layout = board.random_layout(spec, topology, setup.seed)
    else:
        try:
            layout = board.fixed_layout(spec, topology, setup.layout)
        except (KeyError, ValueError) as exc:
            raise LayoutError([Diagnostic(setup.map, 0, 0, str(exc).strip("'\""))]) from None
    _check_terrains(rules.compiled, layout.terrain, setup.map)
    try:
        return Game(rules.compiled, topology, layout, setup.players, setup.seed, log=log)
    except ValueError as exc:
        raise CkdslError([Diagnostic("", 0, 0, str(exc))]) from None


def _check_room(topology: board.Topology, setup: GameSetup) -> None:
    """Setup places two buildings per player, no two on neighbouring intersections (the
    distance rule): a map too small for that cannot start a game of this many players.
    Counted greedily (fewest neighbours first), which finds room on every real map."""
    taken: set[int] = set()
    order = sorted(
        range(len(topology.inter_neighbors)), key=lambda i: len(topology.inter_neighbors[i])
    )
    for i in order:
        if not taken.intersection(topology.inter_neighbors[i]):
            taken.add(i)
    need = 2 * setup.players
    if len(taken) < need:
        message = (
            f"map '{setup.map}' has room for {len(taken)} buildings apart (the distance "
            f"rule), but setting up {setup.players} players needs {need}"
        )
        raise PlayersError([Diagnostic(setup.map, 0, 0, message)])


def _check_terrains(rules: CompiledRules, terrains: Sequence[str], map_name: str) -> None:
    unknown = sorted(set(terrains) - set(rules.production))
    if unknown:
        message = f"the map '{map_name}' uses terrains the rule set does not define: "
        raise CkdslError([Diagnostic("", 0, 0, message + ", ".join(unknown))])


def play(game: Game, bots: Sequence[Bot], on_answer: Callable[[Game], None] | None = None) -> None:
    """Let ``bots`` (one per player) answer every decision until the game is over."""
    game.play_out(bots, on_answer)


# --- save files ---------------------------------------------------------------------------


class SetupData(TypedDict):
    rules: str
    map: str
    layout: str | None
    players: int
    seed: int


class SaveData(TypedDict):
    """A save file's content (keys in the order they are written)."""

    format: str
    version: int
    setup: SetupData
    ruleset_hash: str
    answers: list[str]
    state_digest: str


def save_data(game: Game, setup: GameSetup) -> SaveData:
    """The save file's content: setup, rule-set hash, readable answers, final digest."""
    return {
        "format": SAVE_FORMAT,
        "version": SAVE_VERSION,
        "setup": {
            "rules": setup.rules,
            "map": setup.map,
            "layout": setup.layout,
            "players": setup.players,
            "seed": setup.seed,
        },
        "ruleset_hash": game.rules.ruleset_hash,
        "answers": [format_option(game, option) for option in game.history],
        "state_digest": game.state.digest(),
    }


def write_save(path: Path | str, game: Game, setup: GameSetup) -> None:
    """Write the save file, whole or not at all (a temporary file renamed over ``path``:
    a crash or a full disk mid-write leaves the previous save as it was). A rules or map
    path is written relative to the save's folder, so the two can move together and the
    save replays from any directory. Raises OSError."""
    path = arguments.file_path(path, "path")  # a str too, as from the Python API
    arguments.instance(game, Game, "game")
    arguments.instance(setup, GameSetup, "setup", "the GameSetup the game was started with")
    data = save_data(game, setup)
    data["setup"]["rules"] = _relative_to(setup.rules, path, bundled=("base",))
    data["setup"]["map"] = _relative_to(setup.map, path, bundled=board.bundled_maps())
    text = json.dumps(data, indent=1) + "\n"
    write_whole(path, text.encode("utf-8"), sync=True)


def _relative_to(target: str, save: Path, bundled: Sequence[str]) -> str:
    if target in bundled:
        return target
    try:
        return os.path.relpath(Path(target).resolve(), save.resolve().parent)
    except ValueError:  # another drive (Windows): keep the absolute path
        return str(Path(target).resolve())


def _resolved(target: str, save: Path, bundled: Sequence[str]) -> str:
    """A save's rules or map path, read relative to the save's folder (a save written
    before saves did that named it relative to where it was made: kept if only that
    exists)."""
    if target in bundled or Path(target).is_absolute():
        return target
    beside = save.parent / target
    return str(beside) if beside.exists() or not Path(target).exists() else target


RULES_IN_USE = "the rules being played"
MAP_IN_USE = "the map being played"
RULE_FILE_IN_USE = "a file the rules being played are read from (a variant they extend)"


def file_in_use(path: Path, setup: GameSetup) -> str | None:
    """Which of the game's own files ``path`` is, if it is one: its variant, a variant it
    extends, a file of a rule-set folder it was read from (``RULES_IN_USE``,
    ``RULE_FILE_IN_USE``), or its map (``MAP_IN_USE``). A save, a picture or a report
    must never be written over it."""
    return files_in_use(path, setup.rules, setup.map)


def files_in_use(path: Path, rules: str | None, map_name: str | None) -> str | None:
    """``file_in_use`` for a rule set and a map given apart (``None``: not in use)."""
    target = path.resolve()
    if rules is not None:
        folder = base_rules_dir() if rules == "base" else Path(rules)
        read = {folder.resolve()}
        # (a rule set that does not load: its own file or folder is still checked)
        with contextlib.suppress(CkdslError, OSError, ValueError):
            read.update(Path(stamp.path) for stamp in load_rules(rules).ruleset.sources)
        for source in read:
            if target == source or (source.is_dir() and source in target.parents):
                return RULES_IN_USE if target == folder.resolve() else RULE_FILE_IN_USE
    if map_name is not None:
        with contextlib.suppress(OSError, ValueError):
            if target == board.map_path(map_name).resolve():
                return MAP_IN_USE
    return None


def read_save(path: Path, rules: str | None = None) -> tuple[GameSetup, JsonObject]:
    """The setup and raw content of a save file; raises CkdslError naming what is wrong.
    ``rules``: where the save's rules are now (the user's word, taken as it is); the
    rules and map the save names must be in its folder or bundled (``confine``)."""
    where = str(path)
    try:
        text = read_user_bytes(path).decode("utf-8")
    except UnsafeFile as exc:
        raise CkdslError([Diagnostic(where, 0, 0, exc.message)]) from None
    except UnicodeDecodeError:
        raise CkdslError([Diagnostic(where, 0, 0, "not a save file (not UTF-8 text)")]) from None
    setup, data = parse_save(text, where)
    named = _resolved(setup.rules, path, ("base",))
    setup = replace(setup, rules=named, map=_resolved(setup.map, path, board.bundled_maps()))
    confine(setup if rules is None else replace(setup, rules="base"), path, "save")
    return setup if rules is None else replace(setup, rules=rules), data


def confine(setup: GameSetup, shared: Path, kind: str) -> None:
    """The rules and map a shared ``kind`` file (a save, a scenario) names must be in its
    folder (or below it), or bundled with ckdsl: a file someone sent cannot make ckdsl
    read any other file of yours. Checked with every link resolved; raises CkdslError."""
    folder = shared.parent
    named = (("rules", setup.rules, setup.rules == "base"),
             ("map", setup.map, setup.map in board.bundled_maps()))  # fmt: skip
    for field, target, bundled in named:
        if bundled or "\0" in target:  # (a NUL names no file: the loader says so)
            continue
        path = Path(target) if field == "rules" else board.map_path(target)
        if not inside(path, folder, data_root()):
            real = real_path(path)
            leads = f" (which leads to {real})" if str(real) != os.path.abspath(path) else ""
            message = (
                f"this {kind} names the {field} '{target}'{leads}, outside its folder "
                f"({folder}): a "
                f"{kind} reads its rules and map only from its own folder (or below it) and "
                "the bundled ones, so a shared file cannot read your other files"
            )
            if kind == "save" and field == "rules":
                message += "; if you trust it, give its rules with --rules"
            elif kind == "scenario":
                message += f"; keep the scenario beside its {field} file, or in a folder below it"
            raise CkdslError([Diagnostic(str(shared), 0, 0, message)])


def parse_save(text: str, where: str) -> tuple[GameSetup, JsonObject]:
    """The setup and raw content of a save file's text (``where`` names it in errors)."""
    try:
        data: JsonValue = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CkdslError(
            [Diagnostic(where, exc.lineno, exc.colno, f"not valid JSON: {exc.msg}")]
        ) from None
    except RecursionError:
        raise CkdslError([Diagnostic(where, 0, 0, "not a save file: nested too deeply")]) from None
    except ValueError:  # an integer of thousands of digits
        raise CkdslError([Diagnostic(where, 0, 0, "not a save file: a number too long")]) from None
    if isinstance(data, dict) and data.get("format") == SEAT_SAVE_FORMAT:
        message = (
            "a seat's save from the web table, sealed: only the table that made it opens it "
            "(its Load button); the host's save replays anywhere"
        )
        raise CkdslError([Diagnostic(where, 1, 1, message)])
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise CkdslError([Diagnostic(where, 1, 1, "not a ckdsl save file")])
    if data.get("version") != SAVE_VERSION:
        version = data.get("version")
        message = f"save format version {version!r} is not supported (ckdsl reads {SAVE_VERSION})"
        if isinstance(version, str):
            message = f"the save format version is a number, not the text {version[:20]!r}"
        if version == 1:
            message += (
                "; version 1 saves were written by ckdsl 0.1, whose dice and decks drew from one "
                "random generator: replay them with ckdsl 0.1"
            )
        raise CkdslError([Diagnostic(where, 1, 1, message)])
    setup_data = data.get("setup")
    fields = GameSetup.__dataclass_fields__
    if not isinstance(setup_data, dict) or set(setup_data) != set(fields):
        raise CkdslError([Diagnostic(where, 1, 1, f"'setup' must have exactly {sorted(fields)}")])
    kinds: dict[str, type | tuple[type, ...]] = {
        "rules": str,
        "map": str,
        "layout": (str, type(None)),
        "players": int,
        "seed": int,
    }
    for key, kind in kinds.items():
        if not isinstance(setup_data[key], kind) or isinstance(setup_data[key], bool):
            raise CkdslError([Diagnostic(where, 1, 1, f"setup.{key} has the wrong type")])
    answers = data.get("answers")
    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise CkdslError([Diagnostic(where, 1, 1, "'answers' must be a list of texts")])
    layout = setup_data["layout"]
    try:
        setup = GameSetup(
            rules=as_text(setup_data["rules"]),
            map=as_text(setup_data["map"]),
            layout=None if layout is None else as_text(layout),
            players=integer(setup_data["players"]),
            seed=integer(setup_data["seed"]),
        )
    except (TypeError, ValueError) as exc:  # an empty rules or map name
        message = str(exc).replace("GameSetup.", "setup.")
        raise CkdslError([Diagnostic(where, 1, 1, message)]) from None
    return setup, data


def saved_answers(path: Path) -> int:
    """How many answers a save file holds (raises CkdslError as ``read_save`` does)."""
    return len(arr(read_save(path)[1]["answers"]))


def replay(path: Path, upto: int | None = None, rules: str | None = None) -> tuple[Game, GameSetup]:
    """Replay a save file to its final state, or to its position after ``upto`` answers
    (not past its end: ``saved_answers`` says how many it has); refuses saves of other
    rules or bad answers. ``rules``: where the save's rules are now, if they moved (the
    rule set's hash must still match)."""
    path = arguments.file_path(path, "path")  # a str too
    game, setup, answers = open_replay(path, rules)
    for number, text in enumerate(answers[:upto], start=1):
        replay_answer(game, path, number, text)
    if upto is None or upto >= len(answers):
        _check_digest(game, read_save(path, rules)[1], str(path))
    return game, setup


def _check_digest(game: Game, data: JsonObject, where: str) -> None:
    """A save's answers must reach the state it says they reached (an edited save does
    not); a save without a digest is taken as it is."""
    digest = data.get("state_digest")
    if digest is not None and digest != game.state.digest():
        message = "the replayed game does not reach the saved final state (edited save?)"
        raise CkdslError([Diagnostic(where, 0, 0, message)])


def open_replay(path: Path, rules: str | None = None) -> tuple[Game, GameSetup, list[str]]:
    """A save's game at its start, its setup and its answers, to be replayed one by one
    (``replay_answer``); refuses a save of other rules than the ones it names have now
    (or than ``rules``, where they are now if they moved)."""
    setup, data = read_save(path, rules)
    return _opened(setup, data, str(path))


def replay_text(
    text: str, where: str, offered: Callable[[GameSetup], bool]
) -> tuple[Game, GameSetup]:
    """Replay a save given as text (an upload: no file is read but the rules and map it
    names, and only when ``offered`` accepts them); raises CkdslError naming what is
    wrong."""
    setup, data = parse_save(text, where)
    if not offered(setup):
        message = (
            f"this save is of the rules '{setup.rules}' on the map '{setup.map}', "
            "which are not offered here"
        )
        raise CkdslError([Diagnostic(where, 1, 1, message)])
    game, setup, answers = _opened(setup, data, where)
    for number, answer in enumerate(answers, start=1):
        replay_answer(game, Path(where), number, answer)
    _check_digest(game, data, where)
    return game, setup


def _opened(setup: GameSetup, data: JsonObject, where: str) -> tuple[Game, GameSetup, list[str]]:
    game = start(setup)
    if data.get("ruleset_hash") != game.rules.ruleset_hash:
        message = (
            f"this game was saved under other rules than '{setup.rules}' has now "
            "(the rule set's hash differs); replay it with the rules it was played under"
        )
        raise CkdslError([Diagnostic(where, 1, 1, message)])
    return game, setup, [as_text(answer) for answer in arr(data["answers"])]


def replay_answer(game: Game, path: Path, number: int, text: str) -> None:
    """Give the save's answer ``number`` (from 1); a CkdslError names it if refused."""
    try:
        game.answer(parse_answer(game, text))
    except IllegalAnswer as exc:
        raise _refused(path, number, text, exc) from None


def saved_option(game: Game, path: Path, number: int, text: str) -> Option:
    """The option the save's answer ``number`` names now; a CkdslError if none."""
    try:
        return parse_answer(game, text)
    except IllegalAnswer as exc:
        raise _refused(path, number, text, exc) from None


def _refused(path: Path, number: int, text: str, exc: IllegalAnswer) -> CkdslError:
    shown = text if len(text) <= 80 else f"{text[:60]}... ({len(text):,} characters)"
    message = f"answer {number} ('{shown}') cannot be replayed: {exc.reason}"
    return CkdslError([Diagnostic(str(path), 0, 0, message)])
