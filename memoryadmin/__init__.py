import os

# Small matrix products (embedding one query) are slower, and far less predictable under
# concurrent requests, when the BLAS library spreads each one over threads. One thread each;
# concurrency comes from processes and requests. Set before numpy is first imported.
for _variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_variable, "1")

from memoryadmin.celery import app as celery_app  # noqa: E402

__all__ = ["celery_app"]
