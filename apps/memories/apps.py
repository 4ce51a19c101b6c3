from django.apps import AppConfig


class MemoriesConfig(AppConfig):
    name = "apps.memories"
