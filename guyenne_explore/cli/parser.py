"""The command line's argparse tree: every command, its options and their help, each option's number read by
:func:`.common.number_option` (a value refused is said as any refusal, exit 1).

It imports each command's module, which loads the analysis and the render only when its command runs.
"""

from __future__ import annotations

import argparse
from typing import Any

from .. import numbers
from ..engine import SIDES
from ..i18n import LANGUAGES, N_
from ..i18n import gettext as _
from . import analyse, balance, exploit, pictures, playtest, positions, puzzles, studies, training
from .common import MAX_GAMES, WORKERS_PER_CORE, exit_codes, number_option, read_games, read_scale, read_seed
from .common import read_workers

#: the skill levels of ``skill``, ``depth`` and ``balance`` by default: the analysis's ladder
#: (``analysis.default_ladder``, whose policy registry is too heavy to import for building the parser; a test
#: keeps the two equal)
DEFAULT_LADDER = "uniform,heuristic,strong,search:100"
#: the most ``improve --magnet`` and ``--proximal`` may weigh (``analysis.policies.improvement.MOST_REGULARISER``,
#: which a test keeps equal)
MOST_REGULARISER = 10.0
#: the most members a mixture holds (``analysis.policies.mixture.MAX_MEMBERS``, which a test keeps equal)
MOST_MEMBERS = 8


class _Parser(argparse.ArgumentParser):
    """argparse itself drops a value "--" given to an option (``--samples=--`` came out as no value at all, and
    the command ran its default games): the option's own reader is handed it, and refuses it in its words."""

    def _get_values(self, action: argparse.Action, arg_strings: list[str]) -> Any:
        if action.option_strings and action.type is not None and arg_strings == ["--"]:
            return self._get_value(action, "--")
        return super()._get_values(action, arg_strings)


def build_parser() -> argparse.ArgumentParser:
    """The argparse tree of every command, its texts in the current language (its sub-parsers of the same class)."""
    ap = _Parser(prog="guyenne-explore", description=_("Explore the rules of Guyenne."),
                                 epilog=_("A POSITION is a file of JSON (RULES.md section 10) or of the one-line "
                                          "notation, or - for standard input.") + "\n\n" + exit_codes(),
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lang", choices=LANGUAGES, help=_("the language of messages, diagrams and storyboards: "
                                                      "en or fr (default: the locale's if French, else English)"))
    sub = ap.add_subparsers(dest="command", required=True)
    # measured (guyenne-explore depth --levels strong,search:400, one core): 0.25 s a game in advanced, 0.5 in classic2021
    search_cost = _("a search game takes about 0.1 to 0.5 s, at search:100 to search:400")
    m = sub.add_parser("moves", help=_("list the legal moves of a position"))
    m.add_argument("position")
    m.add_argument("--json", action="store_true")
    m.set_defaults(func=positions.cmd_moves)
    c = sub.add_parser("check", help=_("validate a position and name every problem (exit 1 when invalid)"),
                       epilog=exit_codes(), formatter_class=argparse.RawDescriptionHelpFormatter)
    c.add_argument("position")
    c.add_argument("--json", action="store_true", help=_("print the problems as data: code, field, message"))
    c.set_defaults(func=positions.cmd_check)
    for name, func, help_ in (("play", positions.cmd_play, _("play a seeded game, uniform-random unless --policies says")),
                              ("analyse", analyse.cmd_analyse, _("outcome distribution, exact or sampled"))):
        s = sub.add_parser(name, help=help_)
        s.add_argument("position", nargs="?")
        s.add_argument("--rules", help=_("preset name or rules JSON, when no position is given"))
        s.add_argument("--seed", type=read_seed, default=0)
        s.add_argument("--json", action="store_true")
        s.set_defaults(func=func)
        if name == "play":
            s.add_argument("--record", metavar="FILE", help=_("write the game record as JSON (read by `storyboard`)"))
            s.add_argument("--policies", default="uniform,uniform",
                           help=_("the bots: one policy, english,french, or english=heuristic,french=strong "
                                  "(uniform, heuristic, strong, strong@FILE, search:N); the record's header names them"))
        if name == "analyse":
            s.add_argument("--exact", action="store_true")
            s.add_argument("--force", action="store_true",
                           help=_("enumerate exactly even when the estimate says it will take long (Ctrl-C stops it)"))
            s.add_argument("--float", action="store_true",
                           help=_("sum endgames in float64: the same distribution to rounding, much sooner, no p_exact"))
            s.add_argument("--samples", type=number_option(numbers.whole, "--samples", 1, MAX_GAMES),
                           help=_("sample this many games (1 to 10,000,000)"))
            s.add_argument("--policies", default="uniform,uniform",
                           help=_("one policy, english,french, or english=search:200,french=heuristic "
                                "(uniform, heuristic, strong, strong@FILE, search[:ROLLOUTS | :MSms])"))
            _parallel_options(s, _("processes for sampled games (default: the local cores for the search; "
                                   "at most {per} to a local core)"))
            s.add_argument("--report", metavar="FILE.html",
                           help=_("also write a one-file HTML report: position, rules, figures, metrics"))
    d = sub.add_parser("diagram", help=_("draw a position as SVG, PNG or PDF (no system library needed)"))
    d.add_argument("position")
    d.add_argument("-o", "--output", required=True)
    d.add_argument("--hide-hands", action="store_true", help=_("draw hidden cards as backs (a public view)"))
    d.add_argument("--caption")
    d.add_argument("--winners", action="store_true", help=_("mark the winner of each battle the diagram shows"))
    d.add_argument("--seating", action="store_true", help=_("draw where the players sit (the team game)"))
    d.add_argument("--scale", type=read_scale, default=1.0, help=_("size factor of a PNG or PDF output"))
    d.set_defaults(func=pictures.cmd_diagram)
    sb = sub.add_parser("storyboard", help=_("a game record as pictures: a PDF, a .zip of SVGs or a folder of SVGs"),
                        description=_("One diagram per step that matters (placements face down, the reveal, battle "
                                    "winners, removals, draws), each captioned with what happened and the section "
                                    "of RULES.md that applies."))
    sb.add_argument("record", help=_("a game record: the JSON of `play --record FILE` or `play --json`"))
    sb.add_argument("-o", "--output", required=True, help=_("FILE.pdf, FILE.zip, or a folder (DIR/) for SVG files"))
    sb.add_argument("--player", choices=SIDES, help=_("draw the game as this side saw it: the other side's hand and "
                                                   "unrevealed cards stay face down (default: every card face up)"))
    sb.set_defaults(func=pictures.cmd_storyboard)
    rb = sub.add_parser("rulebook", help=_("the rulebook of a rule set: its text with the variant's numbers, every "
                                           "example replayed by the engine, and what changes from the preset"))
    rb.add_argument("--rules", default="base", help=_("preset name or rules JSON"))
    rb.add_argument("--lang", choices=LANGUAGES, help=_("the rulebook's language: en or fr"))
    rb.add_argument("-o", "--output", help=_("FILE.pdf, FILE.html, or a folder (DIR/) for both"))
    rb.add_argument("--paper", choices=("a4", "letter"), default="a4", help=_("the PDF's paper size"))
    rb.add_argument("--json", action="store_true", help=_("print the sections and the diff as JSON"))
    rb.set_defaults(func=pictures.cmd_rulebook)
    so = sub.add_parser("solve", help=_("optimal play in an open-hand endgame (no side can draw again)"))
    so.add_argument("position")
    so.add_argument("--json", action="store_true")
    so.add_argument("--objective", choices=("win", "score"), default="win",
                    help=_("win: P(win) with a draw counting half; score: expected score difference"))
    so.add_argument("--policies", default="uniform,heuristic",
                    help=_("policies whose best response is measured (comma-separated, or none)"))
    so.add_argument("--budget", type=number_option(numbers.decimal, "--budget", 0.1, 86_400), default=60.0,
                    help=_("seconds allowed for each best response (0.1 to 86,400: a day)"))
    so.set_defaults(func=analyse.cmd_solve)
    pz = sub.add_parser("puzzles", help=_("puzzles from game records: positions where one move is clearly best, "
                                          "verified by the open-hand solver or the search"))
    pz.add_argument("records", nargs="*", help=_("game records: the JSON of `play --record FILE`"))
    pz.add_argument("-o", "--output", required=True, help=_("a folder for puzzles.json and each puzzle's storyboards"))
    pz.add_argument("--from-games", type=number_option(numbers.whole, "--from-games", 1, 10_000), metavar="N",
                    nargs="?", const=0,
                    help=_("also play seeded games, the heuristic against strong, one at a time until --wanted puzzles "
                           "are found or N games are played (1 to 10,000; without N, as many as a preset needs for 50 "
                           "puzzles, within a cap)"))
    pz.add_argument("--wanted", type=number_option(numbers.whole, "--wanted", 1, 10_000),
                    help=_("the puzzles --from-games plays for (1 to 10,000; default 50)"))
    pz.add_argument("--rules", help=_("preset name or rules JSON of --from-games (default advanced)"))
    pz.add_argument("--seed", type=read_seed, default=0)
    pz.add_argument("--margin", type=number_option(numbers.decimal, "--margin", 0, 1), default=0.05,
                    help=_("how far the best move's 95%% interval must lie above every other's (0 to 1)"))
    pz.add_argument("--games", type=number_option(numbers.whole, "--games", 20, 100_000), default=400,
                    help=_("the search's rollouts for each candidate move (20 to 100,000)"))
    pz.add_argument("--json", action="store_true")
    pz.set_defaults(func=puzzles.cmd_puzzles)
    sk = sub.add_parser("skill", help=_("rule sets by skill level (uniform, heuristic, strong, search) from the opening"))
    sk.add_argument("--rules", default="base,advanced", help=_("presets or rules JSON, comma-separated; the first is "
                    "the reference"))
    sk.add_argument("--levels", default=DEFAULT_LADDER, help=_("skill levels, weakest first ({search_cost})").format(
        search_cost=search_cost))
    sk.add_argument("--games", type=read_games, default=400, help=_("games a rule set and level (a tenth for search)"))
    sk.add_argument("--seed", type=read_seed, default=0)
    sk.add_argument("--workers", type=read_workers, metavar="N",
                    help=_("processes (default: the local cores; at most {per} to a local core)").format(
                        per=WORKERS_PER_CORE))
    sk.add_argument("--json", action="store_true")
    sk.add_argument("--counter-check", action="store_true",
                    help=_("then, under the first rule set, play every counter-strategy against each level above the "
                           "lowest and each level against the one below (twice --games each), and say whether "
                           "beating it holds against the best counter-strategy"))
    sk.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    sk.set_defaults(func=studies.cmd_skill)
    ba = sub.add_parser("balance", help=_("search rules parameters for settings that meet targets (optuna, racing, "
                                          "common random numbers)"))
    ba.add_argument("--rules", default="base", help=_("the preset or rules JSON the search starts from"))
    ba.add_argument("--vary", action="append", metavar="PARAM=LOW:HIGH",
                    help=_("a parameter to vary: hand_size=5:7, removal=none,advanced, or removal for every choice "
                           "(repeat for several)"))
    ba.add_argument("--target", action="append", metavar="NAME=LOW:HIGH",
                    help=_("a wanted range: advantage=0.48:0.52, draws=:0.05, rounds=6:10, sweeps=:0.1, depth=2: "
                           "(repeat for several)"))
    ba.add_argument("--policies", default="uniform", help=_("the level of play: uniform, heuristic, strong, search:N, "
                                                             "or english,french"))
    ba.add_argument("--levels", help=_("the ladder a depth target is read on, weakest first (default: {ladder})")
                    .format(ladder=DEFAULT_LADDER))
    ba.add_argument("--games", type=read_games, default=400, help=_("games a candidate at most (the same deals for all)"))
    ba.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    ba.add_argument("--trials", type=number_option(numbers.whole, "--trials", 1, 10_000), default=30,
                    help=_("candidates to try (every one when the space is no larger)"))
    ba.add_argument("--seed", type=read_seed, default=0)
    ba.add_argument("--store", metavar="FILE", help=_("keep the trials in this file; the same command continues "
                                                    "the search"))
    ba.add_argument("--show", type=number_option(numbers.whole, "--show", 0, 1000), default=5,
                    help=_("alternatives shown"))
    ba.add_argument("--csv", metavar="FILE", help=_("also write every candidate tried as CSV"))
    ba.add_argument("--report", metavar="FILE", help=_("also write a one-page HTML report: the question, the best "
                                                     "settings with their intervals, the trade-off figure, the "
                                                     "command that reproduces it"))
    _parallel_options(ba, _("processes for games the engine plays (default: the local cores when the engine plays; "
                                "at most {per} to a local core)"))
    ba.add_argument("--precision", type=number_option(numbers.decimal, "--precision", 0.001, 0.5), metavar="HALF_WIDTH",
                    help=_("after the search, play the best candidate on (the same deals for all) until each "
                           "target's 95-percent interval is this narrow either side, e.g. 0.02"))
    ba.add_argument("--json", action="store_true")
    ba.set_defaults(func=balance.cmd_balance)
    de = sub.add_parser("depth", help=_("skill depth and luck: a ladder of skill levels, each against the one below "
                                        "in both seats"))
    de.add_argument("--rules", default="base", help=_("preset name or rules JSON"))
    de.add_argument("--levels", help=_("the ladder, weakest first (default: {ladder}; {search_cost})").format(
        ladder=DEFAULT_LADDER, search_cost=search_cost))
    de.add_argument("--games", type=read_games, default=200, help=_("deals a match, each played in both seats (a tenth "
                                                               "where a search plays)"))
    de.add_argument("--seed", type=read_seed, default=0)
    _parallel_options(de, _("processes for games the engine plays (default: the local cores when the engine plays; "
                                "at most {per} to a local core)"))
    de.add_argument("--json", action="store_true")
    de.add_argument("--counter-check", action="store_true",
                    help=_("then play every counter-strategy against each level above the lowest (twice the deals "
                           "of a match each) and say whether each rung holds against the best of them"))
    de.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    de.set_defaults(func=studies.cmd_depth)
    ex = sub.add_parser("exploit", help=_("how exploitable a level is: every counter-strategy against it in both "
                                          "seats, the best one's score with its 95-percent interval"))
    ex.add_argument("--policy", required=True, help=_("the level to exploit: strong, strong@FILE, heuristic, "
                                                      "search:400, ..."))
    ex.add_argument("--rules", default="advanced", help=_("preset name or rules JSON"))
    ex.add_argument("--games", type=number_option(numbers.whole, "--games", 2, MAX_GAMES), default=200,
                    help=_("games each counter-strategy plays, half in each seat (an even number)"))
    ex.add_argument("--minutes", type=number_option(numbers.decimal, "--minutes", 0.1, 10_080),
                    help=_("stop after this long, with the games played by then (each counter-strategy plays its "
                           "games a few at a time, in turn)"))
    ex.add_argument("--seed", type=read_seed, default=0)
    ex.add_argument("--against", metavar="LEVEL",
                    help=_("also play the level against this one, and say whether its score there holds against the "
                           "best counter-strategy (the same games)"))
    ex.add_argument("--target", type=number_option(numbers.decimal, "--target", 0, 1), default=0.5,
                    help=_("the score the verdict against --against is read on: one half, or the ladder's 0.55"))
    ex.add_argument("--json", action="store_true")
    ex.set_defaults(func=exploit.cmd_exploit)
    st = sub.add_parser("style", help=_("how each skill level plays: bluffs, cards at an opening, hero timing, "
                                        "conceding, castles chosen"))
    st.add_argument("--rules", default="advanced", help=_("preset names or rules JSON, separated by commas"))
    st.add_argument("--levels", default="uniform,heuristic,strong",
                    help=_("skill levels, weakest first ({search_cost})").format(search_cost=search_cost))
    st.add_argument("--games", type=read_games, default=400, help=_("games a level, each level against itself"))
    st.add_argument("--seed", type=read_seed, default=0)
    st.add_argument("--csv", metavar="FILE", help=_("also write every measure as CSV"))
    st.add_argument("--json", action="store_true")
    st.add_argument("--force", action="store_true",
                    help=_("run even when the games would take more than the time limit of half an hour "
                           "(Ctrl-C stops it)"))
    st.set_defaults(func=studies.cmd_style)
    tr = sub.add_parser("train", help=_("train the learned policy strong for a rule set (CMA-ES; cancellable, resumable)"))
    tr.add_argument("--rules", help=_("the preset or rules JSON to train for (default with --resume: the run's)"))
    _vary_option(tr)
    tr.add_argument("--seed", type=read_seed, help=_("the seed: the same seed and generations give the same weights "
                                               "(default 1)"))
    budget = tr.add_mutually_exclusive_group()
    budget.add_argument("--minutes", type=number_option(numbers.decimal, "--minutes", 0.1, 10_080),
                        help=_("train this long (default 10)"))
    budget.add_argument("--generations", type=number_option(numbers.whole, "--generations", 1, 1_000_000),
                        help=_("train this many generations (counted from the run's start)"))
    tr.add_argument("--games", type=read_games, help=_("games a seat for each candidate and opponent (default 200)"))
    tr.add_argument("--popsize", type=number_option(numbers.whole, "--popsize", 2, 1000),
                    help=_("candidates a generation (default 12)"))
    tr.add_argument("--hidden", type=number_option(numbers.whole, "--hidden", 0, 16),
                    help=_("the network's hidden units: 0 trains the linear weights alone; more trains a network "
                           "against a league of its past versions and of exploiters trained against them (default: "
                           "the starting weights')"))
    tr.add_argument("--robust", type=number_option(numbers.whole, "--robust", 1, 100), metavar="K",
                    help=_("train to be hard to exploit: a candidate is measured by the mean of its K lowest scores "
                           "against the heuristic, strong-linear, its start, a league of exploiters trained "
                           "against the best so far and the gauntlet's compiled counters (default: by its mean score)"))
    tr.add_argument("--discard", action="store_true",
                    help=_("train strong's own setup discard too, from the heuristic's (rules with a setup discard)"))
    tr.add_argument("--team-split", action="store_true",
                    help=_("train strong's own team split too, from the heuristic's (rules with a team side)"))
    tr.add_argument("--freeze-placements", action="store_true",
                    help=_("keep the starting weights' placements (linear weights and network) as they are and "
                           "train only the setup discard's and team split's weights (with --discard or "
                           "--team-split, or a start that has its own)"))
    _weights_files(tr)
    tr.add_argument("--resume", metavar="STATE", help=_("continue the run saved in STATE (written beside the weights "
                                                      "file after each generation)"))
    _parallel_options(tr, _("processes that score a generation's candidates (default: this one; at most {per} to a "
                            "local core)"), _("a Dask scheduler (tcp://host:8786): score the candidates on its workers"))
    tr.add_argument("--json", action="store_true")
    tr.set_defaults(func=training.cmd_train)
    mx = sub.add_parser("mix", help=_("play several weights files as one policy strong@OUT: a member drawn by its "
                                      "odds at each decision, or once a game"))
    mx.add_argument("files", nargs="+", metavar="FILE", help=_("the members' weights files (2 to {most})").format(
        most=MOST_MEMBERS))
    mx.add_argument("--odds", help=_("each member's whole-number odds, separated by commas (default: equal)"))
    mx.add_argument("--drawn", choices=("decision", "game"), default="decision",
                    help=_("when the member is drawn: at each decision (the default), or once a game, after the deal, "
                           "to play the whole game"))
    mx.add_argument("--out", required=True, help=_("the mixture's weights file to write"))
    mx.set_defaults(func=training.cmd_mix)
    im = sub.add_parser("improve", help=_("improve strong's weights by its own search: self-play whose placements the "
                                          "search values, then a fit (cancellable, resumable)"))
    im.add_argument("--method", choices=("search", "natural"), default="search",
                    help=_("search: fit the weights to the search's values of self-play's placements (the default); "
                           "natural: the natural policy gradient of compiled games against a league (itself, its start, "
                           "strong-linear, the heuristic and the gauntlet's compiled counters), one placement a game "
                           "played again with other moves "
                           "(default then 4 iterations of 200,000 games)"))
    im.add_argument("--rules", help=_("the preset or rules JSON to improve for (default with --resume: the run's)"))
    _vary_option(im)
    im.add_argument("--seed", type=read_seed, help=_("the seed: the same seed and iterations give the same weights "
                                               "(default 1)"))
    im.add_argument("--iterations", type=number_option(numbers.whole, "--iterations", 1, 1000),
                    help=_("iterations, counted from the run's start (default 1)"))
    im.add_argument("--games", type=read_games, help=_("self-play games an iteration (default 200)"))
    im.add_argument("--magnet", type=number_option(numbers.decimal, "--magnet", 0, MOST_REGULARISER),
                    help=_("magnetic mirror descent: each fit pays this much for its policy's KL divergence from the "
                           "start's, so the iterations settle at a mix near it (default 0; with it or --proximal the run "
                           "writes its last iteration)"))
    im.add_argument("--proximal", type=number_option(numbers.decimal, "--proximal", 0, MOST_REGULARISER),
                    help=_("magnetic mirror descent: each fit pays this much for its policy's KL divergence from the "
                           "iteration's start, a smaller step (default 0)"))
    _weights_files(im)
    im.add_argument("--resume", metavar="STATE", help=_("continue the run saved in STATE (written beside the weights "
                                                      "file after each iteration)"))
    _parallel_options(im, _("processes that play an iteration's games (default: this one; at most {per} to a "
                            "local core)"), _("a Dask scheduler (tcp://host:8786): play the games on its workers"))
    im.add_argument("--json", action="store_true")
    im.set_defaults(func=training.cmd_improve)
    pt = sub.add_parser("playtest", help=_("people's recorded games read against the bots"))
    pt_sub = pt.add_subparsers(dest="playtest", required=True)
    pr = pt_sub.add_parser("report", help=_("each decision's loss, each draw's luck, the players beside the bots"))
    pr.add_argument("records", nargs="+", help=_("game records: files, or folders of *.json"))
    pr.add_argument("--levels", default="heuristic,strong", help=_("the levels to compare the players with, weakest "
                                                                   "first (levels with move probabilities)"))
    pr.add_argument("--budget", default="search:400", help=_("the search's rollouts a decision: search:400"))
    pr.add_argument("--bot-games", type=read_games, default=200, help=_("games each level plays against itself"))
    pr.add_argument("--seed", type=read_seed, default=0)
    pr.add_argument("--csv", metavar="FILE", help=_("also write one row a decision and a draw as CSV"))
    pr.add_argument("--report", metavar="FILE.html", help=_("also write the report as one HTML file"))
    pr.add_argument("--json", action="store_true")
    pr.set_defaults(func=playtest.cmd_playtest_report)
    pp = pt_sub.add_parser("persona", help=_("fit strong's weights to the players' moves: a level persona@FILE"))
    pp.add_argument("records", nargs="+", help=_("game records: files, or folders of *.json"))
    pp.add_argument("--out", required=True, metavar="FILE", help=_("the weights file to write"))
    pp.set_defaults(func=playtest.cmd_playtest_persona)
    return ap


def _vary_option(command: argparse.ArgumentParser) -> None:
    """``--vary NAME=VALUE``: the variant of ``--rules`` that ``train`` and ``improve`` adapt strong to."""
    command.add_argument("--vary", action="append", metavar="NAME=VALUE",
                         help=_("a parameter changed from those rules: hand_size=7 (repeat for several)"))


def _weights_files(command: argparse.ArgumentParser) -> None:
    """``--start FILE`` and ``--out FILE``: the weights ``train`` and ``improve`` start from and write."""
    command.add_argument("--start", metavar="FILE",
                         help=_("a weights file to start from (default: the package's weights of the rules' preset)"))
    command.add_argument("--out", metavar="FILE", help=_("the weights file to write (default: the user's cache, under "
                                                       "the rules' fingerprint, where the panels find it)"))


def _parallel_options(command: argparse.ArgumentParser, workers: str,
                      scheduler: str = N_("a Dask scheduler (tcp://host:8786): spread sampled games over its workers")) -> None:
    """``--workers N`` and ``--scheduler ADDRESS``, said the same way by every command that spreads its work
    (``workers``: what the processes do, with ``{per}`` for the most a local core takes)."""
    command.add_argument("--workers", type=read_workers, metavar="N", help=workers.format(per=WORKERS_PER_CORE))
    command.add_argument("--scheduler", metavar="ADDRESS", help=_(scheduler))

