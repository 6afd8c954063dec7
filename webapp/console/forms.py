"""Forms the console pages parse their input with."""

from __future__ import annotations

from django import forms

from knowledge.models import Document, Feedback, QueryLog


class DocumentFilterForm(forms.Form):
    """Filters for the document list."""

    collection = forms.ModelChoiceField(queryset=None, required=False, empty_label="All collections")
    status = forms.ChoiceField(choices=[("", "Any status"), *Document.Status.choices], required=False)
    q = forms.CharField(required=False, max_length=200, widget=forms.TextInput(attrs={
        "type": "search", "placeholder": "Search titles and text", "aria-label": "Search documents"}))

    def __init__(self, *args, collections, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["collection"].queryset = collections


class UploadForm(forms.Form):
    """Which collection the uploaded files go to (the files themselves come from request.FILES)."""

    collection = forms.ModelChoiceField(queryset=None, empty_label=None)

    def __init__(self, *args, collections, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["collection"].queryset = collections


class AskForm(forms.Form):
    """A question, optionally narrowed to some collections, alone or as a follow-up in a conversation."""

    question = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={
        "rows": 3, "placeholder": "e.g. How many days of PTO do I get in my first year?", "autofocus": True}))
    collections = forms.ModelMultipleChoiceField(queryset=None, required=False,
                                                 widget=forms.CheckboxSelectMultiple)
    # The conversation this question follows up in (checked against the asker by the view); empty starts one.
    conversation = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args, collections, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["collections"].queryset = collections

    def clean_question(self) -> str:
        question = self.cleaned_data["question"].strip()
        if len(question) < 3:
            raise forms.ValidationError("Ask a full question.")
        return question


class FeedbackForm(forms.Form):
    """Helpful / not helpful / flag on an answer."""

    kind = forms.ChoiceField(choices=Feedback.Kind.choices)
    reason = forms.CharField(max_length=2000, required=False)


class ReviewForm(forms.Form):
    """A reviewer's verdict on one answer."""

    action = forms.ChoiceField(choices=[("verify", "Verify"), ("flag", "Flag"), ("schedule", "Re-verify on date")])
    text = forms.CharField(required=False, widget=forms.Textarea)
    note = forms.CharField(max_length=2000, required=False)
    reverify_at = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        if data.get("action") == "schedule" and not data.get("reverify_at"):
            self.add_error("reverify_at", "Pick the date to check this answer again.")
        return data


# Where questions come from (QueryLog.channel) and how they can end, as the history filters offer them.
CHANNEL_CHOICES = [("", "Any source"), ("slack", "Slack"), ("console", "Console"), ("api", "API"),
                   ("cli", "Command line")]
OUTCOME_CHOICES = [("", "Any outcome"), *QueryLog.Outcome.choices, ("flagged", "Flagged")]


class HistoryFilterForm(forms.Form):
    """Filters for the query history and its CSV export."""

    date_from = forms.DateField(required=False, label="From", widget=forms.DateInput(attrs={
        "type": "date", "aria-label": "Asked on or after"}))
    date_to = forms.DateField(required=False, label="To", widget=forms.DateInput(attrs={
        "type": "date", "aria-label": "Asked on or before"}))
    channel = forms.ChoiceField(choices=CHANNEL_CHOICES, required=False)
    outcome = forms.ChoiceField(choices=OUTCOME_CHOICES, required=False)
    collection = forms.ModelChoiceField(queryset=None, required=False, empty_label="All collections")
    q = forms.CharField(required=False, max_length=200, widget=forms.TextInput(attrs={
        "type": "search", "placeholder": "Words in the question", "aria-label": "Search questions"}))

    def __init__(self, *args, collections, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["collection"].queryset = collections

    def clean(self):
        data = super().clean()
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", f"The end date ({end:%d %b %Y}) is before the start date ({start:%d %b %Y}): "
                                      "swap them or clear one.")
        return data
