"""URL routes: admin, the console, the API."""
from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView
from rest_framework.permissions import AllowAny

from bot.views import slack_events

admin.site.site_header = "Verity administration"
admin.site.site_title = "Verity"
admin.site.index_title = "Knowledge, answers and reviews"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("slack/events", slack_events, name="slack-events"),
    # The schema and its docs page are open: they describe the API, and every call still needs a token.
    path("api/schema/", SpectacularAPIView.as_view(permission_classes=[AllowAny]), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema", permission_classes=[AllowAny]),
         name="api-docs"),
    path("api/", include("webapp.api.urls")),
    path("", include("webapp.console.urls")),
]

handler404 = "webapp.api.errors.not_found"
handler500 = "webapp.api.errors.server_error"
