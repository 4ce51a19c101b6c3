from django.apps import AppConfig


class ApiConfig(AppConfig):
    name = "apps.api"

    def ready(self) -> None:
        from apps.api import schema  # noqa: F401  registers the OpenAPI auth extension
