"""Who may do what in the console and the API: readers ask, knowledge owners and staff manage documents."""

from __future__ import annotations

from django.db.models import QuerySet

from knowledge.models import Collection, Document, KnowledgeGap, QueryLog


def readable_collections(user) -> QuerySet:
    """Collections whose documents this user may see and ask about."""
    return Collection.objects.readable_by(user)


def managed_collections(user) -> QuerySet:
    """Collections whose documents this user may upload, replace and delete."""
    if not getattr(user, "is_authenticated", False):
        return Collection.objects.none()
    if user.is_staff or user.is_superuser:
        return Collection.objects.all()
    return Collection.objects.filter(owners=user)


def can_manage(user, collection: Collection) -> bool:
    """True when the user is staff or one of the collection's owners."""
    return managed_collections(user).filter(pk=collection.pk).exists()


def is_knowledge_owner(user) -> bool:
    """Staff, or the owner of at least one collection (sees knowledge gaps and upload pages)."""
    return managed_collections(user).exists()


REVIEWERS_GROUP = "reviewers"


def can_review(user) -> bool:
    """The one reviewer rule for Slack, console, admin and API: staff, or a member of the "reviewers" group."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    return bool(user.is_staff or user.is_superuser or user.groups.filter(name=REVIEWERS_GROUP).exists())


is_reviewer = can_review


def can_see_answer(user, answer) -> bool:
    """An answer is visible to reviewers, and to anyone who may read every collection it drew on."""
    if can_review(user):
        return True
    needed = set(answer.collection_ids or [])
    if not needed:
        return True
    readable = set(readable_collections(user).filter(pk__in=needed).values_list("pk", flat=True))
    return needed <= readable


def readable_documents(user) -> QuerySet:
    """Documents in collections this user may read."""
    return Document.objects.filter(collection__in=readable_collections(user))


def asked_by(user, answer) -> bool:
    """True when this user was given this answer (asked it, or was served it from the cache)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return QueryLog.objects.filter(answer=answer, user=user).exists()


def can_see_question(user, answer) -> bool:
    """Other people's questions are for reviewers; everyone else sees the answers they were given."""
    return can_see_answer(user, answer) and (can_review(user) or asked_by(user, answer))


def visible_questions(user) -> QuerySet:
    """Question log rows this user may see: every row for reviewers, their own for everyone else."""
    logs = QueryLog.objects.all()
    if can_review(user):
        return logs
    if not getattr(user, "is_authenticated", False):
        return logs.none()
    return logs.filter(user=user)


def visible_gaps(user) -> QuerySet:
    """Knowledge gaps: all for reviewers; for owners, the gaps of questions that searched their collections."""
    if can_review(user):
        return KnowledgeGap.objects.all()
    owned = list(managed_collections(user).values_list("pk", flat=True))
    if not owned:
        return KnowledgeGap.objects.none()
    return KnowledgeGap.objects.filter(collection_ids__overlap=owned)
