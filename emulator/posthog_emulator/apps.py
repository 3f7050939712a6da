from django.apps import AppConfig


class PosthogEmulatorConfig(AppConfig):
    name = "posthog_emulator"
    verbose_name = "PostHog emulator"
    default_auto_field = "django.db.models.AutoField"

    def ready(self):
        from posthog_emulator import cache

        cache.install()
