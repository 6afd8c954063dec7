"""Console routes. Citation links use /documents/<id>/#<anchor>: keep that form."""

from django.contrib.auth import views as auth_views
from django.urls import path

from webapp.console import history, views

app_name = "console"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("login/", auth_views.LoginView.as_view(template_name="console/login.html",
                                                redirect_authenticated_user=True), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("documents/", views.document_list, name="document_list"),
    path("documents/status.json", views.document_status, name="document_status"),
    path("documents/upload/", views.document_upload, name="document_upload"),
    path("documents/<int:pk>/", views.document_detail, name="document_detail"),
    path("documents/<int:pk>/replace/", views.document_replace, name="document_replace"),
    path("documents/<int:pk>/delete/", views.document_delete, name="document_delete"),
    path("gaps/", views.gap_list, name="gap_list"),
    path("gaps/<int:pk>/resolve/", views.gap_resolve, name="gap_resolve"),
    path("ask/", views.ask, name="ask"),
    path("ask/new/", views.ask_new, name="ask_new"),
    path("answers/<int:pk>/feedback/", views.answer_feedback, name="answer_feedback"),
    path("review/", views.review_queue, name="review"),
    path("review/<int:pk>/", views.review_action, name="review_action"),
    path("history/", history.history, name="history"),
    path("history/export.csv", history.history_export, name="history_export"),
]
