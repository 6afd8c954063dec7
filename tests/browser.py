"""A real browser for tests: Playwright driving Debian's Chromium, and the console as a person sees it.

Playwright's own browser download is never used: the browser is the system's Chromium (`make test`
installs it with `scripts/install-chromium.sh`). Every page a test visits is saved as a full-page
screenshot under var/screenshots/<test>/ so a person can look at what the test saw.
"""

from __future__ import annotations

import os
import re
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "var" / "screenshots"
CHROMIUM = Path(os.environ.get("VERITY_TEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
# Long enough for the first question of a fresh web worker (it loads the embedder), and for a worker to
# read a small upload on a busy two-core machine.
SLOW_MS = 90_000


def launch_chromium(playwright) -> Browser:
    """The system's Chromium, headless; a clear error when it is not installed."""
    if not CHROMIUM.exists():
        raise RuntimeError(f"No Chromium at {CHROMIUM}: run `make chromium` (Debian: apt-get install chromium), "
                           "or set VERITY_TEST_CHROMIUM to another Chromium binary.")
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)


def screenshots_for(test_name: str) -> "Screenshots":
    """An empty folder for one test's screenshots (a re-run replaces the previous run's)."""
    folder = SCREENSHOTS / re.sub(r"[^A-Za-z0-9_.-]+", "-", test_name).strip("-")
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    return Screenshots(folder)


@dataclass
class Citation:
    n: int
    title: str
    href: str


@dataclass
class AnswerCard:
    """What the answer card on the Ask page shows."""

    question: str
    text: str
    citations: list[Citation]
    badges: list[str]
    warning: str
    answer_id: int | None


@dataclass
class Screenshots:
    """One test's screenshots, numbered in the order the test saw the pages (whoever's tab they were in)."""

    folder: Path
    taken: list[Path] = field(default_factory=list)

    def take(self, page: Page, label: str) -> Path:
        path = self.folder / f"{len(self.taken) + 1:02d}-{label}.png"
        # From the top: a full-page shot of a scrolled page draws the sticky top bar halfway down it.
        scrolled = page.evaluate("window.scrollY")
        if scrolled:
            page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=path, full_page=True)
        if scrolled:
            page.evaluate(f"window.scrollTo(0, {scrolled})")
        self.taken.append(path)
        return path


@dataclass
class Console:
    """One person's browser tab on the console (its own cookies)."""

    page: Page
    base_url: str
    shots: Screenshots
    person: str = ""

    def shot(self, label: str) -> Path:
        """Save the whole page as it is now."""
        return self.shots.take(self.page, f"{self.person}-{label}" if self.person else label)

    def visit(self, path: str, label: str) -> None:
        response = self.page.goto(self.base_url + path)
        assert response is not None and response.ok, f"GET {path} answered {response and response.status}"
        self.shot(label)

    def sign_in(self, username: str, password: str) -> None:
        """Log in through the login page, as a person would, and land on the dashboard."""
        self.person = username
        self.visit("/login/", "login")
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(password)
        self.page.get_by_role("button", name="Log in").click()
        expect(self.page.get_by_role("heading", name="Dashboard")).to_be_visible()
        expect(self.page.locator(".userbox .username")).to_have_text(username)
        self.shot("dashboard")

    def ask(self, question: str) -> AnswerCard:
        """Open the Ask page and ask there."""
        self.visit("/ask/", "ask")
        card = self.ask_on_current_page(question)
        assert card.question == question, card
        return card

    def ask_on_current_page(self, question: str) -> AnswerCard:
        """Ask in the question box of the page as it is (no fresh Ask page) and read the newest answer card."""
        self.page.get_by_placeholder(re.compile("How many days")).fill(question)
        with self.page.expect_navigation(timeout=SLOW_MS):
            self.page.get_by_role("button", name="Ask", exact=True).click()
        card = self.page.locator("section.answer").last
        expect(card).to_be_visible()
        self.shot("answer")
        return read_answer_card(card)

    def ask_follow_up(self, question: str) -> AnswerCard:
        """A next question about the answer on screen, asked from that answer's page (so the page can
        carry what was asked before); returns the newest answer card, whose question may be the
        standalone form Verity made of the follow-up."""
        return self.ask_on_current_page(question)


def read_answer_card(card) -> AnswerCard:
    """The question, text, sources, badges and stored answer id of an answer card locator."""
    citations = [Citation(n=int(item.get_attribute("value")), title=item.locator("a").inner_text(),
                          href=item.locator("a").get_attribute("href"))
                 for item in card.locator("ol.sources > li").all()]
    action = card.locator(".feedback form").first
    match = re.search(r"/answers/(\d+)/", action.get_attribute("action") or "") if action.count() else None
    return AnswerCard(question=card.locator(".answer-q").inner_text(), text=card.locator(".answer-text").inner_text(),
                      citations=citations, badges=[b.strip() for b in card.locator(".badge").all_inner_texts()],
                      warning=" ".join(card.locator(".flash-warning").all_inner_texts()).strip(),
                      answer_id=int(match.group(1)) if match else None)
