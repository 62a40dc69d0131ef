"""Diagram export to PNG and PDF with the core dependencies only (resvg-py, fpdf2): no cairo, no system fonts."""
import io
import random
import re
import struct
import subprocess
import sys

import pytest
from PIL import Image

from guyenne_explore import Position
from guyenne_explore.render.export import COVERED, svg_to_png, svgs_to_pdf
from guyenne_explore.render.svg import diagram


def _dealt():
    p = Position.start("base")
    return p.apply_outcome(p.sample_outcome(random.Random(1)))


def _svg_size(svg: str) -> tuple[float, float]:
    m = re.match(r'<svg [^>]*?width="([0-9.]+)" height="([0-9.]+)"', svg)
    assert m, svg[:200]
    return float(m.group(1)), float(m.group(2))


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def _dark_pixels(png: bytes, box: tuple[int, int, int, int]) -> int:
    """Pixels in ``box`` as dark as the caption's ink (#222222; the info line's #444444 is lighter)."""
    img = Image.open(io.BytesIO(png)).convert("L").crop(box)
    return sum(img.histogram()[:50])


@pytest.mark.parametrize("scale", [1, 2, 0.5])
def test_png_has_requested_pixel_size(tmp_path, scale):
    d = diagram(_dealt(), caption="export")
    w, h = _svg_size(str(d))
    out = tmp_path / "d.png"
    d.save(out, scale=scale)
    pw, ph = _png_size(out.read_bytes())
    assert abs(pw - w * scale) <= 1
    assert abs(ph - h * scale) <= 1


def test_png_default_scale_is_svg_size(tmp_path):
    d = diagram(_dealt(), width=400)
    d.save(tmp_path / "d.PNG")
    assert _png_size((tmp_path / "d.PNG").read_bytes())[0] == 400


def test_png_draws_the_caption_text():
    """The caption band holds ink only when there is a caption: fonts were found and text drawn."""
    with_caption = diagram(_dealt(), caption="Castle X is taken by the English").png(2)
    without = diagram(_dealt()).png(2)
    band = (0, 0, 1440, 2 * 28)        # the caption's line, above the info line
    assert _dark_pixels(with_caption, band) > 800
    assert _dark_pixels(without, band) == 0


def test_png_without_cairo_or_system_fonts():
    """A plain install: cairosvg cannot be imported, and the shipped font alone draws the text."""
    code = (
        "import sys; sys.modules['cairosvg'] = None; sys.modules['cairocffi'] = None\n"
        "import random, io\n"
        "from guyenne_explore import Position\n"
        "from guyenne_explore.render.svg import diagram\n"
        "p = Position.start('base'); p = p.apply_outcome(p.sample_outcome(random.Random(1)))\n"
        "png = diagram(p, caption='Hello').png(1)\n"
        "sys.stdout.buffer.write(png)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, check=True, timeout=120).stdout
    assert _png_size(out) == (720, pytest.approx(_png_size(out)[1]))
    assert _dark_pixels(out, (0, 0, 720, 28)) > 100


def test_shipped_font_covers_every_diagram_character():
    """Diagrams need no system font: each character the renderer writes is in the shipped subset."""
    from guyenne_explore.record import play_game
    from guyenne_explore.render.storyboard import storyboard

    text = "".join(str(d) for d in storyboard(play_game(Position.start("advanced"), 3)))
    assert {ch for ch in text if ord(ch) not in COVERED} == set()


def test_pdf_one_vector_page_per_picture(tmp_path):
    d = diagram(_dealt(), caption="export")
    out = tmp_path / "d.pdf"
    d.save(out, scale=2)
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    pdf = svgs_to_pdf([str(d), str(diagram(_dealt(), width=360))])
    assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 2
    assert b"DejaVu" in pdf                       # text drawn with the shipped font, not a picture of it
    assert b"/Subtype /Image" not in pdf


def test_pdf_page_of_a_character_outside_the_font_is_a_picture():
    svg = str(diagram(_dealt(), caption="城"))
    assert b"/Subtype /Image" in svgs_to_pdf([svg])


def test_bad_scale_and_suffix(tmp_path):
    d = diagram(_dealt())
    for bad in (0, -1, float("nan"), 100):
        with pytest.raises(ValueError, match="scale"):
            d.save(tmp_path / "d.png", scale=bad)
    with pytest.raises(ValueError, match="scale"):
        d.save(tmp_path / "d.pdf", scale=0)
    with pytest.raises(ValueError, match=r"\.svg, \.png or \.pdf"):
        d.save(tmp_path / "d.jpg")
    with pytest.raises(ValueError, match="at least one"):
        svgs_to_pdf([])
    with pytest.raises(ValueError, match="width and height"):
        svg_to_png("<svg/>")
