"""Turning the text after a statement's verb into clean object values.

``extract(tail, many=...)`` cuts the tail at the end of its clause (punctuation, a
conjunction that starts a new clause, a preposition or time phrase that starts an
adjunct), splits lists for many-valued predicates (``Vim, Git and Docker``, ``猫、狗和鸟``),
trims trailing punctuation and filler (``now``, ``these days``, ``了``) and refuses values
that carry nothing (pronouns, punctuation only, runaway captures).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from ingest.distill.sentences import is_cjk


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


MAX_OBJECT_CHARS = 100
MAX_CJK_OBJECT_CHARS = 30
MAX_LIST_ITEM_WORDS = 4
FILLER_WINDOW = 24

# Where a clause ends: hard punctuation (a '.' or ':' only before a space, so Node.js and
# 3.14 survive), brackets and dashes.
_HARD_STOP = re.compile(r"[!?;。！？；…()\[\]（）【】]|[.:](?=\s|$)|\s[-–—]+\s")
# Where an adjunct or a new clause begins (never at the tail's first word).
_CLAUSE_STOP = re.compile(
    r"\s+(?:because|but|since|although|though|while|whereas|which|who|whom|whose|where|"
    r"when|whenever|if|unless|until|so\s+that|so|as|instead\s+of|rather\s+than|than|over|"
    r"for|to|from|with|without|in|on|at|during|after|before|by|via|through|last|this|next|"
    r"every|each|yesterday|today|tonight|tomorrow|recently|lately|ago|nowadays|anymore|"
    r"now|currently|these\s+days|right\s+now|at\s+the\s+moment|more|better|most|best)\b"
    r"|\s+(?:and|or|but|so|then)\s+(?:i|we|you|he|she|they|it|my|our|his|her|their|then|"
    r"also|now|still|that|this|there)\b"
    r"|因为|所以|但是|不过|可是|而且|并且|然后|而不是|胜过|多于|的时候|之后|以后|以前"
    r"|(?<=[^原本后从])来(?=[\u4e00-\u9fff])",
    re.IGNORECASE,
)
_LIST_SPLIT = re.compile(r"\s*[,，、]\s*")
_AND_SPLIT = re.compile(r"\s+(?:and|or|&)\s+|和|及|以及|与|或者?", re.IGNORECASE)
_LEADING_CONJ = re.compile(r"^(?:and|or|&|和|及|以及|与|或者?)\s*", re.IGNORECASE)
_NEW_CLAUSE_WORD = re.compile(
    r"^(?:i|we|you|he|she|they|it|my|our|his|her|their|this|that|there|which|who|but|so|"
    r"then|because|我|你|他|她|它|但|不过|因为|所以|而且)(?:\b|(?<=[\u4e00-\u9fff]))",
    re.IGNORECASE,
)
_TRAILING_FILLER = re.compile(
    r"(?:\s+(?:now|right\s+now|for\s+now|these\s+days|nowadays|currently|at\s+the\s+moment|"
    r"anymore|any\s+more|too|also|as\s+well|a\s+lot|lately|recently|mostly|mainly|daily|"
    r"every\s+day|instead|already|still|though|actually|really|very\s+much|so\s+much|"
    r"much|more|a\s+lot\s+more|the\s+most|most|best|again|full[\s-]time|yet|then|here|"
    r"there|personally|myself|ourselves|lol|haha|lmao|tbh|imo)"
    r"|了|啦|呢|啊|呀|吧|哦|嘛|咯|喔|哈+|的|现在|目前|最近|一下|而已|罢了)$",
    re.IGNORECASE,
)
_EDGE_PUNCT = " \t\"'“”‘’`.,!?;:。，！？；：、…~～()[]{}（）「」『』【】《》<>*_-–—"
_LEADING_ARTICLE = re.compile(r"^(?:a|an)\s+(?=\S)", re.IGNORECASE)
_PRONOUNS = _words(
    "it that this them these those him her you me us one ones something anything everything "
    "nothing stuff things what which so too here there both not no none "
    "它 这 那 这个 那个 这些 那些 他 她 你 他们 她们 什么 东西"
) | {"it all", "all of them"}


_PERSONAL = _words("you y'all you'all him her them us me it myself yourself")


class Extracted(NamedTuple):
    values: list[str]
    consumed: int
    """How many characters of the tail the values came from (for overlap claims)."""


def _cut(tail: str, regex: re.Pattern[str]) -> str:
    match = regex.search(tail, 1)
    return tail[: match.start()] if match else tail


def _latin_head(tail: str) -> str:
    """A Latin name right after a Chinese verb ends where Chinese resumes: 用Python写 -> Python."""
    if not tail or is_cjk(tail[0]):
        return tail
    for k, ch in enumerate(tail):
        if is_cjk(ch) and ch not in "，、":
            return tail[:k]
    return tail


def _drop_filler(value: str) -> str:
    match = _TRAILING_FILLER.search(value, max(0, len(value) - FILLER_WINDOW))
    return value[: match.start()] if match else value


def clean(value: str) -> str | None:
    """Trim punctuation, filler and articles; None when nothing meaningful is left."""
    if len(value) > 2 * MAX_OBJECT_CHARS:
        return None
    previous = None
    while previous != value:
        previous = value
        value = _drop_filler(value.strip().strip(_EDGE_PUNCT))
    value = _LEADING_ARTICLE.sub("", value).strip().strip(_EDGE_PUNCT).strip()
    words = value.lower().split(maxsplit=1)
    if not words or value.lower() in _PRONOUNS or words[0] in _PERSONAL:
        return None
    if len(value) > MAX_OBJECT_CHARS or not any(ch.isalnum() for ch in value):
        return None
    if len(value) > MAX_CJK_OBJECT_CHARS and sum(map(is_cjk, value)) > len(value) // 2:
        return None
    return value


# a Chinese preposition or coverb that a phrase cannot end on: 把主库从, 周末把 (version 30)
_DANGLING_ZH = frozenset("把从被将向往跟与比和给在")


def dangling(value: str) -> bool:
    """Whether a Chinese plan or decision ends on a function word, so it says nothing whole."""
    return value[-1:] in _DANGLING_ZH


def _list_items(clause: str) -> list[str]:
    parts = _LIST_SPLIT.split(clause)
    items = [parts[0]]
    for part in parts[1:]:
        closing = _LEADING_CONJ.match(part) is not None
        part = _LEADING_CONJ.sub("", part)
        if not part or _NEW_CLAUSE_WORD.match(part) or len(part.split()) > MAX_LIST_ITEM_WORDS:
            break
        items.append(part)
        if closing:
            break
    pieces = [p.strip() for p in _AND_SPLIT.split(items[-1])]
    if len(pieces) > 1 and all(pieces):
        items[-1:] = pieces
    return items


def extract(tail: str, *, many: bool, chinese: bool = False) -> Extracted:
    """Object values from the text after a verb; empty when the capture is unusable."""
    if chinese:
        tail = _latin_head(tail).split("，", 1)[0]  # 一共二十个座位 is the next clause (v28)
    clause = _cut(_cut(tail, _HARD_STOP), _CLAUSE_STOP)
    raw = _list_items(clause) if many else [_LIST_SPLIT.split(clause)[0]]
    consumed = len(clause) if many else len(raw[0])
    values: list[str] = []
    for item in raw:
        value = clean(item)
        if value is not None and value not in values:
            values.append(value)
    return Extracted(values, consumed)


TECH_WORDS = _words(
    "react vue angular svelte solid next nuxt remix astro ember backbone jquery django "
    "flask fastapi rails laravel spring express nestjs phoenix gin postgres postgresql "
    "mysql mariadb sqlite mongodb mongo redis neo4j cassandra dynamodb elasticsearch "
    "kafka rabbitmq python java kotlin scala go golang rust ruby php perl swift "
    "typescript javascript c haskell elixir erlang clojure dart flutter kubernetes k8s "
    "docker podman terraform ansible aws gcp azure heroku vercel netlify linux windows "
    "macos ubuntu debian vim neovim emacs vscode intellij pycharm webpack vite babel "
    "tailwind bootstrap graphql grpc jenkins gitlab github git pytorch tensorflow jax "
    "pandas numpy spark hadoop airflow snowflake bigquery supabase firebase electron "
    "tauri unity unreal godot wordpress shopify salesforce sap oracle excel notion slack "
    "jira figma mac iphone android ios"
)
_TECH_CONTEXT = re.compile(
    r"\b(?:projects?|apps?|applications?|codebases?|code|stacks?|tech\s+stack|frameworks?|"
    r"librar(?:y|ies)|libs?|frontends?|front-ends?|backends?|back-ends?|databases?|dbs?|"
    r"languages?|editors?|ides?|tools?|tooling|servers?|repos?|repositor(?:y|ies)|"
    r"services?|apis?|sdks?|platforms?|cloud|infra|infrastructure|deployments?|builds?|"
    r"ci|pipelines?|orms?|runtimes?|microservices?)\b"
    r"|项目|技术栈|框架|前端|后端|数据库|代码|语言|编辑器|工具|服务|平台|系统|仓库|架构",
    re.IGNORECASE,
)
_TECH_SHAPE = re.compile(r"[0-9#+]|\.js\b|(?:js|sql|db|ql)$", re.IGNORECASE)
_CAMEL = re.compile(r"[a-z][A-Z]")


@lru_cache(maxsize=256)
def _tech_context(sentence: str) -> bool:
    return _TECH_CONTEXT.search(sentence) is not None


def technical(value: str, sentence: str) -> bool:
    """Whether a value (or its sentence) is about software rather than places or food."""
    if _tech_context(sentence):
        return True
    words = value.lower().replace("-", " ").split()
    if value.lower() in TECH_WORDS or any(w.strip(".,") in TECH_WORDS for w in words):
        return True
    return bool(_CAMEL.search(value) or _TECH_SHAPE.search(value.split()[0] if words else ""))
