"""The rules editor in a real browser (the Voilà app in headless Chromium): in French, at 1280 and 1920 px wide, in
the Builder and the Variant lab, every label of the rules is whole and the fields of a column line up, the flags'
boxes with them.  At 120 px the French "reconstitution de la pioche" (about 175 px) pushed its field out of line.
Skipped with the reason when Playwright, Voilà or chromium are missing (GUYENNE_REQUIRE_BROWSER=1 fails instead).
"""

import pytest

from tests import browser_app as app

#: JS: each shown field of the rules editor as [its column's left, a label cut, its box's left, its box's right past
#: the field]: a label is cut when its text is wider than its box or runs past its field (a flag's words)
FIELDS = """() => [...document.querySelectorAll('.guyenne-rules-field')].filter((f) => f.offsetParent !== null)
  .map((f) => {
    const box = f.querySelector('input, select'), field = f.getBoundingClientRect(), at = box.getBoundingClientRect();
    const cut = [...f.querySelectorAll('.widget-label, .widget-label-basic span')]
      .some((label) => label.scrollWidth > label.clientWidth + 1 || label.getBoundingClientRect().right > field.right + 1);
    return [Math.round(field.left), cut, Math.round(at.left), Math.round(at.right - field.right)];
  })"""


@pytest.mark.parametrize("width", [1280, 1920])
def test_in_french_the_rules_labels_are_whole_and_their_fields_line_up(browser_app, width):
    from guyenne_explore.i18n import gettext

    url, browser = browser_app
    page, _ = app.open_explorer(browser, url, width, 900)
    try:
        page.click('.guyenne-language button:has-text("Français")')
        page.wait_for_selector(f'.guyenne-explorer .lm-TabBar-tab:has-text("{gettext("Variant lab", "fr")}")')
        page.wait_for_timeout(1000)  # the labels' width follows the switch
        for tab in ("Builder", "Variant lab"):
            app.show_tab(page, gettext(tab, "fr"))
            fields = page.evaluate(FIELDS)
            assert len(fields) >= 14, tab
            assert [f for f in fields if f[1]] == [], f"{tab}: a label is cut"
            assert [f for f in fields if f[3] > 1] == [], f"{tab}: a box runs past its field"
            columns: dict[int, set[int]] = {}
            for column, _cut, left, _past in fields:
                columns.setdefault(column, set()).add(left)
            assert all(max(lefts) - min(lefts) <= 2 for lefts in columns.values()), (tab, columns)
    except Exception:
        app.ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(app.ARTIFACTS / f"rules-editor-{width}-failure.png"), full_page=True)
        raise
    finally:
        page.close()
