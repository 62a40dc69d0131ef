"""Hot-seat in a real browser (the Voilà app in headless Chromium, 1280x800): Alice and Bob at one screen.

At each hand-over the Play tab shows a "pass the screen" line and only what both sides see; once the person
says they are there, their own hand is face up and the other side's cards stay backs.  The test reads the game
from the journal the app's kernel keeps (what the position is, whose hand is whose) and checks the page itself:
no face of a card the person at the screen may not see anywhere in the Play tab's pictures, no notation (which
writes every hidden card) anywhere in the page.  Screenshots of each hand-over go to artifacts/, and the tab at
1280x800 to artifacts/play-1280x800.png.  Skipped with the reason when Playwright, Voilà or chromium are missing
(GUYENNE_REQUIRE_BROWSER=1 fails).
"""

import pytest

from guyenne_explore.engine.position import Position
from guyenne_explore.engine.rules import SIDES
from guyenne_explore.engine.view import revealed
from guyenne_explore.widgets.play_store import read_journal
from tests import browser_app as app

#: JS: every card face and pile contents drawn in the Play tab, with the stack it lies in
FACES = """() => [...document.querySelectorAll('.guyenne-play g.card.face, .guyenne-play g.contents')].map((g) => {
  const stack = g.closest('g[data-zone]');
  return [stack.dataset.side, stack.dataset.zone, g.dataset.card || g.dataset.cards];
})"""

#: JS: what of the Play tab sticks out sideways: the page scrolls, the tab or a box around it scrolls or clips
#: its content, or an element passes the tab's right edge (the table's picture scales to the tab's width)
OVERFLOW = """() => {
  const out = [];
  const tab = document.querySelector('.guyenne-play');
  const edge = tab.getBoundingClientRect().right;
  const page = document.documentElement.scrollWidth;
  if (page > window.innerWidth) out.push(`the page is ${page} px wide`);
  for (let e = tab; e; e = e.parentElement) {
    if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
      out.push(`${e.className || e.tagName} holds ${e.scrollWidth} px in ${e.clientWidth} px`);
  }
  for (const e of tab.querySelectorAll('*')) {
    const r = e.getBoundingClientRect();
    if (r.width > 0 && r.right > edge + 1 && !e.closest('.guyenne-table-board svg *'))
      out.push(`${e.className || e.tagName} ends at ${Math.round(r.right)} px, the tab at ${Math.round(edge)} px`);
  }
  return out.slice(0, 10);
}"""


#: JS: whether the Play tab shows a turn after the one whose prompt was ``prompt``: the pass screen with its button,
#: or a new prompt with the hand
NEXT_TURN = """(prompt) => {
  const now = document.querySelector('.guyenne-play-prompt');
  const button = [...document.querySelectorAll('.guyenne-play button')].find((b) => b.textContent.includes('show my hand'));
  return now && now.innerText !== prompt && (!!now.querySelector('code') || (button && button.offsetParent !== null));
}"""


@pytest.fixture(scope="module")
def play_app(tmp_path_factory):
    """The app's address, the browser, and the folder where its kernels keep the games."""
    games = tmp_path_factory.mktemp("games")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GUYENNE_GAMES", str(games))  # the app's kernels keep their games here
        with app.served(app.free_port(8990, 8999), tmp_path_factory.mktemp("voila") / "voila.log") as (url, browser):
            yield url, browser, games


@pytest.fixture(scope="module")
def play_page(play_app):
    """The app's Play tab at 1280x800, and the folder where its kernel keeps the games."""
    url, browser, games = play_app
    page, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        app.show_tab(page, "Play")
        yield page, games
    finally:
        page.close()


def _status(page) -> str:
    return page.locator(".guyenne-play").evaluate("(e) => e.innerText").replace("\n", " | ")[:600]


def _start_hot_seat(page, names: tuple[str, str]) -> None:
    """Set a base game of two people and start it; fails with the tab's words when no game starts."""
    play = page.locator(".guyenne-play")
    play.locator(".widget-dropdown", has_text="Play").locator("select").select_option("base")
    seats = play.locator(".guyenne-seat")
    seats.nth(1).locator('button:has-text("person")').click()
    # the kernel empties a seat turned to a person (a bot's level gone): wait for it before typing a name
    page.wait_for_function("() => document.querySelectorAll('.guyenne-play .guyenne-seat input')[1]?.value === ''")
    for i, name in enumerate(names):
        seats.nth(i).locator("input").fill(name)
    page.wait_for_timeout(300)  # the names reach the kernel before the click does
    play.locator('button:has-text("Start the game")').click()
    try:
        play.locator('button:has-text("show my hand")').wait_for(timeout=60_000)
    except Exception:
        page.screenshot(path=str(app.ARTIFACTS / "hotseat-start-failure.png"))
        raise AssertionError(f"no game started; the Play tab says: {_status(page)}") from None


def _game(games) -> Position:
    """The game being played, as the kernel's journal holds it (written before the page hears of a move)."""
    journal, = games.glob("*.jsonl")
    return read_journal(journal).final


def _assert_page_hides(page, p: Position, me: int | None) -> None:
    """Nothing in the page shows a card that ``me`` (None: both sides, at a pass screen) may not see: a hand,
    deck or discard of the other side, or its placed cards before the battle reveals them."""
    faces = page.evaluate(FACES)
    if me is not None:  # the person's own hand is face up: the faces read are those the picture draws
        own = [cards for side, zone, cards in faces if (side, zone) == (SIDES[me], "hand")]
        assert sorted(own) == sorted(p.sides[me].hands[0].symbols())
    for side, zone, cards in faces:
        s = SIDES.index(side)
        if zone == "removed" or s == me:
            continue
        battle = "XY".find(zone.removeprefix("placed-")) if zone.startswith("placed-") else -1
        seen_by = 1 - s if me is None else me
        assert battle >= 0 and revealed(p, battle, seen_by), f"{side} {zone} shows {cards} to {me}"
    assert p.notation() not in page.content()


def test_two_people_at_one_screen_never_see_the_other_hand(play_page):
    page, games = play_page
    for old in games.glob("*.jsonl"):
        old.unlink()  # one game in progress: the one this test plays
    _start_hot_seat(page, ("Alice", "Bob"))
    play = page.locator(".guyenne-play")
    handovers = logged = 0
    for turn in range(10):
        button = play.locator('button:has-text("show my hand")')
        p = _game(games)
        if button.is_visible():
            handovers += 1
            # the pass screen: no hand face up, no move listed
            assert play.locator(".guyenne-move").count() == 0
            _assert_page_hides(page, p, None)
            page.screenshot(path=str(app.ARTIFACTS / f"hotseat-pass-{turn}.png"))
            button.click()
            play.locator(".guyenne-play-prompt code").wait_for()
        me = p.side_to_play
        _assert_page_hides(page, p, me)
        assert play.locator("code").first.inner_text() == " ".join(p.sides[me].hands[0].symbols())
        page.screenshot(path=str(app.ARTIFACTS / f"hotseat-turn-{turn}.png"))
        if "Since your last move" in play.locator(".guyenne-play-moves .guyenne-play-log").inner_text():
            # what happened is said beside the table, not between the prompt and the table: it pushed the person's
            # own hand below the 1280x800 window
            table = play.locator(".guyenne-table").first.bounding_box()
            said = play.locator(".guyenne-play-prompt").bounding_box()
            assert table is not None and said is not None and table["y"] - (said["y"] + said["height"]) < 60, (
                table, said)
            logged += 1
        if turn == 0:  # the moves and the move box beside the table, in the window: under it they were ~920 px down
            for part in (".guyenne-play-moves input", ".guyenne-play-moves .guyenne-move"):
                box = play.locator(part).first.bounding_box()
                assert box is not None and box["y"] + box["height"] <= 800, (part, box)
            # a junk move is refused under the box it was typed in, in the window (it was said at the tab's top)
            typed = play.locator(".guyenne-play-moves input").first
            typed.fill("banana")
            typed.press("Enter")
            refusal = play.locator(".guyenne-play-moves .guyenne-illegal")
            refusal.wait_for()
            box, said = typed.bounding_box(), refusal.bounding_box()
            assert box is not None and said is not None and 0 <= said["y"] - box["y"] <= 120, (box, said)
            assert "banana is not allowed" in refusal.inner_text()
            typed.fill("")
        events = len(read_journal(next(games.glob("*.jsonl"))).events)
        prompt = play.locator(".guyenne-play-prompt").inner_text()
        play.locator(".guyenne-move").first.dblclick()
        # the move is played (journalled) and the page shows the next turn: a pass screen, or the prompt of
        # another decision with the hand
        page.wait_for_function(NEXT_TURN, arg=prompt)
        assert len(read_journal(next(games.glob("*.jsonl"))).events) > events, _status(page)
    assert handovers >= 2 and logged >= 2


def test_the_play_tab_fits_1280x800_without_scrolling_sideways_in_english_and_french(play_page):
    page, _games = play_page
    play = page.locator(".guyenne-play")
    if not play.locator(".guyenne-table-board svg").is_visible():
        _start_hot_seat(page, ("Alice", "Bob"))
    button = play.locator('button:has-text("show my hand")')
    if button.is_visible():
        button.click()
        play.locator(".guyenne-play-prompt code").wait_for()
    try:
        for label, suffix, tab in (("English", "", "Play"), ("Français", "-fr", "Jouer")):
            page.click(f'.guyenne-language button:has-text("{label}")')
            page.wait_for_selector(f'.guyenne-explorer .lm-TabBar-tab:has-text("{tab}")')
            page.evaluate("() => document.querySelector('.guyenne-play').scrollIntoView()")
            page.wait_for_timeout(500)  # the layout settles
            page.screenshot(path=str(app.ARTIFACTS / f"play-1280x800{suffix}.png"))
            play.locator(".guyenne-playtest").scroll_into_view_if_needed()
            page.screenshot(path=str(app.ARTIFACTS / f"play-summary-1280x800{suffix}.png"))
            assert page.evaluate(OVERFLOW) == [], label
            assert page.evaluate(app.TRUNCATED) == [], label
    finally:
        page.click('.guyenne-language button:has-text("English")')


def test_a_game_under_way_in_one_page_is_not_offered_to_resume_in_another(play_app, play_page):
    """Two tables at one server: the second page's Play tab says a game is being played in another page and offers
    none of it to resume (resumed there, both pages wrote their moves into one journal)."""
    url, browser, games = play_app
    page, _ = play_page
    if not page.locator(".guyenne-play .guyenne-table-board svg").is_visible():
        _start_hot_seat(page, ("Alice", "Bob"))
    kept = len(list(games.glob("*.jsonl")))  # the first page's game, and any an earlier test left unfinished
    other, _ = app.open_explorer(browser, url, 1280, 800)
    try:
        app.show_tab(other, "Play")
        other.locator(".guyenne-play").get_by_text("1 unfinished game is being played in another page").wait_for(
            timeout=10_000)
        offered = other.locator(".guyenne-play .guyenne-resume select").evaluate("(s) => s.options.length")
        assert offered == kept - 1  # all but the one the first page plays
    finally:
        other.close()
