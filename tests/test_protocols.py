"""The typed protocols of the engine match its tables: every decision kind has a handler,
every task kind is either asked (options, then a handler) or runs on its own, and a task
copied with the state keeps its kind."""

from __future__ import annotations

import re
import typing
from types import ModuleType

import pytest

from ckdsl.bots import RandomBot
from ckdsl.core import tasks
from ckdsl.core.decisions import CHOICE_DECISIONS, ChoiceKind, DecisionKind, TaskKind, Verb
from ckdsl.core.tasks import DiscardTask, EffectTask, RobberTask, Task, expect
from ckdsl.dsl.base.types import CHOICE_KINDS
from ckdsl.session import GameSetup, start
from ckdsl.turn import turn
from ckdsl.turn.game import build_tables, tables
from ckdsl.turn.notation import format_option, parse_answer


def _literals(alias: object) -> set[str]:
    """The strings of a Literal alias, nested Literals flattened."""
    out: set[str] = set()
    for arg in typing.get_args(alias):
        out |= _literals(arg) if typing.get_args(arg) else {arg}
    return out


def _task_kinds() -> dict[str, type]:
    classes = typing.get_args(Task)
    return {typing.get_args(typing.get_type_hints(c)["kind"])[0]: c for c in classes}


def test_every_decision_kind_has_a_handler_and_every_handler_a_kind() -> None:
    handlers = tables().handlers
    assert set(handlers) == _literals(DecisionKind) - {"over"}
    # every kind the DSL may `choose` asks a decision of its own kind
    assert set(CHOICE_DECISIONS) == set(CHOICE_KINDS)
    assert set(CHOICE_DECISIONS.values()) == _literals(ChoiceKind)


def test_every_task_kind_is_asked_or_runs_on_its_own() -> None:
    task_options, auto_tasks = tables().task_options, tables().auto_tasks
    kinds = _task_kinds()
    assert set(task_options) | set(auto_tasks) == set(kinds)
    assert not set(task_options) & set(auto_tasks)
    asked = set(task_options) - {"effect"}
    assert asked == _literals(TaskKind)


def test_a_task_keeps_its_kind_through_a_copy_of_the_state() -> None:
    game = start(GameSetup(seed=1), log=False)
    game.state.queue[:] = [RobberTask("robber", 0), DiscardTask("discard", 1, 3)]
    copied = game.state.copy().queue
    assert copied == game.state.queue
    assert [type(t) for t in copied] == [RobberTask, DiscardTask]
    assert expect(copied[1], DiscardTask).amount == 3


def test_a_task_of_another_kind_is_refused() -> None:
    with pytest.raises(TypeError, match="expected a EffectTask"):
        expect(RobberTask("robber", 0), EffectTask)


def test_the_task_module_names_every_task_class() -> None:
    named = {c for c in vars(tasks).values() if isinstance(c, type) and c.__name__.endswith("Task")}
    assert named == set(typing.get_args(Task))


def test_a_second_registration_of_an_answer_is_an_error() -> None:
    again = ModuleType("ckdsl.turn.house_rule")
    again.__dict__["VERBS"] = (Verb("end", "stop"),)
    said = "answer 'end' is registered twice: by ckdsl.turn.turn and ckdsl.turn.house_rule"
    with pytest.raises(ValueError, match=re.escape(said)):
        build_tables((turn, again))


def test_every_answer_of_random_games_reads_back_as_itself() -> None:
    """Each option of every decision in random games has a registered readable form, and
    parsing that form gives the option back (the notation people and scenarios use)."""
    seen: set[str] = set()
    for seed in range(3):
        game = start(GameSetup(seed=seed), log=False)
        bots = [RandomBot(seed * 7 + p) for p in range(4)]
        while game.pending.kind != "over":
            decision = game.pending
            for option in decision.options:
                seen.add(option[0])
                assert option[0] in tables().forms, option
            answer = bots[decision.player].choose(game.view(decision.player))
            assert parse_answer(game, format_option(game, answer)) == answer
            game.answer(answer)
    assert {"roll", "road", "end", "robber", "activate"} <= seen
