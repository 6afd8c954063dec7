"""gunicorn settings for the web tier; `gunicorn webapp.wsgi` reads this file from the project root.

Each worker, once it has loaded the app, warms what its first requests would otherwise pay for:
the URL map and views, the Slack App (its auth.test) and the PII redaction engine. Cold workers
turn the first burst of Slack events after a start into late acks. The app is not preloaded in
the master: forked workers then spend their first requests copying the master's memory pages.
"""

import multiprocessing
import os

bind = os.environ.get("VERITY_WEB_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", multiprocessing.cpu_count() + 1))
backlog = 2048
timeout = 60
accesslog = os.environ.get("VERITY_WEB_ACCESS_LOG") or None


def post_worker_init(worker):
    import torch

    from webapp.warmup import warm

    # Each worker's torch would otherwise start one thread per core: N workers x N threads on N cores
    # spend their time switching, not computing, exactly when many questions arrive together.
    torch.set_num_threads(max(1, multiprocessing.cpu_count() // workers))

    worker.log.info("warm-up: %s", "; ".join(warm()))
