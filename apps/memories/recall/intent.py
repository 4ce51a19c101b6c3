"""Cheap reads of a query's intent, in Chinese and English."""

import re

# Whole turns that need no memory: greetings, thanks, acknowledgements, goodbyes.
_SMALL_TALK = re.compile(
    r"^\s*(?:"
    r"h(?:i|ello|ey)(?: there)?|good (?:morning|afternoon|evening|night)|thanks?(?: you)?(?: so much| a lot)?|thx|ty|"
    r"ok(?:ay)?|k|cool|great|nice|got it|sure|yes|no|yep|nope|bye|goodbye|see you|cheers|lol|"
    r"你好|您好|嗨|哈喽|早上好|晚上好|晚安|谢谢(?:你|您)?|多谢|感谢|好的?|嗯+|哦+|行|可以|没问题|收到|再见|拜拜|哈哈+"
    r")(?:\s*[,，]?\s*(?:(?:thanks?|谢谢|bot|assistant|助手)))?[\s!！.。~～?？]*$",
    re.IGNORECASE,
)
_RECENT = re.compile(
    r"last time|previous(?:ly)?|recent(?:ly)?|latest|yesterday|earlier|before|last (?:week|month|session|conversation)|"
    r"上次|上一次|之前|最近|刚才|昨天|前几天|上周|上个月|上回",
    re.IGNORECASE,
)


def needs_no_memory(query: str) -> bool:
    return bool(_SMALL_TALK.match(query))


def asks_about_recent(query: str) -> bool:
    return bool(_RECENT.search(query))


# Questions about the person's needs, by topic: asking for a recommendation, a plan, a booking, a
# purchase... The patterns read the request, not the answer ("what did I eat" is not a need).
_ASKS = (
    r"recommend|suggest|ideas?\b|advice|should i|what (?:to|can i|shall i)|help me|can you|could you|please|"
    r"plan|book|order|arrange|schedule|find me|pick|choose|"
    r"推荐|建议|帮我|给我|安排|计划|规划|预订|预定|订|点个|点份|选|挑|该|应该|好呢|好？|好\?|什么好|怎么办|有什么|吃什么|喝什么|买什么|去哪|哪家"
)
NEED_TOPICS = {
    "food": r"dinner|lunch|breakfast|brunch|meal|food|eat|restaurant|cook|recipe|snack|dish|takeout|take-away|delivery|"
    r"drink|coffee|bar\b|晚饭|晚餐|午饭|午餐|早饭|早餐|夜宵|饭|菜|吃|喝|餐厅|饭店|馆子|外卖|做饭|食谱|菜谱|零食|饮料|咖啡",
    "schedule": r"schedule|meeting|call\b|appointment|calendar|slot|when (?:can|should)|time for|"
    r"安排.*(?:会|时间)|会议|开会|约|日程|时间|几点|档期",
    "travel": r"trip|travel|flight|hotel|vacation|holiday|itinerary|visit|tour|"
    r"旅行|旅游|出行|行程|机票|航班|酒店|度假|出差",
    "shopping": r"buy|purchase|gift|present|shop|phone|laptop|买|购|礼物|手机|电脑|送什么",
    "health": r"workout|exercise|gym|run\b|training|diet plan|medicine|doctor|健身|锻炼|运动|跑步|减肥|看病|医生|药",
}
_ASKS_RE = re.compile(_ASKS, re.IGNORECASE)
_TOPIC_RES = {topic: re.compile(pattern, re.IGNORECASE) for topic, pattern in NEED_TOPICS.items()}
# What a remembered constraint or fact is about, when its words say so (an embedding decides otherwise).
CONCERNS = {
    "food": r"allerg|peanut|nut\b|shellfish|seafood|gluten|lactose|dairy|vegan|vegetarian|halal|kosher|meat|pork|beef|"
    r"spicy|sugar|diet|food|eat|过敏|花生|坚果|海鲜|虾|麸质|乳糖|牛奶|素|清真|肉|辣|糖|忌口|饮食|吃|喝酒|酒",
    "schedule": r"meeting|morning|evening|weekend|before \d|after \d|\d ?(?:am|pm)|busy|available|calendar|"
    r"会议|开会|上午|下午|晚上|周末|点前|点后|有空|没空|日程",
    "travel": r"fly|flight|seat|hotel|travel|trip|visa|passport|motion sick|aisle|window seat|"
    r"飞|航班|座位|酒店|出行|签证|晕车|晕机",
    "shopping": r"budget|price|spend|brand|afford|预算|价格|花费|品牌|便宜|贵",
    "health": r"injur|knee|back pain|asthma|pregnan|condition|medic|doctor|受伤|膝盖|腰|哮喘|怀孕|病|药",
}
_CONCERN_RES = {topic: re.compile(pattern, re.IGNORECASE) for topic, pattern in CONCERNS.items()}
# Embedded to place a constraint whose words match no pattern above; "style" keeps reply-format
# constraints ("no emoji") from being forced into the nearest real topic.
TOPIC_DESCRIPTIONS = {
    "food": "food, meals, restaurants, diet and allergies 饮食 吃饭 餐厅 忌口 过敏",
    "schedule": "schedule, meetings, times and availability 日程 会议 时间 有空",
    "travel": "travel, trips, flights and hotels 旅行 出行 航班 酒店",
    "shopping": "shopping, purchases, budget and brands 购物 买东西 预算 品牌",
    "health": "health, exercise, injuries and medical conditions 健康 运动 受伤 疾病",
    "style": "how to reply: language, tone, format and length 回复的语言 语气 格式 长度",
}


def need_topics(query: str) -> set[str]:
    """The topics of a request about the person's needs ({"food"} for 晚饭推荐点什么); empty for
    anything else (a question about the past, small talk)."""
    if needs_no_memory(query) or asks_about_recent(query) or not _ASKS_RE.search(query):
        return set()
    return {topic for topic, pattern in _TOPIC_RES.items() if pattern.search(query)}


def concerns(text: str) -> set[str]:
    """Topics a memory's own words name (a peanut allergy: {"food"})."""
    return {topic for topic, pattern in _CONCERN_RES.items() if pattern.search(text)}


# Questions about the person, by the profile keys that answer them.
SELF_QUESTIONS = (
    (
        r"where do i live|where i live|my (?:home|address|city)|which city (?:do|am) i|"
        r"我住(?:在)?哪|我家在哪|我的(?:地址|住址|城市)|我在哪个城市",
        ("city", "home_city", "address", "home", "location", "residence", "hometown", "城市", "住址", "地址"),
    ),
    (
        r"what(?:'s| is) my (?:job|work|occupation|profession)|what do i do for (?:a living|work)|where do i work|"
        r"我(?:是)?做什么(?:工作)?的|我的(?:工作|职业)|我在哪(?:里)?(?:上班|工作)",
        (
            "job",
            "occupation",
            "profession",
            "role",
            "title",
            "job_title",
            "employer",
            "company",
            "work",
            "职业",
            "工作",
        ),
    ),
    (r"what(?:'s| is) my name|who am i|我叫什么|我的名字", ("name", "preferred_name", "nickname", "名字", "称呼")),
    (
        r"how old am i|my (?:age|birthday)|我(?:今年)?(?:几岁|多大)|我的(?:年龄|生日)",
        ("age", "birthday", "birth_date", "年龄", "生日"),
    ),
)
_SELF_RES = [(re.compile(pattern, re.IGNORECASE), keys) for pattern, keys in SELF_QUESTIONS]


def profile_keys_asked(query: str) -> set[str]:
    """Profile keys that answer a question about the person ({"city", ...} for 我住在哪里)."""
    return {key for pattern, keys in _SELF_RES if pattern.search(query) for key in keys}
