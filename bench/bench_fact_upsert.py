"""fact_upsert end to end (redaction, conflict policy, save, audit, commit, enqueueing the
embedding) on the embedded PostgreSQL. As in production, a worker embeds after the commit: the
task goes to a broker (here Celery's in-memory one) instead of running inside the write.

Target: p50 <= 10 ms. Run with `make bench`.
"""

import random
import time

from common import percentile, report, setup_django, throwaway_database
from synthetic import FACT_VALUES

setup_django()

from tqdm import tqdm  # noqa: E402

from apps.accounts.models import Agent, Subject, Workspace  # noqa: E402
from apps.audit.services import Actor  # noqa: E402
from apps.memories.services import Provenance, fact_upsert  # noqa: E402

N = 1000


def main() -> None:
    from django.conf import settings

    from memoryadmin.celery import app

    settings.CELERY_TASK_ALWAYS_EAGER = False
    app.conf.update(task_always_eager=False, broker_url="memory://")
    rng = random.Random(7)
    with throwaway_database():
        workspace = Workspace.objects.create(name="Bench", slug="bench")
        agent = Agent.objects.create(workspace=workspace, name="Bench Bot")
        subjects = [Subject.objects.create(workspace=workspace, external_id=f"s{i}") for i in range(50)]
        actor = Actor.agent(agent)
        fact_upsert(subject=subjects[0], key="warmup", value="warm up", category="fact", actor=actor)

        samples = []
        for i in tqdm(range(N), desc="fact_upsert", unit="write"):
            subject = rng.choice(subjects)
            arguments = dict(
                subject=subject,
                key=f"k{rng.randrange(40)}",
                value=rng.choice(FACT_VALUES),
                category=rng.choice(["preference", "fact", "constraint", "goal"]),
                confidence=rng.uniform(0.7, 1),
                actor=actor,
                provenance=Provenance(agent=agent, turn_id=f"t{i}", excerpt=rng.choice(FACT_VALUES)),
            )
            started = time.perf_counter()
            fact_upsert(**arguments)
            samples.append((time.perf_counter() - started) * 1000)

    report("fact_upsert end to end", samples, "p50 <= 10 ms", percentile(samples, 50) <= 10)


if __name__ == "__main__":
    main()
