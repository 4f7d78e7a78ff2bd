"""Why an answer is refused: the reason for a well-formed answer the pending decision
does not offer, as a message key and fields (``Refusal``), never as an English string.

``Game.answer`` and ``notation.parse_answer`` ask ``explain`` only once an answer is
refused; listing the options never runs any of this (the hot path is benchmarked). The
rules stay where they are, in the engine's legality code and the rule set's data:
``explain`` asks the same questions of the same state (``ckdsl.turn.refused_moves``
for the main phase, the functions below for the rest) and says which one fails. It
must never disagree with the options: for an option that is offered it finds nothing
(None), for one that is not it finds a reason (tests/test_refusals.py checks both over
many random positions). An effect's question (`choose`, `optional`) is the rule set's
own: an answer it does not offer is "not one of the choices offered". What it cannot
explain at all (an answer of the wrong shape) gets ``not_legal``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ckdsl.core import derived
from ckdsl.core.decisions import Decision, Option, Refusal
from ckdsl.core.pieces import pillageable
from ckdsl.core.state import CITY, NOBODY
from ckdsl.core.tasks import PartnerTask, PhaseTask, RelocateTask, RespondTask
from ckdsl.core.unmet import unmet
from ckdsl.turn import refused_moves
from ckdsl.turn.refused_moves import (
    cost_refusal,
    distance_rule,
    is_edge,
    is_tile,
    no_intersection,
    not_a_good,
    occupied,
)

if TYPE_CHECKING:
    from ckdsl.turn.game import Game

_TASK_VERBS: Mapping[str, frozenset[str]] = {
    "setup_settlement": frozenset({"settlement"}),
    "setup_city": frozenset({"city"}),
    "setup_road": frozenset({"road"}),
    "roll": frozenset({"roll", "play"}),
    "discard": frozenset({"discard"}),
    "gold": frozenset({"take"}),
    "discard_progress": frozenset({"discard_card"}),
    "robber": frozenset({"robber"}),
    "steal": frozenset({"steal", "no_steal"}),
    "reward": frozenset({"reward"}),
    "pillage": frozenset({"lose_city"}),
    "metropolis": frozenset({"metropolis"}),
    "relocate": frozenset({"relocate"}),
    "respond": frozenset({"accept", "decline"}),
    "partner": frozenset({"partner", "cancel"}),
    "optional": frozenset({"do", "skip"}),
}
"""The kinds of answer each decision takes (the main phase and a phase: its moves; a
`choose`: ``CHOICE_VERBS``)."""
CHOICE_VERBS = frozenset({"choose", "done", "skip"})
_ANSWERS: Mapping[str, str] = {
    **{verb: "choice" for verb in CHOICE_VERBS | {"do"}},
    **{
        verb: kind
        for kind, verbs in _TASK_VERBS.items()
        for verb in verbs
        if kind not in ("roll", "optional") and not kind.startswith("setup_")
    },
    "roll": "roll",
}
"""The decision each answer that is no move of the turn answers (the main phase's
moves answer ``main``; a setup step's verbs are the main phase's too)."""


def takes(game: Game, kind: str, verb: str) -> bool:
    """Whether a decision of ``kind`` takes answers of ``verb`` at all (offered now or
    not): "build road" is an answer of the main phase, never of a discard."""
    if kind == "main":
        return verb in game.main_verbs
    if kind == "phase":
        return verb in game.main_verbs or verb == "pass"
    if kind.startswith("choose_"):
        return verb in CHOICE_VERBS
    return verb in _TASK_VERBS.get(kind, ())


def decision_name(kind: str) -> str:
    """The decision as its ``decision_*`` message names it (every effect's question is
    one: a choice)."""
    return "choice" if kind.startswith("choose_") or kind == "optional" else kind


def not_legal(decision: Decision) -> Refusal:
    """The refusal of an answer ``explain`` has no reason for."""
    return Refusal("refused_not_legal", {"decision": decision_name(decision.kind)})


def explain(
    game: Game, decision: Decision, option: Option, forms: Mapping[str, str]
) -> Refusal | None:
    """Why ``option`` is not an answer to ``decision`` now, or None when nothing refuses
    it: it is among the options (or is an open answer, or of a shape no verb has).
    ``forms``: how each verb's answer reads (``Tables.forms``, from the caller: this
    module is below the one that gathers them)."""
    if decision.kind == "over":
        return Refusal("refused_game_over")
    if not option or not isinstance(option[0], str) or len(option) != _arity(forms, option[0]):
        return None
    verb, kind = option[0], decision.kind
    if not takes(game, kind, verb):
        return _not_now(game, decision, verb)
    if kind.startswith("choose_") or kind == "optional":
        return None if option in decision.options else Refusal("refused_not_a_choice")
    if kind == "main":
        return _move(game, decision.player, option, "after_roll")
    if kind == "phase":
        return _phase(game, decision.player, option)
    if kind == "roll":
        return None if verb == "roll" else _move(game, decision.player, option, "before_roll")
    task = _TASKS.get(kind)
    return None if task is None else task(game, decision.player, option)


def _arity(forms: Mapping[str, str], verb: str) -> int:
    """How many elements an option of ``verb`` has: its verb and a value per field of its
    readable form."""
    form = forms.get(verb)
    return -1 if form is None else 1 + form.count("{")


def _not_now(game: Game, decision: Decision, verb: str) -> Refusal:
    """An answer of another decision than the pending one (docs/engine.md, "Decisions and
    their answers"): a move of the turn waits for the roll, or for a discard, the robber,
    a card's choice...; an answer to a decision nobody is asked now answers nothing."""
    kind = decision.kind
    colours = game.rules.names("player_colours")
    who = colours[decision.player] if 0 <= decision.player < game.n else ""
    if kind == "roll" and verb in game.main_verbs:
        return Refusal("refused_roll_first")
    if kind == "main" and verb == "roll":
        return Refusal("refused_rolled")
    asked = _ANSWERS.get(verb, "main")
    if asked == "main" and kind not in ("main", "phase"):
        return Refusal("refused_wait", {"decision": decision_name(kind), "player": who})
    fields = {"asked": asked, "decision": decision_name(kind), "player": who}
    return Refusal("refused_other_decision", fields)


def _move(game: Game, player: int, option: Option, timing: str) -> Refusal | None:
    verb = option[0]
    if verb == "play":
        return refused_moves.play(game, player, option, timing)
    if verb in ("end", "offer"):
        return None  # the turn may always end; an offer is checked when given
    move = refused_moves.MOVES.get(verb)
    return None if move is None else move(game, player, option)


def _phase(game: Game, player: int, option: Option) -> Refusal | None:
    """docs/dsl.md, "Phases": the main phase's moves that the phase lists, and `end
    phase`."""
    verb = option[0]
    if verb == "pass":
        return None
    if verb == "end":
        return Refusal("refused_phase_end")
    task = game.state.queue[0]
    assert isinstance(task, PhaseTask)
    listed = game.rules.phases.get(task.phase, frozenset())
    action = verb == "action" and isinstance(option[1], str) and option[1] in listed
    if verb not in listed and not action:
        return Refusal("refused_not_in_phase", {"moves": sorted(listed)})
    return _move(game, player, option, "after_roll")


# --- the setup and the decisions of waiting tasks ---------------------------------------------


def _setup_building(game: Game, player: int, option: Option) -> Refusal | None:
    """docs/rules.md, "Setup": anywhere the distance rule allows."""
    i = option[1]
    return no_intersection(game, i) or occupied(game, i) or distance_rule(game, i)


def _setup_road(game: Game, player: int, option: Option) -> Refusal | None:
    """docs/rules.md, "Setup": the road touches the building just placed."""
    e = option[1]
    if not is_edge(game, e):
        return Refusal("refused_no_edge", {"at": str(e)[:20]})
    state, topo = game.state, game.topo
    if state.road[e] != NOBODY:
        return Refusal("refused_road_there", {"at": topo.edge_name(e)})
    home = state.players[player].buildings[-1]
    if e not in topo.inter_edges[home]:
        return Refusal("refused_setup_road", {"at": topo.edge_name(e), "other": home})
    return None


def _discard(game: Game, player: int, option: Option) -> Refusal | None:
    good = option[1]
    found = not_a_good(game, good)
    if found is None and not game.state.players[player].hand[game.rules.good_index[good]]:
        return Refusal("refused_none_held", {"good": good})
    return found


def _gold(game: Game, player: int, option: Option) -> Refusal | None:
    """A gold field gives a resource of the player's choice, while the bank has it."""
    good = option[1]
    found = not_a_good(game, good)
    if found is not None:
        return found
    g = game.rules.good_index[good]
    if g not in game.rules.resources:
        return Refusal("refused_gold_resource", {"good": good})
    if not game.state.bank[g]:
        return Refusal("refused_bank_empty", {"good": good})
    return None


def _discard_card(game: Game, player: int, option: Option) -> Refusal | None:
    card = option[1]
    if not isinstance(card, str) or card not in game.rules.cards:
        return Refusal("refused_not_a_card", {"id": str(card)[:40]})
    if card not in game.state.players[player].progress:
        return Refusal("refused_card_not_held", {"card": card})
    return None


def _robber(game: Game, player: int, option: Option) -> Refusal | None:
    t = option[1]
    if not is_tile(game, t):
        return Refusal("refused_no_tile", {"tile": str(t)[:20]})
    return unmet(game, "robber", player, t=t)


def _steal(game: Game, player: int, option: Option) -> Refusal | None:
    """docs/rules.md, "The robber": from another player with a building next to the
    robber's tile and a card in hand."""
    q = option[1]
    if not isinstance(q, int) or not 0 <= q < game.n:
        return Refusal("refused_not_a_player", {"id": str(q)[:20]})
    state = game.state
    victim = game.rules.names("player_colours")[q]
    if q == player:
        return Refusal("refused_steal_self")
    tile = state.robber
    if not any(state.owner[i] == q for i in game.topo.tile_corners[tile]):
        return Refusal("refused_steal_far", {"victim": victim, "tile": tile})
    if not sum(state.players[q].hand):
        return Refusal("refused_steal_empty", {"victim": victim})
    return unmet(game, "steal", player, victim=q)


def _reward(game: Game, player: int, option: Option) -> Refusal | None:
    decks = [d.id for d in game.rules.decks]
    if option[1] not in decks:
        return Refusal("refused_not_a_deck", {"id": str(option[1])[:40]})
    if not game.state.decks[decks.index(option[1])]:
        return Refusal("refused_deck_empty", {"deck": option[1]})
    return None


def _own_city(game: Game, player: int, i: Any) -> Refusal | None:
    found = no_intersection(game, i)
    if found is None and (game.state.owner[i] != player or game.state.building[i] != CITY):
        return Refusal("refused_not_your_city", {"at": i})
    return found


def _pillage(game: Game, player: int, option: Option) -> Refusal | None:
    """docs/rules.md, "The barbarians": a city without a metropolis."""
    i = option[1]
    found = _own_city(game, player, i)
    if found is None and i not in pillageable(game, player):
        return Refusal("refused_pillage_metropolis", {"at": i})
    return found


def _metropolis(game: Game, player: int, option: Option) -> Refusal | None:
    i = option[1]
    found = _own_city(game, player, i)
    if found is None and i in game.state.metropolis:
        return Refusal("refused_metropolis_there", {"at": i})
    return found


def _relocate(game: Game, player: int, option: Option) -> Refusal | None:
    """docs/rules.md, "Knights": a displaced knight goes to another free place on its
    owner's network."""
    i = option[1]
    task = game.state.queue[0]
    assert isinstance(task, RelocateTask)
    found = no_intersection(game, i)
    if found is None and i == task.was:
        return Refusal("refused_relocate_back", {"at": i})
    found = found or occupied(game, i)
    if found is None and i not in derived.knight_spots(game, player):
        return Refusal("refused_not_on_roads", {"at": i})
    return found or unmet(game, "relocate", player, i=i, was=task.was)


def _respond(game: Game, player: int, option: Option) -> Refusal | None:
    if option[0] == "decline":
        return None
    task = game.state.queue[0]
    assert isinstance(task, RespondTask)
    return cost_refusal(game, player, game.bundle(task.offer["get"]))


def _partner(game: Game, player: int, option: Option) -> Refusal | None:
    if option[0] == "cancel":
        return None
    task = game.state.queue[0]
    assert isinstance(task, PartnerTask)
    q = option[1]
    if not isinstance(q, int) or not 0 <= q < game.n:
        return Refusal("refused_not_a_player", {"id": str(q)[:20]})
    if q in task.offer["accepted"]:
        return None
    return Refusal("refused_partner", {"player": game.rules.names("player_colours")[q]})


_TASKS: Mapping[str, refused_moves.Explain] = {
    "setup_settlement": _setup_building,
    "setup_city": _setup_building,
    "setup_road": _setup_road,
    "discard": _discard,
    "gold": _gold,
    "discard_progress": _discard_card,
    "robber": _robber,
    "steal": _steal,
    "reward": _reward,
    "pillage": _pillage,
    "metropolis": _metropolis,
    "relocate": _relocate,
    "respond": _respond,
    "partner": _partner,
}
"""Why an answer of each setup step and waiting task is refused."""
