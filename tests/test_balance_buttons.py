"""The Balance tab's runs as the page starts them, in a background thread: once one ends, its button can be
pressed again (the run's own thread, still alive when it ends, once kept it disabled)."""

from guyenne_explore.widgets.balance_panel import BalancePanel
from guyenne_explore.widgets.starts import before_deal
from tests.test_balance_panel import english, small  # noqa: F401  (english: a fixture)


def test_search_and_depth_can_run_again_once_a_background_run_ends(tmp_path, english):  # noqa: F811
    panel = small(BalancePanel(before_deal("base")), tmp_path / "s.journal")
    panel.games.value, panel.trials.value = 8, 2
    panel.run(block=False)
    panel.controls.thread.join(300)
    assert panel.result is not None and not panel.run_button.disabled
    panel.ladder.value, panel.depth_games.value = "uniform,uniform", 4
    panel.run_depth(block=False)
    panel.depth_controls.thread.join(300)
    assert panel.depth is not None and not panel.depth_button.disabled
