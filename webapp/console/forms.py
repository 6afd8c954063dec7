"""Forms the console pages parse their input with."""

from __future__ import annotations

from django import forms

from knowledge.models import Document, Feedback


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
