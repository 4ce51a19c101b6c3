"""Synthetic, mixed zh/en memory texts and queries shared by the benchmarks (recall, load)."""

import random

FOODS = [
    "spicy food",
    "乌龙茶",
    "oat milk latte",
    "寿司",
    "dark chocolate",
    "小笼包",
    "mango",
    "火锅",
    "green tea",
    "披萨",
]
CITIES = ["Shanghai", "杭州", "Berlin", "深圳", "Osaka", "北京", "Toronto", "成都", "Lisbon", "南京"]
JOBS = ["backend engineer", "产品经理", "nurse", "设计师", "data analyst", "老师", "lawyer", "会计", "chef", "研究员"]
HOBBIES = ["running", "钢琴", "rock climbing", "摄影", "chess", "游泳", "gardening", "书法", "cycling", "徒步"]
THINGS = [
    "PostgreSQL",
    "深色主题",
    "short answers",
    "详细的解释",
    "Python 3.11",
    "邮件提醒",
    "bullet points",
    "语音消息",
]
TEMPLATES = {
    "preference": [
        "prefers {thing}",
        "喜欢{food}",
        "likes {food} in the morning",
        "更喜欢{thing}",
        "enjoys {hobby} on weekends",
    ],
    "fact": [
        "lives in {city}",
        "住在{city}",
        "works as a {job}",
        "职业是{job}",
        "has a cat named Mochi, lives near {city}",
    ],
    "constraint": ["不吃{food}", "allergic to {food}", "never call before 9am", "不要在周末发{thing}"],
    "goal": ["wants to learn {hobby}", "想在明年去{city}旅行", "plans to move to {city}", "目标是每周{hobby}三次"],
    "event": [
        "went to {city} for a conference",
        "上周在{city}吃了{food}",
        "started {hobby} lessons",
        "和朋友聊了{thing}",
        "had a job interview as a {job}",
    ],
    "summary": [
        "talked about {thing} and {food}",
        "讨论了去{city}的计划",
        "asked for help with {thing}",
        "聊了{hobby}和{food}",
    ],
}
PROFILE_CATEGORIES = ["preference", "fact", "constraint", "goal"]
EPISODE_CATEGORIES = ["event", "summary"]
QUERY_TEMPLATES = [
    "what does the user like to eat? {food}",
    "用户喜欢吃{food}吗？",
    "他住在哪个城市，{city}?",
    "where does the user live now",
    "用户的工作是什么，是 {job} 吗",
    "does she still do {hobby}?",
    "recommend a restaurant in {city} for dinner",
    "帮我安排周末的{hobby}活动",
    "any food allergies, 比如{food}?",
    "what did we talk about last time about {thing}",
    "用户对{thing}有什么偏好",
    "plan a trip to {city} next month",
    "他最近在学{hobby}吗",
    "remind me what the user said about {food}",
    "写一封邮件给 a {job} in {city}",
    "最近一次聊天提到了什么",
    "what are the user's goals this year?",
    "用户有哪些禁忌和 constraints",
]

# Profile values for the write benchmarks (fact_upsert, batch import); two carry personal data to redact.
FACT_VALUES = [
    "不吃辣",
    "prefers short answers",
    "用 PostgreSQL 和 pgvector",
    "dark mode, 深色主题",
    "lives in 杭州",
    "allergic to peanuts",
    "手机 13812345678",
    "email me at someone@example.com",
    "Python 3.11",
    "喜欢喝乌龙茶",
]


def fill(template: str, rng) -> str:
    """The template with one word of each list drawn by `rng`: a random.Random (load) or a numpy
    Generator (recall), each drawing as it always has, so that a seed gives the same texts as before."""
    pick = rng.choice if isinstance(rng, random.Random) else lambda words: words[rng.integers(len(words))]
    return template.format(food=pick(FOODS), city=pick(CITIES), job=pick(JOBS), hobby=pick(HOBBIES), thing=pick(THINGS))
