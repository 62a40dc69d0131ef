"""What the start screen and the session files use of the explorer: its state, its panels, a way to show a tab.

The explorer (:class:`.explorer.Explorer`) holds the start screen (:mod:`.start`) and the session controls
(:mod:`.session`), which act on it in return.  They are typed against this :class:`Workspace` rather than the
explorer itself, so the imports run one way, type-only ones included (``tests/test_layers_and_cli.py``): the
explorer imports them, they import this, this imports only the panels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:  # the panels' types only: a Workspace is the explorer, which builds them
    from .analysis_panel import AnalysisPanel
    from .balance_panel import BalancePanel
    from .builder import Builder
    from .diagram_export import DiagramExport
    from .play_panel import PlayPanel
    from .rulebook_panel import RulebookPanel
    from .skill_panel import SkillPanel
    from .state import ExplorerState
    from .teaching import TeachingGame
    from .variant_lab import VariantLab


class Workspace(Protocol):
    """The explorer as its start screen and its sessions see it (:class:`.explorer.Explorer` is one)."""

    state: ExplorerState
    builder: Builder
    analysis: AnalysisPanel
    lab: VariantLab
    skill: SkillPanel
    balance: BalancePanel
    play: PlayPanel
    rulebook: RulebookPanel
    learn: TeachingGame
    diagram_export: DiagramExport

    def show_tab(self, title: str) -> None:
        """Bring the tab of this (English) title to the front."""
