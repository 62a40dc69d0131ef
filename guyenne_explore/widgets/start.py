"""The explorer's first screen: "What do you want to know?", each question a designer brings one click away.

A new user met about 230 controls on five tabs and nothing pointing to the question they came with ("is
this rule set fair? what changes if...?").  The start names those questions; a click selects the tab
that answers one and sets its fields to a sensible first case of it (advanced from the deal, uniform
play...), ready to run: the run, its cost said beside its button, stays the user's to start.  The line
under the questions says what was set up and which button answers it, until another tab is chosen.  The first
question, "Is a rule set fair?", is also answered at once: its analysis takes a second (a few while the fast simulator
compiles, answered by the engine first), and a newcomer who clicked it met a set-up form and no answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape
from typing import TYPE_CHECKING, Any

import ipywidgets as w

from ..i18n import N_, gettext
from ..engine import Rules
from .guard import guarded
from .starts import BEFORE_DEAL, before_deal
from .state import AnalysisSettings

if TYPE_CHECKING:  # the explorer holds the start: only the lab's and the explorer's types are needed here
    from .variant_lab import VariantLab
    from .workspace import Workspace

#: the rule set every first question is asked of (the explorer opens on it)
FIRST_RULES = "advanced"
#: the change the "what does a change do?" question tries first: a hand of 7 instead of advanced's 6
FIRST_CHANGE = {"hand_size": 7}
#: the teaching notebook (the game, puzzles and lessons from game records), and the README's command that starts the
#: JupyterLab that opens it (a page of the Voilà app opens no notebook: the explorer's Learn tab holds the game)
TEACHING = "notebooks/teaching.ipynb"
#: the rules the Learn tab's game is played under: the base game, the rulebook's first chapter
TEACHING_RULES = "base"
JUPYTERLAB = "bash scripts/explorer.sh"


@dataclass(frozen=True)
class Question:
    """A question of the start: its key (tests and pages name it), its words on the button, what a click sets up
    (``set_up(explorer)``) and the line that then says so (HTML, in the current language)."""

    key: str
    words: str
    tooltip: str
    set_up: Callable[[Workspace], None]
    said: Callable[[], str]
    #: the tab (its English title) that answers it: the line under the questions speaks of it while it is shown
    tab: str


def _from_the_deal(ex: Workspace, rules: Rules | str = FIRST_RULES) -> None:
    """The builder on the game before the deal under ``rules``: every deal weighed by its probability."""
    ex.builder.start_choice.value = BEFORE_DEAL
    ex.builder.load_position(before_deal(rules))


def _uniform(panel: VariantLab) -> None:
    """Both sides at random legal moves, the method chosen by the plan, a few hundred games, seed 0: the
    lab's own defaults, set again in case the user changed them."""
    panel.english_policy.value = panel.french_policy.value = "uniform"
    panel.method.value = "auto"
    panel.games.value, panel.seed.value = 500, 0


def _fair(ex: Workspace) -> None:
    _from_the_deal(ex)
    # the analysis' own defaults (both sides at random legal moves, the method chosen by the plan, a few hundred
    # games, seed 0), asked again in case the user changed them: the analysis panel shows them
    ex.state.analysis = AnalysisSettings((Rules.preset(FIRST_RULES),))
    ex.show_tab("Analysis")
    ex.analysis.run(block=False)


def _change(ex: Workspace) -> None:
    _from_the_deal(ex)
    _uniform(ex.lab)
    ex.lab.load_rules(Rules.preset(FIRST_RULES, **FIRST_CHANGE))
    ex.show_tab("Variant lab")


def _targets(ex: Workspace) -> None:
    _from_the_deal(ex)
    ex.show_tab("Balance")


def _skill(ex: Workspace) -> None:
    _from_the_deal(ex)
    ex.skill.rule_sets.value = (Rules.preset(FIRST_RULES),)
    ex.show_tab("Skill levels")


def _teach(ex: Workspace) -> None:
    """The teaching game in the Learn tab: a game to play at once, each rule explained as it first applies (the
    question once only named a notebook, then showed the rulebook: a page to read, not the rules played)."""
    ex.show_tab("Learn")


def _example(ex: Workspace) -> None:
    ex.builder.start_choice.value = "rulebook example"
    ex.builder.start_from("rulebook example")
    ex.diagram_export.selected_index = 0  # the diagram's export, open under the table
    ex.show_tab("Builder")


def _press(button: str, tab: str) -> str:
    return gettext("Then press {button} in the {tab} tab.").format(button=f"<b>{escape(gettext(button))}</b>",
                                                              tab=escape(gettext(tab)))


QUESTIONS = (
    Question("fair", N_("Is a rule set fair?"), N_("the first player's score under advanced, every deal weighed"),
             _fair, lambda: escape(gettext("Answered: advanced from the deal, both sides at random legal moves; the "
                                           "line above the figures of the Analysis tab says it. Change its settings and "
                                           "press {button} to ask again.")).format(
                 button="<b>" + escape(gettext("Run analysis")) + "</b>"), "Analysis"),
    Question("change", N_("What does a change do?"), N_("advanced with a hand of 7 against advanced itself"),
             _change, lambda: escape(gettext("Set up: advanced with a hand of 7 against advanced, from the deal; change "
                                             "any parameter in the Variant lab.")) + " "
             + _press("Compare with preset", "Variant lab"), "Variant lab"),
    Question("targets", N_("Which settings meet my targets?"), N_("the balance lab: the settings to vary, your targets"),
             _targets, lambda: escape(gettext("The Balance tab: choose the settings to vary and your targets, then run "
                                              "its search.")), "Balance"),
    Question("skill", N_("How do skilled players fare?"), N_("advanced under random, heuristic, strong and search play"),
             _skill, lambda: escape(gettext("Set up: advanced from the deal at each skill level.")) + " "
             + _press("Run skill levels", "Skill levels"), "Skill levels"),
    Question("teach", N_("Teach me the rules"), N_("a game that explains each rule as it comes"),
             _teach, lambda: escape(gettext("The Learn tab: choose a move in the list (hover it to see it on the "
                                            "table, double-click to play it) or type one.")), "Learn"),
    Question("example", N_("Draw a rule example"), N_("the rulebook's siege on the table, ready to export"),
             _example, lambda: escape(gettext("The rulebook's siege is on the table: download its diagram under "
                                              "{section}, below the table; the Builder changes any card.").format(
                 section=gettext("“{quote}”").format(quote=gettext("Export the diagram (SVG, PNG, PDF)")))), "Builder"),
)


class StartScreen(w.VBox):
    """"What do you want to know?" and one button a question (:data:`QUESTIONS`); a click sets the question up in
    ``explorer`` and the line below says what was set up.  ``chosen``: the last question's key."""

    def __init__(self, explorer: Workspace, **kwargs: Any) -> None:
        self._explorer = explorer
        self.note = w.HTML()
        self.chosen: str | None = None
        self.buttons = {q.key: w.Button(description=q.words, tooltip=q.tooltip, layout=w.Layout(width="auto"))
                        for q in QUESTIONS}
        for key, button in self.buttons.items():
            button.add_class(f"guyenne-question-{key}")
            button.on_click(guarded(self.note)(lambda _b, key=key: self.choose(key)))
        title = w.HTML(N_("<b>What do you want to know?</b>"))
        super().__init__([w.HBox([title, *self.buttons.values()],
                                 layout=w.Layout(flex_flow="row wrap", align_items="center", grid_gap="4px")),
                          self.note], layout=w.Layout(width="100%"), **kwargs)
        self.add_class("guyenne-first-task")

    def choose(self, key: str) -> None:
        """Set up the question ``key`` (one of :data:`QUESTIONS`) and say so."""
        question = next((q for q in QUESTIONS if q.key == key), None)
        if question is None:
            raise ValueError(f"unknown question {key!r}: one of {', '.join(q.key for q in QUESTIONS)}")
        self.chosen = key  # before the set-up shows its tab (:meth:`tab_shown`)
        question.set_up(self._explorer)
        for name, button in self.buttons.items():
            button.button_style = "info" if name == key else ""
        self.refresh()

    def tab_shown(self, title: str) -> None:
        """Another tab than the chosen question's: the line under the questions no longer speaks of what is shown (it
        said "press Run analysis" above the Play tab), so the choice is forgotten."""
        question = next((q for q in QUESTIONS if q.key == self.chosen), None)
        if question is not None and question.tab != title:
            self.chosen = None
            for button in self.buttons.values():
                button.button_style = ""
            self.refresh()

    def refresh(self) -> None:
        """The line under the questions in the current language (after a choice, and a language switch)."""
        question = next((q for q in QUESTIONS if q.key == self.chosen), None)
        self.note.value = question.said() if question is not None else ""
