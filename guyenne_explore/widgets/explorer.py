"""The explorer: the live table beside the builder, the legal moves, the analysis and the variant lab.

Every panel observes one explorer state (:mod:`.state`): the position, the problems of
the builder's form, the game played and the move previewed.  The builder writes it on its
own edits (None when its position is invalid, so nothing is ever analysed from an invalid
position); the moves panel writes it when a move is applied or the game is stepped, and the
builder then shows that position in its form without reading it back.  The table draws the
position, the moves panel lists its moves, the analysing panels receive it.

Above the panels, one line of help (folded) and the start (:mod:`.start`): "What do you want to
know?", the questions a designer brings, each setting up the tab that answers it in one click.
"""

from __future__ import annotations

import pathlib
from typing import Any, TypeVar

import anywidget
import ipywidgets as w
import traitlets

from ..i18n import current_language, set_language
from ..i18n import N_, gettext as _
from ..engine import Position
from .analysis_panel import AnalysisPanel
from .balance_panel import BalancePanel
from .builder import Builder
from .diagram_export import DiagramExport
from .guard import guarded
from .language import LanguageSwitch, relabel
from .moves_panel import MovesPanel
from .play_panel import PlayPanel
from .rulebook_panel import RulebookPanel
from .run_controls import when_compiled
from .session import SessionControls
from .skill_panel import SkillPanel
from .start import JUPYTERLAB, TEACHING, TEACHING_RULES, StartScreen
from .starts import before_deal
from .state import ExplorerState
from .table import Table
from .teaching import TeachingGame
from .variant_lab import VariantLab

TABS = ("Builder", "Analysis", "Variant lab", "Skill levels", "Balance", "Play", "Rulebook", "Learn")
#: the tabs whose panel is built when first shown or asked for (:meth:`Explorer.panel`): half the explorer's 2,300
#: widgets, which a page's kernel and browser would otherwise create before its table shows
DEFERRED = TABS[2:]
#: the tabs that show no analysis of the built position: a game's own table (Play, Learn), a rulebook's examples
WITHOUT_POSITION = ("Play", "Rulebook", "Learn")
#: the table's column beside the tabs: 560 px, narrower where the window is
LEFT_FLEX = "0 1 560px"
STATIC = pathlib.Path(__file__).parent / "static"
STYLE = STATIC / "explorer.css"
#: a panel's own class, as :meth:`Explorer._panel` returns it
Panel = TypeVar("Panel", bound=w.Box)


class PageTitle(anywidget.AnyWidget):
    """The browser tab's title and the page's ``lang``, in the language shown (:meth:`show` after a switch): the
    app's page is the explorer's own; in JupyterLab the page script leaves Lab's title alone (static/page_title.js).
    In the app it also says, in ``stopped``'s words, that the explorer stopped when the page's kernel is gone."""

    _esm = STATIC / "page_title.js"

    title = traitlets.Unicode("").tag(sync=True)
    lang = traitlets.Unicode("en").tag(sync=True)
    #: the banner the app's page shows once its kernel is gone (the page cannot ask a dead kernel for words)
    stopped = traitlets.Unicode("").tag(sync=True)

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(layout=w.Layout(display="none"), **kwargs)
        self.show()

    def show(self) -> None:
        """The title, the language and the banner's words, in the current language."""
        with self.hold_sync():
            self.title, self.lang = _("Guyenne explorer"), current_language()
            self.stopped = _("The explorer has stopped: its Python kernel is gone. Reload the page to start it again.")


def intro_html() -> str:
    """One line above the panels, what the explorer is for, with its help folded under a link (a new user reads
    the questions of the start first, not 300 px about the table); in the current language (the notebook's own
    text cannot follow a switch)."""
    return ("<details class='guyenne-help'><summary>" + _("Explore the rules of Guyenne: choose a question below, or "
                                                         "any tab. {help}").format(
        help="<a style='text-decoration:underline;cursor:pointer'>" + _("Help: how the explorer works") + "</a>")
        + "</summary>" + help_html() + "</details>")


def help_html() -> str:
    """How to use the explorer: the table, the moves, the tabs and the start of the game."""
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


def learn_intro_html() -> str:
    """One line above the teaching game, in the current language: who plays whom under which rules, and where the
    rest of the teaching is (the puzzles and lessons from game records are a notebook's, which the app cannot open)."""
    return "<p>" + _("You play the English against the heuristic under the base rules; each rule is explained the "
                     "first time it applies. The {rulebook} tab has every rule with its examples; puzzles and lessons "
                     "from game records are in the notebook {notebook} (JupyterLab: {command}).").format(
        rulebook="<b>" + _("Rulebook") + "</b>", notebook=f"<code>{TEACHING}</code>",
        command=f"<code>{JUPYTERLAB}</code>") + "</p>"


def tab_slot() -> w.VBox:
    """The box a tab of :data:`DEFERRED` holds: "Opening this tab..." until its panel is built, then the panel (the
    tab's children stay as they are: a page whose tabs' children change selects another tab)."""
    box = w.VBox([w.HTML(N_("Opening this tab..."))])  # English, shown in the page's language by the switch (relabel)
    box.add_class("guyenne-tab-pending")  # pages and tests wait for it to go
    return box


class Explorer(w.HBox):
    """Every panel together; ``Explorer()`` opens on the game before the deal under the advanced rules, in ``lang``
    (``en``/``fr``; default: the current language, see :mod:`guyenne_explore.i18n`)."""

    def __init__(self, position: Position | None = None, lang: str | None = None, **kwargs: Any) -> None:
        start = position if position is not None else before_deal("advanced")
        self.state = ExplorerState(start)  # what every panel shows (see the module's words)
        self.table = Table(start)
        self.moves = MovesPanel(state=self.state)
        self.analysis = AnalysisPanel(start, state=self.state)  # it shows and writes the state's analysis settings
        self.analysis.add_class("guyenne-analysis")  # for pages and tests to find the panel
        self.builder = Builder(state=self.state)
        self.builder.add_class("guyenne-builder")  # scrolls on its own beside the table (static/explorer.css)
        #: the panels of :data:`DEFERRED` built so far, by tab title (:meth:`panel`)
        self._built: dict[str, w.Box] = {}
        # side by side down to about 1150 px (a 1280x800 window, JupyterLab without its side bar),
        # one above the other below that; the table's diagram scales with its column
        self.tabs = w.Tab(children=[self.builder, self.analysis, *(tab_slot() for _ in DEFERRED)],
                          layout=w.Layout(flex="1 1 560px", min_width="0"))
        self.tabs.titles = TABS
        self.diagram_export = DiagramExport(self.table)
        # English / Français: every panel's texts, the table and the downloads follow (see .language)
        self.language = LanguageSwitch(self.set_language, lang)
        # Save session / Open session: the whole session as one JSON file, by browser download and upload
        self.session = SessionControls(self)
        #: the built position's table and moves, beside the tabs: hidden while a tab that shows a table of its own,
        #: or none of the position, is open (a person playing saw two boards and two move boxes side by side)
        self.left = w.VBox([self.table, self.diagram_export, w.HTML("<h4>Legal moves</h4>"), self.moves],
                           layout=w.Layout(flex=LEFT_FLEX, min_width="320px"))
        self.left.add_class("guyenne-left")  # pages and tests find the column by this
        style = w.HTML(f"<style>{STYLE.read_text()}</style>", layout=w.Layout(display="none"))
        self.page_title = PageTitle()
        self.intro = w.HTML(intro_html(), layout=w.Layout(flex="1 1 420px"))
        self.intro.add_class("guyenne-intro")
        #: the first row: what the explorer is for, then the language and the session, which concern every tab (in
        #: the table's column they pushed the tabs down a row whenever the column stepped aside)
        self.header = w.HBox([self.intro, self.language, self.session],
                             layout=w.Layout(width="100%", align_items="center"))
        self.header.add_class("guyenne-header")
        self.start = StartScreen(self)  # "What do you want to know?": a row of its own, the first thing read
        # the page's width permitting, the tabs' strip takes a row of its own above the table's column and the tab
        # (static/explorer.css), so it stays where it is when the column steps aside for Play, Rulebook or Learn
        super().__init__([style, self.page_title, self.header, self.start, self.left, self.tabs],
                         layout=w.Layout(flex_flow="row wrap", align_items="flex-start", width="100%"), **kwargs)
        self.add_class("guyenne-explorer")
        # the panels follow the state; an unexpected error in one goes back to the control that changed the state
        # (the builder's field, the moves panel's button), which shows it beside itself, never raised
        self.state.observe(self._shown, names=["position", "start"])
        self.state.observe(self._problems, names=["problems", "draft"])
        w.dlink((self.state, "highlight"), (self.table, "highlight"))
        # clicks on the table: an unexpected error shows in the builder's section it concerns, never raised
        self.table.on_castle_click(guarded(self.builder.errors["castles"])(self.builder.cycle_castle))
        self.table.on_stack_click(guarded(self.builder.errors["general"])(self._edit_stack))
        self.tabs.observe(guarded(self.start.note)(lambda _: self._show_position_column()), names="selected_index")
        # a tab's panel is built as it is first shown (once the column beside it took its place: the page changes at
        # the click, then the panel comes)
        self.tabs.observe(guarded(self.start.note)(lambda _: self._build_shown()), names="selected_index")
        self.tabs.observe(guarded(self.start.note)(lambda _: self.start.tab_shown(TABS[self.tabs.selected_index or 0])),
                          names="selected_index")
        if self.language.value != "en":
            self.set_language(self.language.value)
        # the cost lines written while the launch's background step compiles say so: written again once it ends
        # (None when nothing compiles)
        self.compiled_watch = when_compiled(guarded(self.analysis.controls.status)(self._compiled))

    # ------------------------------------------------------------------ the panels built when first wanted
    @property
    def lab(self) -> VariantLab:
        """The variant lab: a rule change tried on the built position, compared with its preset."""
        return self._panel("Variant lab", VariantLab)

    @property
    def skill(self) -> SkillPanel:
        """The same rule sets under each level of play."""
        return self._panel("Skill levels", SkillPanel)

    @property
    def balance(self) -> BalancePanel:
        """Settings that meet a designer's targets, from the deal, and the skill depth."""
        return self._panel("Balance", BalancePanel)

    @property
    def play(self) -> PlayPanel:
        """People and bots play the table's position, the lab's variant or a preset; every game is kept."""
        return self._panel("Play", PlayPanel)

    @property
    def rulebook(self) -> RulebookPanel:
        """The rulebook of the lab's variant or a preset, every example replayed, its diff against the preset."""
        return self._panel("Rulebook", RulebookPanel)

    @property
    def learn(self) -> TeachingGame:
        """The teaching game: the base rules played against the heuristic, each rule explained as it first applies."""
        return self._panel("Learn", TeachingGame)

    @property
    def learn_intro(self) -> w.HTML:
        """The line above the teaching game: who plays whom, and where the rest of the teaching is."""
        intro = self.learn.children[0]
        assert isinstance(intro, w.HTML)
        return intro

    def panel(self, title: str) -> w.Box:
        """The panel of the tab ``title`` (one of :data:`TABS`, in English), built now if it was not yet."""
        if title not in DEFERRED:
            return (self.builder, self.analysis)[TABS.index(title)]
        if title not in self._built:
            made = self._make(title)
            lang = current_language()
            if lang != "en":  # its fixed texts as the rest of the page shows them
                relabel(made, lang)
            if hasattr(made, "set_position"):
                made.set_position(self.state.position, self.state.start)
            self._built[title] = made
            slot = self.tabs.children[TABS.index(title)]
            slot.children = (made,)
            slot.remove_class("guyenne-tab-pending")
        return self._built[title]

    def _panel(self, title: str, kind: type[Panel]) -> Panel:
        made = self.panel(title)
        assert isinstance(made, kind)
        return made

    def _make(self, title: str) -> w.Box:
        """A new panel of the tab ``title`` (of :data:`DEFERRED`) for the built position, in the language shown."""
        start = self.state.position
        if title == "Variant lab":
            made: w.Box = VariantLab(start)
            made.add_class("guyenne-variant-lab")
        elif title == "Skill levels":
            made = SkillPanel(start)
            made.add_class("guyenne-skill-levels")
        elif title == "Balance":  # the lab's variant may start it
            made = BalancePanel(start, variant=lambda: self.lab.variant)
        elif title == "Play":
            made = PlayPanel(position=lambda: self.state.position, variant=lambda: self.lab.variant)
        elif title == "Rulebook":
            made = RulebookPanel(variant=lambda: self.lab.variant)
            made.add_class("guyenne-rulebook")
        else:  # the explorer's language switch drives the teaching game: its own is hidden
            game = TeachingGame(TEACHING_RULES, side="english", seed=1, lang=current_language())
            game.language.layout.display = "none"
            game.table.layout.max_width = "560px"  # the explorer's table size: the move list stays nearer the window
            game.children = (w.HTML(learn_intro_html()), *game.children)
            game.add_class("guyenne-learn")
            made = game
        return made

    def _build_shown(self) -> None:
        """Build the panel of the tab just shown, if it was not yet."""
        self.panel(TABS[self.tabs.selected_index or 0])

    def _built_panels(self) -> list[Any]:
        """The analysing and playing panels built so far, the analysis first."""
        return [self.analysis, *self._built.values()]

    def _compiled(self) -> None:
        """The fast simulator compiled: the panels' cost lines no longer say it is to compile."""
        for panel in self._built_panels():
            if hasattr(panel, "refresh_costs"):
                panel.refresh_costs()

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
        if "Learn" in self._built:
            self.learn_intro.value = learn_intro_html()
            self.learn.set_language(lang)
        self.page_title.show()  # the browser tab's title
        self.session.refresh()  # what was opened, and the notes on it
        self.start.refresh()  # the line saying what the question chosen set up
        self.builder.refresh()  # the problems beside the fields and the header, written again
        self.table._redraw()
        if self.state.position is None:
            self._problems(None)
        self.moves.refresh()
        self.diagram_export.refresh()  # the words beside its caption and scale
        # the last results, drawn again from what they keep
        for panel in self._built_panels():
            if panel is not self._built.get("Learn"):
                panel.refresh()

    def _shown(self, _change: Any) -> None:
        """The state's position to the table and the analysing panels (the builder and the moves panel
        observe the state themselves)."""
        p, start = self.state.position, self.state.start  # a dealt opening is named by its seed while shown
        if p is not None:
            self.table.set_position(p)
        else:
            self._problems(None)
        for panel in self._built_panels():
            if hasattr(panel, "set_position"):
                panel.set_position(p, start)

    def _problems(self, _change: Any) -> None:
        """While no position is valid, the table draws the builder's as it stands (its draft) with the form's first
        problems under it; a form that cannot be read that far leaves the last diagram, dimmed, with them."""
        if self.state.position is None:
            words = _("not a valid position: {problems}").format(problems="; ".join(map(str, self.state.problems[:2])))
            if self.state.draft is not None:
                self.table.set_draft(self.state.draft, words)
            else:
                self.table.set_position(None, words)

    def _show_position_column(self) -> None:
        """The built position's table and moves beside every tab but those of :data:`WITHOUT_POSITION`, which take
        the whole width."""
        self.left.layout.display = "none" if TABS[self.tabs.selected_index or 0] in WITHOUT_POSITION else None

    def show_tab(self, title: str) -> None:
        """Select the tab ``title`` (one of :data:`TABS`, in English whatever the language shown)."""
        self.tabs.selected_index = TABS.index(title)

    def _edit_stack(self, side: str, zone: str, member: int) -> None:
        self.show_tab("Builder")
        self.builder.focus_zone(side, zone, member)
