"""English statement patterns, the offline distiller's second reader of English.

The dependency parse (:mod:`ingest.distill.english_extract`) is the first reader; the small
model misreads some short sentences ("I don't like Java": *Java* tagged an adverb; "Our
backend runs on Go": *runs* a noun). These patterns, the ones the distiller had before it
parsed, catch those first-person forms; :mod:`ingest.distill.english_extract` keeps a
pattern's fact only when the parse agrees that its object is a clean phrase of the sentence
(see ``_trusted``), so they cannot bring back the fragments ("likes making it a") they used
to write.
"""

from __future__ import annotations

import re
from dataclasses import replace

from ingest.distill.objects import technical
from ingest.distill.patterns import _TAIL, Rule, resolve_move

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


def _en(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _resolve_instead(match: re.Match[str], sentence: str, value: str) -> tuple[str, float] | None:
    old = match.group("old")
    if technical(value, sentence) or technical(old, sentence):
        return "tech_stack", 0.85
    return None


_MOVE_VERBS = (
    r"switch(?:ed|ing)?|mov(?:ed|ing|e)|migrat(?:ed|ing|e)|chang(?:ed|ing|e)|"
    r"port(?:ed|ing)?|convert(?:ed|ing)?|transition(?:ed|ing)?|relocat(?:ed|ing|e)|went|gone"
)

# a document or thing named by up to four words, none of them a pronoun, an auxiliary, a
# negation or a conjunction ("If the doc is updated to v2" is no update)
_DOC_WORD = (
    r"(?!(?:if|when|whether|unless|once|after|before|not|never|no|was|is|has|have|had|will|"
    r"would|should|could|might|may|i|we|you|it|they)\b)[A-Za-z][\w-]*"
)
_DOC = rf"(?P<thing>{_DOC_WORD}(?:\s+{_DOC_WORD}){{0,3}}?)"
_UPDATED = r"(?:updated|bumped|upgraded)"
_V = r"(?:version\s)?(?P<obj>(?<=version\s)\d+(?:\.\d+)*|v\d+(?:\.\d+)*)\b"

_RULES: tuple[Rule, ...] = (
    Rule(
        "tech_from_to",
        _en(
            rf"\b(?P<verb>{_MOVE_VERBS})\b(?P<mid>(?:\s+[^\s.!?,;]+){{0,4}}?)\s+from\s+"
            rf"(?P<old>{_TAIL}?)\s+(?:over\s+)?(?:to|onto|into)\s+(?P<obj>{_TAIL})"
        ),
        "tech_stack",
        0.9,
        resolve=resolve_move,
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
        resolve=resolve_move,
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
    # version 19: "The design doc was updated to v2", "Design doc updated to v2" (a note's
    # headline), "We bumped the runbook to version 3.1": the small parser reads "doc" or "to
    # version" as verbs; the version is a number, never "updated to the new layout"
    Rule(
        "version_updated_by",
        _en(rf"^(?:I|we)(?:\s+just)?\s+{_UPDATED}\s+(?:the\s+|our\s+)?{_DOC}\s+to\s+{_V}"),
        "current_version",
        0.85,
    ),
    Rule(
        "version_updated",
        _en(
            rf"^(?:the\s+|our\s+)?{_DOC}(?:\s+(?:was|is|has\s+been|got))?\s+{_UPDATED}\s+to\s+{_V}"
        ),
        "current_version",
        0.85,
    ),
    Rule("name", _en(rf"\bmy\s+name(?:\s+is|['’]s)\s+(?P<obj>{_TAIL})"), "name", 0.9),
    Rule("name_called", _en(rf"{_S}{_BE}\s+called\s+(?P<obj>{_TAIL})"), "name", 0.85),
    Rule("name_call_me", _en(rf"^(?:you\s+can\s+)?call\s+me\s+(?P<obj>{_TAIL})"), "name", 0.8),
)

ENGLISH: tuple[Rule, ...] = tuple(replace(rule, chinese=False) for rule in _RULES)

# Values a pattern may capture that are not what its predicate means ("I work at home").
NOT_VALUES: dict[str, frozenset[str]] = {
    "works_at": frozenset({"home", "night", "nights", "weekends", "remote", "remotely"}),
    "lives_in": frozenset({"peace", "fear", "hope", "denial", "harmony", "the moment", "the past"}),
}

_EN_HYPOTHETICAL = _en(
    r"\b(?:if|whether|unless|should|shall|would|could|might|may|maybe|perhaps|do|does|did|"
    r"can|will|when|wish|hope|want|wanted|plan|planning|going|thinking|considering|about|"
    r"ought|need|needs|trying|try|let['’]?s|let\s+us)\b(?:\s+(?:to|of|about|not|we|i|you))*"
    r"\s*(?:['’][a-z]+\s*)?$"
)


def hypothetical(prefix: str) -> bool:
    """Whether the words before a match make it a question, plan or condition, not a fact."""
    return _EN_HYPOTHETICAL.search(prefix) is not None
