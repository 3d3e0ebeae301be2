"""The page of ``lzero serve`` in a real browser: headless Chromium (the system's, which
``.ci/run`` installs) driven by Playwright. Off CI the tests skip when either is missing; on
CI (``CI=true``) a missing one fails them."""

from __future__ import annotations

import io
import os
import random
import shutil

import numpy as np
import pytest
from PIL import Image

from zoo.board_games.connect4.envs.connect4_solver import Connect4Solver
from zoo.board_games.tictactoe.envs.tictactoe_env import TicTacToeEnv

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _need(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"the browser tests need {what} on CI (.ci/run installs it)")
    pytest.skip(f"the browser tests need {what}")


@pytest.fixture(scope="module")
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("playwright (the test extra)")
    if CHROMIUM is None:
        _need("Chromium (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, app):
    context = browser.new_context(viewport={"width": 1000, "height": 800}, accept_downloads=True)
    page = context.new_page()
    page.base = f"http://127.0.0.1:{app.port}"
    errors = []
    page.on("pageerror", lambda err: errors.append(str(err)))
    yield page
    context.close()
    assert errors == [], errors  # no script error on the page


def start(page, game: str, opponent: str, colour: str = "first", simulations: int | None = None):
    """Opens the page and starts a game from its form; returns once the opponent is idle."""
    page.goto(page.base + "/")
    page.wait_for_selector("body[data-ready='1']")
    page.select_option("#game", game)
    page.select_option("#opponent", opponent)
    if opponent != "human":
        page.select_option("#colour", colour)
    if simulations is not None:
        page.fill("#simulations", str(simulations))
    page.click("#start")
    page.wait_for_selector(".cell")
    settle(page)


def settle(page) -> None:
    """Waits until no request is in flight and the opponent has moved."""
    page.wait_for_selector("body[data-busy='0'][data-thinking='0']", timeout=60_000)


def board_of(page, height: int, width: int) -> np.ndarray:
    """The board the page shows, read from its cells' classes."""
    board = np.zeros((height, width), np.int8)
    for cell in page.query_selector_all(".cell"):
        classes = cell.get_attribute("class").split()
        v = 1 if "p1" in classes else 2 if "p2" in classes else 0
        board[int(cell.get_attribute("data-row")), int(cell.get_attribute("data-col"))] = v
    return board


def click(page, action: int, width: int, column: bool = False) -> None:
    row, col = (0, action) if column else divmod(action, width)
    page.click(f".cell[data-row='{row}'][data-col='{col}']")
    settle(page)


def status(page) -> str:
    return page.inner_text("#status")


def test_a_tictactoe_game_by_clicks_against_the_perfect_bot_is_a_draw(page):
    start(page, "tictactoe", "perfect")
    while not status(page).startswith("Game over"):
        board = board_of(page, 3, 3)
        move = int(np.flatnonzero(TicTacToeEnv.perfect_moves(board, 1))[0])
        click(page, move, 3)
    assert status(page) == "Game over. draw"
    assert (board_of(page, 3, 3) > 0).all()
    assert len(page.query_selector_all("#moves li")) == 9


def test_a_connect4_game_against_the_rule_bot_is_played_to_its_end(page):
    start(page, "connect4", "rule", colour="second")
    rng = random.Random(0)
    while not status(page).startswith("Game over"):
        legal = sorted(
            {int(c.get_attribute("data-action")) for c in page.query_selector_all(".cell.legal")}
        )
        click(page, rng.choice(legal), 7, column=True)
    board = board_of(page, 6, 7)
    assert len(page.query_selector_all("#moves li")) == int((board > 0).sum())
    assert status(page) in (
        "Game over. X wins: you lose",
        "Game over. O wins: you win",
        "Game over. draw",
    )
    if "wins" in status(page):
        assert len(page.query_selector_all(".cell.won")) >= 4


def test_othello_by_clicks_with_the_pass_button_offered_only_without_a_placement(page):
    """Othello's legal cells are marked and clickable, the Pass button is enabled only when
    no placement is, and the status carries the disc count (the first 8 moves of a game)."""
    from zoo.board_games.othello.envs.othello_env import OthelloEnv

    warm = OthelloEnv(dict(battle_mode="play_with_bot_mode"))  # compiled here, not on the
    warm.reset()  # page's first request, which a cold numba cache made outlast its timeout
    warm.step(warm.random_action())
    start(page, "othello", "rule")
    assert "(X 2, O 2)" in status(page)
    assert page.is_visible("#pass") and page.is_disabled("#pass")
    rng = random.Random(1)
    for _ in range(8):
        legal = [
            int(c.get_attribute("data-action")) for c in page.query_selector_all(".cell.legal")
        ]
        if legal:
            assert page.is_disabled("#pass")
            click(page, rng.choice(legal), 8)
        else:
            page.click("#pass")
            settle(page)
    board = board_of(page, 8, 8)
    black, white = int((board == 1).sum()), int((board == 2).sum())
    assert f"(X {black}, O {white})" in status(page)


def test_the_analysis_panel_shows_the_solvers_scores_and_switches_off(page):
    start(page, "connect4", "human")
    for column in (3, 3, 2):
        click(page, column, 7, column=True)
    page.wait_for_selector("body[data-analysed]")
    page.wait_for_function("document.body.dataset.analysed === document.body.dataset.version")
    shown = [s.inner_text() for s in page.query_selector_all("#scores .score")]
    expected = Connect4Solver(opening_book=True).analyze("443")
    assert shown == ["·" if s is None else f"{s:+d}" if s else "0" for s in expected]
    page.uncheck("#show-analysis")
    assert page.query_selector_all("#scores .score") == []
    assert page.inner_text("#analysis") == ""


def test_an_illegal_click_changes_nothing_and_says_why(page):
    start(page, "tictactoe", "human")
    click(page, 4, 3)
    before = board_of(page, 3, 3)
    click(page, 4, 3)
    assert (
        page.inner_text("#message")
        == "illegal move 5: 5 is taken; legal now: 1, 2, 3, 4, 6, 7, 8, 9"
    )
    assert np.array_equal(board_of(page, 3, 3), before)
    assert status(page) == "O to move"


def test_two_browser_contexts_play_independent_games(browser, app):
    pages = []
    for _ in range(2):
        context = browser.new_context()
        p = context.new_page()
        p.base = f"http://127.0.0.1:{app.port}"
        start(p, "tictactoe", "human")
        pages.append(p)
    click(pages[0], 0, 3)
    click(pages[1], 8, 3)
    click(pages[1], 4, 3)
    assert board_of(pages[0], 3, 3).tolist() == [[1, 0, 0], [0, 0, 0], [0, 0, 0]]
    assert board_of(pages[1], 3, 3).tolist() == [[0, 0, 0], [0, 2, 0], [0, 0, 1]]
    for p in pages:
        p.context.close()


def test_undo_restores_the_position(page):
    start(page, "connect4", "rule")
    click(page, 0, 7, column=True)
    after_first = board_of(page, 6, 7)
    click(page, 6, 7, column=True)
    assert not np.array_equal(board_of(page, 6, 7), after_first)
    page.click("#undo")
    settle(page)
    assert np.array_equal(board_of(page, 6, 7), after_first)
    assert len(page.query_selector_all("#moves li")) == 2


def test_keyboard_moves_use_the_terminals_syntax(page):
    start(page, "gomoku", "human")
    page.fill("#move-text", "h8")
    page.press("#move-text", "Enter")
    settle(page)
    assert board_of(page, 15, 15)[7, 7] == 1
    page.fill("#move-text", "z99")
    page.press("#move-text", "Enter")
    settle(page)
    assert page.inner_text("#message").startswith("move: expected a coordinate a1-o15")


def test_the_downloaded_gif_has_a_frame_a_move_and_the_move_list(page, tmp_path):
    start(page, "tictactoe", "human")
    for cell in (4, 0, 8, 2, 1):
        click(page, cell, 3)
    with page.expect_download() as download:
        page.click("#gif-link")
    path = tmp_path / "game.gif"
    download.value.save_as(path)
    image = Image.open(path)
    assert image.n_frames == 6  # the start, then one a move (the last with the result)
    with page.expect_download() as download:
        page.click("#moves-link")
    text = open(download.value.path()).read().splitlines()
    assert text[1:6] == ["1. X 5", "2. O 1", "3. X 9", "4. O 3", "5. X 2"]


def test_the_page_fits_a_phone(browser, app, tmp_path):
    context = browser.new_context(viewport={"width": 360, "height": 740})
    p = context.new_page()
    p.base = f"http://127.0.0.1:{app.port}"
    start(p, "connect4", "human")
    box = p.query_selector("#board").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert p.evaluate("document.documentElement.scrollWidth") <= 360
    context.close()


def test_a_screenshot_of_the_page(page, tmp_path):
    """The README's picture: ``LZERO_SCREENSHOT=docs/images/serve.png pytest -k screenshot``."""
    start(page, "connect4", "rule")
    for column in (3, 2, 4):
        click(page, column, 7, column=True)
    page.wait_for_function("document.body.dataset.analysed === document.body.dataset.version")
    target = os.environ.get("LZERO_SCREENSHOT") or str(tmp_path / "serve.png")
    page.screenshot(path=target)
    picture = Image.open(io.BytesIO(open(target, "rb").read()))
    assert picture.size == (1000, 800)
