"""Dashboard trends: per-day counts and shares, latency percentiles, stages and top lists, computed in
PostgreSQL and drawn as SVG for reviewers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone as dt_timezone
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from django.utils import timezone

from knowledge import activity
from knowledge.models import (Answer, AnswerCitation, Document, Entity, QueryLog, Question, QuestionEntity,
                              QuestionTopic, Topic)
from tests.factories import make_answer, make_collection, make_query_log, make_user

pytestmark = pytest.mark.django_db

SVG = "{http://www.w3.org/2000/svg}"
NOW = datetime(2025, 3, 10, 15, 0, tzinfo=dt_timezone.utc)
UTC = ZoneInfo("UTC")


def day(n: int, hour: int = 12) -> datetime:
    """`n` days before NOW's date, at `hour` UTC."""
    return (NOW - timedelta(days=n)).replace(hour=hour)


def series(key: str = "7d", tz=UTC):
    return activity.bucket_series(QueryLog.objects.all(), activity.window(key, now=NOW, tz=tz))


def test_per_day_counts_and_shares_include_empty_days():
    for outcome in ("answered", "answered", "answered", "refused"):
        make_query_log(at=day(2), outcome=outcome)
    flagged = make_answer(status=Answer.Status.FLAGGED)
    pending = make_answer(flag_pending=True)
    make_query_log(at=day(0), outcome="answered", answer=flagged)
    make_query_log(at=day(0), outcome="cached", answer=pending)
    make_query_log(at=day(0), outcome="refused")
    make_query_log(at=day(0), outcome="answered")
    make_query_log(at=day(8), outcome="answered")  # before the 7-day window

    buckets = series()
    assert [b.at for b in buckets] == [NOW.date() - timedelta(days=6 - i) for i in range(7)]
    assert [b.total for b in buckets] == [0, 0, 0, 0, 4, 0, 4]
    empty, busy, today = buckets[5], buckets[4], buckets[6]
    assert empty.total == 0 and empty.share("answered") is None and empty.p50_ms is None
    assert (busy.answered, busy.refused, busy.cached, busy.flagged) == (3, 1, 0, 0)
    assert busy.share("answered") == 0.75 and busy.share("refused") == 0.25
    assert (today.answered, today.refused, today.cached, today.flagged) == (2, 1, 1, 2)
    assert today.share("flagged") == 0.5


def test_days_are_cut_in_the_configured_time_zone():
    new_york = ZoneInfo("America/New_York")
    # 03:00 UTC on 10 March is 23:00 on 9 March in New York.
    make_query_log(at=datetime(2025, 3, 10, 3, 0, tzinfo=dt_timezone.utc))
    by_day = {b.at: b.total for b in series(tz=new_york)}
    assert by_day[datetime(2025, 3, 9).date()] == 1
    assert by_day[datetime(2025, 3, 10).date()] == 0
    by_utc_day = {b.at: b.total for b in series(tz=UTC)}
    assert by_utc_day[datetime(2025, 3, 10).date()] == 1


def test_the_24_hour_view_is_cut_into_hours():
    make_query_log(at=NOW.replace(minute=20))
    make_query_log(at=NOW - timedelta(hours=5, minutes=-10))
    make_query_log(at=NOW - timedelta(hours=30))
    buckets = series("24h")
    assert len(buckets) == 24
    assert buckets[-1].at == NOW and buckets[-1].total == 1
    assert buckets[-6].total == 1
    assert sum(b.total for b in buckets) == 2


def test_latency_percentiles_match_known_latencies():
    latencies = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
    for ms in latencies:
        make_query_log(at=day(1), latency_ms=ms)
    make_query_log(at=day(1), latency_ms=None)  # an error row with no total is left out of the percentiles
    make_query_log(at=day(1), latency_ms=None, timings_ms={"total": "slow"})
    bucket = series()[5]
    assert bucket.total == 12
    assert bucket.p50_ms == pytest.approx(550.0)
    assert bucket.p95_ms == pytest.approx(955.0)
    assert bucket.p95_ms == pytest.approx(np.percentile(latencies, 95))


def test_slowest_stages_are_medians_without_the_total():
    for retrieve, generate in ((10, 100), (20, 300), (30, 200)):
        make_query_log(at=day(1), stages={"retrieve": retrieve, "generate": generate, "note": "text"},
                       latency_ms=1000)
    make_query_log(at=day(1), latency_ms=None, timings_ms=["not", "an", "object"])
    make_query_log(at=day(20), stages={"retrieve": 5000})  # outside the 7-day window
    stages = activity.stage_medians(QueryLog.objects.all(), activity.window("7d", now=NOW, tz=UTC))
    assert [(s.label, s.value) for s in stages] == [("generate", 200.0), ("retrieve", 20.0)]
    assert activity.stage_medians(QueryLog.objects.none(), activity.window("7d", now=NOW, tz=UTC)) == []


def test_top_topics_entities_and_cited_documents():
    win = activity.window("7d", now=NOW, tz=UTC)
    travel, payroll = Topic.objects.create(slug="travel", name="Travel"), Topic.objects.create(slug="pay", name="Pay")
    code = Entity.objects.create(kind="error_code", value="E4012")
    for i, (topics, when) in enumerate((([travel, payroll], day(1)), ([travel], day(2)), ([payroll], day(30)))):
        question = Question.objects.create(text=f"q{i}", normalized=f"q{i}", normalized_hash=f"h{i}")
        Question.objects.filter(pk=question.pk).update(created_at=when)
        for topic in topics:
            QuestionTopic.objects.create(question=question, topic=topic)
        QuestionEntity.objects.create(question=question, entity=code)
    document = Document.objects.create(collection=make_collection(), source="travel.md", title="Travel policy")
    answer = make_answer()
    AnswerCitation.objects.create(answer=answer, n=1, document=document, source="travel.md#a")
    AnswerCitation.objects.create(answer=answer, n=2, document=document, source="travel.md#b")
    make_query_log(at=day(1), answer=answer)
    make_query_log(at=day(3), answer=answer, outcome="cached")

    assert [(t.label, t.value) for t in activity.top_topics(win)] == [("Travel", 2), ("Pay", 1)]
    assert [(e.label, e.value, e.detail) for e in activity.top_entities(win)] == [("E4012", 2, "error code")]
    assert [(d.label, d.value) for d in activity.top_documents(QueryLog.objects.all(), win)] == [("Travel policy", 2)]


def _asked_over_a_month():
    now = timezone.now()
    for n in range(0, 30, 2):  # every other day: the days between stay empty
        for outcome in ("answered", "refused", "cached"):
            make_query_log(at=now - timedelta(days=n), outcome=outcome, latency_ms=100 * (n + 1),
                           stages={"retrieve": 10 + n, "generate": 50 + n})


def test_reviewers_get_well_formed_svg_trends_with_a_mark_per_day(client, reviewer):
    _asked_over_a_month()
    response = client.get("/", {"period": "30d"})
    assert response.status_code == 200
    charts = {c.key: c for c in response.context["charts"]["series"] + response.context["charts"]["ranked"]}
    assert set(charts) == {"volume", "outcomes", "latency", "flagged", "stages"}
    roots = {key: ET.fromstring(str(c.svg)) for key, c in charts.items()}
    bars = [e for e in roots["volume"].iter(f"{SVG}rect") if e.get("class") == "bar"]
    assert len(bars) == 30
    assert sum(int(r[1]) for r in charts["volume"].rows) == 45
    stacks = [e for e in roots["outcomes"].iter(f"{SVG}g") if e.get("class") == "stack"]
    assert len(stacks) == 30
    points = [e for e in roots["latency"].iter(f"{SVG}circle") if e.get("class") == "point"]
    assert len(points) == 2 * 15  # p50 and p95 on each of the 15 days with questions
    html = response.content.decode()
    assert html.count("<svg") == 5 and "Show the numbers" in html
    assert "Trends over the last 30 days" in html and "Questions (30 days)" in html


def test_the_30_day_dashboard_needs_a_bounded_number_of_queries(client, reviewer, django_assert_max_num_queries):
    _asked_over_a_month()
    # The charts add five aggregate queries whatever the number of days or rows (18 in all, measured the same
    # for 24h, 7d and 30d); the rest is the page as before.
    with django_assert_max_num_queries(18):
        assert client.get("/", {"period": "30d"}).status_code == 200


def test_readers_see_counts_but_no_trends(client):
    make_query_log(outcome="refused")
    client.force_login(make_user())
    response = client.get("/", {"period": "7d"})
    assert response.status_code == 200
    assert response.context["charts"] is None
    assert b"<svg" not in response.content and b"Questions (7 days)" in response.content
    assert response.context["stats"]["questions"] == 1 and response.context["stats"]["refusal_rate"] == 1.0


def test_an_unknown_period_says_which_exist(client, reviewer):
    response = client.get("/", {"period": "1y"}, follow=True)
    assert response.status_code == 200
    assert response.context["period"].key == "24h"
    assert "Choose one of 24h, 7d, 30d" in response.content.decode()


def test_an_empty_period_still_draws_every_day(client, reviewer):
    response = client.get("/", {"period": "7d"})
    volume = ET.fromstring(str(response.context["charts"]["series"][0].svg))
    assert len([e for e in volume.iter(f"{SVG}rect") if e.get("class") == "bar"]) == 7
    assert response.context["charts"]["ranked"] == []
    assert "No stage timings" in response.content.decode()
