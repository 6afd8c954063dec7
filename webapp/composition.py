"""The composition root: the question path's providers, with the answer checker from `verification`.

`knowledge` must not import `verification` (which imports knowledge's models); this is the one place that
knows both and wires the checker and the claim judge into `AnsweringProviders`.
"""

from __future__ import annotations

from django.conf import settings

import jobqueue
from knowledge.answering import providers as answering_providers
from knowledge.answering.providers import AnsweringProviders, base_providers, service
from verification.judge import LLMClaimJudge
from verification.pipeline import verify_and_correct
from webapp.celery_tasks import run_job as celery_run_job


def default_providers() -> AnsweringProviders:
    """Providers as the settings configure them, checking answers with verification's pipeline."""
    providers = base_providers()
    providers.verifier = verify_and_correct
    providers.judge = claim_judge(providers.completer)
    return providers


def claim_judge(completer=None):
    """The LLM claim judge when a generative provider is configured and VERITY_CLAIM_JUDGE is on, else None."""
    if not settings.VERITY_CLAIM_JUDGE or settings.VERITY_GENERATOR not in ("cohere", "openai"):
        return None
    config = settings.PROVIDERS[settings.VERITY_GENERATOR]
    if completer is None:
        completer = service("completer", settings.VERITY_GENERATOR, config)
    return LLMClaimJudge(completer, max_workers=settings.VERITY_CLAIM_JUDGE_WORKERS,
                         timeout_s=float(config.get("timeout_s") or 30))


def send_to_celery(name: str, args: list, queue: str, expires_s: int) -> None:
    """The Celery sender for the job seam: one generic task runs the named job."""
    celery_run_job.apply_async(args=(name, args), queue=queue, expires=expires_s)


def install() -> None:
    """Wire the seams: answering providers with the checker, and the Celery job sender."""
    answering_providers.install(default_providers)
    jobqueue.register_sender("celery", send_to_celery)
