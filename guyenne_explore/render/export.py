"""SVG diagrams to PNG and PDF with no system library: resvg (Rust, in the resvg-py wheel) and fpdf2.

A fresh machine may lack cairo and even fonts, so PNGs are drawn by resvg
with the DejaVu Sans subset shipped in ``fonts/`` for the SVGs' generic
``sans-serif``, system fonts loaded as a fallback for any other character.
PDFs are built by fpdf2 (pure Python), one page per picture, every page of a
document the same size (the largest picture's, plus a margin for a printed
storyboard), so that no viewer or printer that sizes a document by its first
page cuts off the bottom of a taller picture later on; pages are vector
drawings in the same font (a PNG page when the text needs a character the subset lacks).
"""

from __future__ import annotations

import io
import pathlib
import re
from collections.abc import Sequence

from ..i18n import gettext, plain_count

FONTS = pathlib.Path(__file__).parent / "fonts"
FONT_FILES = sorted(str(f) for f in FONTS.glob("*.ttf"))
FAMILY = "DejaVu Sans"
#: PDF pages are drawn at this many pixels per SVG pixel, so that print is sharp
PDF_RESOLUTION = 2.0


#: the scales a PNG (and a PDF page drawn as one) may be drawn at, the lowest and the highest: a quarter of the
#: SVG's size is the least that stays legible, 8 times (5,760 pixels across) more than any print needs.  The
#: diagram export's box and ``diagram --scale`` refuse a scale outside them.
SCALES = (0.25, 8.0)


def check_scale(scale: float) -> float:
    """``scale`` as a float, or a ValueError saying what a scale may be (:data:`SCALES`)."""
    low, high = SCALES
    if not (isinstance(scale, (int, float)) and low <= scale <= high):
        raise ValueError(gettext("{label} must be between {low} and {high}, not {value}").format(
            label=gettext("the scale"), low=plain_count(low), high=plain_count(high), value=repr(scale)))
    return float(scale)


def svg_size(svg: str) -> tuple[float, float]:
    """The ``width`` and ``height`` of an SVG's root element, in CSS pixels."""
    m = re.search(r'<svg\b[^>]*?\bwidth="([0-9.]+)"[^>]*?\bheight="([0-9.]+)"', svg)
    if m is None:
        raise ValueError("not an SVG with a width and height in pixels")
    return float(m.group(1)), float(m.group(2))


#: the characters the shipped font subset draws (see fonts/LICENSE.txt); others need the system's fonts
COVERED = frozenset(range(0x20, 0x7F)) | frozenset(range(0xA0, 0x180)) | frozenset(range(0x2010, 0x2028)) \
    | frozenset(range(0x2030, 0x205F)) | frozenset(range(0x2190, 0x2200)) | frozenset(range(0x25A0, 0x2600)) \
    | frozenset(range(0x2713, 0x2718)) | {0x2212, 0x09, 0x0A, 0x0D}


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """PNG bytes of an SVG text, ``scale`` times its pixel size (a 720-wide SVG at scale 2 is 1440 px wide).

    The system's fonts are scanned (which doubles the time) only when the text
    has a character the shipped subset lacks.
    """
    import resvg_py

    scale = check_scale(scale)
    width, height = svg_size(svg)
    return bytes(resvg_py.svg_to_bytes(
        svg_string=svg, width=max(1, round(width * scale)), height=max(1, round(height * scale)),
        background="#ffffff", font_files=FONT_FILES, font_family=FAMILY, sans_serif_family=FAMILY,
        skip_system_fonts=all(ord(ch) in COVERED for ch in svg)))


def _fpdf_svg(svg: str) -> str:
    """The SVG as fpdf2 draws it: text in the shipped font's family, no tooltips (fpdf2 ignores them noisily)."""
    svg = re.sub(r"<title>.*?</title>", "", svg, flags=re.S)
    return svg.replace('font-family="sans-serif"', f'font-family="{FAMILY}"', 1)


#: 1 CSS pixel in PDF points
PT_PER_PX = 0.75
Box = tuple[float, float, float, float]


def page_layout(svgs: Sequence[str], margin: float = 0.0) -> tuple[tuple[float, float], list[Box]]:
    """The one page size of a PDF of ``svgs`` (in points: the widest and the tallest picture, ``margin`` points
    on each side) and each picture's box on its page, ``(x, y, width, height)`` from the top left: at its own
    size, centred across, at the top margin."""
    sizes = [(w * PT_PER_PX, h * PT_PER_PX) for w, h in map(svg_size, svgs)]
    page = (max(w for w, _ in sizes) + 2 * margin, max(h for _, h in sizes) + 2 * margin)
    return page, [((page[0] - w) / 2, margin, w, h) for w, h in sizes]


def svgs_to_pdf(svgs: Sequence[str], resolution: float = PDF_RESOLUTION, margin: float = 0.0) -> bytes:
    """A PDF with one page per SVG, every page the same size (see :func:`page_layout`; 1 CSS px = 0.75 pt).

    Pages are vector drawings (fpdf2 reads the SVG, text in the shipped font)
    when the shipped font has every character; otherwise the page is the PNG
    drawn by resvg with the system's fonts, at ``resolution`` pixels per SVG pixel.
    """
    from fpdf import FPDF

    if not svgs:
        raise ValueError(gettext("a PDF needs at least one picture"))
    resolution = check_scale(resolution)
    pdf = FPDF(unit="pt")
    pdf.set_auto_page_break(False)
    pdf.set_creator("guyenne_explore")
    regular, bold = (next(f for f in FONT_FILES if f.endswith(name)) for name in ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"))
    pdf.add_font(FAMILY, "", regular)
    pdf.add_font(FAMILY, "B", bold)
    page, boxes = page_layout(svgs, margin)
    for svg, (x, y, w, h) in zip(svgs, boxes):
        pdf.add_page(format=page)
        if all(ord(ch) in COVERED for ch in svg):
            pdf.image(io.BytesIO(_fpdf_svg(svg).encode("utf-8")), x=x, y=y, w=w, h=h)
        else:
            pdf.image(io.BytesIO(svg_to_png(svg, resolution)), x=x, y=y, w=w, h=h)
    return bytes(pdf.output())
