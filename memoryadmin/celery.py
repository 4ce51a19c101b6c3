import os

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "memoryadmin.settings")

app = Celery("memoryadmin")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _prepare_worker_process(**kwargs) -> None:
    """Each worker process lowers its CPU priority (WORKER_NICENESS), starts tracing when configured
    (memoryadmin.tracing) and loads the embedding model, jieba and Presidio before its first task,
    not inside it (the first turn would hold its subject's lock for a second)."""
    from django.conf import settings

    from memoryadmin import tracing
    from memoryadmin.warmup import warm_up

    os.nice(settings.WORKER_NICENESS)
    tracing.start()
    warm_up()
