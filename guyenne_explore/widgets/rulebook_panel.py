"""The Rulebook tab: the rulebook of the variant lab's variant or of a preset, its diff on top, HTML and PDF downloads.

The rulebook is built by the analysis (every example replayed by the engine under the rules chosen) and drawn by
the render layer; this panel only chooses the rules, shows the page and hands the files to the browser, so the
page never names a folder of the server.  Rules the variant lab cannot build (a value outside its bounds) are
named beside the choice, and nothing is built from them.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape
from typing import Any

import ipywidgets as w

from ..analysis.rulebook import Rulebook, build_rulebook
from ..i18n import N_, current_language, gettext
from ..render.rulebook import PAPERS, diff_heading, rulebook_html, rulebook_pdf
from ..engine import PRESET_NAMES, Rules
from .files import Download
from .forms import messages_html
from .guard import guarded

#: The choice that takes the variant lab's rules, beside the presets.
LAB = "lab"


class RulebookPanel(w.VBox):
    """Rules to choose, a Build button, the diff, the rulebook itself and its downloads.

    ``variant`` returns the variant lab's rules, or None while the lab's values have problems."""

    def __init__(self, variant: Callable[[], Rules | None]) -> None:
        self.variant = variant
        self.book: Rulebook | None = None
        self.source = w.Dropdown(options=[(gettext("the variant lab's variant"), LAB), *((p, p) for p in PRESET_NAMES)],
                                 value=LAB, description=N_("Rules"), layout=w.Layout(width="360px"))
        self.problems = w.HTML()  # beside the choice: why the lab's rules cannot be used
        self.build = w.Button(description=N_("Build the rulebook"), icon="book", button_style="primary")
        self.paper = w.Dropdown(options=list(PAPERS), value="a4", description=N_("Paper"), layout=w.Layout(width="160px"))
        self.html_button = w.Button(description=N_("HTML"), icon="download", disabled=True)
        self.pdf_button = w.Button(description=N_("PDF"), icon="download", disabled=True)
        self.download = Download()
        self.diff = w.HTML()
        self.diff.add_class("guyenne-rulebook-diff")
        self.page = w.HTML()
        self.page.add_class("guyenne-rulebook-page")
        self.build.on_click(guarded(self.problems)(lambda _b: self.show()))
        self.html_button.on_click(guarded(self.problems)(lambda _b: self.offer("html")))
        self.pdf_button.on_click(guarded(self.problems)(lambda _b: self.offer("pdf")))
        super().__init__([w.HBox([self.source, self.build], layout=w.Layout(flex_flow="row wrap")), self.problems,
                          w.HBox([w.Label(N_("Download:")), self.paper, self.html_button, self.pdf_button, self.download],
                                 layout=w.Layout(flex_flow="row wrap", align_items="center")),
                          self.diff, self.page])

    #: what a saved session keeps besides the fields: whether the rulebook was built (built again on opening, from
    #: the rules chosen: nothing else to keep)
    SAVED = {"built": bool}

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps, in the order they are set back."""
        return {"source": self.source, "paper": self.paper}

    def saved_results(self) -> dict[str, Any]:
        """Whether the rulebook is built (:data:`SAVED`); nothing before it is."""
        return {"built": True} if self.book is not None else {}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The rulebook built again from the rules chosen, as it was shown."""
        if saved.get("built"):
            self.show()

    def rules(self) -> Rules | None:
        """The rules chosen, or None (their problems said beside the choice) when the lab's cannot be built."""
        if self.source.value != LAB:
            return Rules.preset(self.source.value)
        rules = self.variant()
        if rules is None:
            self.problems.value = messages_html([gettext("the variant lab's rules have problems: correct them there, "
                                                         "each is named beside its field")])
        return rules

    def show(self) -> None:
        """Build the rulebook of the rules chosen, in the current language, and show its diff and its page."""
        self.problems.value = ""
        rules = self.rules()
        self.book = None if rules is None else build_rulebook(rules, current_language())
        for button in (self.html_button, self.pdf_button):
            button.disabled = self.book is None
        if self.book is None:
            self.diff.value = self.page.value = ""
            return
        self.diff.value = _diff_html(self.book)
        page = rulebook_html(self.book)
        # the page's body without its own diff section: the diff is shown above it once (twice, "Every example holds
        # as under advanced." read as a status line and again as a heading)
        body = page[page.index("<body>") + 6:page.rindex("</body>")]
        start = body.index("<section class='rb-diff-section'>")
        self.page.value = body[:start] + body[body.index("</section>", start) + len("</section>"):]

    def offer(self, fmt: str) -> None:
        """Hand the rulebook shown to the browser as ``guyenne-rulebook.html`` or ``.pdf``."""
        if self.book is None:
            return
        data: bytes | str = rulebook_html(self.book) if fmt == "html" else rulebook_pdf(self.book, self.paper.value)
        self.download.offer(f"guyenne-rulebook.{fmt}", data)

    def refresh(self) -> None:
        """After a language switch: the choice's words, and the rulebook built again in the new language."""
        self.source.options = [(gettext("the variant lab's variant"), LAB), *((p, p) for p in PRESET_NAMES)]
        self.download.refresh()
        if self.book is not None:
            self.show()


def _diff_html(book: Rulebook) -> str:
    """The diff as a short list: each example whose verdict the variant changes, before and after."""
    lang = book.lang
    titles = {s.id: s.title for s in book.sections}
    rows = "".join(f"<li data-section='{d.section}' data-example='{d.example}'><b>{escape(titles[d.section])}</b>, "
                   f"{escape(d.after.example.caption[lang])}: {escape(d.before.words(lang))} → "
                   f"{escape(d.after.words(lang))}</li>"
                   for d in book.diff)
    return f"<h4>{escape(diff_heading(book))}</h4>" + (f"<ul>{rows}</ul>" if rows else "")


__all__ = ["LAB", "RulebookPanel"]
