"""The explorer: the live table beside the builder, the legal moves, the analysis and the variant lab.

Every panel observes one explorer state (:mod:`.state`): the position, the problems of
the builder's form, the game played and the move previewed.  The builder writes it on its
own edits (None when its position is invalid, so nothing is ever analysed from an invalid
position); the moves panel writes it when a move is applied or the game is stepped, and the
builder then shows that position in its form without reading it back.  The table draws the
position, the moves panel lists its moves, the analysing panels receive it.
"""

from __future__ import annotations

import pathlib
from typing import Any

import ipywidgets as w

from ..i18n import gettext as _
from ..i18n import set_language
from ..position import Position
from .analysis_panel import AnalysisPanel
from .balance_panel import BalancePanel
from .builder import Builder
from .diagram_export import DiagramExport
from .guard import guarded
from .language import LanguageSwitch, relabel
from .moves_panel import MovesPanel
from .session import SessionControls
from .skill_panel import SkillPanel
from .starts import before_deal
from .state import ExplorerState
from .table import Table
from .variant_lab import VariantLab

TABS = ("Builder", "Analysis", "Variant lab", "Skill levels", "Balance")
STYLE = pathlib.Path(__file__).parent / "static" / "explorer.css"


def intro_html() -> str:
    """How to use the explorer, in the current language (the notebook's own text cannot follow a switch)."""
    return "".join(f"<p>{paragraph}</p>" for paragraph in (
        _("The table on the left is live: click a castle to cycle its controller (neutral → English → French), click a "
          "hand, deck, discard or removed pile to edit its counts in the builder. Hover a legal move to preview it on "
          "the table, click to select it, double-click (or <i>Apply selected</i>) to play it; <i>Back</i> and "
          "<i>Forward</i> step through the game. The builder names every problem of the position beside its field; an "
          "invalid position never reaches the analysis. The tabs hold the builder, the analysis, the variant lab, "
          "the skill levels (how the rule sets compare under uniform, heuristic, strong and search play, and how each "
          "level plays) and the balance lab (the settings that meet your targets, skill depth and luck)."),
        _("It opens on the game before the deal under the advanced rules: the analysis weighs every deal by its "
          "probability. Under <i>start from</i> in the builder, <i>a dealt opening</i> loads one deal by its seed "
          "(<i>Deal again</i> deals the next).")))


class Explorer(w.HBox):
    """Every panel together; ``Explorer()`` opens on the game before the deal under the advanced rules, in ``lang``
    (``en``/``fr``; default: the current language, see :mod:`guyenne_explore.i18n`)."""

    def __init__(self, position: Position | None = None, lang: str | None = None, **kwargs: Any) -> None:
        start = position if position is not None else before_deal("advanced")
        self.state = ExplorerState(start)  # what every panel shows (see the module's words)
        self.table = Table(start)
        self.moves = MovesPanel(state=self.state)
        self.analysis = AnalysisPanel(start)
        self.analysis.add_class("guyenne-analysis")  # for pages and tests to find the panel
        self.lab = VariantLab(start)
        self.lab.add_class("guyenne-variant-lab")
        self.skill = SkillPanel(start)  # the same rule sets under each level of play
        self.skill.add_class("guyenne-skill-levels")
        # settings that meet a designer's targets, from the deal, and the skill depth (the lab's variant may start it)
        self.balance = BalancePanel(start, variant=lambda: self.lab.variant)
        self.builder = Builder(state=self.state)
        self.builder.add_class("guyenne-builder")  # scrolls on its own beside the table (static/explorer.css)
        # side by side down to about 1150 px (a 1280x800 window, JupyterLab without its side bar),
        # one above the other below that; the table's diagram scales with its column
        self.tabs = w.Tab(children=[self.builder, self.analysis, self.lab, self.skill, self.balance],
                          layout=w.Layout(flex="1 1 560px", min_width="0"))
        self.tabs.titles = TABS
        self.diagram_export = DiagramExport(self.table)
        # English / Français: every panel's texts, the table and the downloads follow (see .language)
        self.language = LanguageSwitch(self.set_language, lang)
        # Save session / Open session: the whole session as one JSON file, by browser download and upload
        self.session = SessionControls(self)
        left = w.VBox([self.language, self.session, self.table, self.diagram_export, w.HTML("<h4>Legal moves</h4>"),
                       self.moves], layout=w.Layout(flex="0 1 560px", min_width="320px"))
        style = w.HTML(f"<style>{STYLE.read_text()}</style>", layout=w.Layout(display="none"))
        self.intro = w.HTML(intro_html(), layout=w.Layout(width="100%"))  # a row of its own above the columns
        self.intro.add_class("guyenne-intro")
        super().__init__([style, self.intro, left, self.tabs],
                         layout=w.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"), **kwargs)
        self.add_class("guyenne-explorer")
        # the panels follow the state; an unexpected error in one goes back to the control that changed the state
        # (the builder's field, the moves panel's button), which shows it beside itself, never raised
        self.state.observe(self._shown, names=["position", "start"])
        self.state.observe(self._problems, names="problems")
        w.dlink((self.state, "highlight"), (self.table, "highlight"))
        # clicks on the table: an unexpected error shows in the builder's section it concerns, never raised
        self.table.on_castle_click(guarded(self.builder.errors["castles"])(self.builder.cycle_castle))
        self.table.on_stack_click(guarded(self.builder.errors["general"])(self._edit_stack))
        if self.language.value != "en":
            self.set_language(self.language.value)

    @property
    def position(self) -> Position | None:
        """The valid position the explorer shows, or None while the builder's is invalid."""
        return self.state.position

    def set_language(self, lang: str) -> None:
        """Show every panel in ``lang`` (``en``/``fr``): fixed labels, the table, the move list's texts."""
        if self.language.value != lang:
            self.language.value = lang  # the switch calls back here after setting the process's language
            return
        set_language(lang)
        relabel(self, lang)
        self.intro.value = intro_html()
        self.builder.refresh()  # the problems beside the fields and the header, written again
        self.table._redraw()
        if self.state.position is None:
            self._problems(None)
        self.moves.refresh()
        self.diagram_export.refresh()  # the words beside its caption and scale
        for panel in (self.analysis, self.lab, self.skill, self.balance):  # the last results, drawn again from what they keep
            panel.refresh()

    def _shown(self, _change: Any) -> None:
        """The state's position to the table and the analysing panels (the builder and the moves panel
        observe the state themselves)."""
        p, start = self.state.position, self.state.start  # a dealt opening is named by its seed while shown
        if p is not None:
            self.table.set_position(p)
        else:
            self._problems(None)
        self.analysis.set_position(p, start)
        self.lab.set_position(p, start)
        self.skill.set_position(p, start)
        self.balance.set_position(p, start)

    def _problems(self, _change: Any) -> None:
        """While no position is valid, the table keeps its last diagram, dimmed, with the form's first problems."""
        if self.state.position is None:
            self.table.set_position(None, _("not a valid position: {problems}").format(
                problems="; ".join(map(str, self.state.problems[:2]))))

    def _edit_stack(self, side: str, zone: str, member: int) -> None:
        self.tabs.selected_index = TABS.index("Builder")
        self.builder.focus_zone(side, zone, member)
