"""The living rulebook drawn: one HTML page or a print-ready PDF (A4 or letter), each example's figure beside its text.

The analysis builds the rulebook of a rule set (:func:`guyenne_explore.analysis.rulebook`): the text with the
rule set's numbers, each example replayed by the engine, and the diff against the preset.  Here each replay
becomes a diagram (:func:`.svg.position_svg`, captioned in the example's words) and the whole becomes a page:
the diff first, then the sections in order.  The PDF is built by fpdf2 with the shipped DejaVu fonts, embedded;
every page has the paper's size and every figure is drawn at one scale (:data:`FIGURE_SCALE`), starting a new
page where the rest of a page cannot hold it, so no figure is ever cut.
"""

from __future__ import annotations

import io
import pathlib
from html import escape
from typing import TYPE_CHECKING

from ..i18n import gettext, ngettext
from .export import COVERED, FONT_FILES, FAMILY, PT_PER_PX, _fpdf_svg, svg_size, svg_to_png
from .svg import position_svg

if TYPE_CHECKING:  # pragma: no cover
    from ..analysis.rulebook import Replay, Rulebook

#: Paper sizes in points (width, height), by the name ``--paper`` takes.
PAPERS = {"a4": (595.28, 841.89), "letter": (612.0, 792.0)}
#: The page's white border, in points (three quarters of an inch: any printer's unprinted edge and more).
MARGIN = 54.0
#: Figures are drawn at this scale of their SVG size in points: a 720-px diagram is 432 pt (15.2 cm) wide,
#: within both papers' text width.
FIGURE_SCALE = 0.6 / PT_PER_PX
#: The PNG resolution of a figure holding a character the shipped font lacks (drawn by resvg instead).
PNG_RESOLUTION = 2.0


def figure_svg(replay: Replay, lang: str) -> str | None:
    """The diagram of an example as replayed, captioned in ``lang``; None when it could not be set up."""
    if replay.figure is None:
        return None
    return position_svg(replay.figure, caption=replay.example.caption[lang], lang=lang,
                        show_winners=bool(replay.example.figure.get("show_winners")))


def _title(rb: Rulebook) -> str:
    return gettext("Guyenne: the rulebook of {rules}", rb.lang).format(rules=rb.rules)


def _diff_lines(rb: Rulebook) -> list[tuple[str, str, str, str]]:
    """The diff as rows: section title, the example by its caption (its id, "drawing-refill", is the file's name for
    it, no reader's), verdict before, verdict after."""
    titles = {s.id: s.title for s in rb.sections}
    return [(titles[d.section], d.after.example.caption[rb.lang], d.before.words(rb.lang), d.after.words(rb.lang))
            for d in rb.diff]


def diff_heading(rb: Rulebook) -> str:
    """The diff's heading: how many examples change from the preset, or that none does."""
    if rb.diff:
        return ngettext("What changes from {preset}: {count} example", "What changes from {preset}: {count} examples",
                        len(rb.diff), rb.lang).format(preset=rb.rules.preset_name, count=len(rb.diff))
    return gettext("Every example holds as under {preset}.", rb.lang).format(preset=rb.rules.preset_name)


# ---------------------------------------------------------------------- HTML
def rulebook_html(rb: Rulebook) -> str:
    """One standalone HTML page: the diff, then each section's text and its examples' figures and verdicts."""
    lang = rb.lang
    parts = [f"<!DOCTYPE html><html lang='{lang}'><head><meta charset='utf-8'><title>{escape(_title(rb))}</title>"
             "<style>body{font-family:sans-serif;max-width:800px;margin:auto;line-height:1.45}"
             ".rb-diff td,.rb-diff th{border:1px solid #bbb;padding:3px 6px;vertical-align:top}"
             ".rb-diff{border-collapse:collapse}.rb-verdict{color:#444;font-size:90%}"
             ".rb-refused{color:#a00}figure{margin:1em 0}svg{max-width:100%;height:auto}</style></head><body>",
             f"<h1>{escape(_title(rb))}</h1>", f"<section class='rb-diff-section'><h2>{escape(diff_heading(rb))}</h2>"]
    if rb.diff:
        head = (gettext("section", lang), gettext("example", lang), gettext("before", lang), gettext("after", lang))
        parts.append("<table class='rb-diff'><tr>" + "".join(f"<th>{escape(h)}</th>" for h in head) + "</tr>"
                     + "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in _diff_lines(rb))
                     + "</table>")
    parts.append("</section>")
    for s in rb.sections:
        parts.append(f"<section id='{s.id}' data-section='{s.id}'><h2>{escape(s.title)}</h2>")
        parts += [f"<p>{escape(p)}</p>" for p in s.paragraphs]
        for r in s.replays:
            parts.append(_figure_html(r, lang))
        parts.append("</section>")
    return "".join(parts) + "</body></html>"


def _figure_html(r: Replay, lang: str) -> str:
    svg = figure_svg(r, lang)
    verdict = escape(r.words(lang))
    if svg is None:
        return (f"<figure data-example='{r.example.id}'><figcaption>{escape(r.example.caption[lang])}</figcaption>"
                f"<p class='rb-refused'>{verdict}</p></figure>")
    return f"<figure data-example='{r.example.id}'>{svg}<p class='rb-verdict'>{verdict}</p></figure>"


# ---------------------------------------------------------------------- PDF
class _Book:
    """An fpdf2 document of one paper size, text flowing down the page, figures kept whole."""

    def __init__(self, paper: str) -> None:
        from fpdf import FPDF

        if paper not in PAPERS:
            raise ValueError(gettext("unknown paper {paper}: choose {papers}").format(
                paper=repr(paper), papers=", ".join(PAPERS)))
        self.pdf = FPDF(unit="pt", format=PAPERS[paper])
        self.pdf.set_margins(MARGIN, MARGIN, MARGIN)
        self.pdf.set_auto_page_break(True, MARGIN)
        self.pdf.set_creator("guyenne_explore")
        regular, bold = (next(f for f in FONT_FILES if f.endswith(n)) for n in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"))
        self.pdf.add_font(FAMILY, "", regular)
        self.pdf.add_font(FAMILY, "B", bold)
        self.pdf.add_page()
        self.width = PAPERS[paper][0] - 2 * MARGIN

    def text(self, text: str, size: float = 10.5, bold: bool = False, space: float = 6.0) -> None:
        """A paragraph across the text width."""
        self.pdf.set_font(FAMILY, "B" if bold else "", size)
        self.pdf.multi_cell(self.width, size * 1.35, text, new_x="LMARGIN", new_y="NEXT")
        self.pdf.ln(space)

    def figure(self, svg: str) -> None:
        """A diagram at :data:`FIGURE_SCALE`, on a new page when the rest of this one cannot hold it whole."""
        w, h = (v * PT_PER_PX * FIGURE_SCALE for v in svg_size(svg))
        if self.pdf.get_y() + h > self.pdf.h - MARGIN:
            self.pdf.add_page()
        x, y = (self.pdf.w - w) / 2, self.pdf.get_y()
        if all(ord(ch) in COVERED for ch in svg):
            self.pdf.image(io.BytesIO(_fpdf_svg(svg).encode("utf-8")), x=x, y=y, w=w, h=h)
        else:
            self.pdf.image(io.BytesIO(svg_to_png(svg, PNG_RESOLUTION)), x=x, y=y, w=w, h=h)
        self.pdf.set_y(y + h + 4)


def rulebook_pdf(rb: Rulebook, paper: str = "a4") -> bytes:
    """The rulebook as a PDF on ``paper`` (``a4`` or ``letter``): title, diff, sections, figures and verdicts."""
    book = _Book(paper)
    book.text(_title(rb), size=18, bold=True, space=10)
    book.text(diff_heading(rb), size=13, bold=True)
    for section, example, before, after in _diff_lines(rb):
        book.text(f"{section}, {example}: {before} → {after}", size=9.5, space=3)
    for s in rb.sections:
        book.pdf.ln(8)
        book.text(s.title, size=14, bold=True)
        for p in s.paragraphs:
            book.text(p)
        for r in s.replays:
            svg = figure_svg(r, rb.lang)
            if svg is None:
                book.text(r.example.caption[rb.lang], size=9.5, bold=True, space=2)
            else:
                book.figure(svg)
            book.text(r.words(rb.lang), size=9, space=10)
    return bytes(book.pdf.output())


def write_rulebook(rb: Rulebook, path: str | pathlib.Path, paper: str = "a4") -> list[pathlib.Path]:
    """Write ``FILE.pdf``, ``FILE.html``, or into a folder (made if missing) ``rulebook.html`` and ``rulebook.pdf``."""
    path = pathlib.Path(path)
    suffix = path.suffix.lower()
    if suffix == ".pdf":
        path.write_bytes(rulebook_pdf(rb, paper))
        return [path]
    if suffix in (".html", ".htm"):
        path.write_text(rulebook_html(rb), encoding="utf-8")
        return [path]
    if suffix:
        raise ValueError(gettext("cannot write a rulebook as {name}: use a .pdf or .html file name, or a folder").format(
            name=repr(path.name)))
    path.mkdir(parents=True, exist_ok=True)
    (path / "rulebook.html").write_text(rulebook_html(rb), encoding="utf-8")
    (path / "rulebook.pdf").write_bytes(rulebook_pdf(rb, paper))
    return [path / "rulebook.html", path / "rulebook.pdf"]


__all__ = ["FIGURE_SCALE", "MARGIN", "PAPERS", "diff_heading", "figure_svg", "rulebook_html", "rulebook_pdf", "write_rulebook"]
