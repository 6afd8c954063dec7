"""URL routes: admin, the console, the API."""
from django.contrib import admin
from django.urls import include, path

admin.site.site_header = "Verity administration"
admin.site.site_title = "Verity"
admin.site.index_title = "Knowledge, answers and reviews"

urlpatterns = [
    path("admin/", admin.site.urls),
]
