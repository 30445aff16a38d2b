"""The words for roles a person names by a possessive ("my dad", 我妈妈, "our dog") and the
role each stands for in identifiers (``<speaker>/<role>``): the distiller forms identifiers
with them (ingest/distill/identifiers.py) and an entity's kind is read from them
(graph_schema/entities/names.py)."""

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
    **dict.fromkeys(("family", "fam"), "family"),  # "my family": the group, never named
}
FRIENDS: Final[dict[str, str]] = {
    **dict.fromkeys(
        ("friend", "buddy", "pal", "bestie", "朋友", "好朋友", "闺蜜", "哥们"), "friend"
    ),
    **dict.fromkeys(("friends", "buddies", "pals"), "friends"),
}
PETS: Final[dict[str, str]] = {
    **dict.fromkeys(("dog", "puppy", "pup", "doggo", "狗", "小狗", "狗狗"), "dog"),
    # a breed names the animal ("a beagle named Pico" is a dog); words with no other sense
    **dict.fromkeys(
        (
            "beagle",
            "poodle",
            "labrador",
            "retriever",
            "terrier",
            "bulldog",
            "corgi",
            "dachshund",
            "chihuahua",
            "spaniel",
            "collie",
            "rottweiler",
            "dalmatian",
            "greyhound",
            "schnauzer",
            "pitbull",
            "pug",
        ),
        "dog",
    ),
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
    {
        "father",
        "mother",
        "husband",
        "wife",
        "partner",
        "spouse",
        "stepfather",
        "stepmother",
        "family",
    }
)
