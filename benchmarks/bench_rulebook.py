"""Print how long the living rulebook takes: the whole rulebook of a variant rebuilt with its diff (every example
replayed under the variant and under its preset), then drawn as HTML and as a PDF.  Target: at most 60 s on 2 cores.

Run: python benchmarks/bench_rulebook.py
"""

import time

from guyenne_explore.analysis.rulebook import build_rulebook
from guyenne_explore.render.rulebook import rulebook_html, rulebook_pdf
from guyenne_explore.engine.rules import Rules

VARIANTS = {
    "base, hand size 7": Rules.preset("base", hand_size=7),
    "advanced, no hero": Rules.preset("advanced", hero=False),
    "classic2021, 7 castles": Rules.preset("classic2021", castles=7),
    "team, 2022 removals": Rules.preset("team", removal="advanced"),
}


def main() -> None:
    rulebook_pdf(build_rulebook(Rules.preset("base"), "en"))  # the first PDF imports fpdf2: not counted below
    print(f"{'variant':26} {'examples':>8} {'diff':>5} {'rebuilt':>9} {'HTML':>8} {'PDF':>8} {'total':>8}")
    for name, rules in VARIANTS.items():
        t0 = time.perf_counter()
        book = build_rulebook(rules, "fr")
        t1 = time.perf_counter()
        rulebook_html(book)
        t2 = time.perf_counter()
        rulebook_pdf(book, "a4")
        t3 = time.perf_counter()
        shown = sum(len(s.replays) for s in book.sections)
        print(f"{name:26} {shown:8d} {len(book.diff):5d} {t1 - t0:8.2f}s {t2 - t1:7.2f}s {t3 - t2:7.2f}s {t3 - t0:7.2f}s")


if __name__ == "__main__":
    main()
