"""Running scenario files: set up the position, play the steps, compare expectations.

A scenario ends in one of three outcomes: ``pass``; ``fail`` (an expectation did not
hold, an answer was refused that should not have been, or the reverse), reported with
the step, the field, and expected against actual; ``error`` (the file itself is wrong:
not valid, an unknown id, an intersection that does not exist), reported as
``file:line:col`` diagnostics. Every answer goes through ``Game.answer``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ckdsl.diagnostics import CkdslError, Diagnostic, JsonPath
from ckdsl.engine.decisions import IllegalAnswer
from ckdsl.engine.game import Game
from ckdsl.engine.notation import parse_answer, player_name
from ckdsl.rules.positions import Positions
from ckdsl.rules.schemas import validate
from ckdsl.rules.yamlload import load_yaml
from ckdsl.scenario.expect import actual_values, same
from ckdsl.scenario.position import apply_position, colours
from ckdsl.session import GameSetup, start


@dataclass
class Mismatch:
    """One expectation that did not hold."""

    field: str
    expected: Any
    actual: Any


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

    def to_json(self) -> dict[str, Any]:
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
            found = sorted(p for p in path.rglob("*.yaml") if p.is_file() and _has_steps(p))
            yield from found
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


def run_file(path: Path) -> Outcome:
    """Run the scenario in ``path``."""
    doc, problems = load_yaml(path)
    file = str(path)
    errors = [p for p in problems if p.severity == "error"]
    if doc is None or errors:
        return Outcome(file, path.stem, "error", diagnostics=errors or problems)
    errors = validate(doc.data, doc.positions, "scenario")
    data: dict[str, Any] = doc.data
    name = data.get("name") if isinstance(data, dict) else None
    outcome = Outcome(file, name if isinstance(name, str) else path.stem, "pass")
    if errors:
        outcome.status, outcome.diagnostics = "error", errors
        return outcome
    try:
        game = start(_setup(data, path))
    except CkdslError as err:
        at = doc.positions.value(("rules",) if "rules" in data else ())
        outcome.status = "error"
        outcome.diagnostics = [
            Diagnostic(at.file, at.line, at.col, f"cannot start the game: {d.format()}")
            for d in err.diagnostics
        ]
        return outcome
    faults = apply_position(game, data.get("position") or {}, doc.positions)
    if faults:
        outcome.status, outcome.diagnostics = "error", faults
        return outcome
    since = 0  # the first event not yet checked by a `log` expectation
    for k, step in enumerate(data["steps"]):
        path_k: JsonPath = ("steps", k)
        pos = doc.positions.value(path_k)
        try:
            _run_step(game, step, path_k, doc.positions, since)
            if "log" in (step.get("expect") or {}):
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


def _setup(data: dict[str, Any], path: Path) -> GameSetup:
    def relative(value: str, bundled: Iterable[str]) -> str:
        return value if value in bundled else str(path.parent / value)

    seed = data.get("seed")
    layout = data.get("layout", None if seed is not None else "beginner")
    return GameSetup(
        rules=relative(data.get("rules", "base"), ("base",)),
        map=relative(data.get("map", "standard"), ("standard",)),
        layout=layout,
        players=data.get("players", 4),
        seed=seed or 0,
    )


class _StepError(Exception):
    def __init__(self, diagnostic: Diagnostic) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic


def _run_step(
    game: Game, step: dict[str, Any], at: JsonPath, positions: Positions, since: int
) -> None:
    def error(key: str, message: str) -> _StepError:
        return _StepError(Diagnostic.at(positions.value((*at, key)), message, (*at, key)))

    if "dice" in step:
        _fix_dice(game, step["dice"], error)
        return
    if "expect" in step:
        _check(game, step["expect"], since)
        return
    decision = game.pending
    if "by" in step:
        who = colours(game).get(step["by"])
        if who is None:
            raise error("by", f"no player '{step['by']}' in this game")
        if who != decision.player:
            actual = player_name(game, decision.player) if decision.player >= 0 else None
            raise _Failed(
                f"the pending decision ({decision.kind}) is not {step['by']}'s",
                [Mismatch("pending.player", step["by"], actual)],
            )
    if "answer" in step:
        try:
            game.answer(parse_answer(game, step["answer"]))
        except IllegalAnswer as exc:
            raise error("answer", exc.reason) from None
        return
    text = step["refuse"]
    try:
        option = parse_answer(game, text)
    except IllegalAnswer as exc:
        reason = exc.reason
    else:
        digest = game.state.digest()
        try:
            game.answer(option)
        except IllegalAnswer as exc:
            reason = exc.reason
            assert game.state.digest() == digest
        else:
            raise _Failed(f"'{text}' was accepted, but the scenario expects it refused")
    fragment = step.get("message")
    if fragment and fragment not in reason:
        raise _Failed(
            f"'{text}' was refused for another reason",
            [Mismatch("refusal message", f"... {fragment} ...", reason)],
        )


def _fix_dice(game: Game, dice: list[Any], error: Any) -> None:
    white, red = dice[0], dice[1]
    face = dice[2] if len(dice) > 2 else "ship"
    rules = game.rules
    if white not in rules.white_faces or red not in rules.red_faces:
        raise error("dice", f"dice [{white}, {red}] are not faces of the white and red dice")
    if face not in rules.event_faces:
        known = ", ".join(dict.fromkeys(rules.event_faces))
        raise error("dice", f"'{face}' is not a face of the event die (faces: {known})")
    game.state.fixed_rolls.append((white, red, face))


def _check(game: Game, expect: dict[str, Any], since: int) -> None:
    """Every expectation of a step; `log` looks at the events since the previous `log`
    expectation (from event ``since`` on), `log_so_far` at every event so far."""
    actual = actual_values(game, expect)
    mismatches: list[Mismatch] = []
    for key, wanted in expect.items():
        found = actual[key]
        if key in ("log", "log_so_far"):  # events in this order, others may come between
            events = found[since:] if key == "log" else found
            missing = _missing_events(wanted, events)
            if missing is not None:
                where = "since the previous `log` expectation" if key == "log" else "in the log"
                mismatches.append(Mismatch(f"{key}[{missing}]", wanted[missing], f"not {where}"))
        elif key == "pending":
            for part, value in wanted.items():
                got = found[part]
                if part == "options":
                    value, got = sorted(value), sorted(got)
                if part == "includes":
                    lacking = sorted(set(value) - set(found["options"]))
                    if lacking:
                        options = sorted(found["options"])
                        mismatches.append(Mismatch("pending.includes", lacking, options))
                elif part == "excludes":
                    present = sorted(set(value) & set(found["options"]))
                    if present:
                        mismatches.append(Mismatch("pending.excludes", "none of them", present))
                elif value != got:
                    mismatches.append(Mismatch(f"pending.{part}", value, got))
        elif isinstance(wanted, dict) and key not in WHOLE:
            for sub, value in wanted.items():
                got = found.get(str(sub)) if isinstance(found, dict) else None
                if not same(game, key, value, got):
                    mismatches.append(Mismatch(f"{key}.{sub}", value, got))
        elif not same(game, key, wanted, found):
            mismatches.append(Mismatch(key, wanted, found))
    if mismatches:
        raise _Failed("an expectation does not hold", mismatches)


# Expectations compared as one value (the others are maps by player, track or tile).
WHOLE = frozenset({"merchant"})


def _missing_events(wanted: list[dict[str, Any]], log: list[dict[str, Any]]) -> int | None:
    """The index of the first wanted event not found (in order) in ``log``, or None."""
    at = 0
    for k, pattern in enumerate(wanted):
        while at < len(log) and not _matches(pattern, log[at]):
            at += 1
        if at == len(log):
            return k
        at += 1
    return None


def _matches(pattern: dict[str, Any], event: dict[str, Any]) -> bool:
    return all(event.get(key) == value for key, value in pattern.items())
