"""Cancel and Ctrl-C stop skilled play mid-game: in this process, on the local pool, on Dask, from the
command line and from the panels; every worker stops (or is killed) and the next run starts at once.

No test here asserts a duration: a busy machine only makes them slower.  They assert what a stopped run
leaves behind: no worker still computing (its CPU time does not move), no game of the cancelled run
still to come, a pool that takes the next run.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from guyenne_explore.engine import Position
from tests.conftest import as_from_a_terminal
from guyenne_explore.analysis.cancel import Cancelled
from guyenne_explore.analysis.sampling.sample import play_games, sample_games_on
from guyenne_explore.analysis.workers import LocalPool, local_pool

START = Position.start("advanced")


def cpu_seconds(pids: list[int]) -> float:
    total = 0.0
    for pid in pids:
        try:
            t = psutil.Process(pid).cpu_times()
            total += t.user + t.system
        except psutil.NoSuchProcess:
            pass
    return total


def assert_idle(pids: list[int], background: float = 0.1, within: float = 2.0) -> None:
    """The processes compute nothing within ``within`` seconds (Cancel's promise): some second that starts
    by then sees their CPU time stand (nearly) still.  A busy worker takes most of a core every second, so
    one still playing fails; ``background`` is what idle ones spend (a Dask worker's heartbeats, its
    profiler, the clean-up right after a cancel)."""
    start = time.monotonic()
    samples = [(start, cpu_seconds(pids))]
    spent: list[float] = []
    while samples[-1][0] < start + within + 1.0:
        time.sleep(0.25)
        now, used = time.monotonic(), cpu_seconds(pids)
        samples.append((now, used))
        spent += [used - u for t, u in samples if 1.0 <= now - t < 1.25]  # the second that ends now
        if spent and min(spent) < background:
            return
    raise AssertionError(f"the processes spent {min(spent):.2f} s of CPU in each second after the cancel "
                         f"(idle: under {background} s)")


def worker_pids(pool: LocalPool) -> list[int]:
    return [p.pid for p in pool._processes.values()]  # type: ignore[union-attr]


def cancel_after(games: int, seconds: float = 0.0):
    """A progress callback that cancels once ``games`` games are done and ``seconds`` have passed."""
    start = time.monotonic()
    seen: list[int] = []

    def progress(done: int, total: int) -> bool | None:
        seen.append(done)
        return False if done >= games and time.monotonic() - start >= seconds else None
    return progress, seen


def test_a_game_in_this_process_stops_at_its_next_decision():
    """One search game of 4000 rollouts a decision takes seconds: Cancel is seen between two decisions,
    not at the game's end."""
    progress, seen = cancel_after(0, seconds=0.3)
    with pytest.raises(Cancelled):
        play_games(START, ("search:4000", "heuristic"), 3, 1, progress=progress)
    assert max(seen) == 0  # stopped inside the first game


def test_cancel_stops_the_workers_of_the_local_pool_and_the_pool_takes_the_next_run():
    with LocalPool(2) as pool:
        progress, seen = cancel_after(1)
        with pytest.raises(Cancelled):
            sample_games_on(pool, START, ("search:30", "heuristic"), 60, 1, progress=progress)
        assert 1 <= max(seen) < 60  # counted game by game, not chunk by chunk
        assert_idle(worker_pids(pool))  # the games in progress stopped: nothing computes any more
        again = sample_games_on(pool, START, ("search:10", "uniform"), 2, 5)
        assert again == play_games(START, ("search:10", "uniform"), 2, 5)  # the same workers, the same games


def test_a_worker_that_does_not_stop_in_time_is_killed_and_the_shared_pool_replaced():
    """A share that never asks the flag (here a sleep) outlasts the grace the workers get: they are
    killed, not waited for, and the panels' next run gets a new pool.  The killed pool's own thread is gone
    too: left winding up, it closed the pool's wake-up pipe while Python's exit wrote to it, and a command
    stopped by kill ended with a traceback."""
    from guyenne_explore.analysis.workers import open_run

    pool = local_pool()
    run = open_run(pool)
    stuck = [pool.submit(time.sleep, 600) for _ in range(2)]
    while not all(f.running() for f in stuck):
        time.sleep(0.1)
    pids = worker_pids(pool)
    manager = pool._executor_manager_thread  # the standard pool's thread that watches its workers
    assert manager is not None and manager.is_alive()
    run.stop(stuck)
    run.close()
    assert not any(psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE for pid in pids)
    assert not manager.is_alive()
    fresh = local_pool()
    assert fresh is not pool
    assert len(sample_games_on(fresh, START, ("search:10", "uniform"), 2, 5)) == 2


def test_cancel_stops_the_tasks_of_a_dask_cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        progress, _ = cancel_after(0, seconds=2.0)
        with pytest.raises(Cancelled):
            sample_games_on(client.get_executor(), START, ("search:400", "heuristic"), 40, 1, progress=progress,
                            chunk=2)
        pids = list(client.run(os.getpid).values())
        assert_idle(pids, background=0.3)
        assert not any(client.processing().values())
        assert len(sample_games_on(client.get_executor(), START, ("search:10", "uniform"), 2, 5)) == 2


def stopped_with_every_worker(cmd: list[str], stop: str) -> str:
    """Start ``cmd`` as from a terminal, wait until two of its workers are playing, stop it by ``stop``
    (Ctrl-C to its process group, or ``kill``: SIGTERM to it alone), check that it says "cancelled" (exit
    130, no traceback) and leaves no process behind; returns what it printed on stdout."""
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=as_from_a_terminal)
    try:
        me = psutil.Process(proc.pid)
        deadline = time.monotonic() + 120
        busy: list[psutil.Process] = []
        while time.monotonic() < deadline and len(busy) < 2:  # wait until two workers are playing
            time.sleep(0.5)
            busy = [c for c in me.children(recursive=True) if c.cpu_times().user > 1.0]
        assert len(busy) == 2, "the workers did not start playing"
        everyone = me.children(recursive=True)
        if stop == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 130, err
        assert "cancelled" in err and "Traceback" not in err
        gone, alive = psutil.wait_procs(everyone, timeout=10)
        assert not alive
        return out
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


@pytest.mark.parametrize("stop", ["ctrl-c", "kill"])
def test_ctrl_c_or_kill_stops_the_command_line_and_every_worker(stop: str):
    """Ctrl-C in a terminal reaches the whole process group: the workers leave it to the command, which
    stops them and says "cancelled" (exit 130), leaving no process behind.  ``kill`` (SIGTERM to the
    command alone) does the same; by default it would end the command and leave its workers playing."""
    stopped_with_every_worker([sys.executable, "-m", "guyenne_explore", "analyse", "--rules", "advanced", "--policies",
                               "english=search:400,french=heuristic", "--samples", "200", "--seed", "1",
                               "--workers", "2"], stop)


@pytest.mark.parametrize("stop", ["ctrl-c", "kill"])
def test_ctrl_c_or_kill_stops_a_benchmark_and_every_worker(stop: str):
    """The benchmarks run for minutes to hours over a pool: stopped, they stop their workers too (a plain
    process pool left them playing on after ``kill``, slowing every later run), keeping what they printed."""
    bench = Path(__file__).resolve().parents[1] / "benchmarks" / "gauntlet.py"
    out = stopped_with_every_worker([sys.executable, str(bench), "--policies", "heuristic,strong", "--counters",
                                     "exploiter", "--games", "400", "--workers", "2"], stop)
    assert "vs exploiter" not in out  # stopped while its first pairing played, not after


def test_variant_lab_cancel_frees_the_cores_for_the_next_skill_run():
    """The reported jam: Cancel on a lab run with search play, then a skill levels run that never ended."""
    from guyenne_explore.widgets.skill_panel import SkillPanel
    from guyenne_explore.widgets.variant_lab import VariantLab

    lab = VariantLab(START)
    lab.english_policy.value = "search"
    lab.games.value = 200
    lab.run_compare(block=False)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and lab.controls.progress.value < 1:
        time.sleep(0.2)
    assert lab.controls.progress.value >= 1
    lab.controls.cancel()
    lab.controls.thread.join(timeout=120)
    assert not lab.controls.running
    assert "Cancelled" in lab.controls.status.value
    assert_idle(worker_pids(local_pool()))

    skill = SkillPanel(START)
    skill.search_games.value = 2
    skill.games.value = 20
    skill.run(block=True)
    assert skill.table is not None


def test_the_bar_says_the_time_left_at_the_pace_so_far_in_both_languages():
    from guyenne_explore.i18n import set_language
    from guyenne_explore.widgets.run_controls import STEPS, RunControls

    controls = RunControls()
    controls.start("Sampling")
    controls._began = time.monotonic() - 10.0  # one game in ten seconds, two to go
    controls.callback(1, 3)
    assert controls.left.value == "about 20 seconds left"
    previous = set_language("fr")
    try:
        controls._drawn = 0.0
        controls.callback(1, 3)
        assert controls.left.value.startswith("encore environ 2")
    finally:
        set_language(previous)
    controls.callback(3, 3)
    assert controls.left.value == ""
    controls._drawn = 0.0
    controls.callback(1200, 10_000)  # big counts are grouped as the language groups digits
    assert controls.progress.description == "1,200/10,000 games"  # and says what it counts
    controls.counting = STEPS  # a run that trains before it plays counts steps
    controls.redraw()
    assert controls.progress.description == "1,200/10,000 steps"


def _endgame_of_long_rounds() -> Position:
    """A base endgame (no side can reshuffle) with ten cards in the decks: a forced exact run's forward pass takes
    seconds a round (its third would need 3.7 GB: refused in words)."""
    import random

    from guyenne_explore.analysis.planning import in_endgame
    from guyenne_explore.engine import OPEN_FIRST, apply_legal

    rng, p = random.Random(5), Position.start("base")
    while not (p.to_play == OPEN_FIRST and in_endgame(p, ("uniform", "uniform"))
               and 7 <= sum(s.deck.size for s in p.sides) <= 11):
        p = p.apply_outcome(p.sample_outcome(rng)) if p.is_chance else apply_legal(p, rng.choice(list(p.legal_moves)))
    return p


def test_cancel_stops_a_forced_exact_run_in_the_analysis_panel():
    """Cancel pressed (from another thread, as the page's) during a forced exact run stops it and says so; the
    forward pass told its caller only between rounds, so the run went on for seconds to its end or its refusal."""
    import threading

    from guyenne_explore.widgets.analysis_panel import AnalysisPanel

    panel = AnalysisPanel(_endgame_of_long_rounds())
    panel.method.value = "exact"
    panel.force_exact.value = True
    panel.run(block=False)
    assert panel.controls.thread is not None
    panel.controls.thread.join(timeout=1.0)  # well into the pass's first long round
    assert panel.controls.thread.is_alive()
    pressed = threading.Thread(target=panel.controls.cancel_button.click)
    pressed.start()
    pressed.join()
    panel.controls.thread.join(timeout=30)  # two seconds at most on an idle machine; no duration asserted
    assert not panel.controls.thread.is_alive()
    assert panel.controls.status.value.startswith("Cancelled"), panel.controls.status.value


def test_the_forward_pass_asks_whether_to_stop_inside_a_round(monkeypatch):
    """A pass reports every PAIRS_A_REPORT pairs of side states inside a round, not only at its end: a caller that
    stops it (Cancel, the budget) is heard within the round."""
    from guyenne_explore.analysis.exact import forward
    from guyenne_explore.analysis.exact.forward_exact import ExactForwardEndgame

    monkeypatch.setattr(forward, "PAIRS_A_REPORT", 4)
    p = _endgame_of_long_rounds()
    reports: list[int] = []

    def stop_at_the_third(states: int) -> None:
        reports.append(states)
        if len(reports) == 3:
            raise Cancelled()

    with pytest.raises(Cancelled):
        ExactForwardEndgame(p.rules, stop_at_the_third).value(p)
    assert len(set(reports)) < len(reports)  # reported again with the round's count: inside the round
