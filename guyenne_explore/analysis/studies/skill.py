"""Balance by skill level: the same rule sets under uniform, heuristic and search play, side by side.

A designer's conclusions ("the first player is favoured", "this variant is
longer") are drawn from sampled games under some policy; random play can say
something skilled players would not.  :func:`skill_levels` samples every rule
set at every level (both sides at that level), keeps chosen designer metrics
with their 95% intervals, and reads each cell as a verdict: for an advantage,
whether the interval lies above or below one half; for any other metric,
whether the rule set lies above or below the first (reference) rule set with
intervals apart.  :meth:`SkillTable.changes` says in words where a verdict at a
higher skill differs from the one under uniform play.
"""

from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from functools import lru_cache
from typing import Callable, Sequence

from ...engine import Position, Rules
from ...i18n import LANGUAGES, N_, ngettext, plain_count, plain_duration, plain_estimate, translator
from ..api import execute
from ..limits import check_duration
from ..metrics import Metric
from .variants import sampling_cost
from ..planning import plan
from ..policies.spec import PERSONA, POLICIES, PolicySpec

#: what the floors above take from this sub-door of the analysis (see the door, ``guyenne_explore.analysis``)
__all__ = ["FEW_GAMES", "SkillTable", "cost_line", "level_name", "level_words", "skill_cost", "skill_levels",
           "typed_level"]

#: the skill levels, weakest first (the search with its budget in rollouts a decision)
LEVELS = ("uniform", "heuristic", "search:200")
#: the metrics kept by default
METRICS = ("Advantage (english)", "Drawishness", "Duration (rounds)")
#: the verdicts, as the data keeps them (a reader sees them with what they are read against: see _AGAINST)
ABOVE, BELOW, EVEN = "above", "below", "level with"
#: a verdict against what it is read against (one half, or the reference rule set)
#: a verdict in words (a review read "level with ½" as jargon: the interval holds it, so the games cannot tell them apart)
_AGAINST = {ABOVE: N_("above {against}"), BELOW: N_("below {against}"), EVEN: N_("indistinguishable from {against}")}
#: an advantage is read against an even game
HALF = "½"
#: fewer games than this in a cell: its interval is wide and its verdict is flagged as drawn from few games
FEW_GAMES = 30
#: how a conclusion changes from the first level to a higher one, as a sentence (see SkillTable.changes)
_CHANGES = {
    "appears": N_("{label}: {metric} goes from {before} under {base} ({before_value}) to {after} under {level} "
                  "({after_value}): a difference appears with skill"),
    "reverses": N_("{label}: {metric} goes from {before} under {base} ({before_value}) to {after} under {level} "
                   "({after_value}): the conclusion reverses with skill"),
    "not confirmed": N_("{label}: {metric} goes from {before} under {base} ({before_value}) to {after} under "
                        "{level} ({after_value}): the conclusion under {base} is not confirmed"),
}


def level_name(level: str, lang: str | None = None) -> str:
    """A skill level as a reader sees it in ``lang``: the policy's name (``uniform`` / ``uniforme``), a search
    with its budget in words (``search (200 rollouts)`` / ``recherche (200 simulations)``: the skill levels tab's
    box says "search" and its field "Search rollouts", and ``search:200`` under the figure read as another level);
    a name it does not know is returned as given."""
    tr = translator(lang)
    try:
        spec = PolicySpec.parse(level)
    except ValueError:  # a name no level has: shown as given
        return level
    if spec.kind == PERSONA:  # weights fitted to people's games: not its file's name
        return tr.gettext(N_("persona, fitted to your players"))
    if spec.weights:  # weights trained for a variant, in the user's cache: not its file's name either
        return tr.gettext(N_("strong, trained for this variant"))
    if spec.rollouts is not None:
        return ngettext("search ({count} rollout)", "search ({count} rollouts)", spec.rollouts, lang).format(
            count=plain_count(spec.rollouts, lang))
    if spec.milliseconds is not None:
        return tr.gettext(N_("search ({milliseconds} ms a move)")).format(milliseconds=plain_count(spec.milliseconds, lang))
    return tr.gettext(spec.kind) if spec.kind in POLICIES else level


def typed_level(text: str) -> str:
    """A level as a reader types it, by its name in any language of the page as :func:`level_name` shows it
    (``forte``, ``recherche:200``), read as the policy's name (``strong``, ``search:200``); a name given as the
    policies are named, or one no policy is called, is returned as given (:meth:`PolicySpec.parse` then names its
    problem).  A French reader typing the names the page shows was told they were unknown; any language, not the
    page's alone, so that a field a French page filled ("uniforme,forte") still reads in an English one (a saved
    session opened there)."""
    kind, tail = _parts(text.strip())
    name = _level_names().get(kind.strip().casefold())
    return text.strip() if name is None or name == kind.strip() else name + tail.strip()


@lru_cache(maxsize=1)
def _level_names() -> dict[str, str]:
    """Each level's name in every language of the page, casefolded, to the policy's own (built once, not at each
    level read)."""
    return {translator(lang).gettext(name).casefold(): name for lang in LANGUAGES for name in POLICIES}


def level_words(level: str, lang: str | None = None) -> str:
    """A level as a reader of ``lang`` types it (``forte``, ``recherche:200``, ``forte@variant``): what a field the
    panel fills shows, so that a French page's fields say the names its figures say; :func:`typed_level` reads it
    back.  A name no policy has is shown as given."""
    kind, tail = _parts(level)
    return translator(lang).gettext(kind) + tail if kind in POLICIES else level


def _parts(level: str) -> tuple[str, str]:
    """A level's policy name and the rest, its budget or weights (``search`` and ``:200``)."""
    cut = min((i for i in (level.find(":"), level.find("@")) if i >= 0), default=len(level))
    return level[:cut], level[cut:]


@dataclass(frozen=True)
class SkillCell:
    """One rule set at one skill level: a metric with its interval and its verdict."""

    label: str
    level: str
    metric: Metric
    #: :data:`ABOVE`, :data:`BELOW` or :data:`EVEN`, against one half (advantages) or the reference rule set
    verdict: str

    @property
    def few_games(self) -> bool:
        """Whether the cell is drawn from fewer than :data:`FEW_GAMES` sampled games: its verdict is flagged, and a
        headline reads a level run with more."""
        return self.metric.games is not None and self.metric.games < FEW_GAMES


@dataclass
class SkillTable:
    labels: list[str]
    levels: list[str]
    cells: list[SkillCell]

    def cell(self, label: str, level: str, metric: str) -> SkillCell:
        return next(c for c in self.cells if (c.label, c.level, c.metric.name) == (label, level, metric))

    def rows(self) -> list[dict[str, object]]:
        """One row per rule set, metric and level: value, interval, verdict (for tables and plots)."""
        return [{"rules": c.label, "level": c.level, "metric": c.metric.name, "value": c.metric.value,
                 "low": c.metric.low, "high": c.metric.high, "games": c.metric.games, "verdict": c.verdict}
                for c in self.cells]

    def to_json(self) -> dict[str, object]:
        """Every cell (:meth:`rows`) and every conclusion that turns with skill (:meth:`changes`, in the language of
        the moment): what ``guyenne-explore skill --json`` prints and the tab's JSON download holds."""
        return {"rows": self.rows(), "changes": self.changes()}

    def against(self, metric: str) -> str:
        """What ``metric``'s verdicts are read against: one half for an advantage, else the first rule set."""
        return HALF if _is_advantage(metric) else self.labels[0]

    def verdict_words(self, cell: SkillCell, lang: str | None = None) -> str:
        """A cell's verdict in words that say against what ("indistinguishable from ½", "above advanced"), flagged when drawn
        from few games; the reference rule set's own cells read "reference" (it is level with itself)."""
        tr = translator(lang)
        if not _is_advantage(cell.metric.name) and cell.label == self.labels[0]:
            return tr.gettext(N_("reference"))
        words = tr.gettext(_AGAINST[cell.verdict]).format(against=self.against(cell.metric.name))
        games = cell.metric.games
        if cell.few_games and games is not None:
            words = tr.ngettext("{verdict} (only {count} game)", "{verdict} (only {count} games)", games).format(
                verdict=words, count=games)
        return words

    def changes(self, metric: str | None = None, lang: str | None = None) -> list[str]:
        """Where a conclusion under skilled play differs from the one under the first level: it
        *reverses* (above against below), *appears* (a clear verdict where the first level had
        none) or is *not confirmed* (the first level's verdict, with intervals now overlapping:
        the effect is gone or the games too few to show it).  Only ``metric``'s when named; the
        sentences in ``lang`` (default: the current language)."""
        out = []
        tr = translator(lang)
        base = self.levels[0]
        for c in self.cells:
            if c.level == base or (metric is not None and c.metric.name != metric):
                continue
            ref = self.cell(c.label, base, c.metric.name)
            if ref.verdict != c.verdict:
                kind = "appears" if ref.verdict == EVEN else "not confirmed" if c.verdict == EVEN else "reverses"
                out.append(tr.gettext(_CHANGES[kind]).format(
                    label=c.label, metric=Metric.label_of(c.metric.name, lang),
                    before=self.verdict_words(ref, lang), base=level_name(base, lang),
                    before_value=plain_estimate(ref.metric.value, ref.metric.low, ref.metric.high, lang),
                    after=self.verdict_words(c, lang), level=level_name(c.level, lang),
                    after_value=plain_estimate(c.metric.value, c.metric.low, c.metric.high, lang)))
        return out


def _is_advantage(name: str) -> bool:
    return name.startswith("Advantage")


def _verdict(m: Metric, ref: Metric | None) -> str:
    lo = m.value if m.low is None else m.low
    hi = m.value if m.high is None else m.high
    if ref is None:  # an advantage, against one half
        return ABOVE if lo > 0.5 else BELOW if hi < 0.5 else EVEN
    rlo = ref.value if ref.low is None else ref.low
    rhi = ref.value if ref.high is None else ref.high
    return ABOVE if lo > rhi else BELOW if hi < rlo else EVEN


def skill_cost(start: Position, rule_sets: Sequence[Rules], games: dict[str, int],
               cores: int = 1, fast: bool = True) -> list[tuple[str, int, float]]:
    """Each level's games against itself under all ``rule_sets`` (``games``: a level's games a rule set) and
    their rough seconds, from ``start`` under each, by who plays them there (the engine's spread over ``cores``,
    as :func:`skill_levels` spreads them given an executor; :func:`.variants.sampling_cost`; ``fast=False``: the
    engine plays them all)."""
    return [(level, n * len(rule_sets), sampling_cost(start, rule_sets, (level, level), n, cores, fast))
            for level, n in games.items()]


def cost_line(level: str, games: int, rule_sets: int, seconds: float, lang: str | None = None) -> str:
    """A level's games against itself, said before they are played (how they play, the command line's skill and
    style): ``games`` under all ``rule_sets`` and their rough ``seconds``; over more than one rule set, how many
    under each too, so that 100 games of a level asked 50 do not read as a mistake."""
    tr = translator(lang)
    if rule_sets <= 1:
        return tr.ngettext("{level}: {games} game against itself, {duration} on one core",
                           "{level}: {games} games against itself, {duration} on one core", games).format(
            level=level, games=plain_count(games, lang), duration=plain_duration(seconds, lang))
    return tr.ngettext("{level}: {games} game against itself ({each} under each of {count} rule sets), {duration} on one core",
                       "{level}: {games} games against itself ({each} under each of {count} rule sets), {duration} on one core",
                       games).format(level=level, games=plain_count(games, lang), each=plain_count(games // rule_sets, lang),
                                     count=rule_sets, duration=plain_duration(seconds, lang))


def skill_levels(start: Position, rule_sets: Sequence[Rules], labels: Sequence[str] | None = None,
                 levels: Sequence[str] = LEVELS, metrics: Sequence[str] = METRICS,
                 games: dict[str, int] | int = 400, seed: int = 0, executor: Executor | None = None,
                 progress: Callable[[str], None] | None = None,
                 on_games: Callable[[int, int], bool | None] | None = None, force: bool = False,
                 fast: bool = True, cores: int = 1) -> SkillTable:
    """Sample every rule set at every level from ``start`` (its rules replaced by each rule set).

    ``games`` is one number or one per level (a search is slower: fewer games, wider intervals).
    The same seed at every level and rule set; with an executor the games are the same (it takes
    the games the engine plays; compiled games run here, faster than a worker starts).  ``progress``
    may raise (e.g. :class:`~.cancel.Cancelled`) to stop between two samples; ``on_games(done, total)``
    counts the games of the whole run as they are played, and stops it by returning False (a
    search's sample takes minutes: a page's bar moves and Cancel answers within it).  A run whose games
    (:func:`skill_cost`, the engine's spread over the ``cores`` the executor has) would take more than
    :data:`.limits.RUN_SECONDS` is refused (:class:`.limits.TooLong`) unless ``force``: the time the panel's cost
    line says (read on one core, a run said to take 20 minutes was refused as taking 40).  ``fast=False``: the
    engine plays every game (the first answer while the fast simulator compiles, :func:`..planning.engine_first`).
    """
    each = {level: games[level] if isinstance(games, dict) else games for level in levels}
    costs = skill_cost(start, rule_sets, each, cores if executor is not None else 1, fast)
    played = sum(n for _level, n, _seconds in costs)
    check_duration(sum(seconds for _level, _n, seconds in costs),
                   ngettext("{count} game", "{count} games", played).format(count=plain_count(played)), force)
    total = sum((games[lv] if isinstance(games, dict) else games) * len(rule_sets) for lv in levels)
    offset = 0
    labels = list(labels) if labels is not None else [str(r) for r in rule_sets]
    cells: list[SkillCell] = []
    for level in levels:
        n = games[level] if isinstance(games, dict) else games
        found: dict[str, dict[str, Metric]] = {}
        for label, rules in zip(labels, rule_sets):
            if progress:
                progress(ngettext("{label} under {level}: {count} game", "{label} under {level}: {count} games", n).format(
                    label=label, level=level_name(level), count=plain_count(n)))
            q = start.under(rules)
            chosen = plan(q, (level, level), "sample", games=n, fast=fast, executor=executor)
            step = None
            if on_games is not None:
                def step(done: int, of: int, offset: int = offset) -> bool | None:
                    return on_games(offset + done, total)
            r = execute(q, chosen, seed, step)
            offset += n
            found[label] = {m.name: m for m in r.metrics() if m.name in metrics}
        for label in labels:
            for name in metrics:
                m = found[label].get(name)
                if m is None:
                    continue
                ref = None if _is_advantage(name) else found[labels[0]].get(name)
                verdict = _verdict(m, ref) if (ref is not None or _is_advantage(name)) else EVEN
                cells.append(SkillCell(label, level, m, verdict))
    return SkillTable(labels, list(levels), cells)
