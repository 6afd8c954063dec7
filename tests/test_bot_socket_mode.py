"""Socket Mode: the real SocketModeHandler connected to a local WebSocket server speaking Slack's envelopes."""

from __future__ import annotations

import threading
import time

import pytest
from slack_bolt.adapter.socket_mode import SocketModeHandler
from slack_bolt.listener.listener_completion_handler import ListenerCompletionHandler
from slack_sdk import WebClient

from bot.app import build_app, release_db_connections
from bot.models import SlackQuestion
from knowledge.models import Answer, QueryLog
from tests.servers.fake_slack import FakeSlack, event_callback, mention
from tests.servers.fake_socket_mode import FakeSocketMode

USER = "USOCKET1"


class CloseConnection(ListenerCompletionHandler):
    """Close each pool thread's DB connection after its listener, so the test database can be dropped."""

    def handle(self, request, response) -> None:
        from django.db import connection

        connection.close()


def _in_own_connection(fn) -> None:
    """Run fn in a thread with its own (autocommit) connection: undoes what the handler threads committed."""
    from django.db import connection

    def run():
        try:
            fn()
        finally:
            connection.close()

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()


@pytest.mark.django_db
def test_mention_over_socket_mode_is_acked_and_answered_once(settings, corpus_db, embedder):
    # The handler's threads use their own connections (committed rows), so this test cleans up after itself
    # instead of using a transactional test, whose flush would also remove the session's sample corpus.
    last_answer = Answer.objects.order_by("-pk").values_list("pk", flat=True).first() or 0
    with FakeSocketMode() as ws, FakeSlack() as fake:
        fake.socket_url = ws.url
        settings.SLACK_BOT_TOKEN, settings.SLACK_API_URL, settings.TASK_BACKEND = "xoxb-test", fake.api_url, "sync"
        app = build_app(token="xoxb-test", signing_secret="unused", client=WebClient(base_url=fake.api_url))
        release_db_connections(app).listener_runner.listener_completion_handler = CloseConnection()
        handler = SocketModeHandler(app, app_token="xapp-1-test", ping_interval=30)
        try:
            handler.connect()
            ws.wait_connected()
            payload = event_callback(mention("How many weeks of paid parental leave do eligible employees get?",
                                             user=USER))
            first = ws.send_event(payload)
            retry = ws.send_event(payload, retry_attempt=1)  # Slack redelivers: must not answer twice
            updates = fake.wait_for("chat.update", 1, timeout=30)
            deadline = time.monotonic() + 5
            while not (ws.acks(first) and ws.acks(retry)) and time.monotonic() < deadline:
                time.sleep(0.02)
            time.sleep(0.5)  # room for a (wrong) second answer to show up
            assert ws.acks(first) == [{"envelope_id": first}] and ws.acks(retry) == [{"envelope_id": retry}]
            assert len(fake.called("chat.update")) == 1 and len(fake.called("chat.postMessage")) == 1
            assert "Sources" in str(updates[0]["blocks"])
            assert fake.called("apps.connections.open")
            question = SlackQuestion.objects.get(event_id=payload["event_id"])
            assert question.status == SlackQuestion.Status.ANSWERED
        finally:
            handler.close()

            def cleanup():
                SlackQuestion.objects.filter(user_id=USER).delete()
                QueryLog.objects.filter(external_user=USER).delete()
                Answer.objects.filter(pk__gt=last_answer).delete()

            _in_own_connection(cleanup)
