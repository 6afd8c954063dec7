"""Question activity over a time window: per-hour or per-day counts, outcome shares, latency percentiles,
the slowest pipeline stages and what is asked about most, all aggregated in PostgreSQL."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta, timezone as dt_timezone
from zoneinfo import ZoneInfo

from django.core.exceptions import EmptyResultSet
from django.db import connection
from django.db.models import Count, Q, QuerySet
from django.db.models.functions import TruncDate, TruncHour
from django.utils import timezone

from knowledge.models import QueryLog, QuestionEntity, QuestionTopic
from knowledge.models.aggregates import JsonNumber, Percentile
from knowledge.models.questions import flagged_answer


@dataclass(frozen=True)
class Period:
    """A choice on the dashboard's switch: how far back, and how finely it is cut."""

    key: str
    label: str
    short: str
    unit: str  # "hour" or "day"
    count: int


PERIODS = {p.key: p for p in (Period("24h", "24 hours", "24 h", "hour", 24),
                              Period("7d", "7 days", "7 days", "day", 7),
                              Period("30d", "30 days", "30 days", "day", 30))}
DEFAULT_PERIOD = "24h"

# The timings every question records besides its stages: the whole path, not a stage of it.
TOTAL_KEY = "total"


@dataclass(frozen=True)
class Window:
    """The buckets of one period ending now, in one time zone: [start, end) cut into hours or local days."""

    period: Period
    start: datetime
    end: datetime
    buckets: tuple  # dates for days, aware datetimes for hours


def window(key: str, now: datetime | None = None, tz: ZoneInfo | None = None) -> Window:
    """The window for a period key ("24h", "7d", "30d"), its last bucket holding `now`."""
    if key not in PERIODS:
        raise ValueError(f"Unknown period {key!r}: choose one of {', '.join(PERIODS)}.")
    period = PERIODS[key]
    tz = tz or timezone.get_current_timezone()
    local_now = (now or timezone.now()).astimezone(tz)
    if period.unit == "hour":
        # Step in UTC so an hour is an hour across daylight-saving changes; show each in local time.
        last = local_now.replace(minute=0, second=0, microsecond=0).astimezone(dt_timezone.utc)
        hours = tuple((last - timedelta(hours=period.count - 1 - i)).astimezone(tz) for i in range(period.count))
        return Window(period, hours[0], hours[-1] + timedelta(hours=1), hours)
    today = local_now.date()
    days = tuple(today - timedelta(days=period.count - 1 - i) for i in range(period.count))
    return Window(period, _midnight(days[0], tz), _midnight(today + timedelta(days=1), tz), days)


def _midnight(day: date, tz: ZoneInfo) -> datetime:
    return datetime.combine(day, time.min, tzinfo=tz)


@dataclass
class Bucket:
    """One hour or day: how many questions, how they ended, how many were flagged, how long they took."""

    at: date | datetime
    total: int = 0
    answered: int = 0
    refused: int = 0
    cached: int = 0
    error: int = 0
    flagged: int = 0
    p50_ms: float | None = None
    p95_ms: float | None = None

    def share(self, name: str) -> float | None:
        """The share of this bucket's questions counted under `name`; None when nothing was asked."""
        return getattr(self, name) / self.total if self.total else None


OUTCOME_COUNTS = ("answered", "refused", "cached", "error")


def bucket_series(logs: QuerySet, win: Window) -> list[Bucket]:
    """One Bucket per hour or day of the window, in order; empty ones are zero, their latency None. One query."""
    tz = win.start.tzinfo
    trunc = TruncHour("created_at", tzinfo=tz) if win.period.unit == "hour" else TruncDate("created_at", tzinfo=tz)
    latency = JsonNumber("timings_ms", TOTAL_KEY)
    rows = (logs.between(win.start, win.end).order_by().annotate(bucket=trunc).values("bucket").annotate(
        total=Count("pk"), flagged=Count("pk", filter=flagged_answer()),
        p50_ms=Percentile(latency, 0.5), p95_ms=Percentile(latency, 0.95),
        **{name: Count("pk", filter=Q(outcome=name)) for name in OUTCOME_COUNTS}))
    found = {row.pop("bucket"): row for row in rows}
    return [Bucket(at=at, **found.get(at, {})) for at in win.buckets]


@dataclass(frozen=True)
class Ranked:
    """A label and how often it came up (or how long it took), for the top-N lists."""

    label: str
    value: float
    detail: str = ""


def stage_medians(logs: QuerySet, win: Window, limit: int = 8) -> list[Ranked]:
    """Median milliseconds per recorded pipeline stage, slowest first (the whole-path total left out). One query."""
    try:
        ids_sql, ids_params = logs.between(win.start, win.end).order_by().values("pk").query.sql_with_params()
    except EmptyResultSet:  # an empty queryset (.none()) has no SQL to nest
        return []
    # jsonb_each is a set-returning function the ORM cannot join laterally; the rows it reads are the ORM's own.
    sql = f"""
        SELECT stage.key, percentile_cont(0.5) WITHIN GROUP (ORDER BY (stage.value #>> '{{}}')::double precision),
               count(*)
        FROM {QueryLog._meta.db_table} AS log
        CROSS JOIN LATERAL jsonb_each(CASE WHEN jsonb_typeof(log.timings_ms) = 'object'
                                           THEN log.timings_ms ELSE '{{}}'::jsonb END) AS stage
        WHERE log.id IN ({ids_sql}) AND jsonb_typeof(stage.value) = 'number' AND stage.key <> %s
        GROUP BY stage.key ORDER BY 2 DESC, 1 LIMIT %s"""
    with connection.cursor() as cursor:
        cursor.execute(sql, (*ids_params, TOTAL_KEY, limit))
        return [Ranked(key, float(median), f"{n} questions") for key, median, n in cursor.fetchall()]


def top_topics(win: Window, limit: int = 8) -> list[Ranked]:
    """The question graph's topics asked about most in the window (questions per topic)."""
    rows = (QuestionTopic.objects.filter(question__created_at__gte=win.start, question__created_at__lt=win.end)
            .values("topic__name").annotate(n=Count("question_id", distinct=True)).order_by("-n", "topic__name"))
    return [Ranked(r["topic__name"], r["n"]) for r in rows[:limit]]


def top_entities(win: Window, limit: int = 8) -> list[Ranked]:
    """The entities (error codes, settings, versions …) asked about most in the window."""
    rows = (QuestionEntity.objects.filter(question__created_at__gte=win.start, question__created_at__lt=win.end)
            .values("entity__kind", "entity__value").annotate(n=Count("question_id", distinct=True))
            .order_by("-n", "entity__value"))
    return [Ranked(r["entity__value"], r["n"], r["entity__kind"].replace("_", " ")) for r in rows[:limit]]


def top_documents(logs: QuerySet, win: Window, limit: int = 8) -> list[Ranked]:
    """The documents the window's answers cited most (questions citing each)."""
    prefix = "answer__citation_rows__document"
    rows = (logs.between(win.start, win.end).filter(**{f"{prefix}__isnull": False}).order_by()
            .values(f"{prefix}_id", f"{prefix}__title", f"{prefix}__source")
            .annotate(n=Count("pk", distinct=True)).order_by("-n", f"{prefix}__source"))
    return [Ranked(r[f"{prefix}__title"] or r[f"{prefix}__source"], r["n"], r[f"{prefix}__source"])
            for r in rows[:limit]]


@dataclass
class Trends:
    """Everything the dashboard's trend charts show for one window."""

    window: Window
    buckets: list[Bucket]
    stages: list[Ranked] = field(default_factory=list)
    topics: list[Ranked] = field(default_factory=list)
    entities: list[Ranked] = field(default_factory=list)
    documents: list[Ranked] = field(default_factory=list)

    @property
    def total(self) -> int:
        return sum(b.total for b in self.buckets)


def trends(logs: QuerySet, win: Window) -> Trends:
    """The window's trends over these log rows: a fixed number of queries whatever the window's length."""
    return Trends(window=win, buckets=bucket_series(logs, win), stages=stage_medians(logs, win),
                  topics=top_topics(win), entities=top_entities(win), documents=top_documents(logs, win))
