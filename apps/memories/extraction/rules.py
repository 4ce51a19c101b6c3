"""The default, rule-based extractor: regex tables over one redacted turn, zh + en.

Conservative by design — a wrong memory does more harm than a missing one:
- only FIRST-PERSON statements anchored at the start of a clause are proposed ("我不吃辣",
  "I'm allergic to peanuts"); a few Chinese forms may omit the subject ("不吃辣", "以后报告都用中文");
- questions, hypotheticals/conditionals, what others said, jokes, retractions, small talk and
  instruction-like text (guard.py) are skipped and reported with the reason;
- hedged statements ("I think I prefer", "我好像喜欢") get confidence 0.6 (the pipeline drops them);
  statements about today / now / this time are "transient"; team-level tools ("we use") are scope
  "team" with confidence 0.75;
- events come only from what the ASSISTANT message confirms it has done ("退款已提交", "I've booked").
Relative date words are kept in values and texts: the pipeline resolves them.
"""

from __future__ import annotations

import re

from .base import Extraction, Proposal, Skip, Turn
from .guard import looks_like_injection
from .normalize import canonical_key

I = re.IGNORECASE

# -- clause splitting -------------------------------------------------------------------------
_SENTENCE = re.compile(r"[^。！？；!?;\n]+[。！？；!?;]*")
_EN_PERIOD = re.compile(r"(?<=[\w>)\]\"'])\.\s+(?=\S)")
_NEW_CLAUSE = re.compile(
    r"\s+(?:and|but)\s+(?=(?:I|I'm|I've|my|we|we're|our)\b)|"
    r"[，,]\s*(?=(?:我|你|您|他|她|它|但|不过|而且|另外|还有|也|以后|今后|请|"
    r"(?:and\s+|so\s+)?(?:I\b|I'm|I've|I'd|my\b|we\b|we're|our\b)|you\b|he\b|she\b|they\b|but\b|also\b|please\b|"
    r"from now on))", I)
_IDIOMS = re.compile(r"顺便说一下|顺便说|说实话|说真的|老实说|话说|so to speak", I)
_NO_SPLIT = re.compile(r"如果|要是|假如|假设|万一|只要|除非|的话|说|\bif\b|\bunless\b|\bwhen\b|\bsaid\b|\bsays\b|\btold\b", I)

# -- skip reasons, checked in this order ------------------------------------------------------
_SKIPS: list[tuple[str, re.Pattern]] = [
    ("question", re.compile(
        r"[?？]\s*$|[吗呢嘛]\s*[。！!.~～]*\s*$|^(?:请问|能不能|可不可以|能否|是不是|要不要|有没有|会不会|为什么|怎么|什么|哪)|"
        r"是不是|有没有|对不对|好不好|^(?:is|are|am|do|does|did|can|could|should|would|will|what|how|why|where|when|"
        r"which|who)\b", I)),
    ("hypothetical", re.compile(
        r"如果|要是|假如|假设|万一|会不会|也许|可能|的话|说不定|\bif\b|\bmaybe\b|\bperhaps\b|\bwould\b(?!\s+like)|"
        r"\bcould\b|\bmight\b|\bI wonder\b|\bsuppose\b|\bimagine\b|\bunless\b|不知道|不确定|不清楚|\bnot sure\b|"
        r"\bdon't know\b|\bno idea\b", I)),
    ("quoted", re.compile(
        r"^(?:他|她|它|他们|她们|人家|别人|大家|我(?:老婆|老公|妻子|丈夫|妈妈?|爸爸?|母亲|父亲|女朋友|男朋友|朋友|同事|老板|"
        r"领导|儿子|女儿|孩子|哥哥?|姐姐?|弟弟?|妹妹?|室友|客户))|(?<!小)说(?![明服])|[“”「」『』\"]|"
        r"^(?:he|she|they|his|her|their|my\s+(?:wife|husband|mom|mother|dad|father|friend|boss|colleague|"
        r"partner|girlfriend|boyfriend|son|daughter|kids?|brother|sister|roommate|manager|client)s?)\b|"
        r"\b(?:said|says|told me|according to)\b", I)),
    ("joke", re.compile(r"哈哈|开玩笑|逗你|😂|🤣|\blol\b|\blmao\b|\bjk\b|just kidding|\bkidding\b", I)),
    ("retracted", re.compile(r"(?<![\d点时])以前|曾经|从前|过去常|不再|\bused to\b|\bno longer\b|\bnot anymore\b|"
                             r"\banymore\b|\bformerly\b", I)),
    ("small_talk", re.compile(
        r"^(?:hi|hello|hey|thanks|thank you|thx|ok|okay|sure|great|cool|bye|good (?:morning|night)|你好|您好|谢谢|多谢|"
        r"好的|好|嗯+|哦|收到|明白|再见|拜拜|早上好|晚安)[\s,，.。!！~～]*(?:you|a lot|啊|呀|了|哈)?[\s.。!！~～]*$", I)),
]
_QUESTION, _HYPOTHETICAL, _JOKE = _SKIPS[0][1], _SKIPS[1][1], _SKIPS[3][1]
_HEALTH_WORDS = re.compile(r"过敏|不耐受|糖尿病|怀孕|药|allerg|intoleran|celiac|diabet|pregnan|medicat|insulin", I)

_HEDGE = re.compile(r"好像|似乎|大概|应该是|估计|也许|感觉我|\bI think\b|\bI guess\b|\bprobably\b|\bkind of\b|"
                    r"\bsort of\b|\bI believe\b|\bnot sure\b", I)
_TRANSIENT = re.compile(r"今天|今晚|今早|今天早上|现在|此刻|这次|这回|刚才|刚刚|这会儿|明天|昨天|这两天|这几天|"
                        r"下周|这周|本周|周末|下个月|\bnext (?:week|month)\b|\bthis (?:week|weekend)\b|"
                        r"\btoday\b|\btonight\b|\bright now\b|(?<!from )\bnow\b(?!\s+on)|\bthis time\b|"
                        r"\bat the moment\b|\btomorrow\b|\byesterday\b|\bthis (?:morning|afternoon|evening)\b", I)
_PREFIX = re.compile(r"^(?:(?:其实|另外|而且|还有|对了|顺便说一下|顺便说|补充一下|请记住|记住|记一下|备注|还是|"
                     r"btw|by the way|also|and|but|please|actually|honestly|oh|well|fyi|so|please note|note that|"
                     r"remember(?: that)?|just so you know|I think|I guess|I believe)[\s,，:：、]*)+", I)
_OBJ_STOP = re.compile(r"^(?:this|that|these|those|it|you|your|them|him|her|when|if|how|what|not|more|too|so much)\b|"
                       r"^.{0,2}(?:这|那|你|它|他|她)|^(?:死|太|多少)|什么|哪|多少|方案|选项|^the (?:first|second|third|last|other|former|latter)\b|"
                       r"\boption\b", I)

# -- first-person patterns ----------------------------------------------------------------------
_ZH_I = r"^我(?:本人)?(?:一直|平时|一般|从来|从|基本上?|都|也|还|比较|特别|非常|很|真的|最|完全|绝对|好像|似乎|大概|应该|正在|挺|真|其实)*"
_ZH_IMPLIED = r"^(?:我(?:本人)?)?(?:一直|平时|一般|从来|从|基本上?|都|也|还|完全|绝对)*"
_EN_I = r"^(?:I|I'm|I am|I've|I have)\s+(?:really\s+|also\s+|absolutely\s+|generally\s+|usually\s+|much\s+|" \
        r"strongly\s+|definitely\s+|always\s+|never\s+|actually\s+|mostly\s+|mainly\s+)*"
_LANG = r"(?:中文|英文|英语|汉语|日语|日文|简体中文|繁体中文|Chinese|English|Japanese|Mandarin|Spanish|French|German)"

# (regex, category, key | None (derived from the object), sensitive, scope)
_PATTERNS: list[tuple[re.Pattern, str, str | None, str, str]] = [
    # constraints
    (re.compile(_ZH_IMPLIED + r"(?P<v>对(?P<obj>.+?)过敏.*)"), "constraint", "allergy", "health", "personal"),
    (re.compile(_ZH_I + r"(?P<v>(?P<obj>\S{1,8}?)过敏.*)"), "constraint", "allergy", "health", "personal"),
    (re.compile(r"^I(?:'m| am)\s+(?:very\s+|severely\s+|also\s+|mildly\s+)?(?P<v>allergic to (?P<obj>.+))", I),
     "constraint", "allergy", "health", "personal"),
    (re.compile(r"^I have (?:an? )?(?:severe |mild )?(?P<v>(?P<obj>[\w -]+?) allerg(?:y|ies))", I),
     "constraint", "allergy", "health", "personal"),
    (re.compile(_ZH_IMPLIED + r"(?P<v>(?:吃素|吃全素|是素食(?:主义)?者|不(?:能)?(?:吃|喝|碰)(?P<obj>.+)))"), "constraint", "diet", "",
     "personal"),
    (re.compile(_EN_I + r"(?:a\s+)?(?:strict\s+)?(?P<v>vegetarian|vegan|pescatarian|lactose intolerant|gluten[- ]free|"
                r"halal|kosher)\b", I), "constraint", "diet", "", "personal"),
    (re.compile(_EN_I + r"(?P<v>(?:don't|do not|can't|cannot|never|won't)\s+(?:eat|drink)\s+(?P<obj>.+))", I),
     "constraint", "diet", "", "personal"),
    (re.compile(r"^(?:我的?)?(?P<v>预算(?:是|不超过|不能超过|最多|上限是?|在|只有|控制在)?.*\d.*)"), "constraint", "budget", "", "personal"),
    (re.compile(r"^(?:my\s+)?(?P<v>budget\s+(?:is\s+)?(?:under|below|at most|max(?:imum)?|up to|of|is|around)\b.*)", I),
     "constraint", "budget", "", "personal"),
    (re.compile(r"^(?:我)?(?P<v>.{0,12}(?:以前|之前|前|以后|之后|后)(?:不要?|别|不想)(?:安排)?(?:开会|会议|约会议).*)"),
     "constraint", "meeting_hours", "", "personal"),
    (re.compile(r"^(?:I\s+(?:don't|do not)\s+(?:take|do|want)\s+|please\s+)?(?P<v>(?:no|any|don't schedule|never schedule)?\s*"
                r"meetings?\s+(?:before|after)\s+.+)", I), "constraint", "meeting_hours", "", "personal"),
    # standing instructions about answers
    (re.compile(r"^(?:请)?(?:以后|今后|之后|往后|从现在起|从今以后)(?!再|有)(?:请)?(?P<v>.*(?:都|一律|全部|总是|尽量|用|回答|回复).+)"), "preference", None, "",
     "personal"),
    (re.compile(r"^(?:please\s+)?(?:from now on|going forward|in (?:the )?future)\s*,?\s*(?:please\s+)?(?P<v>.+)", I),
     "preference", None, "", "personal"),
    (re.compile(r"^(?:please\s+)?(?P<v>always\s+(?:answer|reply|respond|write|use|keep|give|format|explain).+)", I),
     "preference", None, "", "personal"),
    # emotions and states (state words are transient by nature, see _INHERENTLY_TRANSIENT)
    (re.compile(_ZH_I + r"(?:有点|有些|好|太|挺)?(?P<v>焦虑|抑郁|难过|不开心|烦躁|崩溃|累|困|饿|忙)"), "fact", "emotional_state",
     "", "personal"),
    (re.compile(r"^I(?:'m| am)\s+(?:so\s+|very\s+|really\s+|a bit\s+|kind of\s+|quite\s+)?(?P<v>tired|sleepy|hungry|busy|"
                r"exhausted|stressed|anxious|depressed|sad|lonely|burned out)\b", I), "fact", "emotional_state", "", "personal"),
    (re.compile(r"^I have (?P<v>depression|anxiety|diabetes|asthma|ADHD|high blood pressure|hypertension|"
                r"celiac disease|epilepsy|cancer)\b", I), "fact", "health_condition", "", "personal"),
    (re.compile(_ZH_I + r"(?:有|患有|得了)(?P<v>\S*(?:病|症|炎|癌|糖尿病|高血压|哮喘))"), "fact", "health_condition", "",
     "personal"),
    (re.compile(r"^(?:I(?:'m| am)\s+(?P<v>pregnant)|我(?P<v2>怀孕了))", I), "fact", "health_condition", "health", "personal"),
    (re.compile(r"^I(?:\s+\w+)?\s+take\s+(?P<v>insulin|antidepressants|\w+ medication|medication\b.*)", I), "fact",
     "medication", "health", "personal"),
    (re.compile(_ZH_I + r"(?:在|每天|长期)(?:吃|服用)(?P<v>\S*药\S*)"), "fact", "medication", "health", "personal"),
    # finance, religion, politics, sexuality
    (re.compile(r"^(?:我的?)?(?P<v>(?:月薪|年薪|工资|收入)(?:是|有|大概)?.*\d.*)"), "fact", "income", "finance", "personal"),
    (re.compile(r"^(?:my\s+)?(?P<v>(?:salary|income)\s+is\s+.+)|^I (?P<v2>make|earn)\s+.+\s+a\s+(?:year|month)", I), "fact",
     "income", "finance", "personal"),
    (re.compile(_ZH_I + r"(?P<v>欠了?.*(?:钱|债|贷款|万).*)|^I\s+have\s+(?P<v2>.+\s+(?:in\s+)?debt)", I), "fact", "debt",
     "finance", "personal"),
    (re.compile(_ZH_I + r"(?P<v>信(?:佛|教|基督|天主|伊斯兰)\S*|是(?:佛教徒|基督徒|穆斯林|天主教徒))|"
                r"^I(?:'m| am)\s+(?:a\s+)?(?P<v2>Christian|Muslim|Buddhist|Jewish|Hindu|Catholic|atheist)\b", I), "fact",
     "religion", "religion", "personal"),
    (re.compile(_ZH_I + r"(?P<v>是(?:共产)?党员)|^I(?:'m| am)\s+(?:a\s+)?(?P<v2>Democrat|Republican|liberal|conservative|"
                r"socialist|libertarian)\b", I), "fact", "politics", "politics", "personal"),
    (re.compile(_ZH_I + r"(?P<v>是(?:同性恋|双性恋|异性恋|gay))|^I(?:'m| am)\s+(?P<v2>gay|lesbian|bisexual|queer|asexual|"
                r"straight)\b", I), "fact", "sexuality", "sexuality", "personal"),
    # goals
    (re.compile(_ZH_I + r"(?P<v>(?:想学|想学习|在学(?![校生])|正在学习?|学习(?![了过到])|打算|计划|准备学|想成为|的目标是|目标是)(?P<obj>.+))"), "goal", None, "",
     "personal"),
    (re.compile(r"^I(?:'m| am)?\s+(?:really\s+|also\s+)?(?P<v>(?:want to (?:learn|become|get better at|improve|switch to)|"
                r"plan to|planning to|intend to|trying to|learning|hope to)\s+(?P<obj>.+))", I), "goal", None, "", "personal"),
    (re.compile(r"^(?P<v>my goal is (?:to\s+)?(?P<obj>.+))", I), "goal", None, "", "personal"),
    # preferences ("我最喜欢的编程语言是 Rust": key from the words)
    (re.compile(_ZH_I + r"(?:喜欢|爱)的(?P<k>.{1,8}?)是(?P<v>.+)"), "preference", "", "", "personal"),
    (re.compile(r"^my (?:favorite|favourite) (?P<k>[\w ]{1,24}?) is (?P<v>.+)", I), "preference", "", "", "personal"),
    (re.compile(_ZH_I + r"(?P<v>(?:不太|不怎么|没那么|不)?(?:更喜欢|喜欢|爱|偏好|习惯|讨厌|受不了|反感)(?P<obj>.+))"),
     "preference", None, "", "personal"),
    (re.compile(_EN_I + r"(?P<v>(?:like|love|prefer|enjoy|hate|dislike|don't like|do not like|can't stand|cannot stand)"
                r"\s+(?P<obj>.+))", I), "preference", None, "", "personal"),
    # facts: who, where, tools ("我的主力语言是 Go": only words normalize.py knows as a key)
    (re.compile(r"^我的(?P<fk>[^\s是]{1,8}?)\s*是\s*(?!很|太|挺|有点|非常|真|不|什么)(?P<v>.+)"), "fact", "", "", "personal"),
    (re.compile(_ZH_I + r"(?P<v>叫(?![了过他她你])(?P<obj>.+))"), "fact", "name", "", "personal"),
    (re.compile(r"^my name is (?P<v>.+)", I), "fact", "name", "", "personal"),
    (re.compile(_ZH_I + r"(?:现在)?住在(?P<v>.+)"), "fact", "city", "", "personal"),
    (re.compile(r"^I(?:\s+currently)?\s+live\s+in\s+(?P<v>.+)", I), "fact", "city", "", "personal"),
    (re.compile(_ZH_I + r"(?:在|于)(?P<v>.+?)(?:工作|上班|任职)"), "fact", "employer", "", "personal"),
    (re.compile(r"^I\s+work\s+(?:at|for)\s+(?P<v>.+)", I), "fact", "employer", "", "personal"),
    (re.compile(_ZH_I + r"(?:是|做)(?:一名|一个|一位)?\s*(?P<v>.{0,12}?(?:工程师|程序员|开发|设计师|经理|老师|教师|"
                r"医生|护士|律师|学生|研究生|博士生?|会计|分析师|产品经理|运维|架构师|作家|记者|销售))(?=$|[，,])"), "fact", "job_title", "",
     "personal"),
    (re.compile(r"^I(?:'m| am|\s+work as)\s+(?:a|an)\s+(?P<v>(?:[\w-]+\s+){0,3}(?:engineer|developer|programmer|designer|"
                r"manager|teacher|doctor|nurse|lawyer|student|scientist|analyst|accountant|writer|researcher|consultant|"
                r"architect|founder|product manager|sre|devops))\b", I), "fact", "job_title", "", "personal"),
    (re.compile(r"^(?:我们|咱们)(?:\s*(?:team|团队|公司|组|项目))?(?:的)?\s*(?:现在|主要|一般|都)?(?:用的是|用的|使用|在用|用)(?P<v>.+)|"
                r"^(?:我们|咱们)(?:\s*(?:team|团队|公司|组|项目))?的技术栈(?:是)?(?P<v2>.+)", I), "fact", None, "", "team"),
    (re.compile(r"^(?:we|our team|our company)\s+(?:mainly\s+|mostly\s+|currently\s+)?(?:use|run|are using|are on)\s+"
                r"(?P<v>.+)|^our\s+(?:tech\s+)?stack\s+is\s+(?P<v2>.+)", I), "fact", None, "", "team"),
    (re.compile(_ZH_I + r"(?:主要|一般|平时)?(?:在|一直在)?(?:用|使用)(?!了)(?:的是)?(?P<v>.+)"), "fact", None, "", "personal"),
    (re.compile(_ZH_I + r"(?:老家|家乡)(?:是|在)(?P<v>.+?)的?$|^I(?:'m| am)\s+(?:originally\s+)?from\s+(?P<v2>[A-Z].+)"), "fact",
     "hometown", "", "personal"),
    (re.compile(_ZH_I + r"养了?(?P<v>(?:一|两|三|几)[只条个].+)|^I have (?P<v2>(?:a|an|two|three) (?:dogs?|cats?|parrots?|rabbits?)\b.*)", I),
     "fact", "pet", "", "personal"),
    (re.compile(_EN_I + r"(?:use|code in|write code in|program in)\s+(?P<v>.+)", I), "fact", None, "", "personal"),
]
_INHERENTLY_TRANSIENT = re.compile(r"^(?:累|困|饿|忙|tired|sleepy|hungry|busy|exhausted)$", I)

# Tools by kind: the key of a tool fact (and of a preference about a tool).
_TOOLS = [
    ("database", r"PostgreSQL|Postgres|MySQL|MariaDB|SQLite|MongoDB|Oracle|SQL Server|ClickHouse|TiDB|Redis"),
    ("editor", r"VS ?Code|Vim|Neovim|Emacs|PyCharm|IntelliJ|Cursor|Sublime|WebStorm"),
    ("os", r"macOS|Mac|Linux|Ubuntu|Windows|Debian|Arch|Fedora"),
    ("framework", r"Django|Flask|FastAPI|React|Vue|Angular|Spring(?: Boot)?|Rails|Next\.js|Laravel"),
    ("cloud", r"AWS|GCP|Azure|阿里云|腾讯云|华为云"),
    ("infrastructure", r"Kubernetes|k8s|Docker|Terraform|Ansible"),
    ("programming_language", r"Python|Go|Golang|Rust|Java|TypeScript|JavaScript|C\+\+|Kotlin|Swift|Ruby|PHP|Scala"),
]
_TOOL_RES = [(key, re.compile(rf"(?<![\w.+])(?:{words})(?![\w+])", I)) for key, words in _TOOLS]
_ANSWER = re.compile(r"回答|回复|答复|答案|解释|输出|说明|报告|表格|表情|emojis?|units|单位|answers?|repl(?:y|ies)|responses?|respond|explanations?|"
                     r"reports?|简短|详细|简洁|concise|short|brief|detailed|bullet|markdown|格式|语气|tone", I)
_PRODUCT = re.compile(r"^[A-Z][\w.+-]*(?:\s+[A-Z0-9][\w.+-]*){0,2}$")
_LENGTH = re.compile(r"简短|简洁|详细|啰嗦|长|字以内|\bshort|\bbrief|concise|detailed|long|\bwords\b", I)
_FORMAT = re.compile(r"表格|表情|格式|列表|markdown|bullet|tables?|emojis?|lists?|units|单位", I)
_REPORT = re.compile(r"报告|文档|reports?|docs?\b|documents?", I)
_SPICE = re.compile(r"辣|spicy", I)

# -- entities (user clauses that passed the skips) --------------------------------------------
_ENTITIES = [
    (re.compile(r"(?:订单号|订单编号|单号|order\s*(?:number|no\.?|id)|order)\s*(?:是|为|is|:|：)?\s*#?\s*"
                r"(?P<v>[A-Z]{0,4}-?\d[\w-]{2,})", I), "order_number"),
    (re.compile(r"(?P<v>\b[a-z0-9][a-z0-9-]*(?:\.[a-z0-9-]+)*\.(?:internal|local|lan|corp|intranet))\b", I), "host"),
]
_VERSION = re.compile(r"(?P<prod>[A-Za-z][\w.+-]*)\s*(?:(?:version|版本)\s*(?:是|is|:|：)?\s*v?|v)(?P<ver>\d+(?:\.\d+)+)\b", I)
_NOT_PRODUCT = re.compile(r"^(?:to|is|on|at|the|we|use|using|running|run|version|from|upgrade|upgraded|and|of|in)$", I)

# -- events confirmed by the assistant ----------------------------------------------------------
_EVENT_ZH = re.compile(r"(?:已经?|都已)(?:为您|帮您|给您|替您)?(?:成功)?(?:提交|完成|预约|预订|订好|发送|发出|退款|取消|安排|部署|"
                       r"上线|创建|支付|下单|寄出|修复|办理|开通)|(?:退款|订单|申请|工单)(?:已经?)(?:提交|完成|处理|受理|发出)")
_EVENT_EN = re.compile(r"^(?:done[,.!]?\s*)?(?:I(?:'ve| have)?\s+(?:just\s+|now\s+|successfully\s+)?)?"
                       r"(?P<v>(?:deployed|booked|sent|scheduled|submitted|cancelled|canceled|created|refunded|"
                       r"processed|filed|reserved|ordered|placed|shipped|fixed|merged|released)\b.+)", I)
_EVENT_PASSIVE = re.compile(r"\b(?:has|have) been (?:processed|submitted|shipped|sent|booked|cancell?ed|refunded|"
                            r"deployed|scheduled|completed|issued)\b", I)
_NOT_EVENT = re.compile(r"已记下|已记住|已了解|已收到|已明白|记住了|\bnoted\b|\bgot it\b|将|(?<!开)会(?![议员])|\bwill\b|\bcan\b|\bI'll\b|"
                        r"需要|是否|\bnot\b|\bnothing\b|\byet\b|没有|未", I)


def _clauses(text: str) -> list[str]:
    out = []
    for sentence in _SENTENCE.findall(text or ""):
        for part in _EN_PERIOD.split(sentence):
            pieces, start = [], 0
            for match in _NEW_CLAUSE.finditer(part):
                if not _NO_SPLIT.search(_IDIOMS.sub("", part[start:match.start()])):
                    pieces.append(part[start:match.start()])
                    start = match.end()
            pieces.append(part[start:])
            out.extend(p.strip() for p in pieces if p.strip(" ,，.。"))
    return out


def _skip_reason(clause: str, message_is_joke: bool) -> str:
    if looks_like_injection(clause):
        return "injection"
    clause = _IDIOMS.sub("", clause)
    for reason, regex in _SKIPS:
        if regex.search(clause):
            return reason
    return "joke" if message_is_joke else ""


def _topic(text: str, obj: str, fallback: str) -> str:
    """The key a preference or tool fact is about."""
    tools = {m.group(0).lower(): key for key, regex in _TOOL_RES for m in regex.finditer(text)}
    if len(tools) > 1 and fallback == "tools":
        return "tech_stack"
    if tools:
        return next(iter(tools.values()))
    if _ANSWER.search(text):
        if re.search(_LANG, text, I):
            return "report_language" if _REPORT.search(text) else "reply_language"
        if _LENGTH.search(text):
            return "reply_length"
        return "reply_format" if _FORMAT.search(text) else "answer_style"
    if _SPICE.search(text):
        return "spice"
    words = re.sub(r"[^\w\s\u4e00-\u9fff]", " ", obj).split()
    return f"{fallback} {' '.join(words[:3])[:24]}".strip()


def _clean(value: str) -> str:
    return re.split(r"，|,\s", value)[0].strip(" ,，.。!！;；:：~～")


class RuleExtractor:
    name = "rules"
    version = "1"

    def extract(self, turn: Turn) -> Extraction:
        proposals: list[Proposal] = []
        skipped: list[Skip] = []
        message_is_joke = bool(_JOKE.search(turn.user_message or ""))
        for clause in _clauses(turn.user_message):
            reason = _skip_reason(clause, message_is_joke)
            if reason:
                skipped.append(Skip(text=clause, reason=reason))
                continue
            proposals.extend(self._profile(clause))
        for clause in _clauses(turn.assistant_message):
            if event := self._event(clause):
                proposals.append(event)
        return Extraction(proposals=proposals, skipped=skipped)

    def _profile(self, clause: str) -> list[Proposal]:
        body = _PREFIX.sub("", clause).strip(" .。!！~～")
        found: list[Proposal] = []
        for regex, category, key, sensitive, scope in _PATTERNS:
            match = regex.search(body)
            if not match:
                continue
            groups = match.groupdict()
            key = f"favorite {groups['k']}" if groups.get("k") else key
            if groups.get("fk"):
                key = canonical_key(groups["fk"])
                if key == groups["fk"].lower().replace(" ", "_") or key in ("budget", "income", "debt"):
                    continue  # not a known kind of fact (or one with its own rule)
            value = _clean(next((groups[g] for g in ("v", "v2") if groups.get(g)), "") or "")
            obj = _clean(groups.get("obj") or value)
            if not value or _OBJ_STOP.search(obj):
                break
            if category == "goal":
                key = "goal " + " ".join(re.sub(r"[^\w\s]", " ", obj).split()[:3])[:24]
            elif key is None:
                key = _topic(value, obj, "preference" if category == "preference" else "tools")
                if category == "fact" and re.search(r"技术栈|\bstack\b", body, I):
                    key = "tech_stack"
                if re.match(r"[A-Za-z]", value):  # "Vim 写代码" → "Vim"
                    value = re.split(r"\s*(?=[\u4e00-\u9fff])", value)[0]
                if key.startswith("tools"):  # unknown tool: only a product-like name ("Jira", "GitLab CI")
                    if not _PRODUCT.match(value):
                        break
                    key = f"tool {value}"
            transient = bool(_TRANSIENT.search(_clean(body)) or _INHERENTLY_TRANSIENT.match(value))
            if key == "emotional_state" and not sensitive:
                sensitive = "" if _INHERENTLY_TRANSIENT.match(value) else "emotion"
            if key == "health_condition" and not sensitive:
                sensitive = "emotion" if re.search(r"抑郁|焦虑|depression|anxiety", value, I) else "health"
            if not sensitive and _HEALTH_WORDS.search(value):  # "lactose intolerant"
                sensitive = "health"
            confidence = 0.75 if scope == "team" else 0.9
            if _HEDGE.search(clause):
                confidence = 0.6
            importance = {"constraint": 0.9, "goal": 0.7, "preference": 0.6}.get(category, 0.5)
            found.append(Proposal(
                kind="profile", category=category, key=canonical_key(key), value=value, confidence=confidence,
                importance=importance, stability="transient" if transient else "stable", sensitive=sensitive,
                scope=scope, evidence=clause,
            ))
            break
        found.extend(self._entities(clause))
        return found

    def _entities(self, clause: str) -> list[Proposal]:
        team = bool(re.match(r"(?:我们|咱们|we\b|we're|our\b)", clause, I))
        found = [(key, m.group("v")) for regex, key in _ENTITIES for m in regex.finditer(clause)]
        found += [(f"{m.group('prod')} version", f"{m.group('prod')} {m.group('ver')}") for m in _VERSION.finditer(clause)
                  if not _NOT_PRODUCT.match(m.group("prod"))]
        return [Proposal(kind="profile", category="fact", key=canonical_key(key), value=value,
                         confidence=0.75 if team else 0.85, importance=0.5, scope="team" if team else "personal",
                         evidence=clause) for key, value in found]

    def _event(self, clause: str) -> Proposal | None:
        if looks_like_injection(clause) or _QUESTION.search(clause) or _HYPOTHETICAL.search(clause):
            return None
        body = _clean(re.sub(r"^(?:好的|好|是的|已完成|done|ok|okay|sure|yes|great)[,，!！.。\s]*(?=\S)", "", clause, flags=I))
        if _EVENT_ZH.search(body) and not _NOT_EVENT.search(body):
            text = re.sub(r"(?:为您|帮您|给您|替您|您的|您)", "", body)
        elif (match := _EVENT_EN.search(body)) and not _NOT_EVENT.search(body):
            text = re.sub(r"\byour\b", "the user's", match.group("v"), flags=I)
            text = text[0].upper() + text[1:]
        elif _EVENT_PASSIVE.search(body) and not _NOT_EVENT.search(body):
            text = re.sub(r"\byour\b", "the user's", body, flags=I)
        else:
            return None
        return Proposal(kind="episode", category="event", text=_clean(text), confidence=0.85, importance=0.5,
                        evidence=clause)
