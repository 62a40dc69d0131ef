"""The analysis panel headless: set its controls, run, and read what it shows."""
import json
import re

import pytest

from guyenne_explore.engine import Position, Rules
from guyenne_explore.analysis.studies.variants import first_player_advantage
from guyenne_explore.i18n import plain_estimate
from guyenne_explore.render.headline import fairness_words
from guyenne_explore.widgets import analysis_panel, run_controls
from guyenne_explore.widgets.analysis_panel import AnalysisPanel
from guyenne_explore.widgets.plot_view import PlotView, plotly_js


@pytest.fixture
def endgame(load):
    return load("base-endgame-3v3.json")


def small(panel: AnalysisPanel, games: int = 40) -> AnalysisPanel:
    panel.games.value = games
    return panel


def test_the_positions_own_rules_come_first_and_are_chosen():
    rules = Rules.preset("advanced", hand_size=7)
    panel = AnalysisPanel(Position.start(rules))
    labels = [lb for lb, _ in panel.rule_sets.options]
    assert labels[0] == "advanced, hand size 7" and "advanced" in labels[1:]  # in words, not the key advanced(hand_size=7)
    assert panel.rule_sets.value == (rules,)
    assert panel.run_button.description == "Run analysis" and not panel.run_button.disabled


def test_a_run_shows_figures_side_by_side_and_the_metrics():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.rule_sets.value = (Rules.preset("base"), Rules.preset("classic2021"))
    panel.method.value = "sample"
    panel.run(block=True)
    assert list(panel.results) == ["base", "classic2021"]
    assert all(r.games == 40 and not r.exact for r in panel.results.values())
    assert [type(c).__name__ for c in panel.figure_box.shown] == ["PlotView"] * 4
    outcomes = panel.figure_box.shown[2].figure
    assert outcomes["data"][0]["x"] == ["base", "classic2021"]
    assert outcomes["layout"]["title"]["text"].startswith("Win / draw / loss")
    assert "Advantage (English)" in panel.metrics.value and "classic2021" in panel.metrics.value
    assert panel.controls.progress.value == panel.controls.progress.max == 80
    # the answer first, in one line above the four figures: each rule set's first player's score with its interval
    first = {label: first_player_advantage(r) for label, r in panel.results.items()}
    assert re.sub("<[^>]+>", "", panel.headline.value) == " · ".join(
        f"{label}: the first player (English) scores {plain_estimate(m.value, m.low, m.high)}; {fairness_words(m)}"
        for label, m in first.items()) + " (a win counts 1, a draw ½, a loss 0: 0.5 is an even game)"
    assert all(m.low < m.value < m.high for m in first.values())
    assert panel.children.index(panel.headline) + 1 == panel.children.index(panel.figure_box)
    assert not panel.run_button.disabled and panel.controls.cancel_button.disabled


def test_the_same_seed_gives_the_same_result_and_another_seed_may_not():
    panel = small(AnalysisPanel(Position.start("base")), 60)
    panel.method.value = "sample"
    panel.run()
    first = panel.results["base"].outcomes
    panel.run()
    assert panel.results["base"].outcomes == first
    panel.seed.value = 7
    panel.run()
    assert panel.results["base"].outcomes != first


def test_a_rule_set_the_position_does_not_fit_is_skipped_with_the_reason(endgame):
    panel = AnalysisPanel(endgame)
    panel.rule_sets.value = (endgame.rules, Rules.preset("team"))
    panel.run()
    assert list(panel.results) == ["base"] and panel.results["base"].exact
    assert "<b>team</b> was skipped" in panel.problems.value
    assert "players English 1, French 1 → English 2, French 2: cannot apply to a game under way" in panel.problems.value


def test_exact_asked_of_a_sampling_policy_is_explained(endgame):
    panel = AnalysisPanel(endgame)
    panel.method.value = "exact"
    panel.english_policy.value = "search"
    panel.run()
    assert not panel.results and "no exact move distribution" in panel.problems.value
    assert "No rule set could be analysed" in panel.controls.status.value


def test_an_invalid_position_disables_run_and_says_why():
    panel = AnalysisPanel(Position.start("base"))
    panel.set_position(None)
    assert panel.run_button.disabled and "not valid" in panel.controls.status.value
    panel.run()
    assert not panel.results
    panel.set_position(Position.start("expert"))
    assert not panel.run_button.disabled and panel.rule_sets.value == (Rules.preset("expert"),)


def test_cancel_stops_a_background_run_and_keeps_the_previous_figures():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.method.value = "sample"
    panel.run()
    before = panel.figure_box.children
    panel.games.value = 100_000
    panel.run(block=False)
    panel.controls.cancel()
    panel.controls.thread.join(timeout=60)
    assert not panel.controls.thread.is_alive()
    assert panel.controls.status.value.startswith("Cancelled")
    assert panel.figure_box.children == before and panel.results["base"].games == 40
    assert not panel.run_button.disabled


def test_html_figures_download_with_plotly_js_once():
    panel = small(AnalysisPanel(Position.start("base")))
    assert all(b.disabled for b in panel.exports.buttons.values())
    panel.run()
    files = panel.exports.files("html")
    assert sorted(files) == sorted(["scores.html", "difference.html", "outcomes.html", "rounds.html", "plotly.min.js"])
    assert sum(len(data) for data in files.values()) < 6_000_000  # not 4 x 4.8 MB
    assert set(panel.exports.files("json")) == {"base.json"}


def browser_sees(panel: AnalysisPanel) -> list[tuple]:
    """Act as a page showing the panel: each view announces itself; returns what Python sends it."""
    sent = []
    for view in panel.figure_box.views:
        view.send = lambda content, buffers=None, view=view: sent.append((view, content, buffers))
        view._on_msg(view, {"type": "view"}, [])
    return sent


def test_figures_travel_as_small_json_and_plotly_js_once_on_request():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.method.value = "sample"
    panel.run()
    for view in panel.figure_box.shown:
        state = json.dumps(view.get_state(), default=str)
        assert 2_000 < len(state) < 60_000  # the figure's JSON, no plotly.js inside (it is about 4.8 MB)
        assert view.figure["data"] and view.revision == 1
    sent = browser_sees(panel)
    view = panel.figure_box.views[0]
    view._on_msg(view, {"type": "plotly-js?"}, [])
    (_, content, buffers), = sent
    assert content == {"type": "plotly-js"} and buffers == [plotly_js()]
    assert len(buffers[0]) > 3_000_000 and b"plotly.js" in buffers[0][:2_000]


def test_done_is_said_when_the_browser_has_drawn_every_figure():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.method.value = "sample"
    browser_sees(panel)
    panel.run()
    assert panel.controls.status.value == "Drawing the figures..."
    views = panel.figure_box.shown
    for view in views[:-1]:
        view._on_msg(view, {"type": "drawn", "revision": view.revision}, [])
    assert panel.controls.status.value == "Drawing the figures..."
    views[-1]._on_msg(views[-1], {"type": "drawn", "revision": 0}, [])  # an older figure: not this run's
    assert panel.controls.status.value == "Drawing the figures..."
    views[-1]._on_msg(views[-1], {"type": "drawn", "revision": views[-1].revision}, [])
    assert panel.controls.status.value.startswith("Done: base (40 games, fast simulator)")
    assert "What answered" in panel.metrics.value and "played by the compiled game loop" in panel.metrics.value


def test_a_page_that_never_reports_still_ends_in_done():
    panel = small(AnalysisPanel(Position.start("base")))
    panel.method.value = "sample"
    panel.figure_box.patience = 0.05
    browser_sees(panel)
    panel.run()
    panel.figure_box._timer.join(timeout=5)
    assert panel.controls.status.value.startswith("Done: base")


def test_a_sweep_shows_one_figure_and_hides_the_other_views():
    from guyenne_explore.widgets.variant_lab import VariantLab

    lab = VariantLab(Position.start("base"))
    lab.games.value, lab.method.value = 20, "sample"
    lab.sweep_parameter.value = "max_at_castle"
    lab.run_sweep(block=True)
    assert len(lab.figure_box.shown) == 1 and lab.figure_box.shown[0].figure["data"][0]["type"] == "scatter"
    assert [v.layout.display for v in lab.figure_box.views[1:]] == ["none"] * 3
    assert lab.controls.status.value.startswith("Swept max at a castle")


def test_a_search_run_that_has_to_compile_says_so_first(monkeypatch):
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: True)
    monkeypatch.setattr(run_controls, "prepare", lambda progress: 0.0)
    panel = small(AnalysisPanel(Position.start("base")), games=2)
    panel.method.value, panel.english_policy.value, panel.search_budget.value = "sample", "search", 4
    seen = []
    panel.controls.status.observe(lambda ch: seen.append(ch["new"]), names="value")
    panel.run()
    assert seen[0].startswith("Preparing the fast simulator (first run only")
    assert seen[1] == "Analysing 1 rule set... English search (4 rollouts) · French uniform"  # once the games come in
    assert seen[-1].startswith("Done")


def test_while_the_fast_path_compiles_the_engine_answers_at_once_then_the_compiled_games_refine_it(monkeypatch):
    """A first run waited minutes for the compiler: now the engine answers at once with fewer games, saying so and
    which path played them, the compiling goes on in a process of its own, and once it is over the same analysis is
    run again on the compiled path with all its games."""
    import threading

    from guyenne_explore.analysis.planning import Sampler

    compiled = threading.Event()
    started = []
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: not compiled.is_set())
    monkeypatch.setattr(run_controls, "compile_in_background", lambda: started.append(True))
    monkeypatch.setattr(run_controls, "compiling_in_background", lambda: not compiled.is_set())
    monkeypatch.setattr(analysis_panel, "engine_first_games", lambda p, policies, games: 30)
    panel = AnalysisPanel(Position.start("base"))
    panel.method.value, panel.games.value = "auto", 200
    assert panel.cost.value.startswith("The fast simulator is not compiled yet") and "30 games a rule set" in panel.cost.value
    panel.run()
    result = panel.results["base"]
    assert started and result.games == 30 and result.plan.sampler is Sampler.ENGINE
    status = panel.controls.status.value
    assert "base (30 games, engine)" in status, status
    assert "The engine answered with 30 of the 200 games asked while the fast simulator compiles" in status
    refined = threading.Event()
    panel.controls.status.observe(lambda ch: refined.set() if "fast simulator)" in ch["new"] else None, names="value")
    compiled.set()
    assert refined.wait(60), panel.controls.status.value
    for _ in range(600):  # the refining run's figures are drawn, then its summary written
        if panel.results["base"].games == 200:
            break
        threading.Event().wait(0.1)
    assert panel.results["base"].games == 200 and panel.results["base"].plan.sampler is Sampler.COMPILED
    assert not panel.cost.value.startswith("The fast simulator is not compiled yet")  # the line said before is gone


def test_plot_view_reports_drawn_revisions_to_its_handlers():
    import plotly.graph_objects as go

    view = PlotView(go.Figure(go.Bar(x=[1, 2], y=[3, 4])))
    got = []
    view.on_drawn(lambda v, rev: got.append(rev))
    view._on_msg(view, {"type": "drawn", "revision": 1}, [])
    assert got == [1] and view.drawn == 1 and view.has_view
    assert view.figure["data"][0]["y"] == [3, 4]


def test_a_new_run_clears_the_last_runs_refusal_and_names_the_policies():
    from guyenne_explore.widgets.starts import opening

    panel = AnalysisPanel(opening("base"))
    panel.method.value = "exact"
    assert panel.games.layout.display == "none" and panel.seed.layout.display == "none"
    panel.run()
    assert "out of reach" in panel.force_note.value and not panel.results
    panel.method.value = "sample"
    assert panel.games.layout.display is None and panel.force_exact.layout.display == "none"
    panel.games.value = 20
    panel.english_policy.value = "heuristic"
    seen = []
    panel.force_note.observe(lambda ch: seen.append(ch["new"]), names="value")
    panel.controls.status.observe(lambda ch: seen.append(ch["new"]), names="value")
    panel.run()
    assert seen[0] == ""  # cleared when the run starts, before any game is played
    assert panel.force_note.value == "" and panel.results["base"].games == 20
    assert panel.controls.status.value.endswith("English heuristic · French uniform")
    for figure in panel.figures.values():
        assert "English heuristic · French uniform" in figure.layout.title.text


def test_the_bar_counts_each_game_of_an_engine_played_run():
    panel = AnalysisPanel(Position.start("base"))
    panel.method.value = "sample"
    panel.games.value = 3
    panel.english_policy.value = "search"
    panel.search_budget.value = 4
    counts = []
    panel.controls.progress.observe(lambda ch: counts.append(ch["new"]), names="description")
    panel.run()
    assert counts[-1] == "3/3 games" and len(counts) >= 2


def test_the_fields_of_a_column_share_one_label_width():
    from guyenne_explore.widgets.skill_panel import SkillPanel

    panel = AnalysisPanel(Position.start("base"))
    widths = {f.style.description_width for f in (panel.english_policy, panel.french_policy, panel.method,
                                                  panel.search_budget.box, panel.games.box, panel.seed.box)}
    assert widths == {"112px"}
    skill = SkillPanel(Position.start("base"))  # wider: its French "Parties de recherche" takes 133 px
    widths = {f.box.style.description_width for f in (skill.search_budget, skill.games, skill.search_games, skill.seed)}
    assert widths == {"140px"} and skill.metric.style.description_width == "140px"


def test_figures_of_a_previous_position_are_dimmed_under_a_note_until_run_again():
    from guyenne_explore.widgets.starts import opening

    start = Position.start("base")
    panel = small(AnalysisPanel(start), 20)
    panel.method.value = "sample"
    assert panel.subject.stale_note.value == ""  # nothing shown yet: nothing stale
    panel.run(block=True)
    assert panel.subject.stale_note.value == "" and "guyenne-stale" not in panel.figure_box._dom_classes
    panel.set_position(opening("base", 1))
    note = panel.subject.stale_note.value
    assert "These figures are for the previous position (the game before the deal" in note and "run again to update" in note
    assert "guyenne-stale" in panel.figure_box._dom_classes and "guyenne-stale" in panel.metrics._dom_classes
    panel.set_position(start)  # back to the position of the figures: they hold again
    assert panel.subject.stale_note.value == "" and "guyenne-stale" not in panel.figure_box._dom_classes
    panel.set_position(opening("base", 1))
    panel.run(block=True)
    assert panel.subject.stale_note.value == "" and "guyenne-stale" not in panel.metrics._dom_classes


def test_figures_of_other_settings_are_dimmed_under_a_note_until_run_again():
    """A figure that stayed bright after Games or a side's policy changed read as the answer to the new settings."""
    panel = small(AnalysisPanel(Position.start("base")), 20)
    panel.method.value = "sample"
    panel.run(block=True)
    assert panel.subject.stale_note.value == ""
    panel.french_policy.value = "heuristic"
    note = panel.subject.stale_note.value
    assert "for the settings of the last run, not those above" in note and "run again to update" in note
    assert "guyenne-stale" in panel.figure_box._dom_classes and "guyenne-stale" in panel.headline._dom_classes
    panel.french_policy.value = "uniform"  # the settings of the figures again: they hold
    assert panel.subject.stale_note.value == "" and "guyenne-stale" not in panel.figure_box._dom_classes
    panel.seed.value = 7
    assert "settings of the last run" in panel.subject.stale_note.value
    panel.run(block=True)
    assert panel.subject.stale_note.value == "" and "guyenne-stale" not in panel.metrics._dom_classes


def test_the_variant_labs_comparison_is_dimmed_by_its_own_fields_not_by_the_sweeps():
    from guyenne_explore.widgets.variant_lab import VariantLab

    lab = VariantLab(Position.start("base"))
    lab.games.value, lab.method.value = 20, "sample"
    lab.editors["hand_size"].value = "7"
    lab.run_compare(block=True)
    assert lab.results and lab.subject.stale_note.value == ""
    lab.sweep_to.value = 9  # the sweep's range: no part of the comparison
    assert lab.subject.stale_note.value == ""
    lab.editors["hand_size"].value = "8"  # another variant
    assert "settings of the last run" in lab.subject.stale_note.value
    assert "guyenne-stale" in lab.figure_box._dom_classes
    lab.editors["hand_size"].value = "7"
    assert lab.subject.stale_note.value == "" and "guyenne-stale" not in lab.metrics._dom_classes


def test_a_first_run_cancelled_says_there_are_no_figures_not_that_they_are_below():
    """Cancel before any run finished said "the figures below are from the previous run" over an empty panel."""
    panel = small(AnalysisPanel(Position.start("base")))
    panel.method.value = "sample"
    panel.games.value = 100_000
    panel.run(block=False)
    panel.controls.cancel()
    panel.controls.thread.join(timeout=60)
    assert not panel.figures
    assert panel.controls.status.value == "Cancelled: no run has finished yet, so there are no figures."
    panel.games.value = 40
    panel.run()
    panel.games.value = 100_000
    panel.run(block=False)
    panel.controls.cancel()
    panel.controls.thread.join(timeout=60)
    assert panel.controls.status.value == "Cancelled: the figures below are from the previous run."


def test_the_cost_of_sampled_games_is_said_before_run_where_the_analysis_surely_samples(monkeypatch):
    """A search on a side samples games the engine plays, minutes of them: their count and time here are said
    before Run (spread over the cores), as are those of Method sample; nothing where the plan may still
    enumerate, under optimal play, or while the games cannot be read.  Before, a search ran unannounced."""
    from guyenne_explore.i18n import set_language

    from guyenne_explore.analysis.sampling import warm

    monkeypatch.setattr(analysis_panel, "local_cores", lambda: 2)
    monkeypatch.setattr(warm, "pending", lambda games=warm.EVERY_GAME: [])  # the fast simulator compiled: no first-run note
    panel = AnalysisPanel(Position.start("advanced"))
    assert panel.cost.value == ""  # uniform, auto: the plan decides when run
    panel.english_policy.value, panel.games.value = "search", 500
    # 500 games of search:400 (0.6 s each on one core) against uniform (0.02 s, the engine's), over two cores
    assert panel.cost.value == "Run analysis samples 500 games: about 3 minutes here."
    panel.search_budget.value = 100
    panel.rule_sets.value = (Rules.preset("advanced"), Rules.preset("expert"))
    assert panel.cost.value == "Run analysis samples 1,000 games: about 1 minute here."
    panel.english_policy.value, panel.method.value = "uniform", "sample"  # compiled games
    assert panel.cost.value == "Run analysis samples 1,000 games: under a second here."
    # before the fast simulator is compiled, a search's first run compiles it, each part's seconds added: said too
    monkeypatch.setattr(warm, "pending", lambda games=warm.EVERY_GAME: [s for s in warm.STEPS if s.serves in games])
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: True)
    panel.english_policy.value, panel.games.value = "search", 10
    assert panel.cost.value.endswith("The first run prepares the fast simulator first: about 3 minutes, once.")
    monkeypatch.setattr(warm, "pending", lambda games=warm.EVERY_GAME: list(warm.STEPS[1:3]))
    panel.games.value = 9
    assert panel.cost.value.endswith("The first run prepares the fast simulator first: about 13 seconds, once.")
    # other policies are answered by the engine meanwhile: the line says so and how many games
    panel.english_policy.value = "uniform"
    assert panel.cost.value.startswith("The fast simulator is not compiled yet (about 13 seconds, once, in the "
                                       "background): Run analysis answers at once from the engine with ")
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: False)
    panel.english_policy.value = "search"
    panel.english_policy.value = "uniform"
    monkeypatch.setattr(warm, "pending", lambda games=warm.EVERY_GAME: [])
    panel.games.value = 500
    panel.method.value = analysis_panel.OPTIMAL
    assert panel.cost.value == ""
    panel.method.value = "sample"
    set_language("fr")
    try:
        panel.refresh()
        assert panel.cost.value.startswith("Lancer l&#x27;analyse tire 1") and "ici." in panel.cost.value
    finally:
        set_language(None)
    panel.games.box.value = "x"
    assert panel.cost.value == ""
    assert "guyenne-field-invalid" in panel.games._dom_classes  # outlined in red, its words beside it
    panel.games.box.value = "40"
    assert "guyenne-field-invalid" not in panel.games._dom_classes and panel.games.value == 40


def test_the_time_left_follows_the_cost_of_the_games_left_not_their_count(monkeypatch):
    """Skill levels play a thousand compiled games in a second, then forty searches of seconds each: with the
    run's parts the time left after the first thousand is the searches', where the count of games alone said
    "under a second left" all through them."""
    clock = {"now": 100.0}
    monkeypatch.setattr(run_controls.time, "monotonic", lambda: clock["now"])
    monkeypatch.setattr(run_controls, "needs_compiling", lambda: False)
    controls = run_controls.RunControls()
    controls.start("Sampling")
    controls.pace([(1000, 4.0), (40, 10.0)])
    clock["now"] += 1.0
    controls.callback(500, 1040)  # half the cheap part's rough seconds, then the searches'
    assert controls.left.value == "about 12 seconds left"
    clock["now"] += 1.0
    controls.callback(1000, 1040)
    assert controls.left.value == "about 10 seconds left"
    clock["now"] += 3.0
    # the searches at the pace they show (a tenth of a second each, not a quarter), more so as more are timed
    controls.callback(1030, 1040)
    assert controls.left.value == "about 1 second left"
    controls.start("Sampling")  # a new run forgets the last one's parts
    clock["now"] += 1.0
    controls.callback(1000, 1040)
    assert controls.left.value == "under a second left"
