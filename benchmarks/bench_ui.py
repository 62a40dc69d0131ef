"""Time from "Run" to figures on screen in a real browser (the Voilà app in headless Chromium).

Runs a sampled analysis of 3 rule sets x 2,000 games twice (the first run of the
page, 5 s after it shows, and a repeat) and a variant comparison, and prints for each: Run -> bar full
(the computation's end as the page sees it), Run -> every figure drawn, Run ->
status "Done", and figures after the bar (the delay the issue targets: under 1 s).
Also prints, in this process, what the panel does between the computation and the
page: building the figures and their JSON; and, with those results shown, how long a language switch takes to
settle in the page (the click to the last change of the page, waited for until 1.5 s pass without one).

Measured here (2026-12-01, two cores, load 1.8, an analysis of 3 rule sets and a variant comparison shown): 823, 779
and 679 ms for French, English, French (a script of this method, with an analysis and a skill run shown: 453, 452
and 401 ms).

    .venv/bin/python benchmarks/bench_ui.py          # PORT=8872 by default
"""
from __future__ import annotations

import os
import pathlib
import sys
import tempfile
import time
from typing import Any

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import browser_app as app  # noqa: E402

RULE_SETS = ["advanced", "base", "expert"]
GAMES = 2000
SETTLE = 5  # seconds between the page showing and the first run


def row(name: str, marks: dict[str, float]) -> str:
    gap = marks["figures"] - marks.get("bar", marks["figures"])
    return (f"{name:<34} bar full {marks.get('bar', float('nan')) / 1000:6.2f} s   figures {marks['figures'] / 1000:6.2f} s"
            f"   Done {marks['done'] / 1000:6.2f} s   figures after the bar {gap / 1000:5.2f} s")


def in_process() -> None:
    """The panel's own share: figures and their JSON for 3 rule sets x 2,000 games."""
    from guyenne_explore.engine import Position, Rules
    from guyenne_explore.analysis.studies.variants import analyse_rule_sets
    from guyenne_explore.render.plots import result_figures
    from guyenne_explore.widgets.plot_view import figure_json

    p = Position.start("advanced")
    runs = analyse_rule_sets(p, [Rules.preset(n) for n in RULE_SETS], labels=RULE_SETS, method="sample",
                             games=GAMES, seed=0)
    results = {r.label: r.result for r in runs}
    t = time.perf_counter()
    figures = result_figures(results)
    t1 = time.perf_counter()
    sizes = [len(str(figure_json(f))) for f in figures.values()]
    t2 = time.perf_counter()
    print(f"in the kernel: 4 figures built in {t1 - t:.2f} s, their JSON in {t2 - t1:.3f} s "
          f"({', '.join(f'{s / 1000:.0f} kB' for s in sizes)})")


#: resolves with the milliseconds from its call to the page's last change, once 1.5 s pass without one
QUIET = """() => new Promise((resolve) => {
  let last = performance.now();
  const start = last;
  const seen = new MutationObserver(() => { last = performance.now(); });
  seen.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  const tick = () => {
    if (performance.now() - last > 1500) { seen.disconnect(); resolve(last - start); } else setTimeout(tick, 100);
  };
  tick();
})"""


def language_switches(page: Any) -> None:
    """Each switch of language, French, English, French, with the results shown: until the page stops changing."""
    for name in ("Français", "English", "Français"):
        page.locator(".guyenne-language button", has_text=name).click()
        print(f"switch to {name:<9} the page settled {page.evaluate(QUIET):5.0f} ms after the click", flush=True)


def main() -> None:
    reason = app.missing()
    if reason:
        sys.exit(f"cannot run: {reason}")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores (the figures stretch with it)")
    in_process()
    port = int(os.environ.get("PORT", "8872"))
    log = pathlib.Path(tempfile.mkdtemp(prefix="bench-ui-")) / "voila.log"
    with app.voila_app(port, log, warm_up=True) as url, app.chromium() as browser:  # as a user's page
        page, opened = app.open_explorer(browser, url, 1280, 800)
        print(f"page opened, widgets shown after {opened:.1f} s")
        app.show_tab(page, "Analysis")
        page.wait_for_timeout(SETTLE * 1000)  # a user reads the page before the first run
        for name in ("analysis, first run", "analysis, repeat"):
            page.evaluate(app.WATCH, [".guyenne-analysis", "Done"])
            app.run_analysis(page, RULE_SETS, GAMES)
            print(row(f"{name} ({len(RULE_SETS)} x {GAMES} games)", app.wait_for_marks(page)))
        app.show_tab(page, "Variant lab")
        lab = page.locator(".guyenne-variant-lab")
        lab.locator(".widget-dropdown", has_text="Method").locator("select").select_option("sample")
        box = lab.get_by_label("Games", exact=True)  # not the counter-strategy check's "Games a seat"
        box.fill(str(GAMES))
        box.press("Enter")
        page.wait_for_timeout(300)
        page.evaluate(app.WATCH, [".guyenne-variant-lab", "Compared"])
        lab.locator("button", has_text="Compare with preset").click()
        print(row(f"variant lab compare (2 x {GAMES} games)", app.wait_for_marks(page)))
        print(f"plotly.js evaluated {page.evaluate('window.__guyennePlotlyLoads')} time(s) in the page")
        language_switches(page)
        page.close()


if __name__ == "__main__":
    main()
