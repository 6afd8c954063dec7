"""Who may do what in the console and the API: readers ask, knowledge owners and staff manage documents."""

from __future__ import annotations

from django.db.models import QuerySet

from knowledge.models import Collection, Document


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


def is_reviewer(user) -> bool:
    """Reviewers work the answer review queue; for now every staff member is one."""
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def readable_documents(user) -> QuerySet:
    """Documents in collections this user may read."""
    return Document.objects.filter(collection__in=readable_collections(user))
