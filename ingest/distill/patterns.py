"""Statement patterns of the offline distiller for Chinese (no Chinese parser can be
installed here), mapped onto predicates.

Each :class:`Rule` is a regular expression. Its ``obj`` group starts where the object begins
(the rest of the clause; :func:`ingest.distill.objects.extract` finds where it ends), or the
rule gives a constant ``value`` (``去世`` -> ``deceased true``). Who the fact is about:

* a ``rel`` group: a relative, friend or pet of the speaker (我爸, 我的狗), with an optional
  ``relname`` (我朋友小张);
* a ``thing`` group: a thing a team works on (支付服务, 需求文档);
* a ``subj`` group (我, 我们, 我们团队): the speaker;
* none of them: the last explicit subject earlier in the sentence, else the speaker, with
  ``IMPLIED_PENALTY`` less confidence (住在上海); nobody (no fact) when someone other than
  the speaker (``ZH_OTHERS``: 你, 她, 妹妹) opens the clause or stands before the verb, or an
  assistant's acknowledgement (已记录：) opens the clause before (version 32).

An optional ``neg`` group flips the polarity. A ``resolve`` hook decides between predicates
(``搬到上海`` is where someone lives, ``换成React`` a tech stack). Rules are tried in order; a
later match that overlaps an earlier accepted one is ignored, so the specific forms come
before the general ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

from ingest.distill.identifiers import FRIENDS, PETS, RELATIVES
from ingest.distill.objects import technical

IMPLIED_PENALTY = 0.2
MAX_TAIL_CHARS = 200
_TAIL = rf".{{1,{MAX_TAIL_CHARS}}}"  # the object starts here; objects.extract finds its end

Resolver = Callable[[re.Match[str], str, str], tuple[str, float] | None]
"""(match, sentence, first object value) -> (predicate, confidence), or None to drop."""


@dataclass(frozen=True)
class Rule:
    name: str
    regex: re.Pattern[str]
    predicate: str
    confidence: float
    polarity: bool = True
    many: bool = False
    resolve: Resolver | None = None
    value: str | bool | None = None
    plan: bool = False
    also: tuple[tuple[str, str | bool | None], ...] = ()
    """More facts of the same match: (predicate, value); a None value takes the object."""
    also_groups: tuple[tuple[str, str], ...] = ()
    """More facts of the same match from another of its groups: (predicate, group)."""
    also_retracted: tuple[tuple[str, str], ...] = ()
    """Retractions of the same match from another of its groups (``polarity: false``, dated
    by the sentence's time as the main fact is): (predicate, group)."""
    chinese: bool = True


_ADV_EN = (
    r"(?:\s+(?:now|currently|mostly|mainly|still|also|really|actually|usually|always|just|"
    r"primarily|generally|often|basically|definitely|totally|personally|both|all|only|"
    r"sometimes|even|nowadays|honestly|truly|absolutely|already|much|kind\s+of|sort\s+of|"
    r"happily|mostly|exclusively|recently|finally))*"
)
_FIRST_PERSON_BEFORE = re.compile(
    rf"\b(?:I|we)(?:\s+have|['’]ve|\s+had|['’]d)?{_ADV_EN}\s*$", re.IGNORECASE
)
_FIRST_PERSON = re.compile(r"\b(?:I|we|my|our|us|me)\b|我", re.IGNORECASE)
_ZH_FIRST_BEFORE = re.compile(r"我们?(?:现在|已经|刚|刚刚|终于|去年|今年|上个月|最近)*$")


@lru_cache(maxsize=256)
def _first_person(sentence: str) -> bool:
    return _FIRST_PERSON.search(sentence) is not None


# 从下周开始, 从明天起: "from" a time, not from an old stack
_FROM_A_TIME = re.compile(
    r"^\s*(?:[下上这本明今昨后前]一?(?:个)?(?:周|星期|礼拜|月|年|天)|明天|今天|现在|即日|"
    r"[\d一二三四五六七八九十]+[月日号])"
)


def resolve_move(match: re.Match[str], sentence: str, value: str) -> tuple[str, float] | None:
    """``moved/switched/migrated [from X] to Y``: a tech stack, or (moved) where one lives."""
    verb = match.group("verb").lower()
    old = match.groupdict().get("old") or ""
    if "@" in value or _FROM_A_TIME.match(old):
        return None  # 从下周开始...请把邮箱改成 x@y.cn: a time and an address (version 28)
    first_person = _first_person(sentence)
    if verb[:1] > "\u3000" and not first_person and not verb.startswith("搬"):
        # "通知服务负责人从 Aisha 换成王磊", "billing-worker 从 cron 迁移到 Temporal": what
        # changed is the thing's (its owner, its stack), never the speaker's stack (version
        # 27, a new user's trial wrote the speaker's tech_stack 王磊)
        return None
    if technical(value, sentence) or (old and technical(old, sentence)):
        return "tech_stack", 0.9 if first_person else 0.75
    if verb.startswith(("mov", "relocat", "went", "搬")):
        mid = (match.groupdict().get("mid") or "").strip().lower()
        prefix = sentence[max(0, match.start() - 40) : match.start()]
        subject_first = bool(_FIRST_PERSON_BEFORE.search(prefix) or _ZH_FIRST_BEFORE.search(prefix))
        place = value[:1].isupper() or "\u4e00" <= value[:1] <= "\u9fff"
        if subject_first and mid in ("", "back", "over", "finally", "just") and place:
            return "lives_in", 0.8
        return None
    if verb.startswith("转"):
        return None
    if value[:1].isupper() or verb[:1] > "\u3000":
        return "tech_stack", 0.8 if first_person else 0.7
    return None


def _alternation(words: Iterable[str]) -> str:
    """The Chinese words of ``words`` as a regex alternation, the longest first."""
    chinese = [w for w in words if w and "\u4e00" <= w[0] <= "\u9fff"]
    return "|".join(sorted(chinese, key=len, reverse=True))


# --- building blocks --------------------------------------------------------------------------
_ZREL_WORDS = _alternation([*RELATIVES, *FRIENDS, *PETS])
_ZREL = rf"我(?:们?家的?|的)?(?P<rel>{_ZREL_WORDS})(?P<relname>(?:小|老|阿)[\u4e00-\u9fff])?"
# a relative, friend or pet named without 我 (妹妹, 爸妈, 狗狗), two characters or more: one
# character (妹, 姐, 猫) is too often part of another word (姐妹, 猫咖)
ZH_BARE_RELATIONS = _alternation(
    w for w in (*RELATIVES, *FRIENDS, *PETS) if len(w) > 1 and "\u4e00" <= w[0] <= "\u9fff"
)
# someone other than the speaker: the one spoken to (你, 您), a third person, or a relative
# named bare; never 你好, nor one after a preposition (和妈妈, 带爸妈, 让我, 给她: a companion
# or an object; version 32, a new user's trial)
ZH_OTHERS = (
    rf"(?<![和跟同带陪给为帮与替把让叫我的])(?:你们?(?!好)|您|他们?|她们?|{ZH_BARE_RELATIONS})"
)
# with whom one went: 和爸妈, 跟朋友, 带着孩子 (version 32: 上周末和爸妈去了苏州 wrote nothing)
_ZWITH = (
    rf"(?:和|跟|同|陪|带着?)(?:我的?)?(?:{ZH_BARE_RELATIONS}|{_ZREL_WORDS}|同事|同学|家人|"
    r"孩子们?|大家)(?:一起)?"
)
_ZS = r"(?P<subj>我们(?:团队|公司|项目组?|小组|组|部门|家|这边)?|我)"
# a clause's start; after a space only when no Latin name stands before it: "Tomás
# 下周一开始..." is Tomás's, never the speaker's (version 30)
_ZSTART = r"(?:^|(?<=[，,、；;：:。！？!?])|(?<=\s)(?<![A-Za-z0-9\u00c0-\u024f]\s))"
_ZWHO = rf"(?:{_ZREL}|{_ZS}|{_ZSTART})"
_ZADV = (
    r"(?:现在|目前|一直|平时|平常|主要|也|都|还|最近|通常|经常|已经|开始|常常|就|正|很|非常|"
    r"特别|真的|挺|蛮|超|最|真|其实|基本上|基本|一般|本来|从小|一向|向来|刚|刚刚|终于|"
    r"今天|昨天|前天|上周|上个月|去年|今年|这个周末|上周末|周末|可能|也许|后来|一起)*"
)
_ZNUM = r"[0-9一二两三四五六七八九十]{1,3}"
_ZTIME = (
    rf"(?:[前去今明后]年{_ZNUM}月份?(?:{_ZNUM}[号日])?|[上下这本]个?月{_ZNUM}[号日]|"
    r"[上下这本]个?(?:周|星期|礼拜)[一二三四五六日天末]?|[上下这本]个?月(?:初|底|末|中旬|上旬|下旬)?|"
    r"[前去今明后]年|"
    rf"[大]?[前昨今明后]天|{_ZNUM}(?:个)?(?:天|周|星期|月|年)(?:前|后)|"
    rf"{_ZNUM}[号日])"
)
_ZCLAUSE = r"[^，,。；;！？!?\s]"
_ZPRE = rf"{_ZWHO}(?:{_ZTIME})?{_ZADV}"
_ZPRE_WITH = rf"{_ZPRE}(?:{_ZWITH}{_ZADV})?"
_ZNOT_NEG = rf"(?:(?!没|不|未|别){_ZCLAUSE})"  # 我爸还没退休: no event (version 13)
_ZJOBS = (
    r"老师|医生|护士|工程师|程序员|设计师|经理|律师|会计|厨师|司机|警察|学生|记者|编辑|演员|"
    r"教授|研究员|销售|客服|作家|画家|歌手|主播|老板|店长|运营|分析师|架构师|实习生|公务员|"
    r"军人|农民|工人|店员|服务员|翻译|教练|顾问|研究生|博士|产品"
)
_ZBODY = r"膝盖|小腿|大腿|腿|脚|手指|手腕|手|胳膊|腰|背|脖子|肩膀|脚踝|心脏|眼睛|牙|肌肉|韧带"
_ZINJURY = r"受伤|骨折|扭伤|拉伤|摔伤|扭到"
# how an injury came: 羽毛球打到手腕拉伤了, 打球把手腕扭伤了 (version 32)
_ZCAUSE = rf"(?:{_ZCLAUSE}{{1,6}}?(?:[打练跑踢玩摔弄搞搬跳骑][到得]|把))"
_ZSCHOOLS = r"小学|初中|高中|中学|大学|幼儿园|研究生|大专|技校"
ZH_ACTIVITIES = frozenset(
    [
        "游泳",
        "瑜伽",
        "画画",
        "绘画",
        "跳舞",
        "舞蹈",
        "钢琴",
        "吉他",
        "小提琴",
        "篮球",
        "足球",
        "网球",
        "羽毛球",
        "乒乓球",
        "跑步",
        "滑雪",
        "书法",
        "摄影",
        "唱歌",
        "做饭",
        "烘焙",
        "攀岩",
        "骑车",
        "健身",
        "拳击",
        "围棋",
        "象棋",
        "编织",
        "冥想",
        "太极",
        "太极拳",
    ]
)


# after 打算 / 准备 / 计划 a bare month is the plan's (打算四月去京都; version 13)
_ZPLAN_TIME = rf"(?:{_ZTIME}|{_ZNUM}月份?(?:{_ZNUM}[号日])?)"
# what is planned or decided runs to its clause's end, across Latin words and the spaces
# around them (version 30, a new user's trial: 计划把主库从 PostgreSQL 13 升级到 15 wrote the
# plan 把主库从, cut at the first space); a clause longer than the limit gives no object
_ZPLAN_OBJ = (
    rf"(?P<obj>(?!的){_ZCLAUSE}(?:{_ZCLAUSE}|[ \t\u3000]){{1,48}}"
    r"(?=[ \t\u3000]*(?:$|[，,。；;！？!?])))"
)
_ZMEASURE = r"(?:一家|一个|一所|一间|一座)"  # 在一家游戏公司: no measure in the employer
_ZSURGERY = (
    r"白内障|阑尾|胆囊|胆结石|肾结石|结石|甲状腺|髋关节|膝关节|心脏搭桥|搭桥|肿瘤|近视|"
    r"疝气|扁桃体|腰椎|颈椎|鼻窦|半月板|韧带"
)
_ZILLNESS = (
    r"[\u4e00-\u9fff]{0,4}(?:病|炎|癌|肿瘤)|高血压|高血脂|感冒|流感|新冠|痛风|哮喘|抑郁症|"
    r"焦虑症|失眠症|带状疱疹"
)
_ZEND = r"(?=$|[，,。；;！!…]|了(?:$|[，,。；;！!]))"
_ZPLACE = (
    rf"(?!{_ZNUM}(?:次|趟|天|回|遍|年|个|周))(?![一两几半好很那这哪些个趟次解你我他她它])"
    r"[\u4e00-\u9fff]{2,4}?"
)
# where one goes on an errand, not a trip: 去了医院, 去了公司, 去了朋友家 are no visit
_ZERRAND = (
    rf"(?:[\u4e00-\u9fff]{{0,3}}家|公司|单位|学校|医院|超市|银行|厕所|洗手间|办公室|食堂|"
    rf"商场|药店|菜市场|健身房|图书馆|外地|国外|那里|那边|这里|这边|现场|楼下|附近|对面|"
    rf"上班|上学|工作|买菜|门口|一下|一次){_ZEND}"
)
_ZHABIT = (
    r"每(?:天|日|晚|个?周末|周[一二三四五六日天]?|星期[一二三四五六日天]?|个?月)"
    r"(?:早上|早晨|晚上|下午|中午|上午)?(?:都|也|会|还|坚持|要)*(?:去|来)?"
)
_ZHABIT_WORDS = "|".join(sorted(ZH_ACTIVITIES - {"做饭", "唱歌"}, key=len, reverse=True))
_ZACTS = "|".join(sorted(ZH_ACTIVITIES, key=len, reverse=True))
_ZPLAY = r"打|练|弹|拉|踢|下|做|玩|学|上|去|跳|画|写|唱"
# an activity no longer done: 停了羽毛球, 不再练瑜伽, 不打羽毛球了 (version 32, as "I stopped
# doing yoga" is in English, version 31); 没再打 (not lately) is none
_ZSTOPPED_END = r"(?=了?(?:$|[，,。；;！!…]))"
_ZFROM_NOW = r"(?:以后|从此|再也|就)*"
# a coat or a breed before the animal: 橘猫, 狸花猫, 布偶猫 (version 32: 我领养了一只橘猫 wrote
# no pet); a breed said alone (柴犬, 金毛) is not read
_ZCOAT = r"橘|黑|白|灰|花|三花|狸花|奶|布偶|英短|美短|暹罗|银渐层|金渐层"
# one's own doings, which have no state a team tracks: 搬家搞定了 is no thing's status
_ZDOINGS = r"搬家|装修|面试|考试|体检|看病|请假|报名|出差|旅行|旅游"


def _zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


CHINESE: tuple[Rule, ...] = (
    # --- agent work: things, owners, versions, states -----------------------------------------
    Rule(
        "zh_owner_by",
        _zh(
            rf"^(?P<thing>{_ZCLAUSE}{{2,12}}?)(?:现在|目前|一直)?由(?P<obj>[\u4e00-\u9fff]{{2,4}}?)(?:负责|维护|管理|主导)"
        ),
        "owner",
        0.85,
    ),
    Rule(
        "zh_owner_is",
        _zh(
            rf"^(?P<thing>{_ZCLAUSE}{{2,12}}?)的负责人(?:现在|目前)?是(?P<obj>[\u4e00-\u9fff]{{2,4}})(?![吗呢？?])"
        ),
        "owner",
        0.85,
    ),
    Rule(
        "zh_version_is",
        _zh(
            rf"^(?P<thing>{_ZCLAUSE}{{2,12}}?)的(?:最新|当前|现在的|最新的)版本是(?P<obj>{_ZCLAUSE}{{1,20}})"
        ),
        "current_version",
        0.85,
    ),
    Rule(
        "zh_version_uses",
        _zh(
            rf"^(?P<thing>{_ZCLAUSE}{{2,12}}?)(?:现在|目前)?用的是(?P<obj>第[一二三四五六七八九十\d]+版|v?\d[\w.]*)"
        ),
        "current_version",
        0.85,
    ),
    Rule(
        "zh_version_updated",
        _zh(
            rf"把(?P<thing>{_ZCLAUSE}{{2,12}}?)(?:更新|升级)到了?(?P<obj>第[一二三四五六七八九十\d]+版|v?\d[\w.]*)"
        ),
        "current_version",
        0.85,
    ),
    # --- people: relatives' events, origin, work, school ---------------------------------------
    Rule(
        "zh_deceased",
        _zh(rf"{_ZREL}{_ZCLAUSE}{{0,8}}?(?:去世|过世|离世|病逝|逝世)"),
        "deceased",
        0.9,
        value=True,
    ),
    Rule("zh_retired", _zh(rf"{_ZWHO}{_ZNOT_NEG}{{0,6}}?退休"), "life_event", 0.85, value="退休"),
    Rule(  # "我去年十二月从腾讯离职了" (version 13); the employer left is no longer held, from
        # then (version 26, a new user's trial: it stayed current until the next job's sentence)
        "zh_quit",
        _zh(rf"{_ZPRE}(?:从(?P<employer>{_ZCLAUSE}{{2,12}}?))?(?P<obj>离职|辞职)了"),
        "life_event",
        0.85,
        also_retracted=(("works_at", "employer"),),
    ),
    Rule("zh_married", _zh(rf"{_ZWHO}{_ZNOT_NEG}{{0,6}}?结婚"), "life_event", 0.85, value="结婚"),
    Rule(
        "zh_graduated",
        _zh(rf"{_ZWHO}{_ZCLAUSE}{{0,8}}?从(?P<obj>{_ZCLAUSE}{{2,12}}?)毕业"),
        "life_event",
        0.85,
        value="毕业",
        also=(("studied_at", None),),
    ),
    Rule(
        "zh_school_was",
        _zh(rf"{_ZWHO}(?:{_ZSCHOOLS})?是在(?P<obj>{_ZCLAUSE}{{2,12}}?)(?:读|上)的"),
        "studied_at",
        0.85,
    ),
    Rule(
        "zh_goes_to_school",
        _zh(rf"{_ZWHO}{_ZCLAUSE}{{0,4}}?上(?P<obj>{_ZSCHOOLS})"),
        "studied_at",
        0.8,
    ),
    Rule(
        "zh_from",
        _zh(rf"{_ZS}是(?P<obj>(?!一|个|好|坏)[\u4e00-\u9fff]{{2,4}}?)人(?![们员])"),
        "comes_from",
        0.85,
    ),
    Rule(
        "zh_works_as",
        _zh(
            rf"{_ZWHO}{_ZADV}是(?:一名|一个|一位|名|个|位)?(?P<obj>[\u4e00-\u9fff]{{0,4}}(?:{_ZJOBS}))(?![吗呢])"
        ),
        "works_as",
        0.85,
    ),
    Rule(
        "zh_works_at_named",
        _zh(
            rf"{_ZWHO}{_ZADV}在一家叫(?:做)?(?P<obj>{_ZCLAUSE}{{1,20}}?)的(?:公司|单位|企业|机构)(?:上班|工作|任职|实习)"
        ),
        "works_at",
        0.9,
    ),
    # --- events, places, possessions, health, pets --------------------------------------------
    Rule(
        "zh_pet",
        _zh(
            rf"{_ZWHO}{_ZADV}(?:领养|收养|养)了?(?:一只|一条|两只|只|条)?"
            rf"(?:{_ZNUM}个?(?:月|周|岁)大?的)?(?:{_ZCOAT})?"
            rf"(?P<kind>猫|狗|小猫|小狗|兔子|乌龟|仓鼠|鹦鹉|金鱼)(?:[，,]?(?:叫|名叫|名字叫)"
            r"[“\"「]?(?P<name>[\u4e00-\u9fff]{1,4})[”\"」]?)?"
        ),
        "has_pet",
        0.85,
    ),
    Rule(  # "我每周六都去游泳", "每天晚上练一个小时瑜伽": a habit (version 13)
        "zh_habit",
        _zh(
            rf"{_ZWHO}{_ZADV}{_ZHABIT}(?:练|打|弹|拉|踢|下|做|玩|学|上)?"
            rf"(?:{_ZNUM}个?(?:小时|分钟)的?|半个?小时的?)?(?P<obj>{_ZHABIT_WORDS})"
        ),
        "activity",
        0.8,
    ),
    Rule(  # "我每天早上跑五公里": running (version 13)
        "zh_habit_run",
        _zh(rf"{_ZWHO}{_ZADV}{_ZHABIT}跑(?:步|{_ZNUM}公里|半马|马拉松)"),
        "activity",
        0.8,
        value="跑步",
    ),
    Rule(
        "zh_class",
        _zh(
            rf"{_ZPRE}(?:报了|报名了|参加了)(?:一个|个)?(?P<obj>{_ZCLAUSE}{{1,8}}?(?:班|课|俱乐部|社团|协会))"
        ),
        "activity",
        0.85,
    ),
    Rule(
        "zh_attended",
        _zh(
            rf"{_ZPRE_WITH}去?(?:参加了|听了|观看了|出席了|参加)(?:一场|一个|一次|场|个|次)?(?P<obj>{_ZCLAUSE}{{2,12}})"
        ),
        "attended",
        0.85,
    ),
    Rule(
        "zh_checkup",
        _zh(r"做了(?:一次|个|次)?(?P<obj>体检|检查|核酸|B超|CT)"),
        "attended",
        0.8,
    ),
    Rule(  # "我妈妈上个月做了膝盖手术": surgery is a health condition, as in English (version 11)
        "zh_surgery",
        _zh(rf"{_ZPRE}做了(?:一次|一个|个|次|一场|场)?(?P<obj>(?:{_ZBODY}|{_ZSURGERY})?手术)"),
        "health_condition",
        0.85,
    ),
    Rule(  # "我奶奶去年得了糖尿病": an illness named (version 13)
        "zh_illness",
        _zh(
            rf"{_ZPRE}(?:得了|患了|患上了|查出了?|确诊了?)"
            rf"(?P<obj>(?![一场个点些])(?:{_ZILLNESS})){_ZEND}"
        ),
        "health_condition",
        0.85,
    ),
    Rule(  # "我周末去爬了黄山": the mountain, and climbing as an activity (version 13)
        "zh_climbed",
        _zh(
            rf"{_ZPRE_WITH}(?:去|到)?爬了(?:一趟|趟|一次|次)?"
            rf"(?P<obj>(?![一两几半好很那这座后前小大高荒野些])[\u4e00-\u9fff]{{1,4}}?山){_ZEND}"
        ),
        "visited",
        0.85,
        also=(("activity", "爬山"),),
    ),
    Rule(
        "zh_visited",
        _zh(
            rf"{_ZPRE_WITH}去了?(?P<obj>[\u4e00-\u9fffA-Za-z]{{2,6}}?)(?:玩|旅游|旅行|度假|逛|出差)了"
        ),
        "visited",
        0.85,
    ),
    Rule(  # "我上个月去了成都": a place gone to, not an errand (version 13)
        "zh_went",
        _zh(rf"{_ZPRE_WITH}去了(?:一趟|趟)?(?P<obj>(?!{_ZERRAND}){_ZPLACE}){_ZEND}"),
        "visited",
        0.8,
    ),
    Rule(  # "我去过日本三次", "我还没去过西藏" (version 13)
        "zh_been",
        _zh(
            rf"{_ZPRE_WITH}(?P<neg>从来没有?|从没有?|没有?)?去过(?:{_ZNUM}次|一趟)?(?P<obj>(?!{_ZERRAND}){_ZPLACE})"
            rf"(?:{_ZNUM}次|好几次|很多次|几次){{0,1}}{_ZEND}"
        ),
        "visited",
        0.8,
    ),
    Rule(
        "zh_bought",
        _zh(
            rf"{_ZPRE}买了(?:一辆|一台|一个|一套|一部|一只|一双|一件|一本|辆|台|个|套|部|只|双|件|本)?(?P<obj>{_TAIL})"
        ),
        "owns",
        0.85,
    ),
    Rule(
        "zh_health",
        _zh(
            rf"{_ZPRE}{_ZCAUSE}?(?P<obj>(?:{_ZBODY})?(?:{_ZINJURY})|感冒|发烧|生病|咳嗽|头疼|头痛|失眠|住院)了"
        ),
        "health_condition",
        0.85,
    ),
    # --- plans, decisions, tries ---------------------------------------------------------------
    Rule(
        "zh_plan",
        _zh(
            rf"{_ZWHO}(?:{_ZTIME})?{_ZADV}(?:打算|准备|计划)(?:{_ZPLAN_TIME}(?:之前|以前)?)?{_ZPLAN_OBJ}"
        ),
        "plans",
        0.8,
        plan=True,
    ),
    Rule(
        "zh_will",
        _zh(
            rf"{_ZWHO}{_ZADV}(?P<when>{_ZTIME})[，,]?(?P<subj_after>我们|我)?{_ZADV}(?:要|会|将要|将)?(?:{_ZTIME})?{_ZPLAN_OBJ}"
        ),
        "plans",
        0.75,
        plan=True,
    ),
    Rule(
        "zh_decided",
        _zh(rf"(?:{_ZWHO}|会上|开会){_ZADV}决定{_ZPLAN_OBJ}"),
        "decided",
        0.85,
    ),
    Rule(
        "zh_tried",
        _zh(rf"{_ZPRE}(?:试过|试了试|试了|试用了|试用过|尝试了|尝试过)(?P<obj>{_TAIL})"),
        "tried",
        0.85,
    ),
    Rule(
        "zh_dropped",
        _zh(rf"{_ZPRE}(?:放弃了|弃用了|停用了|砍掉了)(?P<obj>{_TAIL})?"),
        "dropped",
        0.85,
    ),
    Rule(  # "我停了羽毛球", "我不再练瑜伽" (version 32)
        "zh_stopped",
        _zh(
            rf"{_ZPRE}{_ZFROM_NOW}(?:停了|停掉了|不再(?:{_ZPLAY})?)(?P<obj>{_ZACTS})(?:课|班)?"
            rf"{_ZSTOPPED_END}"
        ),
        "activity",
        0.8,
        polarity=False,
    ),
    Rule(  # "不打羽毛球了", "我已经不去游泳了" (version 32): no longer, by its 了
        "zh_no_longer",
        _zh(
            rf"{_ZPRE}{_ZFROM_NOW}不(?:{_ZPLAY})?(?P<obj>{_ZACTS})(?:课|班)?了(?=$|[，,。；;！!…])"
        ),
        "activity",
        0.8,
        polarity=False,
    ),
    # --- tools, stacks, preferences, homes, work (as before issue 16) -------------------------
    Rule(
        "zh_tech_from_to",
        _zh(
            rf"从(?P<old>[^，,。；;！？!?]{{1,{MAX_TAIL_CHARS}}}?)(?P<verb>换成|换到|换为|改成|改为|改用|迁移到|迁移至|迁到|迁至|转到|"
            rf"转成|转向|转为|切换到|切换成|切换为|切到|升级到|搬到|搬去)了?(?P<obj>{_TAIL})"
        ),
        "tech_stack",
        0.9,
        resolve=resolve_move,
    ),
    Rule(
        "zh_tech_to",
        _zh(rf"(?P<verb>换成|换到|改用|迁移到|迁到|切换到|切换成|转用)了?(?P<obj>{_TAIL})"),
        "tech_stack",
        0.8,
        resolve=resolve_move,
    ),
    Rule(
        "zh_uses_not",
        _zh(
            rf"{_ZS}{_ZADV}(?:不再?|没有?再?|没在|早就不|并不)(?:在)?(?:用|使用)(?!户|过|品)(?P<obj>{_TAIL})"
        ),
        "uses",
        0.8,
        polarity=False,
        many=True,
    ),
    Rule(
        "zh_uses",
        _zh(
            rf"{_ZS}{_ZADV}(?:在|正在)?(?:用|使用|采用)(?!户|过|品|处|途|法|于|来)(?:的是)?(?P<obj>{_TAIL})"
        ),
        "uses",
        0.9,
        many=True,
    ),
    Rule(
        "zh_favourite",
        _zh(rf"我最(?:喜欢|爱)的{_ZCLAUSE}{{1,6}}?是(?P<obj>{_TAIL})"),
        "likes",
        0.9,
    ),
    Rule(
        "zh_prefers",
        _zh(
            rf"{_ZWHO}{_ZADV}(?:(?:更|比较|更加)(?:喜欢|爱用|倾向于?|愿意用?)|偏好|偏爱|倾向于|"
            rf"宁愿用?)(?P<obj>{_TAIL})"
        ),
        "prefers",
        0.9,
        many=True,
    ),
    Rule(
        "zh_likes_not",
        _zh(
            rf"{_ZWHO}{_ZADV}(?:(?:不太?|不怎么|不再|并不|一点也不|一点都不)(?:喜欢|喜爱)|讨厌|厌恶)"
            rf"(?P<obj>{_TAIL})"
        ),
        "likes",
        0.8,
        polarity=False,
        many=True,
    ),
    Rule(
        "zh_likes",
        _zh(rf"{_ZWHO}{_ZADV}(?:喜欢|喜爱|热爱|爱上)(?:上了?|了)?(?P<obj>{_TAIL})"),
        "likes",
        0.9,
        many=True,
    ),
    Rule(
        "zh_lives_in",
        _zh(rf"{_ZWHO}{_ZADV}(?:住在|居住在|生活在|定居在|定居于|住)(?P<obj>{_TAIL})"),
        "lives_in",
        0.9,
    ),
    Rule(
        "zh_moved",
        _zh(rf"{_ZWHO}{_ZADV}(?:搬到|搬去|搬家到)了?(?P<obj>{_TAIL})"),
        "lives_in",
        0.8,
    ),
    Rule(
        "zh_works_at",
        _zh(
            rf"{_ZWHO}{_ZADV}在{_ZMEASURE}?(?P<obj>(?!用|家|这|那|哪|读|学|{_ZMEASURE})(?:(?!了|找到|找|得到|换){_ZCLAUSE}){{1,40}}?)(?:工作|上班|任职|就职|实习)"
        ),
        "works_at",
        0.9,
    ),
    Rule(  # "现在在字节跳动做产品经理": at X, as a Y (version 11)
        "zh_works_at_as",
        _zh(
            rf"{_ZWHO}{_ZADV}在{_ZMEASURE}?(?P<obj>(?!用|家|这|那|哪|读|学|{_ZMEASURE}){_ZCLAUSE}{{1,20}}?)(?:做|当)"
            rf"(?P<job>[\u4e00-\u9fff]{{0,4}}(?:{_ZJOBS}))(?![吗呢])"
        ),
        "works_at",
        0.85,
        also_groups=(("works_as", "job"),),
    ),
    Rule(
        "zh_works_for",
        _zh(rf"{_ZWHO}{_ZADV}(?:就职于|任职于|供职于)(?P<obj>{_TAIL})"),
        "works_at",
        0.9,
    ),
    Rule(
        "zh_studies",
        _zh(
            rf"{_ZWHO}{_ZADV}(?:开始)?(?:在学|在学习|学的是|主修|学习|学)(?P<obj>(?!校|生|过|会|到|着){_ZCLAUSE}{{1,12}})"
        ),
        "studies",
        0.85,
    ),
    Rule(
        "zh_allergic",
        _zh(rf"{_ZWHO}{_ZADV}对(?P<obj>{_ZCLAUSE}{{1,40}}?)(?P<neg>不|没有?)?过敏"),
        "allergic_to",
        0.9,
        many=True,
    ),
    Rule(
        "zh_name",
        _zh(
            rf"(?P<subj>我)(?:叫做?(?!了|外卖|车|醒|他|她|你)|的名字(?:叫做?|是)|名字(?:叫做?|是))(?P<obj>{_TAIL})"
        ),
        "name",
        0.9,
    ),
    Rule(
        "zh_rel_name",
        _zh(rf"{_ZREL}(?:叫做?|的名字是|名字叫)(?P<obj>[\u4e00-\u9fffA-Za-z]{{1,6}})"),
        "name",
        0.85,
    ),
    Rule(
        "zh_status",
        _zh(
            rf"(?:^|(?<=[，,；;]))(?P<thing>(?!我|你|他|她|它|这|那|大家|咱|{_ZDOINGS}){_ZCLAUSE}{{0,12}}?)"
            r"(?:现在|目前|已经|还在|还|正在|都|也|昨天|今天|刚刚|刚)*"
            r"(?P<obj>完成|进行中|恢复|上线|延期|暂停|阻塞|挂|卡住|搞定|取消)了?(?=$|[，,。；;！!])"
        ),
        "status",
        0.8,
    ),
)

RULES: tuple[Rule, ...] = CHINESE

# Values a pattern may capture that are not what its predicate means ("在家工作").
NOT_VALUES: dict[str, frozenset[str]] = {
    "works_at": frozenset(
        {"家", "家里", "晚上", "公司", "单位", "这里", "那里", "外地", "原公司", "那家公司"}
    ),
    "studies": frozenset({"大学", "研究生", "高中", "本科", "东西", "习"}),
}

_ZH_HYPOTHETICAL = re.compile(
    r"如果|要是|假如|假设|打算|计划|准备|想|考虑|是否|可能|也许|应该|会不会|能不能|要不要|希望|建议|决定"
)


def hypothetical(prefix: str) -> bool:
    """Whether the words before a match, in its clause, make it a question, plan or condition."""
    clause = re.split(r"[，,；;：:]", prefix)[-1]
    return _ZH_HYPOTHETICAL.search(clause) is not None


def question(sentence: str) -> bool:
    """A sentence asked rather than stated: it ends in ?, ？ or 吗."""
    body = sentence.rstrip(" \t\"'”’)]）」』")
    return body.endswith(("?", "？")) or body.rstrip("。.!！").endswith(("吗", "呢"))
