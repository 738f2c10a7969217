"""``RulesetBase``: every rule set subclasses it, so every optional hook exists.

Modelled on python-chess's ``chess/variant.py`` (DESIGN.md, "Models to follow"): a rule set
overrides the hooks it has; the others keep a default that does nothing (or refuses with
the plain message the service showed when a rule set had no such hook). The service calls
hooks directly, never through ``getattr``. Where the service must know whether a rule set
has a thing at all before other checks (which refusal comes first), it reads an explicit
capability (``offers_texts`` and the like), never compares methods; tests/test_architecture.py
checks each capability against the hook it announces.

The required members (``start``, ``pending``, ``act``, ``resolve``, ``view``, ``status`` and
the class attributes) are those of the ``Ruleset`` protocol in ``bot.rules.base``; here they
are abstract, so a rule set missing one fails when it is built.

Generic over its state and options (issue 17): ``OrbitsRuleset(RulesetBase[OrbitsState,
OrbitsOptions])``, so every hook names the state it reads. Actions come in their stored form
(``ActionData``, bot/rules/actions.py), each rule set reading them into its own action
models. The service, which holds any rule set, sees ``AnyRuleset``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from datetime import datetime
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel

from bot.errors import InvalidInput, InvalidState, NotFound
from bot.rules.actions import ActionData, ActionValue
from bot.rules.base import (
    ActionSpec,
    Dice,
    Outcome,
    Request,
    ScriptedPlayer,
    Seat,
    StepName,
    default_step_name,
)
from bot.rules.war_models import BattleResult, BattleSpec, Intake

StateT = TypeVar("StateT", bound=BaseModel)
OptionsT = TypeVar("OptionsT", bound=BaseModel)
View = dict[str, Any]  # what a viewer sees: plain JSON data for the renderers and panels


class RulesetBase(ABC, Generic[StateT, OptionsT]):
    """A rule set: the required protocol plus every optional hook with its neutral default."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    options_model: type[OptionsT]
    state_model: type[StateT]
    help_text: ClassVar[str]

    # --- capabilities: whether a rule set has a thing at all ------------------------------
    offers_texts: ClassVar[bool] = False  # ``texts`` names public texts
    reads_setup_file: ClassVar[bool] = False  # ``load_file`` reads a setup file
    writes_side_files: ClassVar[bool] = False  # ``side_file`` writes a side's ships
    takes_battle_results: ClassVar[bool] = False  # ``propose_battle`` takes a battle's result
    # Settings the offline demo uses unless told otherwise (FTCamp has no end of its own:
    # the demo plays one round). Empty: the rule set's own defaults.
    demo_options: ClassVar[dict[str, str]] = {}

    # --- required ---------------------------------------------------------------------------

    @abstractmethod
    def start(self, options: OptionsT, seats: list[Seat], dice: Dice) -> Outcome: ...

    @abstractmethod
    def pending(self, state: StateT) -> list[Request]: ...

    @abstractmethod
    def act(self, state: StateT, seat: int, action: ActionData, dice: Dice) -> Outcome: ...

    @abstractmethod
    def resolve(self, state: StateT, actions: dict[int, ActionData], dice: Dice) -> Outcome: ...

    @abstractmethod
    def view(self, state: StateT, viewer: int | None) -> View: ...

    @abstractmethod
    def status(self, state: StateT, viewer: int | None) -> str: ...

    # --- turns and steps --------------------------------------------------------------------

    def check(self, state: StateT, seat: int, action: ActionData) -> None:
        """Raises RulesError when one sealed action is illegal on its own, so the service
        refuses it on submission rather than at the reveal. Default: every action passes
        here (``resolve`` still judges the whole set)."""
        return None

    def resolve_with_defaults(self, state: StateT, actions: dict[int, ActionData],
                              dice: Dice, defaulted: frozenset[int]) -> Outcome:
        """``resolve``, told which seats' actions the service took by default at a deadline
        (never a player's own action), so the reveal can mark them (``BY_DEFAULT``).
        Default: ``resolve``, nothing marked."""
        return self.resolve(state, actions, dice)

    def gm_actions(self, state: StateT) -> list[ActionSpec]:
        """What the GM may do at any time (HRFT manual damage), applied with
        ``act(state, GM_SEAT, ...)``; the GM never appears in ``pending``. Default: nothing."""
        return []

    def step_name(self, state: StateT, pending: list[Request]) -> StepName:
        """The step tracker's key and plain name for the open step. Default: a name made of
        the requests' step names, each step with a tracker of its own."""
        return default_step_name(pending)

    # --- viewer-scoped reads (bot/campaign/ruleset_features.py) ------------------------------

    def gm_view(self, state: StateT) -> View | None:
        """What the GM sees. Default None: the GM sees their seat's view (the public one
        without a seat)."""
        return None

    def picture_view(self, state: StateT, viewer: int | None, name: str,
                     focus: str | None) -> tuple[View, str]:
        """(view, title) a picture is drawn from. Default: the viewer's view, no title."""
        return self.view(state, viewer), ""

    def texts(self, state: StateT, name: str) -> list[str]:
        """Public texts by name (FTCamp ``battles``); announced by ``offers_texts``."""
        raise NotFound(f"{self.title} has no text '{name}'.")

    def gm_edit(self, state: StateT, edit: str, args: dict[str, ActionValue]) -> tuple[StateT, str]:
        """(new state, summary) of one named GM edit (FTCamp: add/move/remove a group)."""
        raise InvalidState(f"{self.title} has no GM edits.")

    def load_file(self, filename: str, text: str) -> tuple[dict[str, str], str, int]:
        """(option changes, summary, seats needed) of a setup file (FTCamp scenario);
        announced by ``reads_setup_file``."""
        raise InvalidState(f"{self.title} takes no setup file.")

    def export_file(self, state: StateT | None, options: dict[str, object],
                    seats: int) -> tuple[str, str, str]:
        """(file name, text, note) of the campaign as a setup file, for the GM."""
        raise InvalidState(f"{self.title} has no file to export.")

    def side_file(self, state: StateT, seat: int, title: str,
                  ended: bool = False, now: datetime | None = None) -> tuple[str, str, str]:
        """(file name, text, note) of one side's ships (HRFT: an .FTFleet of the survivors);
        announced by ``writes_side_files``."""
        raise InvalidState(f"{self.title} has no side file to export.")

    def upload_names(self, filename: str, data: bytes, state: StateT | None = None,
                     action: str = "") -> list[str]:
        """The names an uploaded file holds, read before it is submitted as ``action``."""
        raise InvalidState(f"{self.title} takes no uploads.")

    # --- battles fought in their own campaign (bot/campaign/war.py, links.py) ---------------

    def take_in(self, state: StateT, intake: Intake) -> Outcome:
        """A parent's battle comes in at the start (HRFT: roster and forces). Default:
        nothing is taken in."""
        return Outcome(state=state)

    def battle_result(self, state: StateT, name: str = "") -> BattleResult | None:
        """An ended battle's result for its parent. Default None: there is none to send."""
        return None

    def propose_battle(self, state: StateT, ref: str, result: BattleResult) -> Outcome | None:
        """A battle's result as a proposal in this (parent) state; None = that battle waits
        for no result. Called only when ``takes_battle_results``."""
        return None

    def battle_round(self, state: StateT) -> int | None:
        """The round a kept battle result belongs to. Default None: no rounds."""
        return None

    def battle_refs(self, state: StateT) -> list[str]:
        """The battles waiting to be fought in their own campaign. Default: none."""
        return []

    def battle_link(self, state: StateT, ref: str, designs: str = "") -> BattleSpec | None:
        """What a battle for ``ref`` brings in; None = a free description (the default).
        ``designs``: the GM's choice of design for craft that name none (E-D38). Its
        optional ``name`` is the battle's name, its round or turn in it (P-16)."""
        return None

    def battles_in_threads(self, state: StateT) -> list[str]:
        """P-18: the battles the current step waits for that are being fought in their own
        threads (no result yet): the step then has no deadline and no reminders."""
        return []

    def link_battle(self, state: StateT, ref: str, name: str) -> Outcome | None:
        """Marks ``ref`` as fought in the battle ``name``. Default None: nothing to mark."""
        return None

    # --- the offline demo (bot/campaign/demo.py) --------------------------------------------

    def scripted_player(self, seat: int) -> ScriptedPlayer:
        """A player that picks legal actions from its seat's view, for the demo."""
        raise InvalidInput(f"Rule set '{self.name}' has no scripted players, so no demo.")

    def demo_battles(self, state: StateT) -> list[str]:
        """The battles a demo fights in their own campaign now. Default: none."""
        return []


# The service's view of a rule set: it holds any of them, so it knows no state type.
AnyRuleset = RulesetBase[Any, Any]
