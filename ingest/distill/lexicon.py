"""Word lists of the English extractor: which nouns name an event, a place, an activity, an
occupation, a possession, a health condition or a state, and which words carry no content.

They decide *which predicate* a parsed clause maps to ("went to a concert" is `attended`,
"went to the beach" is `visited`); the parse decides *what* the object is. Lists err on the
short side: a noun missing here costs a fact (recall), a wrong noun would write a wrong one.
"""

from __future__ import annotations

from typing import Final


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


def _names(text: str) -> frozenset[str]:
    """Names of one or more words, separated by commas, in lower case."""
    return frozenset(name.strip().lower() for name in text.split(","))


EVENTS: Final = _words(
    "conference concert race marathon festival party parade workshop seminar webinar class "
    "lesson meeting meetup show convention fair exhibition expo wedding funeral ceremony "
    "contest competition tournament audition exam test interview event rally march protest "
    "retreat gala fundraiser lecture talk play musical opera recital reunion summit hackathon "
    "premiere screening tour game match trivia camp session gig celebration ball fest run "
    "5k 10k triathlon drive walk clinic course bootcamp championship picnic barbecue bbq "
    "potluck cookout appointment checkup"
)
# verbs whose infinitive says no pastime: "I like to think ...", "I love to see you happy"
LIGHT_INFINITIVES: Final = _words(
    "be have get take make do give keep see hear think say know believe let put try help "
    "share check talk tell remind look come feel find show use send mention point ask"
)
# events one holds rather than goes to: "we had a picnic" is an activity, the labels agree
OUTINGS_HAD: Final = _words("picnic")
PLACES: Final = _words(
    "beach park museum mountains mountain lake zoo island islands center centre gallery city "
    "countryside forest woods coast coastline river aquarium farm temple church library "
    "market mall restaurant cafe bar pub castle palace cathedral canyon desert valley "
    "waterfall falls trail hills village town cabin resort spa garden gardens shore sea "
    "ocean bay harbor harbour pier lighthouse stadium arena theater theatre cinema studio "
    "shelter hospital school campus office store shop bakery capital downtown"
)
ACTIVITIES: Final = _words(
    "painting drawing pottery ceramics dancing dance yoga pilates running jogging hiking "
    "swimming surfing cycling biking climbing skating skiing snowboarding cooking baking "
    "gardening knitting crocheting sewing photography writing blogging singing guitar piano "
    "violin drums cello flute ukulele saxophone trumpet chess tennis football soccer "
    "basketball baseball volleyball golf boxing kickboxing karate judo taekwondo meditation "
    "volunteering fishing gaming woodworking sculpting calligraphy archery rowing sailing "
    "kayaking journaling scrapbooking crossfit weightlifting bouldering horseback riding "
    "reading poetry acting improv theater theatre choir band orchestra club team brigade "
    "league gym workouts workout rehab therapy exercises exercise kundalini training"
)
ACTIVITY_VERBS: Final = {
    "paint": "painting",
    "draw": "drawing",
    "dance": "dancing",
    "surf": "surfing",
    "hike": "hiking",
    "knit": "knitting",
    "swim": "swimming",
    "skate": "skating",
    "ski": "skiing",
    "meditate": "meditation",
    "blog": "blogging",
    "volunteer": "volunteering",
    "garden": "gardening",
    "sculpt": "sculpting",
    "crochet": "crocheting",
    "jog": "jogging",
    "climb": "climbing",
    "sew": "sewing",
    "journal": "journaling",
    # outings as verbs (version 15): "we went camping", "I fished with my dad"
    "camp": "camping",
    "fish": "fishing",
    "kayak": "kayaking",
    "snowboard": "snowboarding",
}
INSTRUMENTS_AND_SPORTS: Final = _words(
    "guitar piano violin drums cello flute ukulele saxophone trumpet bass harp chess tennis "
    "clarinet oboe bassoon trombone banjo mandolin accordion harmonica viola keyboard "
    "football soccer basketball baseball volleyball golf hockey badminton cricket rugby "
    "pool darts poker bridge"
)
OCCUPATIONS: Final = _words(
    "teacher nurse doctor engineer developer programmer designer manager lawyer accountant "
    "chef cook artist writer author musician photographer scientist researcher professor "
    "consultant analyst architect firefighter officer soldier pilot driver electrician "
    "plumber carpenter mechanic farmer baker barista waiter waitress cashier pharmacist "
    "dentist therapist counselor counsellor worker librarian journalist editor actor actress "
    "dancer singer coach trainer instructor intern entrepreneur founder ceo cto cfo "
    "freelancer veterinarian vet psychologist paramedic surgeon tutor lecturer director "
    "producer student volunteer clerk secretary receptionist administrator translator "
    "interpreter banker hairdresser "
    # version 33: roles said by their initials ("I work at Initrode as an SRE")
    "sre coo cio cmo cpo dba"
)
POSSESSIONS: Final = _words(
    "car truck bike bicycle motorcycle scooter house apartment flat condo boat guitar piano "
    "violin laptop computer phone camera tablet console shoes sneakers boots jacket watch "
    "ring necklace figurines figurine collection books bookshelf bookcase store shop studio "
    "business company bakery cafe restaurant website blog channel podcast farm cabin "
    "tattoo painting paintings puzzle kit telescope drone biz"
)
# version 16: what names an employer. A kind of organisation before "called" ("a fintech
# called Moeda"), and a word that makes a proper name a company's ("Helios Grid", "Acme
# Corp"): a name without one ("I left Paris", "I left Tom") is never taken for an employer
# by the verbs that also leave places and people. No venue ("I'm at a cafe called Luna" is
# a visit), no school, no hospital. The small model's entity recogniser is
# no help here (it reads "Helios" as a place, "Moeda" as a person) and is not loaded.
ORG_NOUNS: Final = _words(
    "company startup start-up fintech firm agency bank consultancy business employer "
    "organisation organization nonprofit non-profit charity ngo lab brand insurer retailer "
    "publisher manufacturer scaleup scale-up corporation conglomerate council ministry "
    "newspaper magazine airline carrier provider vendor distributor supplier utility "
    "cooperative co-op"
)
ORG_NAME_WORDS: Final = _words(
    "corp corp. corporation inc inc. incorporated ltd ltd. llc plc gmbh ag co co. labs lab "
    "group systems technologies technology tech bank capital partners health healthcare "
    "energy power grid solutions software media studios consulting analytics foundation "
    "ventures holdings insurance pharma pharmaceuticals therapeutics biotech motors airlines "
    "airways robotics networks logistics games digital financial finance industries "
    "international associates agency council ministry bancorp telecom communications "
    "entertainment publishing press enterprises dynamics semiconductors devices "
    # version 33: a railway or transport operator ("I'm still at Vantage Rail")
    "rail railway railways transit"
)
# version 31: a kind of business a proper name ends on that makes the name a workplace when
# one leaves, quits or joins it, or is no longer at it ("Crumb Bakery", "Luna Cafe"; from a
# new user's trial: "I left Crumb Bakery last month" wrote nothing, as "bakery" is a place
# one visits). Never a bare "I'm at Luna Cafe" (a visit), nor a place one stays at or is
# treated in (a hotel, a hospital), nor one joined as a member (a gym, a club)
TRADES: Final = _words(
    "bakery bakehouse patisserie cafe café coffeehouse bistro diner restaurant pizzeria deli "
    "shop store boutique salon barbershop pharmacy bookshop bookstore brewery clinic studio "
    "garage workshop"
)
# an idiom of employment beside "at X": a role or a time there counted in months or years
# ("I've been at Stripe for two years")
TENURES: Final = _words("year years month months decade decades")
BUSINESSES: Final = _words(
    "store shop studio business company bakery cafe restaurant website blog channel podcast "
    "brand startup app farm salon gym biz"
)
CONDITIONS: Final = _words(
    "cold flu covid fever cough cancer diabetes asthma anxiety depression migraine migraines "
    "headache headaches injury injuries allergies allergy arthritis insomnia adhd autism "
    "concussion infection pneumonia bronchitis backache burnout ptsd ocd surgery disease "
    "intolerance stroke"
)
# what an "attack" that is a condition is of: "a heart attack", "a panic attack"
ATTACKS: Final = _words("heart panic asthma anxiety")
# a condition said of a person by an adjective: "I'm diabetic", "my son is asthmatic"
CONDITION_ADJECTIVES: Final = {
    "diabetic": "diabetes",
    "prediabetic": "prediabetes",
    "celiac": "celiac disease",
    "coeliac": "coeliac disease",
    "asthmatic": "asthma",
    "epileptic": "epilepsy",
    "anemic": "anemia",
    "anaemic": "anaemia",
}
# what one is intolerant of, before "intolerant": "I'm lactose intolerant", "gluten-intolerant"
INTOLERANCES: Final = _words("lactose gluten fructose histamine dairy wheat soy caffeine")
STATUSES: Final = _words(
    "blocked done finished complete completed pending down live broken fixed merged deployed "
    "released delayed cancelled canceled failing passing stuck ready paused approved "
    "rejected shipped resolved outdated deprecated scheduled"
)
STATUS_VERBS: Final = {
    "finish": "finished",
    "complete": "completed",
    "fail": "failed",
    "break": "broken",
    "crash": "crashed",
    "ship": "shipped",
    "launch": "launched",
    "deploy": "deployed",
    "merge": "merged",
    "stall": "stalled",
    "stop": "stopped",
    "resume": "resumed",
    "pass": "passed",  # only of a check (CHECKS): "the week passed" is no status
}
CHECKS: Final = _words("build test tests check checks pipeline suite run job audit review exam")
VERSION_WORDS: Final = _words("version revision draft iteration edition release")
THING_WORDS: Final = _words(
    "project app application codebase code stack frontend backend site service services "
    "repo repository product api ui server database infrastructure platform docs"
)
GENERIC: Final = _words(
    "thing things stuff one ones lot lots bit way time times part kind sort something "
    "anything everything nothing place idea life day days moment moments memory memories "
    "experience experiences journey ride chance opportunity news fun blast people folks "
    "everyone everybody someone somebody anyone other others side point reason feeling "
    "feelings vibe vibes world stuff piece pieces pic picture photo photos look rest ton "
    "tons bunch plenty more less much share"
)
EVALUATIVE: Final = _words(
    "great awesome amazing cool coolest nice good best better big huge little small "
    "intense fun incredible wonderful fantastic lovely beautiful special own whole entire "
    "real true crazy wild super lucky favorite favourite total fave second third fourth fifth "
    "sixth"
)
HEDGES: Final = _words("maybe probably perhaps possibly likely")
HAPPY: Final = _words("happy glad joyful smile")
NOT_DOING: Final = _words("late behind low short")  # "running late" is no running
TRIPS: Final = _words("trip vacation holiday getaway journey cruise")
QUANTITIES: Final = _words("lot lots load loads bunch ton tons pile piles stack stacks plenty")
CLUBS: Final = _words("club league choir band orchestra brigade troupe")
# what one joins to take part in it: "I joined a poetry group", "joined an online chess forum"
GROUPS: Final = _words("group forum community society circle meetup collective association")
LESSONS: Final = _words("lesson lessons class classes course courses")
CLASS_EVENTS: Final = _words("class lesson workshop session course seminar")
CONVERSATIONS: Final = _words("talk talks chat chats conversation conversations discussion")
ACCIDENTS: Final = _words("accident crash collision")
HEDGE_VERBS: Final = _words("think guess believe suppose reckon")
# words before a pet word that make it a toy ("stuffed animal dog"): a thing owned, no pet
TOY_WORDS: Final = _words("stuffed plush robot robotic stuffy cuddly")
NOT_PLACES: Final = _words("peace fear hope denial harmony moment past present future")
NOT_EMPLOYERS: Final = _words("home night nights weekends remote remotely moment")
WRITINGS: Final = _words(
    "book novel screenplay script song album thesis paper article story stories poem memoir "
    "blog post essay dissertation"
)
BODY_PARTS: Final = _words(
    "arm arms leg legs ankle ankles wrist wrists knee knees foot feet hand hands finger "
    "fingers toe toes back neck shoulder shoulders hip hips rib ribs nose elbow head "
    "acl meniscus hamstring ligament collarbone thumb jaw tooth spine pelvis"
)
FAVOURITE: Final = _words("favorite favourite fave")
PLAN_NOUNS: Final = _words("goal plan dream aim intention")
# of those, the nouns of a plan; a dream or an aim is something wished for
PLANNED: Final = _words("plan intention goal")
OUTINGS: Final = _words(
    "camping hiking fishing skiing swimming surfing sightseeing shopping kayaking"
)
# an outing gone on or for, as its activity (version 15): "went for a run", "went on a hike"
OUTING_NOUNS: Final = {
    "hike": "hiking",
    "run": "running",
    "jog": "jogging",
    "swim": "swimming",
    "walk": "walking",
    "bike ride": "biking",
}
# the stretch of time one spends somewhere on a visit (version 15: "we spent a week in
# Greece"); years are a life there, not a visit
VISIT_SPANS: Final = _words(
    "day days week weeks weekend weekends afternoon morning evening night nights month "
    "holiday holidays vacation"
)
# groups one is a member or a part of, as an activity (version 15: "I'm a member of a
# running club", "I'm part of the fire-fighting brigade")
MEMBERSHIPS: Final = _words("member part")
ASPIRATIONAL: Final = _words("ideal dream future next imaginary perfect")
CUE_NOUNS: Final = (
    (EVENTS | PLACES | ACTIVITIES | POSSESSIONS | BUSINESSES | CONDITIONS | OCCUPATIONS | STATUSES)
    | (VERSION_WORDS | FAVOURITE | PLAN_NOUNS | WRITINGS | BODY_PARTS | THING_WORDS | TRIPS)
) | (GROUPS | LESSONS | frozenset(CONDITION_ADJECTIVES) | {"intolerant"})
IRREGULAR: Final = _words(
    "bought lost broke broken grew grown drew wrote written tried decided passed died wait quit "
    "gave tore torn spent born won"
)
COMMON_VERBS: Final = _words(
    "have get go do take make find start give run set come play begin head drive fly lose pass "
    "break open create build join pick sign enter"
)
EXTRA_CUES: Final = _words(
    "fan into allergic allergy allergies name passionate joy from job love will 'll ’ll gonna "
    "going plan planning favorite favourite owner owns version passion pick group "
    "member engaged divorced nickname"
) | {"take over", "takes over", "took over", "taking over"}  # version 18: who owns a thing now

# Version 29: the names a bare name visited is taken for a place by, without the entity
# recogniser ("I visited Rome", from a new user's trial; "I visited Harry" is a person):
# countries, and cities, regions and islands people travel to. Names that are as often given
# names are left out (Florence, Sydney, Georgia, Jordan, Victoria, Austin, Santiago): "I
# visited Florence in hospital" is a person; "Florence, Italy" is still read by the country.
PLACE_NAMES: Final = _names(
    "Afghanistan, Albania, Algeria, Andorra, Angola, Argentina, Armenia, Australia, "
    "Austria, Azerbaijan, Bahamas, Bahrain, Bangladesh, Barbados, Belarus, Belgium, Belize, "
    "Bhutan, Bolivia, Bosnia, Botswana, Brazil, Bulgaria, Cambodia, Cameroon, Canada, "
    "Chile, China, Colombia, Costa Rica, Croatia, Cuba, Cyprus, Czechia, Czech Republic, "
    "Denmark, Dominican Republic, Ecuador, Egypt, El Salvador, England, Estonia, Ethiopia, "
    "Fiji, Finland, France, Germany, Ghana, Greece, Greenland, Guatemala, Haiti, Honduras, "
    "Hungary, Iceland, India, Indonesia, Iran, Iraq, Ireland, Israel, Italy, Jamaica, "
    "Japan, Kazakhstan, Kenya, Korea, South Korea, Kuwait, Laos, Latvia, Lebanon, "
    "Lithuania, Luxembourg, Madagascar, Malaysia, Maldives, Malta, Mauritius, Mexico, "
    "Moldova, Monaco, Mongolia, Montenegro, Morocco, Mozambique, Myanmar, Namibia, Nepal, "
    "Netherlands, the Netherlands, New Zealand, Nicaragua, Nigeria, North Macedonia, "
    "Northern Ireland, Norway, Oman, Pakistan, Panama, Paraguay, Peru, Philippines, "
    "the Philippines, Poland, Portugal, Puerto Rico, Qatar, Romania, Russia, Rwanda, "
    "Saudi Arabia, Scotland, Senegal, Serbia, Singapore, Slovakia, Slovenia, South Africa, "
    "Spain, Sri Lanka, Sweden, Switzerland, Taiwan, Tanzania, Thailand, Tunisia, Turkey, "
    "Uganda, Ukraine, United Arab Emirates, UAE, United Kingdom, UK, United States, USA, "
    "the US, the UK, Uruguay, Uzbekistan, Venezuela, Vietnam, Wales, Zambia, Zimbabwe, "
    "Europe, Asia, Africa, South America, North America, Antarctica, Scandinavia, "
    "Amsterdam, Athens, Auckland, Bangkok, Barcelona, Beijing, Berlin, Bogota, Bordeaux, "
    "Boston, Braga, Bruges, Brussels, Budapest, Buenos Aires, Cairo, Cape Town, Chicago, "
    "Coimbra, Copenhagen, Cusco, Delhi, New Delhi, Dubai, Dublin, Dubrovnik, Edinburgh, "
    "Faro, Geneva, Glasgow, Granada, Hamburg, Havana, Helsinki, Hong Kong, Honolulu, "
    "Istanbul, Jakarta, Jerusalem, Johannesburg, Krakow, Kyoto, Las Vegas, Lima, Lisbon, "
    "London, Los Angeles, Madrid, Manchester, Marrakech, Marrakesh, Marseille, Melbourne, "
    "Mexico City, Miami, Milan, Montreal, Moscow, Mumbai, Munich, Naples, New Orleans, "
    "New York, New York City, NYC, Nice, Osaka, Oslo, Ottawa, Oxford, Cambridge, Paris, "
    "Porto, Prague, Quebec, Reykjavik, Rio, Rio de Janeiro, Riga, Rome, San Diego, "
    "San Francisco, Sao Paulo, São Paulo, Seattle, Seoul, Seville, Shanghai, "
    "Sintra, Stockholm, Tallinn, Tel Aviv, Tokyo, Toronto, Tuscany, Valencia, Vancouver, "
    "Venice, Vienna, Vilnius, Warsaw, Washington DC, Zurich, Zürich, Bali, Crete, Ibiza, "
    "Madeira, Mallorca, Majorca, Santorini, Sicily, Sardinia, Tenerife, Hawaii, Iceland, "
    "the Azores, Azores, Algarve, the Algarve, Provence, Bavaria, Patagonia, Yosemite, "
    "California, Texas, Florida, Arizona, Colorado, Alaska, Oregon, Utah, Nevada, Maine"
)
