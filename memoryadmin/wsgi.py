import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryadmin.settings")
application = get_wsgi_application()

from memoryadmin.warmup import warm_up  # noqa: E402  (needs the app registry)

warm_up()  # before the first request thread exists (see memoryadmin.warmup)
