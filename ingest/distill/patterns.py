"""Statement patterns of the offline distiller, English and Chinese, mapped onto predicates.

Each :class:`Rule` is a regular expression whose ``obj`` group starts where the object
begins (the rest of the sentence; :func:`ingest.distill.objects.extract` finds where it
ends). An optional ``subj`` group marks an explicit first-person subject; a rule matched
without one (Chinese clauses whose subject is implied) loses ``IMPLIED_PENALTY`` confidence.
An optional ``neg`` group flips the polarity. A ``resolve`` hook decides between predicates
(``moved to Berlin`` is where someone lives, ``moved to React`` is a tech stack).

Rules are tried in order; a later match that overlaps an earlier accepted one is ignored,
so the specific forms (``switched from X to Y``, ``更喜欢``) come before the general ones.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

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
    chinese: bool = False
    resolve: Resolver | None = None


# --- English building blocks --------------------------------------------------------------
_S = r"(?P<subj>\b(?:I|we))"
_ADV = (
    r"(?:\s+(?:now|currently|mostly|mainly|still|also|really|actually|usually|always|just|"
    r"primarily|generally|often|basically|definitely|totally|personally|both|all|only|"
    r"sometimes|even|nowadays|honestly|truly|absolutely|already|much|kind\s+of|sort\s+of|"
    r"happily|mostly|exclusively|recently|finally))*"
)
_BE = r"(?:\s+am|\s+are|['’]m|['’]re)"
_HAVE = r"(?:\s+have|['’]ve)"
_NOT_BE = rf"(?:{_BE}\s+(?:not|no\s+longer)|\s+(?:am|are)n['’]t|\s+ain['’]t)"
_NOT_DO = r"(?:\s+(?:do\s+not|don['’]t|no\s+longer|never|(?:have\s+)?stopped|quit))"
_USE = rf"(?:{_ADV}\s+use|{_BE}{_ADV}\s+using|{_HAVE}{_ADV}\s+been{_ADV}\s+using)"
_THING = (
    r"(?:project|app|application|codebase|code|stack|tech\s+stack|frontend|front-end|"
    r"backend|back-end|site|website|service|services|repo|repository|product|api|ui|"
    r"server|database|db|infra|infrastructure|platform|everything)"
)
_FIRST_PERSON_BEFORE = re.compile(rf"\b(?:I|we)(?:{_HAVE}|\s+had|['’]d)?{_ADV}\s*$", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(?:I|we|my|our|us|me)\b|我", re.IGNORECASE)
_ZH_FIRST_BEFORE = re.compile(r"我们?(?:现在|已经|刚|刚刚|终于|去年|今年|上个月|最近)*$")


@lru_cache(maxsize=256)
def _first_person(sentence: str) -> bool:
    return _FIRST_PERSON.search(sentence) is not None


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _resolve_move(match: re.Match[str], sentence: str, value: str) -> tuple[str, float] | None:
    """``moved/switched/migrated [from X] to Y``: a tech stack, or (moved) where one lives."""
    verb = match.group("verb").lower()
    old = match.groupdict().get("old") or ""
    first_person = _first_person(sentence)
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


def _resolve_instead(match: re.Match[str], sentence: str, value: str) -> tuple[str, float] | None:
    old = match.group("old")
    if technical(value, sentence) or technical(old, sentence):
        return "tech_stack", 0.85
    return None


_MOVE_VERBS = (
    r"switch(?:ed|ing)?|mov(?:ed|ing|e)|migrat(?:ed|ing|e)|chang(?:ed|ing|e)|"
    r"port(?:ed|ing)?|convert(?:ed|ing)?|transition(?:ed|ing)?|relocat(?:ed|ing|e)|went|gone"
)

ENGLISH: tuple[Rule, ...] = (
    Rule(
        "tech_from_to",
        _en(
            rf"\b(?P<verb>{_MOVE_VERBS})\b(?P<mid>(?:\s+[^\s.!?,;]+){{0,4}}?)\s+from\s+"
            rf"(?P<old>{_TAIL}?)\s+(?:over\s+)?(?:to|onto|into)\s+(?P<obj>{_TAIL})"
        ),
        "tech_stack",
        0.9,
        resolve=_resolve_move,
    ),
    Rule(
        "tech_to",
        _en(
            r"\b(?P<verb>switched|moved|migrated|ported|converted|transitioned|relocated)\b"
            r"(?P<mid>(?:\s+(?:the|our|my|this|that|all|whole|entire|it|over|back|just|finally|"
            rf"fully|completely))*(?:\s+(?:[\w-]+\s+)?{_THING})?)\s+(?:over\s+)?(?:to|onto|into)"
            rf"\s+(?P<obj>{_TAIL})"
        ),
        "tech_stack",
        0.9,
        resolve=_resolve_move,
    ),
    Rule(
        "tech_instead",
        _en(rf"{_S}{_USE}\s+(?P<obj>.+?)\s+(?:instead\s+of|rather\s+than)\s+(?P<old>.+)"),
        "tech_stack",
        0.85,
        resolve=_resolve_instead,
    ),
    Rule(
        "tech_our_stack",
        _en(
            rf"\b(?:my|our)\s+(?:[\w-]+\s+)?{_THING}\s+(?:now\s+)?(?:uses|is\s+using|"
            rf"is\s+(?:now\s+)?(?:built|written)\s+(?:on|with|in)|runs\s+on|is\s+on)\s+(?P<obj>{_TAIL})"
        ),
        "tech_stack",
        0.85,
    ),
    Rule(
        "uses_not",
        _en(rf"{_S}(?:{_NOT_DO}|{_NOT_BE}){_ADV}\s+(?:use|using)\s+(?P<obj>{_TAIL})"),
        "uses",
        0.8,
        polarity=False,
        many=True,
    ),
    Rule("uses", _en(rf"{_S}{_USE}\s+(?P<obj>{_TAIL})"), "uses", 0.9, many=True),
    Rule("prefers", _en(rf"{_S}{_ADV}\s+prefer\s+(?P<obj>{_TAIL})"), "prefers", 0.9, many=True),
    Rule(
        "prefers_would",
        _en(rf"{_S}(?:['’]d|\s+would){_ADV}\s+prefer\s+(?P<obj>{_TAIL})"),
        "prefers",
        0.8,
        many=True,
    ),
    Rule(
        "likes_not",
        _en(
            rf"{_S}(?:{_NOT_DO}(?:\s+really)?\s+(?:like|love|enjoy)|{_ADV}\s+(?:dislike|hate|"
            rf"detest|can['’]t\s+stand))\s+(?P<obj>{_TAIL})"
        ),
        "likes",
        0.8,
        polarity=False,
        many=True,
    ),
    Rule(
        "likes",
        _en(rf"{_S}{_ADV}\s+(?:like|love|enjoy|adore)\s+(?P<obj>{_TAIL})"),
        "likes",
        0.9,
        many=True,
    ),
    Rule(
        "likes_fan",
        _en(
            rf"{_S}{_BE}{_ADV}\s+(?:an?\s+(?:big\s+|huge\s+)?fan\s+of|into|fond\s+of)\s+(?P<obj>{_TAIL})"
        ),
        "likes",
        0.8,
        many=True,
    ),
    Rule(
        "likes_favourite",
        _en(rf"\bmy\s+fav(?:ou?)?rite\s+(?:[\w-]+\s+){{0,3}}?is\s+(?P<obj>{_TAIL})"),
        "likes",
        0.85,
    ),
    Rule(
        "lives_in",
        _en(
            rf"{_S}(?:{_ADV}\s+live|{_BE}{_ADV}\s+(?:living|based|located)|{_HAVE}{_ADV}\s+"
            rf"(?:lived|been\s+living))\s+in\s+(?P<obj>{_TAIL})"
        ),
        "lives_in",
        0.9,
    ),
    Rule(
        "works_at",
        _en(
            rf"{_S}(?:{_ADV}\s+work|{_BE}{_ADV}\s+working|{_HAVE}{_ADV}\s+(?:worked|been\s+"
            rf"working))\s+(?:at|for)\s+(?P<obj>{_TAIL})"
        ),
        "works_at",
        0.9,
    ),
    Rule(
        "works_role_at",
        _en(
            rf"{_S}{_BE}\s+an?\s+(?:[\w-]+\s+){{0,3}}?(?:engineer|developer|programmer|manager|"
            r"designer|scientist|analyst|consultant|intern|teacher|nurse|doctor|researcher|lead|"
            r"architect|professor|director|ceo|cto|founder|employee|accountant|lawyer)\s+"
            rf"(?:at|for)\s+(?P<obj>{_TAIL})"
        ),
        "works_at",
        0.85,
    ),
    Rule(
        "works_employed",
        _en(rf"{_S}{_BE}{_ADV}\s+employed\s+(?:at|by)\s+(?P<obj>{_TAIL})"),
        "works_at",
        0.85,
    ),
    Rule(
        "allergic_not",
        _en(rf"{_S}{_NOT_BE}\s+allergic\s+to\s+(?P<obj>{_TAIL})"),
        "allergic_to",
        0.85,
        polarity=False,
        many=True,
    ),
    Rule(
        "allergic",
        _en(
            rf"{_S}{_BE}{_ADV}\s+(?:(?:very|severely|mildly|slightly|highly)\s+)?allergic\s+to"
            rf"\s+(?P<obj>{_TAIL})"
        ),
        "allergic_to",
        0.9,
        many=True,
    ),
    Rule(
        "allergy_to",
        _en(
            rf"\b(?:I\s+have|I['’]ve\s+got|my)\s+(?:an?\s+)?allerg(?:y|ies)\s+to\s+(?P<obj>{_TAIL})"
        ),
        "allergic_to",
        0.85,
        many=True,
    ),
    Rule(
        "allergy_of",
        _en(rf"{_S}(?:\s+have|['’]ve\s+got)\s+an?\s+(?P<obj>[\w -]{{1,40}}?)\s+allerg(?:y|ies)\b"),
        "allergic_to",
        0.85,
        many=True,
    ),
    Rule("name", _en(rf"\bmy\s+name(?:\s+is|['’]s)\s+(?P<obj>{_TAIL})"), "name", 0.9),
    Rule("name_called", _en(rf"{_S}{_BE}\s+called\s+(?P<obj>{_TAIL})"), "name", 0.85),
    Rule("name_call_me", _en(rf"^(?:you\s+can\s+)?call\s+me\s+(?P<obj>{_TAIL})"), "name", 0.8),
)

# --- Chinese building blocks --------------------------------------------------------------
_ZS = r"(?P<subj>我们(?:团队|公司|项目组?|小组|组|部门|家|这边)?|我)"
_ZSTART = r"(?:^|(?<=[，,、；;：:\s。！？!?]))"
_ZWHO = rf"(?:{_ZS}|{_ZSTART})"
_ZADV = (
    r"(?:现在|目前|一直|平时|平常|主要|也|都|还|最近|通常|经常|已经|开始|常常|就|正|很|非常|"
    r"特别|真的|挺|蛮|超|最|真|其实|基本上|基本|一般|本来|从小|一向|向来)*"
)
_ZCLAUSE = r"[^，,。；;！？!?\s]"


def _zh(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


CHINESE: tuple[Rule, ...] = (
    Rule(
        "zh_tech_from_to",
        _zh(
            rf"从(?P<old>{_TAIL}?)(?P<verb>换成|换到|换为|改成|改为|改用|迁移到|迁移至|迁到|迁至|转到|"
            rf"转成|转向|转为|切换到|切换成|切换为|切到|升级到|搬到|搬去)了?(?P<obj>{_TAIL})"
        ),
        "tech_stack",
        0.9,
        chinese=True,
        resolve=_resolve_move,
    ),
    Rule(
        "zh_tech_to",
        _zh(rf"(?P<verb>换成|换到|改用|迁移到|迁到|切换到|切换成|转用)了?(?P<obj>{_TAIL})"),
        "tech_stack",
        0.8,
        chinese=True,
        resolve=_resolve_move,
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
        chinese=True,
    ),
    Rule(
        "zh_uses",
        _zh(
            rf"{_ZS}{_ZADV}(?:在|正在)?(?:用|使用|采用)(?!户|过|品|处|途|法|于|来)(?:的是)?(?P<obj>{_TAIL})"
        ),
        "uses",
        0.9,
        many=True,
        chinese=True,
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
        chinese=True,
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
        chinese=True,
    ),
    Rule(
        "zh_likes",
        _zh(rf"{_ZWHO}{_ZADV}(?:喜欢|喜爱|热爱|爱上)(?:上了?|了)?(?P<obj>{_TAIL})"),
        "likes",
        0.9,
        many=True,
        chinese=True,
    ),
    Rule(
        "zh_lives_in",
        _zh(rf"{_ZWHO}{_ZADV}(?:住在|居住在|生活在|定居在|定居于|住)(?P<obj>{_TAIL})"),
        "lives_in",
        0.9,
        chinese=True,
    ),
    Rule(
        "zh_moved",
        _zh(rf"{_ZS}{_ZADV}(?:搬到|搬去|搬家到)了?(?P<obj>{_TAIL})"),
        "lives_in",
        0.8,
        chinese=True,
    ),
    Rule(
        "zh_works_at",
        _zh(
            rf"{_ZWHO}{_ZADV}在(?P<obj>(?!用|家|这|那|哪){_ZCLAUSE}{{1,40}}?)(?:工作|上班|任职|就职|实习)"
        ),
        "works_at",
        0.9,
        chinese=True,
    ),
    Rule(
        "zh_works_for",
        _zh(rf"{_ZWHO}{_ZADV}(?:就职于|任职于|供职于)(?P<obj>{_TAIL})"),
        "works_at",
        0.9,
        chinese=True,
    ),
    Rule(
        "zh_allergic",
        _zh(rf"{_ZWHO}{_ZADV}对(?P<obj>{_ZCLAUSE}{{1,40}}?)(?P<neg>不|没有?)?过敏"),
        "allergic_to",
        0.9,
        many=True,
        chinese=True,
    ),
    Rule(
        "zh_name",
        _zh(
            rf"(?P<subj>我)(?:叫做?(?!了|外卖|车|醒|他|她|你)|的名字(?:叫做?|是)|名字(?:叫做?|是))(?P<obj>{_TAIL})"
        ),
        "name",
        0.9,
        chinese=True,
    ),
)

RULES: tuple[Rule, ...] = ENGLISH + CHINESE

# Values a pattern may capture that are not what its predicate means ("I work at home").
NOT_VALUES: dict[str, frozenset[str]] = {
    "works_at": frozenset(
        {"home", "night", "nights", "weekends", "remote", "remotely", "家", "家里", "晚上"}
    ),
    "lives_in": frozenset({"peace", "fear", "hope", "denial", "harmony", "the moment", "the past"}),
}

_EN_HYPOTHETICAL = _en(
    r"\b(?:if|whether|unless|should|shall|would|could|might|may|maybe|perhaps|do|does|did|"
    r"can|will|when|wish|hope|want|wanted|plan|planning|going|thinking|considering|about|"
    r"ought|need|needs|trying|try|let['’]?s|let\s+us)\b(?:\s+(?:to|of|about|not|we|i|you))*"
    r"\s*(?:['’][a-z]+\s*)?$"
)
_ZH_HYPOTHETICAL = re.compile(
    r"如果|要是|假如|假设|打算|计划|准备|想|考虑|是否|可能|也许|应该|会不会|能不能|要不要|希望|建议"
)


def hypothetical(prefix: str) -> bool:
    """Whether the words before a match make it a question, plan or condition, not a fact."""
    if _EN_HYPOTHETICAL.search(prefix):
        return True
    clause = re.split(r"[，,；;：:]", prefix)[-1]
    return _ZH_HYPOTHETICAL.search(clause) is not None


def question(sentence: str) -> bool:
    """A sentence asked rather than stated: it ends in ?, ？ or 吗."""
    body = sentence.rstrip(" \t\"'”’)]）」』")
    return body.endswith(("?", "？")) or body.rstrip("。.!！").endswith("吗")
