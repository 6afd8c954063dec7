"""The console in a real browser: sign-in, uploads read by the worker, asking, citations, review.

The console is served by gunicorn and uploads are read by a django-q2 worker (`manage.py qcluster`),
both on the test database: the same processes as `make run`. The tests are transactional, so what they
write is committed where those processes see it, and each test starts from an empty database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from io import BytesIO
from pathlib import Path

import pytest
from django.core.management import call_command
from playwright.sync_api import expect, sync_playwright

from tests.browser import ROOT, SLOW_MS, Console, launch_chromium, screenshots_for
from tests.conftest import CORPUS, SCREENSHOT_FOLDERS
from tests.live import gunicorn, qcluster

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LOGS = ROOT / "var" / "browser-logs"
PASSWORD = "correct horse battery"
MEAL_QUESTION = "What is the daily meal allowance when travelling?"


@dataclass
class Site:
    base_url: str
    logs: Path


@pytest.fixture(scope="module")
def site(django_db_setup):
    """The console (gunicorn) and a worker, both on the test database; their logs go to var/browser-logs/."""
    from django.db import connection

    assert connection.settings_dict["NAME"].startswith("test_"), "the browser tests run on the test database only"
    LOGS.mkdir(parents=True, exist_ok=True)
    with gunicorn(LOGS / "web.log") as base_url, qcluster(LOGS / "worker.log"):
        yield Site(base_url, LOGS)


@pytest.fixture
def people():
    """A knowledge owner of the private "Handbook" collection, an employee, and a reviewer (by group, not staff)."""
    from django.contrib.auth.models import Group

    from tests.factories import make_collection, make_user
    from webapp.roles import REVIEWERS_GROUP

    owner = make_user("olivia", password=PASSWORD)
    make_collection("Handbook", is_public=False).owners.add(owner)
    make_user("eve", password=PASSWORD)
    make_user("rita", password=PASSWORD).groups.add(Group.objects.get_or_create(name=REVIEWERS_GROUP)[0])


@pytest.fixture
def finance_policies():
    """The sample corpus's finance policies (travel, expenses, procurement, corporate card), public."""
    call_command("ingest", str(CORPUS / "finance"), "--sync", "--collection", "Finance", "--public", verbosity=0)


@pytest.fixture(scope="module")
def chromium():
    """Debian's Chromium, driven by Playwright's sync API for the module's tests."""
    # That API keeps an event loop running in the test's thread, so Django's guard against blocking a loop
    # would refuse every query the tests and their fixtures make. No Django code runs in that loop.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = launch_chromium(playwright)
        yield browser
        browser.close()


@pytest.fixture
def open_console(site, chromium, request):
    """Opens a fresh browser tab (its own cookies) on the console; screenshots go to var/screenshots/<test>/."""
    shots = screenshots_for(request.node.name)
    contexts = []

    def open_() -> Console:
        context = chromium.new_context(viewport={"width": 1280, "height": 800})
        context.set_default_timeout(20_000)
        contexts.append(context)
        return Console(context.new_page(), site.base_url, shots)

    yield open_
    for context in contexts:
        context.close()
    request.config.stash.setdefault(SCREENSHOT_FOLDERS, []).append(shots.folder)


# --- files a knowledge owner uploads -----------------------------------------------------------

def markdown_file() -> dict:
    text = ("# Bicycle parking\n\n## Where to park\n\nBicycles go in the basement cage on level B1. "
            "The cage opens with your staff badge between 06:00 and 22:00.\n\n## Lockers\n\n"
            "Cyclists may book a shower locker at reception for up to five days.\n")
    return {"name": "bicycle-parking.md", "mimeType": "text/markdown", "buffer": text.encode()}


def pdf_file() -> dict:
    from fpdf import FPDF

    pdf = FPDF()
    pdf.add_page()
    pdf.set_font("helvetica", "B", 16)
    pdf.cell(0, 10, "Visitor badges", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("helvetica", size=11)
    pdf.multi_cell(0, 6, "Visitors sign in at the front desk and receive a paper badge valid for one day. "
                         "A host must meet each visitor in the lobby and walk them out at the end of the visit. "
                         "Contractors staying longer than a week need a temporary plastic badge from security.")
    return {"name": "visitor-badges.pdf", "mimeType": "application/pdf", "buffer": bytes(pdf.output())}


def docx_file() -> dict:
    from docx import Document as Docx

    document = Docx()
    document.add_heading("Desk booking", level=1)
    document.add_paragraph("Hot desks on floors 2 and 3 are booked in the desk app up to two weeks ahead.")
    document.add_heading("Quiet zones", level=2)
    document.add_paragraph("Phone calls are not allowed in the quiet zone by the east windows.")
    out = BytesIO()
    document.save(out)
    return {"name": "desk-booking.docx", "buffer": out.getvalue(),
            "mimeType": "application/vnd.openxmlformats-officedocument.wordprocessingml.document"}


def corrupt_pdf_file() -> dict:
    """A PDF header followed by bytes no PDF reader can open (as a truncated download looks)."""
    return {"name": "broken-contract.pdf", "mimeType": "application/pdf",
            "buffer": b"%PDF-1.7\n" + bytes(range(256)) * 8}


def upload(console: Console, files: list[dict]) -> None:
    """Choose the files on the upload page and send them to the Handbook collection."""
    console.visit("/documents/upload/", "upload")
    console.page.get_by_label("Collection").select_option(label="Handbook")
    console.page.locator("#id_files").set_input_files(files)
    expect(console.page.locator("#filelist li")).to_have_count(len(files))
    console.shot("files-chosen")
    console.page.get_by_role("button", name="Upload and read").click()
    expect(console.page.get_by_role("heading", name=re.compile(r"\d+ of \d+ files? accepted"))).to_be_visible()
    console.shot("uploaded")


def result_row(console: Console, name: str):
    return console.page.locator("#upload-results tbody tr", has_text=name)


# --- the tests ---------------------------------------------------------------------------------

def test_sign_in_turns_away_a_wrong_password_and_lands_on_the_dashboard(open_console, people):
    console = open_console()
    console.page.goto(console.base_url + "/ask/")
    expect(console.page).to_have_url(re.compile(r"/login/\?next=/ask/"))
    console.page.get_by_label("Username").fill("eve")
    console.page.get_by_label("Password").fill("not the password")
    console.page.get_by_role("button", name="Log in").click()
    expect(console.page.locator(".flash-error")).to_contain_text("didn't match")
    console.shot("login-refused")

    console.sign_in("eve", PASSWORD)
    nav = console.page.locator("nav.mainnav")
    expect(nav.get_by_role("link", name="Ask")).to_be_visible()
    expect(nav.get_by_role("link", name="Upload")).to_have_count(0)  # an employee reads; owners upload
    expect(nav.get_by_role("link", name="Review")).to_have_count(0)


def test_uploaded_files_are_read_by_the_worker_while_the_page_watches(open_console, people):
    console = open_console()
    console.sign_in("olivia", PASSWORD)
    polled = []
    console.page.on("request", lambda r: polled.append(r.url) if "/documents/status.json" in r.url else None)
    files = [markdown_file(), pdf_file(), docx_file()]
    upload(console, files)
    expect(console.page.get_by_role("heading", name="3 of 3 files accepted")).to_be_visible()

    for file in files:
        row = result_row(console, file["name"])
        expect(row.locator(".doc-status")).to_have_text("Ready", timeout=SLOW_MS)
        expect(row.locator(".doc-chunks")).to_have_text(re.compile(r"^[1-9]\d*$"))
        expect(row.locator(".doc-error")).to_be_hidden()
    expect(console.page.locator("#upload-live")).to_have_text("All files read.")
    console.shot("all-ready")
    assert polled, "the statuses changed on the page without a reload, from the status endpoint"

    from knowledge.models import Document

    stored = dict(Document.objects.filter(collection__name="Handbook").values_list("source", "chunk_count"))
    shown = {f["name"]: int(result_row(console, f["name"]).locator(".doc-chunks").inner_text()) for f in files}
    assert shown == stored

    console.page.get_by_role("link", name="visitor-badges.pdf").click()
    expect(console.page.get_by_role("heading", name="Visitor badges", level=1)).to_be_visible()
    expect(console.page.locator(".doc-body")).to_contain_text("paper badge valid for one day")
    console.shot("pdf-document")


def test_a_corrupt_pdf_shows_why_it_could_not_be_read(open_console, people):
    console = open_console()
    console.sign_in("olivia", PASSWORD)
    upload(console, [corrupt_pdf_file()])

    row = result_row(console, "broken-contract.pdf")
    expect(row.locator(".doc-status")).to_have_text("Failed", timeout=SLOW_MS)
    expect(row.locator(".doc-error")).to_contain_text("damaged or not a valid PDF")
    expect(row.locator(".doc-advice")).to_contain_text("upload it under the same name to replace it")
    console.shot("failed")

    console.visit("/documents/?status=failed", "failed-list")
    expect(console.page.locator("tr", has_text="broken-contract.pdf").locator(".doc-error")).to_contain_text(
        "re-export or re-download it")


def test_an_answer_cites_its_sources_and_a_citation_opens_the_highlighted_passage(open_console, people,
                                                                                  finance_policies):
    console = open_console()
    console.sign_in("eve", PASSWORD)
    card = console.ask(MEAL_QUESTION)
    assert card.citations and "[1]" in card.text, card
    assert "Not in the knowledge base" not in card.badges
    expect(console.page.locator(".confidence-value")).to_have_text(re.compile(r"^\d+%$"))

    console.page.locator(".answer-text a.cite").first.click()
    expect(console.page).to_have_url(re.compile(r"#source-\d+$"))
    first = console.page.locator("ol.sources > li").first
    first.get_by_role("link").click()
    expect(console.page).to_have_url(re.compile(r"/documents/\d+/\?chunk=\d+#"))
    passage = console.page.locator("#cited-passage")
    expect(passage).to_have_class(re.compile(r"\bcited\b"))
    # Focused for keyboard and screen-reader users (asked of the page: a headless window itself never has focus).
    assert console.page.evaluate("document.activeElement.id") == "cited-passage"
    expect(passage).to_be_in_viewport()
    expect(passage).to_have_css("background-color", "rgb(255, 244, 194)")  # the highlight, not plain text
    body = console.page.locator(".doc-body")
    expect(body.locator("table.chunk-table").first).to_be_visible()  # the policy's rate table, as a table
    expect(body).not_to_contain_text("| --- |")
    console.shot("cited-passage")


def test_a_reviewer_verifies_an_answer_an_employee_found_unhelpful(open_console, people, finance_policies):
    employee = open_console()
    employee.sign_in("eve", PASSWORD)
    card = employee.ask(MEAL_QUESTION)
    assert card.answer_id is not None and not card.warning, card
    assert "Not in the knowledge base" not in card.badges and "[1]" in card.text, card
    feedback = employee.page.locator("form.inline-reason")
    feedback.get_by_placeholder("What was wrong?").fill("Does it differ abroad?")
    feedback.get_by_role("button", name="Not helpful").click()
    expect(employee.page.locator(".flash-success")).to_contain_text("a reviewer will look at this answer")
    # Waiting for a reviewer because of the thumbs-down, not because of its confidence: said so.
    expect(employee.page.locator("section.answer .flash-warning")).to_have_text(
        re.compile("A reviewer has been asked to check this answer"))
    employee.shot("unhelpful")

    reviewer = open_console()
    reviewer.sign_in("rita", PASSWORD)
    reviewer.page.locator("nav.mainnav").get_by_role("link", name="Review").click()
    item = reviewer.page.locator(f"#answer-{card.answer_id}")
    expect(item.locator(".answer-q")).to_have_text(MEAL_QUESTION)
    expect(item).to_contain_text("Does it differ abroad?")
    expect(item.locator(".passage").first).to_be_visible()
    reviewer.shot("review-queue")
    item.get_by_placeholder("Note for the record").fill("Matches the travel policy.")
    item.get_by_role("button", name="✓ Verify").click()
    expect(reviewer.page.locator(".flash-success")).to_contain_text("Verified")
    expect(reviewer.page.locator(f"#answer-{card.answer_id}")).to_have_count(0)
    reviewer.shot("verified")

    from knowledge.models import Answer

    answer = Answer.objects.select_related("reviewed_by").get(pk=card.answer_id)
    assert answer.status == Answer.Status.VERIFIED and answer.reviewed_by.username == "rita"

    employee.visit(f"/ask/?answer={card.answer_id}", "answer-verified")
    expect(employee.page.locator("section.answer .badge-ok")).to_contain_text("Verified by a reviewer")


def test_a_follow_up_is_read_with_the_question_before_it(open_console, people, finance_policies):
    console = open_console()
    console.sign_in("eve", PASSWORD)
    first = console.ask("What is the single transaction limit on a standard physical corporate card?")
    assert "$2,500" in first.text, first
    follow_up = console.ask_follow_up("and for a department head card?")
    assert "$10,000" in follow_up.text, follow_up  # read as "…standard physical corporate card? and for a …"
    earlier = console.page.locator("section.turns .turn")
    expect(earlier).to_have_count(1)
    expect(earlier.first).to_contain_text("$2,500")
    console.page.get_by_role("button", name="New conversation").click()
    expect(console.page.locator("section.turns")).to_have_count(0)
    console.shot("new-conversation")
