"""The skill tab's "How they play" section run as the page runs it, in a background thread."""

from guyenne_explore.widgets.skill_panel import SkillPanel
from guyenne_explore.widgets.starts import opening


def test_after_a_run_in_the_background_the_section_can_run_again():
    section = SkillPanel(opening("advanced", 1)).how_they_play
    section.levels_text.value, section.games.value = "uniform,heuristic", 4
    section.run(block=False)
    assert section.run_button.disabled  # while it runs
    section.controls.thread.join(300)
    assert "Done" in section.controls.status.value
    assert not section.run_button.disabled
