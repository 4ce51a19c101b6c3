"""Create the demo workspace once: logins, two subjects, an agent with a key, ~30 memories with a
history spread over the past 30 days.

Every write goes through the services. To give the history a shape (so a memory's versions, the
audit log and the dashboard's 30-day chart mean something), each write runs "at" a moment in the
past: `_clock` makes `django.utils.timezone.now` return that moment while the service runs, so the
rows get consistent times (created_at, valid_from/valid_to, the source's received_at, the audit
event). This is demo-only; nothing else in memoryadmin sets the clock.
"""

import random
from collections.abc import Callable
from contextlib import contextmanager
from datetime import datetime, timedelta
from functools import partial
from unittest import mock

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Membership, Subject, Workspace
from apps.accounts.services import agent_create, apikey_issue, workspace_create
from apps.audit.services import Actor
from apps.memories.recall import recall
from apps.memories.recall.access import Access, Recall, access_write
from apps.memories.services import Provenance, episode_record, fact_upsert, memory_correct, memory_pin

LOGINS = [
    ("admin", "admin-demo-pass", "superuser: /admin/"),
    ("operator", "operator-demo-pass", "operator (admin role) of the Demo workspace"),
    ("alice", "alice-demo-pass", "end user Alice (subject 'alice')"),
    ("bob", "bob-demo-pass", "end user Bob (subject 'bob')"),
]

# (key, value, category, confidence, importance) — values are written through the services, so
# the PII in some of them is redacted like any agent write.
ALICE_FACTS = [
    ("reply_language", "中文回复，技术术语保留英文", "preference", 0.95, 0.9),
    ("answer_style", "short answers with code examples", "preference", 0.9, 0.7),
    ("spice", "不吃辣 (no spicy food)", "constraint", 1.0, 0.9),
    ("allergy", "allergic to peanuts / 花生过敏", "constraint", 1.0, 1.0),
    ("city", "Shanghai 上海", "fact", 0.9, 0.6),
    ("employer", "works at a fintech startup as a backend engineer", "fact", 0.8, 0.5),
    ("programming_language", "Python 和 Go", "fact", 0.9, 0.6),
    ("database", "我们用的是 PostgreSQL 16", "fact", 0.7, 0.5),
    ("contact", "手机 13812345678，邮箱 alice.chen@example.com", "fact", 1.0, 0.4),
    ("goal_2027", "pass the AWS Solutions Architect exam by March", "goal", 0.85, 0.7),
    ("learning", "想学日语 N3", "goal", 0.8, 0.5),
    ("timezone", "Asia/Shanghai", "fact", 1.0, 0.3),
    ("editor", "Neovim, dark theme", "preference", 0.8, 0.4),
    ("meeting_time", "prefers meetings after 10:00 上午十点以后", "preference", 0.8, 0.5),
]
ALICE_EPISODES = [
    (1, "s-101", "Asked how to tune PostgreSQL autovacuum for a 200GB table"),
    (1, "s-101", "问了 pgvector 的 HNSW 参数怎么选"),
    (3, "s-099", "退款已提交: order 8812, card 6222020200112233446 refunded"),
    (8, "s-090", "Deployed v2.3.1 to production with the assistant's checklist"),
    (14, "s-080", "聊了下周去杭州出差的行程"),
    (30, "s-060", "Reported a login bug on the mobile app; sent logs to support@example.com"),
]
BOB_FACTS = [
    ("reply_language", "English", "preference", 0.95, 0.8),
    ("diet", "vegetarian", "constraint", 1.0, 0.9),
    ("diet", "no dairy 不喝牛奶", "constraint", 1.0, 0.9),
    ("city", "Berlin", "fact", 0.9, 0.5),
    ("pet", "a cat called Mochi", "fact", 0.9, 0.3),
    ("hobby", "bouldering and 乒乓球", "preference", 0.8, 0.4),
    ("id_number", "身份证 11010519491231002X", "fact", 1.0, 0.2),
]
BOB_EPISODES = [
    (2, "b-20", "Booked a table for two at an Italian place, phone +86 139-1234-5678 left for confirmation"),
    (5, "b-17", "Asked for a vegetarian recipe without cheese"),
]


RECALLS = [
    ("alice", "晚饭吃什么好？she has food restrictions"),
    ("alice", "Which language should I answer in?"),
    ("alice", "上次我们聊了什么？"),
    ("alice", "帮我写个 SQL，查一下昨天的订单"),
    ("bob", "recipe ideas for dinner"),
    ("bob", "what pet does he have"),
]
DAYS = 30


@contextmanager
def _clock(moment: datetime):
    """Demo only: the services (and auto_now fields) read this moment as "now"."""
    with mock.patch("django.utils.timezone.now", return_value=moment):
        yield


# One write or recall of the demo's history, at its moment.
Step = tuple[datetime, Callable[[], object]]


class Command(BaseCommand):
    help = (
        "Create the demo workspace, logins, an agent with an API key and about 30 memories with a "
        "30-day history (once)."
    )

    def handle(self, *args, **options) -> None:
        if Workspace.objects.filter(slug="demo").exists():
            self.stdout.write("The demo workspace exists already; nothing to do.")
        else:
            raw_key = self.seed()
            self.stdout.write(self.style.SUCCESS("Demo data created."))
            self.stdout.write(f"Demo agent 'Support Bot' API key (shown once, keep it): {raw_key}")
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in LOGINS:
            self.stdout.write(f"  {username:<9} {password:<20} {role}")

    def seed(self) -> str:
        """The writes in time order, each at its moment; recalls in between (a few on most days)."""
        self.now = timezone.now()
        self.random = random.Random(18)
        with _clock(self._at(DAYS, hour=9)):
            raw_key = self.setup()
        steps = self.history() + self.recalls()
        for moment, step in sorted(steps, key=lambda item: item[0]):
            with _clock(moment):
                step()
        return raw_key

    def _at(self, days_ago: float, hour: int = 10, minute: int = 0) -> datetime:
        """A moment `days_ago` days back at the given local hour (Asia/Shanghai, where Alice lives),
        never later than now."""
        day = timezone.localtime(self.now, timezone.get_fixed_timezone(8 * 60)) - timedelta(days=days_ago)
        return min(day.replace(hour=hour, minute=minute, second=0, microsecond=0), self.now - timedelta(minutes=5))

    @transaction.atomic
    def setup(self) -> str:
        User = get_user_model()
        self.workspace = workspace_create(name="Demo", slug="demo")
        self.users = {}
        for username, password, _ in LOGINS:
            self.users[username] = User.objects.create_user(
                username=username, password=password, is_staff=username == "admin", is_superuser=username == "admin"
            )
        Membership.objects.create(
            workspace=self.workspace, user=self.users["operator"], role=Membership.Role.ADMIN, timezone="Asia/Shanghai"
        )
        self.alice = Subject.objects.create(
            workspace=self.workspace,
            external_id="alice",
            display_name="Alice Chen",
            timezone="Asia/Shanghai",
            user=self.users["alice"],
        )
        self.bob = Subject.objects.create(
            workspace=self.workspace,
            external_id="bob",
            display_name="Bob Weber",
            timezone="Europe/Berlin",
            user=self.users["bob"],
        )
        self.agent = agent_create(
            workspace=self.workspace, name="Support Bot", description="The demo support assistant"
        )
        _, raw_key = apikey_issue(agent=self.agent, scopes=["read", "write"])
        self.actor = Actor.agent(self.agent)
        return raw_key

    def history(self) -> list[Step]:
        steps: list[Step] = []
        for subject, facts, episodes, first_day in (
            (self.alice, ALICE_FACTS, ALICE_EPISODES, 29),
            (self.bob, BOB_FACTS, BOB_EPISODES, 27),
        ):
            for index, fact in enumerate(facts):  # learned over the first weeks, a few a day
                days_ago = first_day - index * (first_day - 6) / len(facts)
                moment = self._at(days_ago, hour=9 + index % 9, minute=(index * 17) % 60)
                steps.append((moment, partial(self.write_fact, subject, index, *fact)))
            for index, (days_ago, session_id, text) in enumerate(episodes):
                moment = self._at(days_ago, hour=15, minute=(20 + index * 7) % 60)
                steps.append((moment, partial(self.write_episode, subject, session_id, text, moment)))

        # Version history: Alice moved, changed her mind about answers, pinned what matters most;
        # an operator fixed Bob's city after a support ticket.
        steps += [
            (
                self._at(12, hour=20),
                lambda: fact_upsert(
                    subject=self.alice, key="city", value="Hangzhou 杭州", category="fact", actor=self.actor
                ),
            ),
            (self._at(11, hour=9, minute=40), self.alice_clarifies_city),
            (
                self._at(7, hour=14),
                lambda: fact_upsert(
                    subject=self.alice,
                    key="answer_style",
                    value="concise answers, code first, 中文解释",
                    category="preference",
                    confidence=0.95,
                    importance=0.8,
                    actor=self.actor,
                ),
            ),
            (self._at(6, hour=21), self.alice_pins_allergy),
            (self._at(2, hour=16, minute=10), self.operator_fixes_bob_city),
        ]
        return steps

    def write_fact(self, subject, index, key, value, category, confidence, importance) -> None:
        fact_upsert(
            subject=subject,
            key=key,
            value=value,
            category=category,
            confidence=confidence,
            importance=importance,
            actor=self.actor,
            provenance=Provenance(agent=self.agent, session_id="seed", turn_id=f"seed-{key}-{index}", excerpt=value),
        )

    def write_episode(self, subject, session_id, text, moment) -> None:
        episode_record(
            subject=subject,
            text=text,
            session_id=session_id,
            actor=self.actor,
            occurred_at=moment,
            provenance=Provenance(agent=self.agent, session_id=session_id, excerpt=text),
        )

    def alice_clarifies_city(self) -> None:
        moved = self.alice.memories.get(key="city", status="active")
        memory_correct(
            memory=moved, content="Hangzhou 杭州 (since Oct 2026)", reason="user clarified", actor=self.actor
        )

    def alice_pins_allergy(self) -> None:
        allergy = self.alice.memories.get(key="allergy", status="active")
        memory_pin(memory=allergy, actor=Actor.user(self.users["alice"], type="end_user", channel="portal"))

    def operator_fixes_bob_city(self) -> None:
        city = self.bob.memories.get(key="city", status="active")
        memory_correct(
            memory=city,
            content="Berlin (Prenzlauer Berg)",
            reason="support ticket 1042: moved within Berlin",
            actor=Actor.user(self.users["operator"], type="operator", channel="console"),
        )

    def recalls(self) -> list[Step]:
        """The demo agent recalls on most days (more on weekdays), and a few times in the last day, so
        the access log, the 30-day chart and the latency tile have something to show."""
        steps: list[Step] = []
        for days_ago in range(DAYS - 1, -1, -1):
            for _ in range(self.random.choice((0, 1, 1, 2, 3))):
                moment = self._at(days_ago, hour=self.random.randint(8, 22), minute=self.random.randint(0, 59))
                external_id, query = self.random.choice(RECALLS)
                steps.append((moment, partial(self.recall, external_id, query)))
        for minutes in (200, 90, 30):
            external_id, query = self.random.choice(RECALLS)
            steps.append(
                (
                    self.now - timedelta(minutes=minutes),
                    partial(self.recall, external_id, query),
                )
            )
        return steps

    def recall(self, external_id: str, query: str) -> None:
        subject = Subject.objects.get(workspace=self.workspace, external_id=external_id)
        result = recall(workspace=self.workspace, subject=subject, query=query, top_k=5)
        access_write(
            [
                Access(
                    workspace_id=self.workspace.pk,
                    agent_id=self.agent.pk,
                    subject_id=subject.pk,
                    memory_id=c.memory.id,
                    rank=rank,
                    score=round(c.score, 4),
                )
                for rank, c in enumerate(result.memories, start=1)
            ],
            [
                Recall(
                    workspace_id=self.workspace.pk,
                    agent_id=self.agent.pk,
                    took_ms=result.took_ms,
                    results=len(result.memories),
                    fallback=result.fallback or "",
                )
            ],
        )
