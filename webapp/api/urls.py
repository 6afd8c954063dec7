"""API routes under /api/."""

from django.urls import path

from webapp.api import views

app_name = "api"

urlpatterns = [
    path("ask", views.AskView.as_view(), name="ask"),
    path("conversations/<int:pk>", views.ConversationView.as_view(), name="conversation"),
    path("documents/", views.DocumentListView.as_view(), name="documents"),
    path("documents/<int:pk>/", views.DocumentDetailView.as_view(), name="document"),
    path("answers/<int:pk>", views.AnswerView.as_view(), name="answer"),
    path("answers/<int:pk>/feedback", views.FeedbackView.as_view(), name="feedback"),
]
