"""Create the demo workspace once: logins, two subjects, an agent with a key, ~30 memories."""

from datetime import timedelta

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.utils import timezone

from apps.accounts.models import Agent, Membership, Subject, Workspace
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
    ("bob", "recipe ideas for dinner"),
    ("bob", "what pet does he have"),
]


class Command(BaseCommand):
    help = "Create the demo workspace, logins, an agent with an API key and about 30 memories (once)."

    def handle(self, *args, **options) -> None:
        if Workspace.objects.filter(slug="demo").exists():
            self.stdout.write("The demo workspace exists already; nothing to do.")
        else:
            raw_key = self.seed()
            self.recall_some()
            self.stdout.write(self.style.SUCCESS("Demo data created."))
            self.stdout.write(f"Demo agent 'Support Bot' API key (shown once, keep it): {raw_key}")
        self.stdout.write("Demo logins (username / password):")
        for username, password, role in LOGINS:
            self.stdout.write(f"  {username:<9} {password:<20} {role}")

    def recall_some(self) -> None:
        """A few recalls by the demo agent, so the access log and the dashboard have something to show."""
        agent = Agent.objects.get(workspace__slug="demo", name="Support Bot")
        for external_id, query in RECALLS:
            subject = Subject.objects.get(workspace=agent.workspace, external_id=external_id)
            result = recall(workspace=agent.workspace, subject=subject, query=query, top_k=5)
            access_write(
                [Access(workspace_id=agent.workspace_id, agent_id=agent.pk, subject_id=subject.pk, memory_id=c.memory.id,
                        rank=rank, score=round(c.score, 4)) for rank, c in enumerate(result.memories, start=1)],
                [Recall(workspace_id=agent.workspace_id, agent_id=agent.pk, took_ms=result.took_ms,
                        results=len(result.memories), fallback=result.fallback or "")],
            )

    @transaction.atomic
    def seed(self) -> str:
        User = get_user_model()
        workspace = workspace_create(name="Demo", slug="demo")
        users = {}
        for username, password, _ in LOGINS:
            users[username] = User.objects.create_user(
                username=username, password=password, is_staff=username == "admin", is_superuser=username == "admin"
            )
        Membership.objects.create(workspace=workspace, user=users["operator"], role=Membership.Role.ADMIN)
        alice = Subject.objects.create(
            workspace=workspace, external_id="alice", display_name="Alice Chen", timezone="Asia/Shanghai",
            user=users["alice"],
        )
        bob = Subject.objects.create(
            workspace=workspace, external_id="bob", display_name="Bob Weber", timezone="Europe/Berlin",
            user=users["bob"],
        )
        agent = agent_create(workspace=workspace, name="Support Bot", description="The demo support assistant")
        _, raw_key = apikey_issue(agent=agent, scopes=["read", "write"])
        actor = Actor.agent(agent)

        for subject, facts, episodes in ((alice, ALICE_FACTS, ALICE_EPISODES), (bob, BOB_FACTS, BOB_EPISODES)):
            for index, (key, value, category, confidence, importance) in enumerate(facts):
                fact_upsert(
                    subject=subject, key=key, value=value, category=category, confidence=confidence,
                    importance=importance, actor=actor,
                    provenance=Provenance(agent=agent, session_id="seed", turn_id=f"seed-{key}-{index}", excerpt=value),
                )
            for days_ago, session_id, text in episodes:
                episode_record(
                    subject=subject, text=text, session_id=session_id, actor=actor,
                    occurred_at=timezone.now() - timedelta(days=days_ago),
                    provenance=Provenance(agent=agent, session_id=session_id, excerpt=text),
                )

        # Version history: Alice moved, changed her mind about answers, and pinned what matters most.
        moved = fact_upsert(subject=alice, key="city", value="Hangzhou 杭州", category="fact", actor=actor).memory
        memory_correct(memory=moved, value="Hangzhou 杭州 (since Oct 2026)", reason="user clarified", actor=actor)
        fact_upsert(
            subject=alice, key="answer_style", value="concise answers, code first, 中文解释", category="preference",
            confidence=0.95, importance=0.8, actor=actor,
        )
        allergy = alice.memories.get(key="allergy", status="active")
        memory_pin(memory=allergy, actor=Actor.user(users["alice"], type="end_user"))
        return raw_key
