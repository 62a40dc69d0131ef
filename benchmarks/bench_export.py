"""Print how long diagram exports and storyboards take: SVG, PNG (resvg) and PDF (fpdf2) per picture,
and the storyboard of whole seeded games as frames, PDF pages and a zip of SVGs.

Run: python benchmarks/bench_export.py
"""

import random
import time

from guyenne_explore.engine import Position
from guyenne_explore.engine.record import play_game
from guyenne_explore.render.export import svg_to_png, svgs_to_pdf
from guyenne_explore.render.storyboard import frames_of, storyboard, storyboard_pdf, storyboard_zip
from guyenne_explore.render.svg import diagram


def timed(fn, repeat: int = 1) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        fn()
    return (time.perf_counter() - start) / repeat


def main() -> None:
    p = Position.start("advanced")
    p = p.apply_outcome(p.sample_outcome(random.Random(1)))
    d = diagram(p, caption="A dealt opening under the advanced rules")
    svgs_to_pdf([str(d)])  # the first PDF imports fpdf2 (about a second): not counted below
    print("one diagram (advanced opening, with a caption)")
    print(f"  SVG              {timed(lambda: diagram(p, caption='x'), 50) * 1000:7.1f} ms")
    for scale in (1, 2):
        print(f"  PNG scale {scale}      {timed(lambda s=scale: svg_to_png(str(d), s), 10) * 1000:7.1f} ms")
    print(f"  PDF (vector)     {timed(lambda: svgs_to_pdf([str(d)]), 5) * 1000:7.1f} ms")
    print("storyboards of seeded games (uniform policy)")
    print(f"  {'preset':12s} {'events':>6s} {'frames':>6s} {'SVGs s':>7s} {'PDF s':>6s} {'PDF kB':>7s} {'zip kB':>7s}")
    for preset, seed in (("base", 1), ("advanced", 3), ("team", 2)):
        record = play_game(Position.start(preset), seed)
        start = time.perf_counter()
        pictures = storyboard(record)
        svgs = time.perf_counter() - start
        start = time.perf_counter()
        pdf = storyboard_pdf(pictures)
        pdf_s = time.perf_counter() - start
        print(f"  {preset:12s} {len(record.events):6d} {len(frames_of(record)):6d} {svgs:7.2f} {pdf_s:6.2f} "
              f"{len(pdf) / 1000:7.0f} {len(storyboard_zip(pictures)) / 1000:7.0f}")


if __name__ == "__main__":
    main()
