"""Optimal play in the explorer: the equilibrium of an open-hand endgame and how far each policy is from it.

Where the solver does not apply (a side can still draw, the team game, a position
mid-removal...) the panel says why in one line instead of offering a button that
would fail.  The solve runs in a background thread like the other analyses.
"""

from __future__ import annotations

import threading
import time
from html import escape
from typing import Any

import ipywidgets as w

from ..analysis import POLICIES, PolicySpec, to_saved
from ..analysis.optimal import OptimalResult, OptimalSolver, describe, exploitability, solve_position, why_not_solvable
from ..i18n import FIRST_CASTLE, castle_number, gettext, ngettext, plain_count, plain_number, plain_percent, side_title
from ..engine import OPEN_FIRST, Position
from ..render.optimal_svg import mix_svg
from .forms import NumberField, messages_html
from .guard import guarded, log


class OptimalPanel(w.VBox):
    """Value, the first decision's equilibrium mix (table and castle line), policies' exploitability."""

    #: what a saved session keeps of the last solve (see .session): its result, the position solved, and the seconds its
    #: best responses took (None: none asked)
    SAVED = {"result": OptimalResult, "solved": Position, "responses": float | None}

    def __init__(self, **kwargs: Any) -> None:
        self.objective = w.Dropdown(options=[("P(win), a draw counting half", "win"),
                                             ("expected score difference", "score")],
                                    value="win", description="Objective",
                                    layout=w.Layout(width="410px"))  # its longest choice in full, in French too
        self.against = w.SelectMultiple(options=[n for n in POLICIES if n != "search"] + ["search"],
                                        value=("uniform", "heuristic"), rows=3, description="Exploit")
        self.budget = NumberField("Budget (s)", 30, 1.0, 600.0, whole=False,
                                  tooltip="seconds allowed for each best response (search is slow)")
        self.run_button = w.Button(description="Solve: optimal play", icon="chess-board", button_style="primary")
        self.status = w.HTML()
        self.output = w.HTML()
        self.result: OptimalResult | None = None
        self._solved: Position | None = None  # the position of self.result (the output shows it until a change)
        self._responses: float | None = None  # seconds the best responses of self.result took (None: none asked)
        self.position: Position | None = None
        self.thread: threading.Thread | None = None
        self.run_button.on_click(guarded(self.status)(lambda _: self.run(block=False)))
        super().__init__([w.HTML("<h4>Optimal play (open-hand endgame)</h4>"),
                          w.HBox([self.objective, self.against, self.budget]), self.run_button,
                          self.status, self.output], **kwargs)
        self.set_position(None)

    def set_position(self, position: Position | None) -> None:
        """Say at once whether the solver applies to the position, and why not."""
        self.position = position
        reason = self.why_not()
        self.run_button.disabled = reason is not None or (self.thread is not None and self.thread.is_alive())
        self.status.value = "" if reason is None else escape(reason)
        self.output.value = ""

    def saved_fields(self) -> dict[str, w.Widget]:
        """The fields a session keeps, in the order they are set back."""
        return {"objective": self.objective, "against": self.against, "budget": self.budget}

    def saved_results(self) -> dict[str, Any]:
        """The last solve as session data (:data:`SAVED`); nothing before one."""
        if self.result is None or self._solved is None:
            return {}
        return {"result": to_saved(self.result), "solved": to_saved(self._solved), "responses": self._responses}

    def show_saved(self, saved: dict[str, Any]) -> None:
        """The last solve as a session kept it (checked: :data:`SAVED`), drawn again while its position is shown
        (nothing is solved again)."""
        if "result" not in saved or "solved" not in saved:
            return
        self.result, self._solved, self._responses = saved["result"], saved["solved"], saved.get("responses")
        self.refresh()

    def why_not(self) -> str | None:
        """Why the solver does not apply to the position, in a sentence (None: it applies); the analysis' Run
        button says it too where the method is optimal play."""
        p = self.position
        reason = gettext("no valid position") if p is None else why_not_solvable(p)
        return None if reason is None else gettext("Optimal play does not apply here: {reason}.").format(reason=reason)

    def refresh(self) -> None:
        """After a language switch: why the solver does not apply, or the last result, in the new language."""
        if self.thread is not None and self.thread.is_alive():
            return
        p, result = self.position, self.result
        self.set_position(p)
        if p is not None and result is not None and self._solved == p:
            self.output.value = result_html(p, result)
            self.status.value = done_text(result, self._responses)

    def run(self, block: bool = True) -> None:
        p = self.position
        if p is None or why_not_solvable(p) is not None:
            return
        if self.budget.problem is not None:  # the words also stand beside the box
            self.status.value = messages_html([gettext("Not solved: {problem}").format(problem=self.budget.problem)])
            return
        objective, names, budget = self.objective.value, list(self.against.value), float(self.budget.value)
        self.run_button.disabled = True
        self.status.value = gettext("Solving the endgame...")

        def work() -> None:
            try:
                solver = OptimalSolver(p.rules, objective)
                result = solve_position(p, objective, solver)
                responses = None
                if names and p.to_play == OPEN_FIRST:
                    # the best responses take most of the wait (up to the budget for each policy and side): say so
                    self.status.value = gettext("Solved in {seconds} s; measuring best responses (at most {budget} s "
                                                "per policy and side)...").format(
                        seconds=plain_number(result.seconds, 1), budget=f"{budget:g}")
                    start = time.perf_counter()
                    result.exploitability = exploitability(p, {n: PolicySpec.parse(n).policy() for n in names}, solver,
                                                           budget_seconds=budget)
                    responses = time.perf_counter() - start
            except Exception as exc:  # noqa: BLE001  shown in the page: a thread has no one else to tell
                log.exception("optimal play failed")
                self.status.value = gettext("The solve failed: {error}").format(error=escape(str(exc)))
            else:
                self.result, self._solved, self._responses = result, p, responses
                self.output.value = result_html(p, result)
                self.status.value = done_text(result, responses)
            finally:
                self.run_button.disabled = self.position is None

        if block:
            work()
        else:
            self.thread = threading.Thread(target=work, daemon=True)
            self.thread.start()


def done_text(result: OptimalResult, responses: float | None) -> str:
    """The status after a solve: the solve's time, and the best responses' apart (they take most of the wait)."""
    if responses is None:
        return gettext("Done in {seconds} s.").format(seconds=plain_number(result.seconds, 1))
    return gettext("Done in {total} s (solve {seconds} s, best responses {responses} s).").format(
        total=plain_number(result.seconds + responses, 1), seconds=plain_number(result.seconds, 1),
        responses=plain_number(responses, 1))


def result_html(p: Position, result: OptimalResult) -> str:
    """The value, the mix as a table and on the castle line, the answers, exploitability and sizes."""
    pct = result.objective == "win"

    def num(v: float | None) -> str:
        if v is None:
            return "-"
        v = 0.0 if abs(v) < 0.0005 else v  # no "-0.0%" for a gap that rounds to nothing
        # in the language's decimals ("12,5 %", "+0,125" in French), as the figures and tables around them
        return plain_percent(v, decimals=1) if pct else plain_number(v, 3, signed=True)

    rows = "".join(f"<tr><td>{escape(mv.text(FIRST_CASTLE))}</td><td>{'' if mv.castle is None else castle_number(mv.castle)}</td>"
                   f"<td>{escape(str(mv.cards))}</td><td style='text-align:right'>{plain_percent(w_, decimals=1)}</td></tr>"
                   for mv, w_ in result.moves)
    head = "".join(f"<th>{escape(h)}</th>" for h in (gettext("move"), gettext("castle"), gettext("cards"),
                                                     gettext("probability")))
    value = gettext("{value}: English {english}, French {french}").format(
        value="<b>" + gettext("Value") + "</b>", english=num(result.side_value(0)), french=num(result.side_value(1)))
    parts = [f"<p>{value}</p>", f"<p>{escape(describe(result))}</p>", mix_svg(p, result),
             f"<table><tr>{head}</tr>{rows}</table>"]
    if result.answers:
        ans = "".join("<tr><td>" + ngettext("{count} card at castle {castle}", "{count} cards at castle {castle}",
                                            a["cards"]).format(count=a["cards"], castle=castle_number(a["castle"]))
                      + "</td><td>" + escape(", ".join(f"{r['move']} {plain_percent(r['p'])}" for r in a["strategy"])) + "</td></tr>"
                      for a in result.answers)
        parts.append("<p>" + gettext("The other side's equilibrium answer:") + f"</p><table>{ans}</table>")
    if result.exploitability:
        ex = "".join(f"<tr><td>{escape(gettext(e.policy))}</td><td>{escape(side_title(e.policy_side))}</td>"
                     f"<td>{num(e.responder_value)}</td>"
                     f"<td>{num(e.equilibrium_value)}</td><td>{'-' if e.gap is None else num(e.gap)}</td>"
                     f"<td>{escape(e.note)}</td></tr>" for e in result.exploitability)
        heads = "".join(f"<th>{escape(h)}</th>" for h in (gettext("policy"), gettext("plays"), gettext("best response gets"),
                                                          gettext("equilibrium gives"), gettext("exploitability")))
        parts.append("<p>" + gettext("Best responses (value for the responder):") + f"</p><table><tr>{heads}<th></th></tr>"
                     f"{ex}</table>")
    st = result.stats
    solved = gettext("Solved {states} round starts ({leaves} leaves): {subgames} subgame LPs (largest {variables} "
                     "variables), {saddle} saddle points, {pruned} pruned; {seconds} s.").format(
        states=plain_count(st.states), leaves=plain_count(st.leaves), subgames=plain_count(st.subgames_solved),
        variables=plain_count(st.largest_variables), saddle=plain_count(st.saddle), pruned=plain_count(st.pruned),
        seconds=plain_number(result.seconds, 2))
    parts.append(f"<p style='color:#555'>{solved}</p>")
    return "".join(parts)
