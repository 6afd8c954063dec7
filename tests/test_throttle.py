"""The API rate limit holds across web processes: its counts live in the shared cache, not in one process."""

from __future__ import annotations

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import make_user
from tests.live import gunicorn, http
from tests.test_jobs import redis_available

RATE = 5


def _requests_allowed(tmp_path, **env) -> list[int]:
    token = Token.objects.create(user=make_user()).key
    headers = {"Authorization": f"Token {token}"}
    with gunicorn(tmp_path / "a.log", VERITY_API_RATE=f"{RATE}/min", **env) as first, \
            gunicorn(tmp_path / "b.log", VERITY_API_RATE=f"{RATE}/min", **env) as second:
        return [http("GET", f"{base}/api/documents/", headers=headers)[0] for base in [first, second] * 6]


@pytest.mark.django_db(transaction=True)
def test_the_rate_limit_is_shared_by_two_web_processes(tmp_path):
    statuses = _requests_allowed(tmp_path)
    assert statuses.count(200) == RATE and statuses.count(429) == 12 - RATE, statuses


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not redis_available(), reason="no Redis answers on 127.0.0.1:6379")
def test_the_rate_limit_is_shared_through_redis_when_configured(tmp_path):
    import redis

    redis.Redis.from_url("redis://127.0.0.1:6379/14").flushdb()
    statuses = _requests_allowed(tmp_path, VERITY_CACHE_URL="redis://127.0.0.1:6379/14")
    assert statuses.count(200) == RATE and statuses.count(429) == 12 - RATE, statuses
