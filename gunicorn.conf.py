"""gunicorn's settings for memoryadmin, in one place: production and `make load` (bench/load.py) use it.

    gunicorn -c gunicorn.conf.py memoryadmin.wsgi:application -b 127.0.0.1:8000

The layout was chosen by measuring `make load` on a 2-core machine (README, Benchmarks). The
environment overrides it: WEB_CONCURRENCY (worker processes), GUNICORN_THREADS (threads per
worker), GUNICORN_KEEPALIVE_REQUESTS (requests per keep-alive connection, 0: unlimited). Command-line
options override this file.
"""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", 4))
worker_class = "gthread"
threads = int(os.environ.get("GUNICORN_THREADS", 2))
# A keep-alive connection stays with the worker that accepted it: with long-lived clients, one
# worker queued ~2.5 s of requests while another idled. After this many requests on a connection
# the answer says `Connection: close`, the client reconnects, and the next free worker accepts it.
keepalive_requests = int(os.environ.get("GUNICORN_KEEPALIVE_REQUESTS", 20))
keepalive = 30
timeout = 60
graceful_timeout = 10


def pre_request(worker, req):
    if keepalive_requests and req.req_number >= keepalive_requests:
        req.force_close()
