from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "apps.accounts"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from apps.accounts.sessions import clear_portal_only

        user_logged_in.connect(clear_portal_only, dispatch_uid="accounts.clear_portal_only")
