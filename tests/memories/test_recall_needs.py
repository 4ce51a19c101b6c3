"""Profile facts are few and matter: a question about the person's needs — a recommendation, a plan,
food, a schedule, a purchase, a trip — brings the active constraints and pinned facts that concern
its topic, however little the words overlap ("晚饭推荐点什么" and a peanut allergy). Questions
about the person themselves ("我住在哪里") find the profile fact that answers them. Other questions
are not padded with constraints."""

import pytest

from apps.memories.recall import recall
from apps.memories.recall.intent import need_topics
from tests.factories import episode, fact

pytestmark = pytest.mark.django_db(transaction=True)


def texts(subject, query, top_k=5):
    return [
        c.memory.text for c in recall(workspace=subject.workspace, subject=subject, query=query, top_k=top_k).memories
    ]


def everyday_life(subject):
    """Enough ordinary memories that a constraint has to compete for the top 5."""
    for line in (
        "上周和同事去看了电影《流浪地球》",
        "Finished the quarterly report on Friday",
        "周末去西湖边跑了五公里",
        "Bought a new mechanical keyboard",
        "和妈妈视频聊了半小时",
        "Watched a documentary about whales",
        "最近在学吉他，每天练半小时",
        "Moved the team stand-up to Tuesdays",
        "喜欢听周杰伦的歌",
    ):
        episode(subject, line, days=3)
    fact(subject, "music", "likes jazz")
    fact(subject, "pet", "有一只叫豆豆的猫", category="fact")


@pytest.mark.parametrize(
    "query",
    [
        "晚饭推荐点什么",
        "今晚吃什么好？",
        "Any dinner ideas for tonight?",
        "recommend a restaurant for Friday",
        "帮我点个外卖",
    ],
)
def test_a_food_question_brings_the_food_constraint_at_low_similarity(alice, query):
    everyday_life(alice)
    fact(alice, "allergy", "对花生过敏", category="constraint")

    assert "allergy: 对花生过敏" in texts(alice, query)


@pytest.mark.parametrize("query", ["帮我安排明天的会议", "Can you schedule a call with the vendor next week?"])
def test_a_scheduling_request_brings_the_time_constraint(alice, query):
    everyday_life(alice)
    fact(alice, "mornings", "no meetings before 10am", category="constraint")

    assert "mornings: no meetings before 10am" in texts(alice, query)


@pytest.mark.parametrize("query", ["推荐一款手机", "What laptop should I buy?"])
def test_a_shopping_question_brings_the_pinned_budget(alice, query):
    everyday_life(alice)
    fact(alice, "budget", "每月可支配预算三千元", category="fact", pinned=True)

    assert "budget: 每月可支配预算三千元" in texts(alice, query)


@pytest.mark.parametrize(
    "query, answer",
    [
        ("我住在哪里", "city: 杭州"),
        ("where do I live?", "city: 杭州"),
        ("我是做什么工作的", "job: 前端工程师"),
        ("what's my job?", "job: 前端工程师"),
    ],
)
def test_a_question_about_the_person_finds_the_profile_fact_that_answers_it(alice, query, answer):
    everyday_life(alice)
    fact(alice, "city", "杭州", category="fact")
    fact(alice, "job", "前端工程师", category="fact")

    assert answer in texts(alice, query, top_k=3)


@pytest.mark.parametrize("query", ["我上周看了什么电影", "What did I watch last week?", "周末我跑了多远"])
def test_a_question_that_is_not_about_a_need_is_not_padded_with_the_food_constraint(alice, query):
    everyday_life(alice)
    fact(alice, "allergy", "对花生过敏", category="constraint")

    assert "allergy: 对花生过敏" not in texts(alice, query, top_k=3)


def test_a_scheduling_request_does_not_bring_a_food_constraint(alice):
    everyday_life(alice)
    fact(alice, "allergy", "对花生过敏", category="constraint")

    assert "allergy: 对花生过敏" not in texts(alice, "帮我安排明天的会议", top_k=3)


@pytest.mark.parametrize(
    "query, topic",
    [
        ("晚饭推荐点什么", "food"),
        ("Any dinner ideas?", "food"),
        ("帮我安排明天的会议", "schedule"),
        ("plan a trip to Japan for me", "travel"),
        ("推荐一款手机", "shopping"),
        ("我上周看了什么电影", None),
        ("thanks!", None),
    ],
)
def test_need_topics_are_read_from_zh_and_en_questions(query, topic):
    assert (topic in need_topics(query)) if topic else not need_topics(query)


def test_a_need_question_brings_only_this_persons_constraints_never_another_persons_or_tenants(alice, bob, carol):
    everyday_life(alice)
    fact(bob, "allergy", "对花生过敏", category="constraint")
    fact(carol, "allergy", "对海鲜过敏", category="constraint", pinned=True)
    fact(alice, "city", "杭州", category="fact")

    assert not any("过敏" in text for text in texts(alice, "晚饭推荐点什么", top_k=10))
    assert "city: 杭州" not in texts(bob, "我住在哪里", top_k=10)
