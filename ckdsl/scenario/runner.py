"""Running scenario files: set up the position, play the steps, compare expectations.

A scenario ends in one of three outcomes: ``pass``; ``fail`` (an expectation did not
hold, an answer was refused that should not have been, or the reverse), reported with
the step, the field, and expected against actual; ``error`` (the file itself is wrong:
not valid, an unknown id, an intersection that does not exist), reported as
``file:line:col`` diagnostics. Every answer goes through ``Game.answer``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ckdsl import rng
from ckdsl.board.maps import bundled_maps
from ckdsl.core.decisions import IllegalAnswer
from ckdsl.diagnostics import CkdslError, Diagnostic, JsonPath, sorted_diagnostics
from ckdsl.jsondata import JsonArray, JsonObject, JsonValue, arr, integer, obj, text
from ckdsl.l10n.catalog import REFERENCE, Catalog, load_catalog
from ckdsl.l10n.refusals import say
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import validate
from ckdsl.rules.yamlload import load_yaml
from ckdsl.scenario.expect import (
    LOG_EXPECTATIONS,
    Shown,
    actual_values,
    log_pattern_errors,
    pending,
    same,
    shown_log,
)
from ckdsl.scenario.position import apply_position, colours
from ckdsl.session import SHIPPED_VARIANTS, GameSetup, confine, load_rules, rules_target, start
from ckdsl.turn.game import Game
from ckdsl.turn.notation import parse_answer, player_name, understood
from ckdsl.userfiles import MAX_FOLDER_DEPTH, yaml_files_under


@dataclass
class Mismatch:
    """One expectation that did not hold."""

    field: str
    expected: Shown
    actual: Shown


@dataclass
class Outcome:
    """The result of one scenario file."""

    file: str
    name: str
    status: str  # pass, fail, error
    step: int | None = None  # 1-based step that failed
    where: str = ""  # file:line:col of that step
    reason: str = ""
    mismatches: list[Mismatch] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "file": self.file,
            "name": self.name,
            "status": self.status,
            "step": self.step,
            "where": self.where,
            "reason": self.reason,
            "mismatches": [m.__dict__ for m in self.mismatches],
            "diagnostics": [d.to_json() for d in self.diagnostics],
        }


def scenario_files(paths: Iterable[Path]) -> Iterator[Path]:
    """The files named, and in folders every ``*.yaml`` that is a scenario (has a
    top-level ``steps:``), so a folder may also hold the variants its scenarios test."""
    for path in paths:
        if path.is_dir():
            found, too_deep = yaml_files_under(path)
            yield from (p for p in found if _has_steps(p))
            yield from too_deep  # run_file says they were not searched
        else:
            yield path


def _has_steps(path: Path) -> bool:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return True  # let the runner report it
    return any(line.startswith("steps:") for line in text.splitlines())


class _Failed(Exception):
    def __init__(self, reason: str, mismatches: list[Mismatch] | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.mismatches = mismatches or []


def run_file(path: Path, rules: str | None = None) -> Outcome:
    """Run the scenario in ``path`` (under the rule set ``rules`` instead of its own, if
    given: ``base``, a shipped variant's name, or a path from where ckdsl runs)."""
    file = str(path)
    if path.is_dir():  # a folder ``scenario_files`` did not search: too deep
        message = f"folders are nested more than {MAX_FOLDER_DEPTH} deep here: not searched"
        return Outcome(file, path.name, "error", diagnostics=[Diagnostic(file, 0, 0, message)])
    doc, problems = load_yaml(path)
    errors = [p for p in problems if p.severity == "error"]
    if doc is None or errors:
        return Outcome(file, path.stem, "error", diagnostics=errors or problems)
    errors = validate(doc.data, doc.positions, "scenario")
    name = doc.data.get("name") if isinstance(doc.data, dict) else None
    outcome = Outcome(file, name if isinstance(name, str) else path.stem, "pass")
    if not errors:  # the shape is right: now the events and fields `log:` names
        errors = log_pattern_errors(obj(doc.data).get("steps"), doc.positions)
    if errors:
        outcome.status, outcome.diagnostics = "error", errors
        return outcome
    data = obj(doc.data)
    try:
        setup = _setup(data, path, rules)
        game = start(setup)
    except CkdslError as err:
        at = doc.positions.value(("rules",) if "rules" in data else ())
        outcome.status = "error"
        outcome.diagnostics = [
            Diagnostic(at.file, at.line, at.col, f"cannot start the game: {d.format()}")
            for d in err.diagnostics
        ]
        return outcome
    faults = apply_position(game, obj(data.get("position") or {}), doc.positions)
    faults += step_faults(game, arr(data["steps"]), doc.positions)
    if faults:
        outcome.status, outcome.diagnostics = "error", sorted_diagnostics(faults)
        return outcome
    since = 0  # the first event not yet checked by a `log` expectation
    english = load_catalog(REFERENCE, load_rules(setup.rules).ruleset)
    for k, value in enumerate(arr(data["steps"])):
        step = obj(value)
        path_k: JsonPath = ("steps", k)
        pos = doc.positions.value(path_k)
        try:
            _run_step(game, step, path_k, doc.positions, since, english)
            if "log" in obj(step.get("expect") or {}):
                since = len(game.events)
        except _Failed as failed:
            outcome.status, outcome.reason = "fail", failed.reason
            outcome.mismatches = failed.mismatches
        except _StepError as err:
            outcome.status, outcome.diagnostics = "error", [err.diagnostic]
        if outcome.status != "pass":
            outcome.step, outcome.where = k + 1, f"{pos.file}:{pos.line}:{pos.col}"
            return outcome
    return outcome


def step_faults(game: Game, steps: JsonArray, positions: Positions) -> list[Diagnostic]:
    """The faults of the steps that show before any is played, all at once: an answer
    that is no answer of the game (a misspelled verb, an id the game lacks), a colour,
    die face or good that does not exist, an expectation about a player, track, tile or
    counter the game does not have. (A misspelled `refuse:` is a failure of its step:
    docs/scenarios.md.)"""
    out: list[Diagnostic] = []

    def fault(at: JsonPath, message: str) -> None:
        out.append(Diagnostic.at(positions.value(at), message, at))

    players = colours(game)
    for k, value in enumerate(steps):
        step, at = obj(value), ("steps", k)
        if "answer" in step and understood(game, text(step["answer"])) is None:
            fault((*at, "answer"), f"'{_brief(text(step['answer']))}' is no answer the game "
                  "knows: check the verb and that every id exists")  # fmt: skip
        if "by" in step and text(step["by"]) not in players:
            fault((*at, "by"), _no_player(game, text(step["by"])))
        if "steal" in step and text(obj(step["steal"])["from"]) not in players:
            fault((*at, "steal", "from"), _no_player(game, text(obj(step["steal"])["from"])))
        if "dice" in step:
            try:
                _dice_of(game, arr(step["dice"]), _step_error(positions, at))
            except _StepError as err:
                out.append(err.diagnostic)
        expect = obj(step.get("expect") or {})
        for key, wanted in expect.items():
            if key in (*LOG_EXPECTATIONS, "pending") or key in WHOLE:
                continue
            if not isinstance(wanted, dict):
                continue
            found = actual_values(game, [key])[key]
            for name in wanted:
                if isinstance(found, Mapping) and str(name) not in found:
                    known = ", ".join(map(str, found)) or "none"
                    fault((*at, "expect", key, name),
                          f"`{key}` has no '{name}' in this game (it has: {known})")  # fmt: skip
    return out


def _no_player(game: Game, colour: str) -> str:
    return f"no player '{colour}' in this game (players: {', '.join(colours(game))})"


def scenario_position(path: Path, steps: int | None = None) -> tuple[Game, GameSetup, int]:
    """The game of the scenario in ``path`` after its position and its first ``steps``
    steps (all of them if None; expectations are not checked), its setup, and how many
    steps it has: what ``ckdsl board --scenario`` draws. Raises CkdslError for a file with
    errors, or for a step that cannot be played."""
    doc, problems = load_yaml(path)
    errors = [p for p in problems if p.severity == "error"]
    if doc is None or errors:
        raise CkdslError(errors or problems)
    errors = validate(doc.data, doc.positions, "scenario")
    if errors:
        raise CkdslError(errors)
    data = obj(doc.data)
    setup = _setup(data, path)
    game = start(setup)
    faults = apply_position(game, obj(data.get("position") or {}), doc.positions)
    if faults:
        raise CkdslError(faults)
    all_steps = arr(data["steps"])
    for k, value in enumerate(all_steps[:steps]):
        step = obj(value)
        if "expect" in step:
            continue
        try:
            _run_step(game, step, ("steps", k), doc.positions, 0)
        except _StepError as err:
            raise CkdslError([err.diagnostic]) from None
        except _Failed as failed:
            at = doc.positions.value(("steps", k))
            raise CkdslError([Diagnostic(at.file, at.line, at.col, failed.reason)]) from None
    return game, setup, len(all_steps)


def _setup(data: JsonObject, path: Path, rules_given: str | None = None) -> GameSetup:
    """The scenario's setup; ``rules_given``: the command line's rule set, over the
    scenario's (the user's own word: not confined to the scenario's folder)."""

    def relative(value: JsonValue, bundled: Iterable[str]) -> str:
        name = text(value)
        return name if name in bundled else str(path.parent / name)

    def rules(value: JsonValue) -> str:
        name = text(value)
        if name in SHIPPED_VARIANTS and not (path.parent / name).exists():
            return rules_target(name)
        return relative(name, ("base",))

    seed = data.get("seed")
    layout = data.get("layout", None if seed is not None else "beginner")
    setup = GameSetup(
        rules=rules(data.get("rules", "base")),
        map=relative(data.get("map", "standard"), bundled_maps()),
        layout=None if layout is None else text(layout),
        players=integer(data.get("players", 4)),
        seed=integer(seed or 0),
    )
    if rules_given is None:
        confine(setup, path, "scenario")
        return setup
    confine(replace(setup, rules="base"), path, "scenario")
    return replace(setup, rules=rules_target(rules_given))


class _StepError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


_Error = Callable[[str, str], "_StepError"]


def _step_error(positions: Positions, at: JsonPath) -> _Error:
    """How step ``at`` reports a fault of one of its keys."""

    def error(key: str, message: str) -> _StepError:
        return _StepError(Diagnostic.at(positions.value((*at, key)), message, (*at, key)))

    return error


def _run_step(
    game: Game,
    step: JsonObject,
    at: JsonPath,
    positions: Positions,
    since: int,
    english: Catalog | None = None,
) -> None:
    """Play one step. ``english``: the rule set's English (a variant's own messages too),
    in which a refusal's reason is compared with `message:`."""
    error = _step_error(positions, at)

    def said(exc: IllegalAnswer) -> str:
        return say(english, exc) if english is not None else exc.reason

    if "dice" in step:
        _fix_dice(game, arr(step["dice"]), error)
        return
    if "steal" in step:
        _fix_steal(game, obj(step["steal"]), error)
        return
    if "expect" in step:
        _check(game, obj(step["expect"]), since)
        return
    decision = game.pending
    if "by" in step:
        who = colours(game).get(text(step["by"]))
        if who is None:
            raise error("by", f"no player '{step['by']}' in this game")
        if who != decision.player:
            actual = player_name(game, decision.player) if decision.player >= 0 else None
            raise _Failed(
                f"the pending decision ({decision.kind}) is not {step['by']}'s",
                [Mismatch("pending.player", step["by"], actual)],
            )
    if "answer" in step:
        answer = text(step["answer"])
        try:
            game.answer(parse_answer(game, answer))
        except IllegalAnswer as exc:
            why = said(exc)  # the answer named in it, or the rules' reason, said of it
            shown = answer if len(answer) <= 80 else answer[:77] + "..."
            raise error("answer", why if shown in why else f"'{shown}' is refused: {why}") from None
        return
    refused = text(step["refuse"])
    try:
        option = parse_answer(game, refused)
    except IllegalAnswer as exc:
        reason = said(exc)
        if understood(game, refused) is None:  # a slip of the pen refuses nothing
            raise _Failed(
                f"'{refused}' was not understood: it is no answer the game knows (check the "
                "verb and that every id exists), so it tests no rule; refused because: "
                f"{_brief(reason)}"
            ) from None
    else:
        digest = game.state.digest()
        try:
            game.answer(option)
        except IllegalAnswer as exc:
            reason = said(exc)
            assert game.state.digest() == digest
        else:
            raise _Failed(f"'{refused}' was accepted, but the scenario expects it refused")
    fragment = step.get("message")
    if isinstance(fragment, str) and fragment and fragment not in reason:
        raise _Failed(
            f"'{refused}' was refused for another reason",
            [Mismatch("refusal message", f"... {fragment} ...", reason)],
        )


def _fix_dice(game: Game, dice: JsonArray, error: _Error) -> None:
    game.state.fixed_rolls.append(_dice_of(game, dice, error))


def _dice_of(game: Game, dice: JsonArray, error: _Error) -> tuple[int, int, str]:
    """The roll ``dice`` writes (white, red, event face), or the error of a face the dice
    do not have."""
    white, red = dice[0], dice[1]
    face = dice[2] if len(dice) > 2 else "ship"
    rules = game.rules
    if white not in rules.white_faces or red not in rules.red_faces:
        raise error("dice", f"dice [{white}, {red}] are not faces of the white and red dice")
    if face not in rules.event_faces:
        known = ", ".join(dict.fromkeys(rules.event_faces))
        raise error("dice", f"'{face}' is not a face of the event die (faces: {known})")
    return integer(white), integer(red), text(face)


def _fix_steal(game: Game, spec: JsonObject, error: _Error) -> None:
    """Set the game's random stream of steals (``rng`` "other") to a state whose next
    draw from the victim's hand, as it is now, takes the good named: the engine draws
    as always, from a state chosen for it (found by trying states derived from the
    seed, so the same scenario fixes it the same way every time)."""
    victim = colours(game).get(text(spec["from"]))
    if victim is None:
        raise error("steal", f"no player '{spec['from']}' in this game")
    good = text(spec["take"])
    g = game.rules.good_index.get(good)
    hand = game.state.players[victim].hand
    if g is None or not hand[g]:
        raise error("steal", f"{spec['from']} holds no {good} to be stolen")
    first, total = sum(hand[:g]), sum(hand)
    for k in range(100_000):  # each state takes the good with odds hand[g] / total
        state = rng.derive(game.state.seed, "scenario steal", k)
        if first <= rng.below({"s": state}, "s", total) < first + hand[g]:
            game.state.rng["other"] = state
            return
    raise error("steal", f"no random state found that steals {good}")  # odds of 1e-400


def _check(game: Game, expect: JsonObject, since: int) -> None:
    """Every expectation of a step; `log` looks at the events since the previous `log`
    expectation (from event ``since`` on), `log_so_far` at every event so far. What is due
    runs first, as before any answer: a position that already meets `turn.win` is won."""
    game.pending  # noqa: B018  (settles the game: its winner, the work queued)
    actual = actual_values(game, (k for k in expect if k not in (*LOG_EXPECTATIONS, "pending")))
    mismatches: list[Mismatch] = []
    for key, wanted in expect.items():
        if key in ("log", "log_so_far"):  # events in this order, others may come between
            log = shown_log(game)
            events = log[since:] if key == "log" else log
            patterns = arr(wanted)
            missing = _missing_events(patterns, events)
            if missing is not None:
                where = "since the previous `log` expectation" if key == "log" else "in the log"
                near = _nearest(obj(patterns[missing]), events)
                found: Shown = f"not {where}" if near is None else f"not {where}; nearest: {near}"
                mismatches.append(Mismatch(f"{key}[{missing}]", patterns[missing], found))
        elif key == "log_absent":  # none of these since the previous `log` expectation
            events = shown_log(game)[since:]
            for k, pattern in enumerate(arr(wanted)):
                hit = next((e for e in events if _matches(obj(pattern), e)), None)
                if hit is not None:
                    mismatches.append(Mismatch(f"log_absent[{k}]", pattern, dict(hit)))
        elif key == "pending":
            mismatches += _pending_mismatches(pending(game), obj(wanted))
        elif isinstance(wanted, dict) and key not in WHOLE:
            found = actual[key]
            for sub, value in wanted.items():
                got = found.get(str(sub)) if isinstance(found, Mapping) else None
                if not same(game, key, value, got):
                    mismatches.append(Mismatch(f"{key}.{sub}", value, got))
        elif not same(game, key, wanted, actual[key]):
            mismatches.append(Mismatch(key, wanted, actual[key]))
    if mismatches:
        raise _Failed("an expectation does not hold", mismatches)


def _pending_mismatches(
    found: Mapping[str, str | list[str] | None], wanted: JsonObject
) -> list[Mismatch]:
    out: list[Mismatch] = []
    options = found["options"] if isinstance(found["options"], list) else []
    for part, value in wanted.items():
        got = found[part]
        if part == "options":
            listed, sorted_options = sorted(map(text, arr(value))), sorted(options)
            if listed != sorted_options:
                out.append(Mismatch("pending.options", listed, sorted_options))
        elif part == "includes":
            lacking = sorted(set(map(text, arr(value))) - set(options))
            if lacking:
                out.append(Mismatch("pending.includes", lacking, sorted(options)))
        elif part == "excludes":
            present = sorted(set(map(text, arr(value))) & set(options))
            if present:
                out.append(Mismatch("pending.excludes", "none of them", present))
        elif value != got:
            out.append(Mismatch(f"pending.{part}", value, got))
    return out


# Expectations compared as one value (the others are maps by player, track or tile).
WHOLE = frozenset({"merchant"})


def _missing_events(wanted: JsonArray, log: Sequence[Mapping[str, Shown]]) -> int | None:
    """The index of the first wanted event not found (in order) in ``log``, or None."""
    at = 0
    for k, pattern in enumerate(wanted):
        while at < len(log) and not _matches(obj(pattern), log[at]):
            at += 1
        if at == len(log):
            return k
        at += 1
    return None


def _nearest(pattern: JsonObject, log: Sequence[Mapping[str, Shown]]) -> dict[str, Shown] | None:
    """The logged event most like ``pattern``: of its kind, with the most fields alike."""
    same_kind = [e for e in log if e.get("event") == pattern.get("event")]
    if not same_kind:
        return None
    best = max(same_kind, key=lambda e: sum(1 for k, v in pattern.items() if e.get(k) == v))
    return dict(best)


def _matches(pattern: JsonObject, event: Mapping[str, Shown]) -> bool:
    return all(event.get(key) == value for key, value in pattern.items())


def _brief(reason: str, limit: int = 160) -> str:
    return reason if len(reason) <= limit else reason[: limit - 3] + "..."
