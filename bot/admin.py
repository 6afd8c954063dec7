"""Admin pages: per-channel bot settings and the questions received from Slack."""

from django.contrib import admin

from bot.models import ChannelSetting, SlackQuestion


@admin.register(ChannelSetting)
class ChannelSettingAdmin(admin.ModelAdmin):
    list_display = ("channel_id", "name", "mode", "collection_names", "updated_at")
    list_filter = ("mode",)
    search_fields = ("channel_id", "name")
    filter_horizontal = ("collections",)

    @admin.display(description="collections")
    def collection_names(self, obj: ChannelSetting) -> str:
        return ", ".join(c.name for c in obj.collections.all()) or "public collections"


@admin.register(SlackQuestion)
class SlackQuestionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "kind", "status", "user_id", "channel_id", "short_text", "answer", "attempts")
    list_filter = ("status", "kind")
    search_fields = ("text", "user_id", "channel_id", "event_id")
    readonly_fields = [f.name for f in SlackQuestion._meta.fields]
    date_hierarchy = "created_at"

    @admin.display(description="question")
    def short_text(self, obj: SlackQuestion) -> str:
        return obj.text[:80]

    def has_add_permission(self, request) -> bool:
        return False
