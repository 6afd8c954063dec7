"""URL routes: admin, the console, the API."""
from django.contrib import admin
from django.urls import include, path

from bot.views import slack_events

admin.site.site_header = "Verity administration"
admin.site.site_title = "Verity"
admin.site.index_title = "Knowledge, answers and reviews"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("slack/events", slack_events, name="slack-events"),
    path("api/", include("webapp.api.urls")),
    path("", include("webapp.console.urls")),
]
