"""Stable identifiers for what facts are about: the speaker, the people and pets the speaker
names by a possessive, and things.

* The speaker is the observation's ``speaker``, exactly (``user:alice``, ``Alex``).
* A relative, friend or pet reached by a possessive ("my dad", 我妈妈, "our dog") is
  ``<speaker>/<role>``: the role in English, whatever the language of the text, so that "my
  dad" and 我爸 are the same person. A role one person can hold only once at a time
  (father, mother, husband, wife, partner, spouse) and a group (parents, children, friends)
  never take a name; any other role takes the name when the text gives one:
  ``user:alice/sister:Anna``, ``user:alice/dog:Max``. Plural roles stay plural
  (``user:alice/turtles``), so "my turtles" is not one of them.
* A thing (a service, a document, a migration) is its noun phrase as written, without a
  leading article, demonstrative or possessive: ``billing service``, ``API spec``, 需求文档.

Issue 17 builds Entity nodes on these; identifiers never change once written, and two
spellings of one person are joined by explicit alias assertions there, never here.
"""

from __future__ import annotations

from typing import Final

# English and Chinese words for a role -> the role in identifiers
RELATIVES: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("dad", "daddy", "papa", "pa", "pops", "father", "爸", "爸爸", "父亲", "老爸"), "father"
    ),
    **dict.fromkeys(
        ("mom", "mum", "mommy", "mummy", "mama", "mother", "妈", "妈妈", "母亲", "老妈"), "mother"
    ),
    **dict.fromkeys(("parents", "folks", "父母", "爸妈"), "parents"),
    **dict.fromkeys(("husband", "hubby", "老公", "丈夫", "先生"), "husband"),
    **dict.fromkeys(("wife", "missus", "老婆", "妻子", "太太", "爱人"), "wife"),
    **dict.fromkeys(
        (
            "partner",
            "boyfriend",
            "girlfriend",
            "fiance",
            "fiancé",
            "fiancee",
            "fiancée",
            "男朋友",
            "女朋友",
            "对象",
            "未婚夫",
            "未婚妻",
        ),
        "partner",
    ),
    "spouse": "spouse",
    **dict.fromkeys(("son", "儿子"), "son"),
    **dict.fromkeys(("daughter", "女儿"), "daughter"),
    **dict.fromkeys(("kid", "child", "baby", "孩子", "宝宝"), "child"),
    **dict.fromkeys(("kids", "children", "babies"), "children"),
    **dict.fromkeys(("brother", "bro", "哥哥", "弟弟", "哥", "弟"), "brother"),
    "brothers": "brothers",
    **dict.fromkeys(("sister", "sis", "姐姐", "妹妹", "姐", "妹"), "sister"),
    "sisters": "sisters",
    "siblings": "siblings",
    **dict.fromkeys(
        ("grandpa", "granddad", "grandad", "grandfather", "gramps", "爷爷", "外公", "姥爷"),
        "grandfather",
    ),
    **dict.fromkeys(
        ("grandma", "granny", "nana", "grandmother", "奶奶", "外婆", "姥姥"), "grandmother"
    ),
    **dict.fromkeys(("grandparents",), "grandparents"),
    **dict.fromkeys(("grandson", "孙子", "外孙"), "grandson"),
    **dict.fromkeys(("granddaughter", "孙女", "外孙女"), "granddaughter"),
    **dict.fromkeys(("grandkids", "grandchildren"), "grandchildren"),
    **dict.fromkeys(("uncle", "叔叔", "舅舅", "伯伯"), "uncle"),
    **dict.fromkeys(("aunt", "auntie", "阿姨", "姑姑", "姨妈", "舅妈"), "aunt"),
    **dict.fromkeys(
        ("cousin", "表哥", "表姐", "表弟", "表妹", "堂哥", "堂姐", "堂弟", "堂妹"), "cousin"
    ),
    "cousins": "cousins",
    "nephew": "nephew",
    "niece": "niece",
    **dict.fromkeys(("stepdad", "stepfather"), "stepfather"),
    **dict.fromkeys(("stepmom", "stepmum", "stepmother"), "stepmother"),
    "in-laws": "in-laws",
}
FRIENDS: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("friend", "buddy", "pal", "bestie", "朋友", "好朋友", "闺蜜", "哥们"), "friend"
    ),
    **dict.fromkeys(("friends", "buddies", "pals"), "friends"),
}
PETS: Final[dict[str, str]] = {
    **dict.fromkeys(("dog", "puppy", "pup", "doggo", "狗", "小狗", "狗狗"), "dog"),
    **dict.fromkeys(("dogs", "puppies"), "dogs"),
    **dict.fromkeys(("cat", "kitten", "kitty", "猫", "小猫", "猫咪"), "cat"),
    **dict.fromkeys(("cats", "kittens"), "cats"),
    **dict.fromkeys(("turtle", "tortoise", "乌龟"), "turtle"),
    **dict.fromkeys(("turtles", "tortoises"), "turtles"),
    **dict.fromkeys(("rabbit", "bunny", "兔子"), "rabbit"),
    **dict.fromkeys(("rabbits", "bunnies"), "rabbits"),
    **dict.fromkeys(("hamster", "仓鼠"), "hamster"),
    **dict.fromkeys(("parrot", "鹦鹉"), "parrot"),
    **dict.fromkeys(("bird", "鸟"), "bird"),
    "birds": "birds",
    **dict.fromkeys(("fish", "金鱼"), "fish"),
    "horse": "horse",
    "snake": "snake",
    "lizard": "lizard",
    "guinea pig": "guinea pig",
}
SINGLE: Final[frozenset[str]] = frozenset(
    {"father", "mother", "husband", "wife", "partner", "spouse", "stepfather", "stepmother"}
)


def relation(word: str) -> tuple[str, str] | None:
    """The predicate and role of a relation word: ``("has_relative", "father")`` for "dad",
    ``("has_pet", "dog")`` for "puppy"; None for any other word."""
    key = word.lower()
    for predicate, table in (
        ("has_relative", RELATIVES),
        ("has_friend", FRIENDS),
        ("has_pet", PETS),
    ):
        if key in table:
            return predicate, table[key]
    return None


def named(role: str) -> bool:
    """Whether a role takes the name the text gives (a sister may be one of several)."""
    return role not in SINGLE and not role.endswith("s") and role not in ("fish", "children")


def relative_id(speaker: str, role: str, name: str | None = None) -> str:
    """``<speaker>/<role>`` or ``<speaker>/<role>:<Name>`` (see the module docstring)."""
    if name and named(role):
        return f"{speaker}/{role}:{name.strip()}"
    return f"{speaker}/{role}"
