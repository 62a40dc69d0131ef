"""Diagram export to PNG and PDF through cairosvg (optional dependency, `notebooks` extra)."""
import random
import re
import struct

import pytest

from guyenne_explore import Position
from guyenne_explore.render.svg import diagram

cairosvg = pytest.importorskip("cairosvg")


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


def test_pdf(tmp_path):
    d = diagram(_dealt(), caption="export")
    out = tmp_path / "d.pdf"
    d.save(out, scale=2)
    assert out.read_bytes().startswith(b"%PDF")


def test_bad_scale_and_suffix(tmp_path):
    d = diagram(_dealt())
    with pytest.raises(ValueError):
        d.save(tmp_path / "d.png", scale=0)
    with pytest.raises(ValueError):
        d.save(tmp_path / "d.jpg")
