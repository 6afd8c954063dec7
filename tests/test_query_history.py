"""The query history page and its CSV export: filters, paging, links, formula-safe cells, reviewers only."""

from __future__ import annotations

import csv
import io
from datetime import datetime, timedelta, timezone as dt_timezone

import pytest
from django.http import StreamingHttpResponse

from knowledge.models import Answer
from tests.factories import make_answer, make_collection, make_query_log, make_user
from webapp.console.csvexport import safe_cell
from webapp.console.history import CSV_HEADER, PAGE_SIZE

pytestmark = pytest.mark.django_db


@pytest.fixture
def logs():
    """Questions from each source with each outcome, on different days, in two collections."""
    hr, it = make_collection("HR"), make_collection("IT")
    leave = make_answer(collection_ids=[hr.pk])
    vpn = make_answer(collection_ids=[it.pk], status=Answer.Status.FLAGGED)
    printer = make_answer(collection_ids=[it.pk], flag_pending=True, refused=True)
    return {
        "leave": make_query_log("How many leave days do I get?", at=datetime(2025, 3, 3, 9, tzinfo=dt_timezone.utc),
                                channel="slack", outcome="answered", answer=leave, latency_ms=420),
        "leave again": make_query_log("how many LEAVE days?", at=datetime(2025, 3, 5, 9, tzinfo=dt_timezone.utc),
                                      channel="api", outcome="cached", answer=leave, latency_ms=12),
        "vpn": make_query_log("Why does the VPN drop?", at=datetime(2025, 3, 5, 23, tzinfo=dt_timezone.utc),
                              channel="console", outcome="answered", answer=vpn),
        "printer": make_query_log("Where is the printer?", at=datetime(2025, 3, 8, 9, tzinfo=dt_timezone.utc),
                                  channel="slack", outcome="refused", answer=printer),
        "broken": make_query_log("What broke?", at=datetime(2025, 3, 8, 10, tzinfo=dt_timezone.utc),
                                 channel="api", outcome="error", latency_ms=None),
    }


def shown(response) -> set[str]:
    return {row["log"].question for row in response.context["rows"]}


@pytest.mark.parametrize("params, expected", [
    ({}, {"leave", "leave again", "vpn", "printer", "broken"}),
    ({"date_from": "2025-03-05"}, {"leave again", "vpn", "printer", "broken"}),
    ({"date_to": "2025-03-05"}, {"leave", "leave again", "vpn"}),
    ({"date_from": "2025-03-05", "date_to": "2025-03-05"}, {"leave again", "vpn"}),
    ({"channel": "slack"}, {"leave", "printer"}),
    ({"channel": "api"}, {"leave again", "broken"}),
    ({"outcome": "answered"}, {"leave", "vpn"}),
    ({"outcome": "refused"}, {"printer"}),
    ({"outcome": "cached"}, {"leave again"}),
    ({"outcome": "flagged"}, {"vpn", "printer"}),
    ({"q": "leave"}, {"leave", "leave again"}),
    ({"q": "leave", "channel": "slack"}, {"leave"}),
    ({"collection": "IT"}, {"vpn", "printer"}),
    ({"collection": "IT", "outcome": "flagged", "channel": "console"}, {"vpn"}),
])
def test_history_filters(client, reviewer, logs, params, expected):
    if "collection" in params:
        params = {**params, "collection": logs["vpn"].answer.collection_ids[0] if params["collection"] == "IT"
                  else logs["leave"].answer.collection_ids[0]}
    response = client.get("/history/", params)
    assert response.status_code == 200
    assert shown(response) == {logs[name].question for name in expected}


def test_dates_are_local_days(client, reviewer, logs, settings):
    settings.TIME_ZONE = "America/New_York"
    # 23:00 UTC on 5 March is still 5 March in New York, 01:00 UTC on 6 March would not be.
    make_query_log("late one", at=datetime(2025, 3, 6, 1, tzinfo=dt_timezone.utc))
    response = client.get("/history/", {"date_from": "2025-03-05", "date_to": "2025-03-05"})
    assert shown(response) == {logs["leave again"].question, logs["vpn"].question, "late one"}


def test_rows_link_to_their_answer_and_show_outcome_and_collections(client, reviewer, logs):
    html = client.get("/history/").content.decode()
    assert f'href="/ask/?answer={logs["vpn"].answer_id}"' in html
    assert "flagged" in html and "IT" in html and "420 ms" in html
    assert "What broke?" in html and "/ask/?answer=None" not in html


def test_history_is_paged_and_pages_keep_the_filters(client, reviewer):
    for i in range(PAGE_SIZE + 7):
        make_query_log(f"question {i}", channel="slack")
    make_query_log("from the console", channel="console")
    first = client.get("/history/", {"channel": "slack"})
    assert first.context["total"] == PAGE_SIZE + 7 and len(first.context["rows"]) == PAGE_SIZE
    assert "?channel=slack&amp;page=2" in first.content.decode()
    second = client.get("/history/", {"channel": "slack", "page": 2})
    assert len(second.context["rows"]) == 7
    assert "from the console" not in shown(second)


def test_a_reversed_date_range_is_explained(client, reviewer, logs):
    response = client.get("/history/", {"date_from": "2025-03-09", "date_to": "2025-03-01"})
    assert response.status_code == 200
    assert response.context["rows"] == []
    assert "is before the start date" in response.content.decode()
    export = client.get("/history/export.csv", {"date_from": "2025-03-09", "date_to": "2025-03-01"})
    assert export.status_code == 400 and b"is before the start date" in export.content


def test_an_unknown_outcome_is_refused_with_the_choices(client, reviewer, logs):
    response = client.get("/history/", {"outcome": "lost"})
    assert response.context["rows"] == [] and "Select a valid choice" in response.content.decode()


def read_csv(response) -> list[list[str]]:
    assert isinstance(response, StreamingHttpResponse)
    return list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode())))


def test_csv_export_streams_the_filtered_rows(client, reviewer, logs):
    response = client.get("/history/export.csv", {"outcome": "flagged"})
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert response["Content-Disposition"].startswith('attachment; filename="verity-questions-')
    rows = read_csv(response)
    assert rows[0] == CSV_HEADER
    by_question = {r[CSV_HEADER.index("question")]: dict(zip(CSV_HEADER, r)) for r in rows[1:]}
    assert set(by_question) == {"Why does the VPN drop?", "Where is the printer?"}
    vpn = by_question["Why does the VPN drop?"]
    assert vpn["source"] == "console" and vpn["outcome"] == "answered" and vpn["flagged"] == "yes"
    assert vpn["collections"] == "IT" and vpn["latency_ms"] == "500"
    assert vpn["asked_at"] == "2025-03-05T23:00:00+00:00"
    assert vpn["answer_url"].endswith(f"/ask/?answer={logs['vpn'].answer_id}")


def test_csv_export_without_filters_has_every_row(client, reviewer, logs):
    rows = read_csv(client.get("/history/export.csv"))
    assert len(rows) == 1 + len(logs)
    broken = next(dict(zip(CSV_HEADER, r)) for r in rows[1:] if r[CSV_HEADER.index("question")] == "What broke?")
    assert broken["latency_ms"] == "" and broken["answer_id"] == "" and broken["flagged"] == "no"


@pytest.mark.parametrize("question", ['=HYPERLINK("http://evil.example","click")', "+1+2", "-2+3", "@SUM(A1:A2)",
                                      "\t=1+1"])
def test_csv_cells_that_would_run_as_formulas_are_quoted(client, reviewer, question):
    make_query_log(question)
    rows = read_csv(client.get("/history/export.csv"))
    assert rows[1][CSV_HEADER.index("question")] == "'" + question


@pytest.mark.parametrize("value, expected", [
    ("=1+1", "'=1+1"), ("+x", "'+x"), ("-x", "'-x"), ("@x", "'@x"), ("\rx", "'\rx"),
    ("plain = text", "plain = text"), ("", ""), (-3, -3), (0.5, 0.5), (None, None),
])
def test_safe_cell(value, expected):
    assert safe_cell(value) == expected


def test_readers_get_403_and_no_link(client, logs):
    client.force_login(make_user())
    assert client.get("/history/").status_code == 403
    assert client.get("/history/export.csv").status_code == 403
    assert b'href="/history/"' not in client.get("/").content


def test_staff_see_the_link_and_the_page(client, logs):
    client.force_login(make_user(is_staff=True))
    assert b'href="/history/"' in client.get("/").content
    assert client.get("/history/").status_code == 200


@pytest.mark.parametrize("path", ["/history/", "/history/export.csv"])
def test_anonymous_users_are_sent_to_log_in(client, path):
    response = client.get(path)
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_history_page_needs_a_bounded_number_of_queries(client, reviewer, django_assert_max_num_queries):
    for i in range(PAGE_SIZE * 2):
        make_query_log(f"question {i}", answer=make_answer(collection_ids=[make_collection().pk]),
                       at=datetime(2025, 3, 1, tzinfo=dt_timezone.utc) + timedelta(minutes=i))
    with django_assert_max_num_queries(10):
        assert client.get("/history/").status_code == 200
