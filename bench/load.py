"""Load test: gunicorn with several workers on the real database, concurrent recall and write clients.

    .venv/bin/python bench/load.py                                  # 60 s, 50 recall + 5 write clients, 4 workers
    .venv/bin/python bench/load.py --seconds 10 --readers 10 --writers 2   # a quick try-out

1. A throw-away database on the embedded PostgreSQL (named after this process, dropped at the end):
   one workspace, one agent with a read+write key, --subjects subjects with --memories-per-subject
   memories each (mixed zh/en texts). The memories are inserted in bulk with the keyword document
   the services write (`search_document`), then embedded by the app's own sweep
   (`store.embed_missing`), so every active memory has a vector like after normal writes.
2. gunicorn as a subprocess with the repository's gunicorn.conf.py (the production layout; --workers,
   --threads, --worker-class override it) on a
   free port of 127.0.0.1, DATABASE_URL pointing at that database over the embedded server's Unix
   socket, DEBUG off, the API throttles raised out of the way; wait for GET /healthz.
3. Once the workers' own background warm-up is over (their CPU time stops growing): --warmup
   seconds of the full load (shown apart, not in the figures), then --seconds of it: --readers
   clients POST /api/v1/subjects/{id}/recall with varied zh/en queries, --writers clients POST
   /facts and /episodes to the first --write-subjects subjects (through the services: redaction,
   conflict policy, audit, embedding on commit). Each client is a thread with its own keep-alive
   connection (http.client; --no-keepalive: a connection per request). An error is a non-2xx
   answer or an exception (timeout, connection reset ...).
4. Requests/s and p50/p95/p99 per kind and overall, recall fallbacks, write outcomes, how evenly
   the clients were served; target: 0 errors after the warm-up. Prints figures; not a test.

--env NAME=VALUE passes extra environment to gunicorn (e.g. OPENBLAS_NUM_THREADS=1); --quiet-wait
waits for the machine's CPU pressure to drop before loading.

gunicorn is stopped and the database dropped at the end, also on Ctrl-C / SIGTERM. The load
generator shares the machine with the server (and with whatever else uses the embedded
PostgreSQL): the figures are this machine's, measured end to end from the client's side.
"""

import argparse
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path
from urllib.parse import quote

from common import (
    ROOT,
    cpu_pressure,
    percentile,
    raw_params,
    setup_django,
    terminate_sessions,
    throwaway_database,
    wait_for_quiet,
)
from synthetic import EPISODE_CATEGORIES, PROFILE_CATEGORIES, QUERY_TEMPLATES, TEMPLATES, fill  # noqa: E402

# gunicorn gets the environment this script was started with (plus the variables below and --env),
# not this process's own tuning: the server must be measured as it is configured.
SERVER_BASE_ENV = dict(os.environ)
# This process (seeding, load clients) keeps OpenBLAS to one thread: its multi-threaded spin-waits
# make batch embedding ~10x slower on a busy 2-CPU machine. Set before numpy is imported.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
setup_django()

import psycopg  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.postgres.search import SearchVector  # noqa: E402
from django.db import connection, connections  # noqa: E402
from django.db.models import Value  # noqa: E402
from django.utils import timezone  # noqa: E402
from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Agent, Subject, Workspace  # noqa: E402
from apps.accounts.services import apikey_issue  # noqa: E402
from apps.memories.embeddings import store  # noqa: E402
from apps.memories.models import Memory, MemoryEmbedding  # noqa: E402
from apps.memories.search import CONFIG as SEARCH_CONFIG  # noqa: E402
from apps.memories.search import search_document  # noqa: E402

SEED = 20240615
THROTTLE = "1000000/min"

# --- Synthetic texts (short, mixed zh/en) -----------------------------------------------------------
# Keys the writers use: a handful per category on a few subjects (--write-subjects), so writes go
# through the conflict policy's paths (created, superseded, kept_existing; constraints accumulate)
# and wait for each other's subject locks, not only create.
WRITE_KEYS = {
    "preference": ["favourite_food", "reply_style", "morning_drink", "weekend_hobby"],
    "fact": ["home_city", "job", "pet"],
    "constraint": ["diet", "contact_hours"],
    "goal": ["next_trip", "learning"],
}


def query_text(rng: random.Random) -> str:
    """A varied query; every third or so joins two questions ("…，还有 …" / "… and …")."""
    text = fill(rng.choice(QUERY_TEMPLATES), rng)
    if rng.random() < 0.33:
        text += ("，还有" if rng.random() < 0.5 else " and ") + fill(rng.choice(QUERY_TEMPLATES), rng)
    return text


# --- Database ---------------------------------------------------------------------------------------
@contextmanager
def database_from_template(template: str):
    """A copy of the seeded database `template` (CREATE DATABASE … TEMPLATE: a file copy, seconds),
    named after this process and dropped at the end, instead of seeding again."""
    name = f"memoryadmin_load_{os.getpid()}"
    with psycopg.connect(**raw_params("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    original = settings.DATABASES["default"]["NAME"]
    connections.close_all()
    settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = name
    try:
        yield name
    finally:
        connections.close_all()
        terminate_sessions()
        with psycopg.connect(**raw_params("postgres"), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        settings.DATABASES["default"]["NAME"] = connection.settings_dict["NAME"] = original


def seed_template_name(args) -> str:
    """The kept seed for these seeding options, this schema (the latest migrations) and this embedder."""
    import hashlib

    from django.db.migrations.loader import MigrationLoader

    leaves = sorted(MigrationLoader(None, ignore_no_migrations=True).graph.leaf_nodes())
    model = store.get_embedder(store.default_model()).model_id
    key = repr((SEED, args.subjects, args.memories_per_subject, model, leaves))
    return f"memoryadmin_loadseed_{hashlib.sha1(key.encode()).hexdigest()[:12]}"


def database_exists(name: str) -> bool:
    with psycopg.connect(**raw_params("postgres"), autocommit=True) as conn:
        return conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone() is not None


def keep_as_template(dbname: str, template: str) -> None:
    connections.close_all()
    terminate_sessions()
    with psycopg.connect(**raw_params("postgres"), autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{template}" TEMPLATE "{dbname}"')


def seeded_copy() -> "Seeded":
    """What `seed` returned, read back from a copy of its database (with a new key: keys are stored hashed)."""
    agent = Agent.objects.get(workspace__slug="load-test")
    _, raw_key = apikey_issue(agent=agent, scopes=["read", "write"])
    return Seeded(
        raw_key=raw_key,
        subjects=list(Subject.objects.order_by("external_id").values_list("external_id", flat=True)),
        memories=Memory.objects.count(),
        vectors=MemoryEmbedding.objects.count(),
        keyword_documents=Memory.objects.filter(search__isnull=False).count(),
    )


def database_url(dbname: str) -> str:
    """DATABASE_URL for `dbname` on the server this process uses (the embedded one: a Unix socket).

    dj_database_url takes the host from urlsplit().hostname, which is lower-cased: a percent-encoded
    socket directory survives only when it has no capital letters. Otherwise the directory goes in
    the query string (`?host=`), which lands in OPTIONS and reaches psycopg as the host."""
    s = connection.settings_dict
    host, user, password, port = s["HOST"], s["USER"], s.get("PASSWORD") or "", s.get("PORT") or ""
    credentials = quote(user, safe="") + (f":{quote(password, safe='')}" if password else "")
    if not host.startswith("/"):  # a TCP server (the script run with DATABASE_URL set)
        return f"postgres://{credentials}@{host}{f':{port}' if port else ''}/{quote(dbname)}"
    if host == host.lower():
        return f"postgres://{credentials}@{quote(host, safe='')}{f':{port}' if port else ''}/{quote(dbname)}"
    return f"postgres://{credentials}@/{quote(dbname)}?host={quote(host, safe='/')}" + (f"&port={port}" if port else "")


@dataclass
class Seeded:
    raw_key: str
    subjects: list[str]
    memories: int
    vectors: int
    keyword_documents: int
    timings: dict[str, float] = field(default_factory=dict)


def seed(args) -> Seeded:
    rng = random.Random(SEED)
    timings = {}
    started = time.perf_counter()
    workspace = Workspace.objects.create(name="Load test", slug="load-test")
    agent = Agent.objects.create(workspace=workspace, name="Load Bot")
    _, raw_key = apikey_issue(agent=agent, scopes=["read", "write"])
    subjects = Subject.objects.bulk_create(
        [
            Subject(workspace=workspace, external_id=f"user-{i:04d}", display_name=f"User {i}")
            for i in range(args.subjects)
        ]
    )
    now = timezone.now()
    year = 365 * 86400
    rows = []
    for subject in subjects:
        session = 0
        for j in range(args.memories_per_subject):
            profile = rng.random() < 0.4
            category = rng.choice(PROFILE_CATEGORIES if profile else EPISODE_CATEGORIES)
            text = fill(rng.choice(TEMPLATES[category]), rng)
            created = now - timedelta(seconds=rng.random() * year)
            memory_id = uuid.uuid4()
            key = value = session_id = ""
            occurred_at = None
            if profile:
                key, value = f"{category}_{j}", text
                text = f"{category} {j}: {value}"  # what services write for a fact: "<key words>: <value>"
            else:
                session += rng.random() < 0.3
                session_id, occurred_at = f"sess-{subject.pk}-{session}", created
            rows.append(
                Memory(
                    id=memory_id,
                    workspace=workspace,
                    subject=subject,
                    kind="profile" if profile else "episode",
                    category=category,
                    key=key,
                    value=value,
                    text=text,
                    confidence=round(rng.uniform(0.5, 1), 2),
                    importance=round(rng.random(), 2),
                    pinned=rng.random() < 0.01,
                    lineage=memory_id,
                    version=1,
                    valid_from=created,
                    session_id=session_id,
                    occurred_at=occurred_at,
                    search=SearchVector(Value(search_document(text)), config=SEARCH_CONFIG),
                )
            )
    timings["build rows (jieba documents)"] = time.perf_counter() - started
    started = time.perf_counter()
    Memory.objects.bulk_create(rows, batch_size=1000)
    # created_at/updated_at are auto_now: spread them over the past year like real data (recency).
    with connection.cursor() as cursor:
        cursor.execute("UPDATE memories_memory SET created_at = valid_from, updated_at = valid_from")
    timings["bulk insert"] = time.perf_counter() - started

    started = time.perf_counter()
    index = store.active_index()
    with tqdm(total=len(rows), desc="embed (store.embed_missing)", unit="memory") as bar:
        while written := store.embed_missing(limit=args.embed_batch):
            bar.update(written)
    timings[f"embed ({index.model_id})"] = time.perf_counter() - started
    started = time.perf_counter()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE memories_memory")
        cursor.execute("VACUUM ANALYZE memories_memoryembedding")
    timings["VACUUM ANALYZE"] = time.perf_counter() - started
    return Seeded(
        raw_key=raw_key,
        subjects=[s.external_id for s in subjects],
        memories=Memory.objects.count(),
        vectors=MemoryEmbedding.objects.count(),
        keyword_documents=Memory.objects.filter(search__isnull=False).count(),
        timings=timings,
    )


# --- gunicorn ---------------------------------------------------------------------------------------
def gunicorn_layout(root: Path, env: dict) -> dict:
    """workers, threads, worker class and requests per keep-alive connection that gunicorn.conf.py
    gives in the environment `env`."""
    import runpy

    saved = dict(os.environ)
    os.environ.update(env)
    try:
        conf = runpy.run_path(str(root / "gunicorn.conf.py"))
    finally:
        os.environ.clear()
        os.environ.update(saved)
    return {name: conf.get(name) for name in ("workers", "threads", "worker_class", "keepalive", "worker_connections")}


def describe(layout: dict) -> str:
    kind = layout["worker_class"]
    threads = f" x {layout['threads']} threads" if kind == "gthread" else ""
    keepalive = (
        f", keep-alive {layout['keepalive']} s, up to {layout['worker_connections']} connections a worker"
        if layout.get("keepalive")
        else ", a connection per request"
    )
    return f"{layout['workers']} {kind} workers{threads}{keepalive}"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Server:
    def __init__(self, args, dbname: str) -> None:
        self.port = free_port()
        self.log_path = Path(tempfile.mkstemp(prefix="memoryadmin_load_gunicorn_", suffix=".log")[1])
        self.env = SERVER_BASE_ENV | {
            "DJANGO_SETTINGS_MODULE": "memoryadmin.settings",
            "DATABASE_URL": database_url(dbname),
            "SECRET_KEY": "load-test-only-" + uuid.uuid4().hex,
            "ALLOWED_HOSTS": "127.0.0.1",
            "DEBUG": "false",
            "HTTPS": "false",
            "API_THROTTLE_READ": THROTTLE,
            "API_THROTTLE_WRITE": THROTTLE,
            "LOG_LEVEL": "WARNING",
        }
        if not self.env.get("CELERY_BROKER_URL"):
            self.env["CELERY_TASK_ALWAYS_EAGER"] = "true"  # the writes' embedding runs in the web process
        for item in args.env:
            name, _, value = item.partition("=")
            self.env[name] = value
        # The layout is gunicorn.conf.py's (the production one); --workers and --threads reach it
        # as the environment variables it reads.
        for name, value in (("WEB_CONCURRENCY", args.workers), ("GUNICORN_THREADS", args.threads)):
            if value is not None:
                self.env[name] = str(value)
        self.root = args.server_root.resolve()
        gunicorn = [str(ROOT / ".venv" / "bin" / "gunicorn")]
        if (self.root / "gunicorn.conf.py").exists():
            self.layout = gunicorn_layout(self.root, self.env)
            gunicorn += ["-c", str(self.root / "gunicorn.conf.py")]
        else:  # a checkout from before gunicorn.conf.py: the layout it was measured with
            self.layout = {
                "workers": args.workers or 4,
                "threads": args.threads or 2,
                "worker_class": "gthread",
                "keepalive": 30,
                "worker_connections": 1000,
            }
            gunicorn += [
                "-w",
                str(self.layout["workers"]),
                "--threads",
                str(self.layout["threads"]),
                "--keep-alive",
                "30",
                "--timeout",
                "60",
                "--graceful-timeout",
                "10",
            ]
        self.command = (
            gunicorn
            + [
                "memoryadmin.wsgi:application",
                "-b",
                f"127.0.0.1:{self.port}",
                "--log-level",
                "warning",
            ]
            + (["-k", args.worker_class] if args.worker_class else [])
        )
        if args.worker_class:
            self.layout["worker_class"] = args.worker_class
        self.process: subprocess.Popen | None = None
        self._log = None

    def start(self, timeout: float = 60) -> None:
        self._log = self.log_path.open("wb")
        # A session of its own: Ctrl-C reaches this script only, which then stops gunicorn in order.
        self.process = subprocess.Popen(
            self.command,
            cwd=self.root,
            env=self.env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.process.returncode}:\n{self.log_tail()}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/healthz")
                response = conn.getresponse()
                response.read()
                conn.close()
                if response.status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.2)
        raise RuntimeError(f"gunicorn did not answer /healthz within {timeout:.0f} s:\n{self.log_tail()}")

    def worker_pids(self) -> list[int]:
        try:
            children = Path(f"/proc/{self.process.pid}/task/{self.process.pid}/children").read_text()
        except OSError:
            return []
        return [int(pid) for pid in children.split()]

    def settle(self, timeout: float = 120) -> float:
        """Wait, idle, until the workers have finished their background warm-up (embedding model,
        jieba, Presidio: memoryadmin.warmup): their CPU time stops growing. Returns the seconds waited."""
        started = time.monotonic()
        tick = os.sysconf("SC_CLK_TCK")

        def cpu_seconds() -> float | None:
            total = 0
            for pid in self.worker_pids():
                try:
                    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                except OSError:
                    return None
                total += int(fields[11]) + int(fields[12])  # utime + stime
            return total / tick

        quiet, previous = 0, cpu_seconds()
        if previous is None or not self.worker_pids():  # no /proc: give them a fixed while
            time.sleep(10)
            return time.monotonic() - started
        while quiet < 2 and time.monotonic() - started < timeout:
            time.sleep(1)
            current = cpu_seconds()
            if current is None:
                break
            quiet = quiet + 1 if current - previous < 0.05 else 0
            previous = current
        return time.monotonic() - started

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()  # SIGTERM: graceful (workers finish their requests)
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()

    def log_tail(self, lines: int = 40) -> str:
        if self._log:
            self._log.flush()
        text = self.log_path.read_text(errors="replace").splitlines()
        return "\n".join(text[-lines:])

    def log_problems(self) -> Counter:
        text = self.log_path.read_text(errors="replace")
        return Counter(
            {
                name: text.count(marker)
                for name, marker in (
                    ("tracebacks", "Traceback"),
                    ("worker timeouts", "WORKER TIMEOUT"),
                    ("errors", "[ERROR]"),
                )
                if marker in text
            }
        )


# --- Load -------------------------------------------------------------------------------------------
@dataclass
class Sample:
    kind: str  # recall | fact | episode
    started: float
    ms: float
    status: int  # 0: an exception
    error: str = ""
    note: str = ""  # recall: the fallback ("keyword") or ""; writes: the outcome
    client: str = ""
    query: str = ""


class Client(threading.Thread):
    def __init__(
        self,
        number: int,
        kind: str,
        port: int,
        raw_key: str,
        subjects: list[str],
        stop: threading.Event,
        samples: list,
        timeout: float,
        keepalive: bool,
    ) -> None:
        super().__init__(name=f"{kind}-{number}", daemon=True)
        self.kind, self.port, self.subjects, self.stop, self.samples = kind, port, subjects, stop, samples
        self.headers = {"Authorization": f"Bearer {raw_key}", "Content-Type": "application/json", "Host": "127.0.0.1"}
        self.rng = random.Random(SEED + 2 * number + (kind == "write"))
        self.timeout = timeout
        self.keepalive = keepalive
        if not keepalive:
            self.headers["Connection"] = "close"
        self.conn: http.client.HTTPConnection | None = None

    def connect(self) -> http.client.HTTPConnection:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
        conn.connect()
        conn.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return conn

    def next_request(self) -> tuple[str, str, dict]:
        subject = self.rng.choice(self.subjects)
        base = f"/api/v1/subjects/{subject}"
        if self.kind == "recall":
            return "recall", f"{base}/recall", {"query": query_text(self.rng), "top_k": 8}
        turn = {"session_id": f"load-{self.name}", "turn_id": uuid.uuid4().hex}
        if self.rng.random() < 0.5:
            category = self.rng.choice(PROFILE_CATEGORIES)
            return (
                "fact",
                f"{base}/facts",
                turn
                | {
                    "key": self.rng.choice(WRITE_KEYS[category]),
                    "category": category,
                    "value": fill(self.rng.choice(TEMPLATES[category]), self.rng),
                    "confidence": round(self.rng.uniform(0.5, 1), 2),
                    "importance": round(self.rng.random(), 2),
                },
            )
        category = self.rng.choice(EPISODE_CATEGORIES)
        return (
            "episode",
            f"{base}/episodes",
            turn
            | {
                "text": fill(self.rng.choice(TEMPLATES[category]), self.rng),
                "category": category,
                "importance": round(self.rng.random(), 2),
            },
        )

    def run(self) -> None:
        while not self.stop.is_set():
            kind, path, body = self.next_request()
            payload = json.dumps(body, ensure_ascii=False).encode()
            started = time.perf_counter()
            try:
                if self.conn is None:
                    self.conn = self.connect()
                self.conn.request("POST", path, body=payload, headers=self.headers)
                response = self.conn.getresponse()
                content = response.read()
                ms = (time.perf_counter() - started) * 1000
                error = note = ""
                if 200 <= response.status < 300:
                    answer = json.loads(content)
                    note = (answer.get("fallback") or "") if kind == "recall" else answer.get("outcome", "?")
                else:
                    error = content[:300].decode(errors="replace")
                self.samples.append(
                    Sample(kind, started, ms, response.status, error, note, self.name, body.get("query", ""))
                )
                if response.will_close or not self.keepalive:
                    self.conn.close()
                    self.conn = None
            except Exception as exc:  # noqa: BLE001 - every failure is a result here
                ms = (time.perf_counter() - started) * 1000
                self.samples.append(Sample(kind, started, ms, 0, f"{type(exc).__name__}: {exc}", client=self.name))
                if self.conn is not None:
                    self.conn.close()
                self.conn = None
        if self.conn is not None:
            self.conn.close()


def run_load(args, port: int, seeded: Seeded) -> tuple[list[Sample], float, float]:
    """Runs warm-up + measured period; returns all samples, the measured period's start and length."""
    stop = threading.Event()
    samples: list[Sample] = []  # list.append is atomic under the GIL
    clients = [
        Client(i, "recall", port, seeded.raw_key, seeded.subjects, stop, samples, args.timeout, args.keepalive)
        for i in range(args.readers)
    ]
    clients += [
        Client(
            i,
            "write",
            port,
            seeded.raw_key,
            seeded.subjects[: args.write_subjects],
            stop,
            samples,
            args.timeout,
            args.keepalive,
        )
        for i in range(args.writers)
    ]
    for client in clients:
        client.start()
    try:
        if args.warmup > 0:
            for _ in tqdm(range(int(args.warmup)), desc="warm-up", unit="s", leave=False):
                time.sleep(1)
        measured_from = time.perf_counter()
        seen = 0
        with tqdm(
            total=args.seconds, desc="load", unit="s", bar_format="{l_bar}{bar}| {n_fmt}/{total_fmt} s {postfix}"
        ) as bar:
            for second in range(1, args.seconds + 1):
                time.sleep(max(0.0, measured_from + second - time.perf_counter()))
                now = len(samples)
                window = samples[seen:now]
                seen = now
                errors = sum(1 for s in samples if not 200 <= s.status < 300)
                bar.set_postfix_str(f"{len(window)} req/s, errors {errors}", refresh=False)
                bar.update(1)
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=args.timeout + 5)
    measured_until = measured_from + args.seconds
    return samples, measured_from, measured_until


def summarize(samples: list[Sample], measured_from: float, measured_until: float, args, layout: dict) -> bool:
    """Measured = requests started inside the measured period (those finishing after its end too)."""
    seconds = measured_until - measured_from
    measured = [s for s in samples if measured_from <= s.started < measured_until]
    warmup = [s for s in samples if s.started < measured_from]
    late = [s for s in samples if s.started >= measured_until]
    failed = [s for s in samples if not 200 <= s.status < 300]

    def line(name: str, group: list[Sample]) -> str:
        if not group:
            return f"  {name:<22} n=0"
        ms = [s.ms for s in group]
        errors = sum(1 for s in group if not 200 <= s.status < 300)
        return (
            f"  {name:<22} n={len(group):>6}  {len(group) / seconds:>7.1f} req/s  p50={percentile(ms, 50):7.1f} ms  "
            f"p95={percentile(ms, 95):7.1f} ms  p99={percentile(ms, 99):7.1f} ms  max={max(ms):7.1f} ms  "
            f"errors={errors}"
        )

    print(
        f"\nmeasured {seconds:.0f} s (requests started in it; {len(warmup)} warm-up requests before, "
        f"{len(late)} started after, not in the figures):"
    )
    print(line("(warm-up, all kinds)", warmup).replace("req/s", "req/s*"))
    print(line("recall", [s for s in measured if s.kind == "recall"]))
    writes = [s for s in measured if s.kind != "recall"]
    print(line("write (facts+episodes)", writes))
    print(line("  of which facts", [s for s in writes if s.kind == "fact"]))
    print(line("  of which episodes", [s for s in writes if s.kind == "episode"]))
    print(line("overall", measured))
    recalls = [s for s in measured if s.kind == "recall" and 200 <= s.status < 300]
    fallbacks = sum(1 for s in recalls if s.note)
    outcomes = Counter(s.note for s in writes if 200 <= s.status < 300)
    print(
        f"  recall answers with fallback=keyword (embedding too slow, failed or the process busy): {fallbacks} of "
        f"{len(recalls)} ({100 * fallbacks / max(1, len(recalls)):.1f} %); "
        f"write outcomes: " + ", ".join(f"{k} {n}" for k, n in outcomes.most_common())
    )
    seen_queries = {s.query for s in samples if s.kind == "recall" and s.started < measured_from}
    repeats = 0
    for s in sorted(recalls, key=lambda s: s.started):
        repeats += s.query in seen_queries
        seen_queries.add(s.query)
    print(
        f"  recall queries asked before (by any client, warm-up included): {repeats} of {len(recalls)} "
        f"({100 * repeats / max(1, len(recalls)):.0f} %; an upper bound of the query-vector cache's hits, "
        f"which are per process)"
    )
    by_client: dict[str, list[float]] = {}
    for s in measured:
        if s.kind == "recall":
            by_client.setdefault(s.client, []).append(s.ms)
    if by_client:
        medians = sorted(percentile(v, 50) for v in by_client.values())
        counts = sorted(len(v) for v in by_client.values())
        print(
            f"  recall clients' own p50 ranges {medians[0]:.0f}..{medians[-1]:.0f} ms "
            f"(median {percentile(medians, 50):.0f}); "
            f"requests per client {counts[0]}..{counts[-1]}"
            + (
                " (keep-alive: a connection stays with the worker that accepted it)"
                if args.keepalive and layout.get("keepalive")
                else ""
            )
        )
    statuses = Counter(s.status for s in samples)
    print(
        f"  HTTP statuses (all {len(samples)} requests, warm-up included): "
        + ", ".join(f"{status or 'exception'}: {n}" for status, n in sorted(statuses.items()))
    )
    if failed:
        print("  errors by cause (first of each shown):")
        causes = Counter((s.kind, s.status, s.error[:120]) for s in failed)
        for (kind, status, cause), n in causes.most_common(10):
            print(f"    {n:>5} x {kind} {status or 'exception'}: {cause}")
    warm_failed = [s for s in warmup if not 200 <= s.status < 300]
    met = len(failed) == len(warm_failed)  # no error after the warm-up
    if warm_failed:
        print(
            f"  {len(warm_failed)} of the errors came during the warm-up (workers loading their models); "
            f"the target is judged on the measured period"
        )
    print(
        f"target 0 errors ({args.readers} recall + {args.writers} write clients, {args.seconds} s, "
        f"{describe(layout)}): {'PASS' if met else 'MISS'} ({len(failed) - len(warm_failed)} errors after the warm-up)"
    )
    return met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=int, default=60, help="measured period")
    parser.add_argument("--warmup", type=float, default=10, help="seconds of the same load before measuring")
    parser.add_argument("--readers", type=int, default=50, help="concurrent recall clients")
    parser.add_argument("--writers", type=int, default=5, help="concurrent write clients (facts and episodes)")
    parser.add_argument("--workers", type=int, help="gunicorn worker processes (default: gunicorn.conf.py's)")
    parser.add_argument("--threads", type=int, help="threads per gunicorn worker (default: gunicorn.conf.py's)")
    parser.add_argument("--worker-class", help="gunicorn worker class, e.g. sync (default: gunicorn.conf.py's)")
    parser.add_argument("--subjects", type=int, default=200)
    parser.add_argument("--memories-per-subject", type=int, default=50)
    parser.add_argument("--write-subjects", type=int, default=20, help="the writers write to the first N subjects")
    parser.add_argument("--embed-batch", type=int, default=1000, help="memories per embed_missing call while seeding")
    parser.add_argument(
        "--no-keepalive",
        dest="keepalive",
        action="store_false",
        help="a new connection per request (default: one keep-alive connection per client)",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=0,
        metavar="SECONDS",
        help="before the load, wait up to this long for the CPU pressure (PSI avg10) to drop under 20%%",
    )
    parser.add_argument(
        "--reuse-seed",
        action="store_true",
        help="seed once and keep the seeded database as a template; later runs with the same "
        "options, schema and embedder start from a copy of it (seconds instead of minutes)",
    )
    parser.add_argument(
        "--server-root",
        type=Path,
        default=ROOT,
        help="run gunicorn from this checkout (e.g. another worktree, to compare versions on the "
        "same seed); without a gunicorn.conf.py there: its old layout, 4 workers x 2 threads",
    )
    parser.add_argument("--timeout", type=float, default=30, help="client socket timeout, seconds")
    parser.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="extra environment for gunicorn (repeatable), e.g. OPENBLAS_NUM_THREADS=1",
    )
    args = parser.parse_args()

    def on_sigterm(signum, frame):  # clean up like on Ctrl-C
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, on_sigterm)
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even when started with SIGINT ignored (nohup, &)
    overall = time.perf_counter()
    print(
        f"load: {args.readers} recall + {args.writers} write clients for {args.seconds} s "
        f"(+{args.warmup:g} s warm-up); "
        f"{args.subjects} subjects x "
        f"{args.memories_per_subject} memories; {'keep-alive' if args.keepalive else 'a connection per request'}; "
        f"{os.cpu_count()} CPUs"
    )
    met = False
    server = None
    try:
        template = seed_template_name(args) if args.reuse_seed else ""
        reused = bool(template) and database_exists(template)
        with database_from_template(template) if reused else throwaway_database() as dbname:
            if reused:
                seeded = seeded_copy()
                print(f"database {dbname}: a copy of the kept seed {template}")
            else:
                seeded = seed(args)
                if template:
                    keep_as_template(dbname, template)
                    print(
                        f"seed kept as {template} for the next --reuse-seed run (drop it with DROP DATABASE, "
                        f"or make clean-db)"
                    )
            print(
                f"database {dbname}: {seeded.memories} memories, {seeded.vectors} vectors, "
                f"{seeded.keyword_documents} keyword documents, "
                f"{len(seeded.subjects)} subjects; seeding took {sum(seeded.timings.values()):.1f} s ("
                + ", ".join(f"{name} {seconds:.1f} s" for name, seconds in seeded.timings.items())
                + ")"
            )
            connections.close_all()  # the server's workers are the database's clients from here on
            server = Server(args, dbname)
            started = time.perf_counter()
            server.start()
            print(
                f"gunicorn ({describe(server.layout)}, code of {server.root}) on 127.0.0.1:{server.port} "
                f"answered /healthz after {time.perf_counter() - started:.1f} s "
                f"(DATABASE_URL={server.env['DATABASE_URL']})\n  {' '.join(server.command[1:])}"
                + "".join(
                    f"\n  env {name}={value}"
                    for name, value in sorted(server.env.items())
                    if name in {"OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"}
                    or any(item.startswith(f"{name}=") for item in args.env)
                )
            )
            try:
                print(f"workers warmed up (idle) in {server.settle():.1f} s")
                if args.quiet_wait and wait_for_quiet(args.quiet_wait) >= args.quiet_wait:
                    print(
                        f"  the machine did not get quiet within {args.quiet_wait:.0f} s ({cpu_pressure()}); "
                        "measuring anyway"
                    )
                print(f"before the load: {cpu_pressure()}")
                samples, measured_from, measured_until = run_load(args, server.port, seeded)
                print(f"after the load: {cpu_pressure()}")
            finally:
                server.stop()
            met = summarize(samples, measured_from, measured_until, args, server.layout)
            problems = server.log_problems()
            if problems:
                print(
                    f"gunicorn log ({server.log_path}): "
                    + ", ".join(f"{n} {name}" for name, n in problems.items())
                    + "; last lines:\n"
                    + server.log_tail(20)
                )
            with connection.cursor() as cursor:
                cursor.execute("SELECT count(*) FILTER (WHERE status = 'active'), count(*) FROM memories_memory")
                active, total = cursor.fetchone()
                cursor.execute("SELECT count(*) FROM memories_memoryembedding")
                (embedded,) = cursor.fetchone()
            print(f"after the run: {total} memories ({active} active), {embedded} vectors")
    except KeyboardInterrupt:
        if server is not None:
            server.stop()
        print(f"\ninterrupted: {'gunicorn stopped, ' if server is not None else ''}database dropped", file=sys.stderr)
        sys.exit(130)
    finally:
        if server is not None:
            server.stop()
            if met:
                server.log_path.unlink(missing_ok=True)
            else:
                print(f"gunicorn's log kept: {server.log_path}")
    print(f"total {time.perf_counter() - overall:.0f} s; gunicorn stopped, database dropped")


if __name__ == "__main__":
    main()
