"""API permissions: knowledge owners and staff manage documents; everyone authenticated may read and ask."""

from __future__ import annotations

from rest_framework.permissions import SAFE_METHODS, BasePermission

from webapp.roles import is_knowledge_owner


class CanUploadOrReadOnly(BasePermission):
    """Reads for any authenticated user; uploads for staff and collection owners (checked per collection later)."""

    message = "Only staff and the owners of a collection may upload documents."

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False
        return request.method in SAFE_METHODS or is_knowledge_owner(request.user)
