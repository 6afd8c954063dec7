"""Query understanding: normalisation, glossary expansion, identifiers and what kind of fact is asked for."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from textcore.identifiers import code_terms
from textcore.words import expand_contractions

_SLACK_MARKUP = re.compile(r"<[@#!][^>]*>")
_SLACK_LINK = re.compile(r"<(https?://[^|>]+)(?:\|([^>]+))?>")
_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_'\-]*")

# What kind of fact a question asks for; an answer passage must contain one to count as evidence.
_ASKS = [
    ("number", re.compile(r"\b(how (many|much|long|often|soon|far|big|old)|what (percentage|percent|amount)|"
                          r"\blimit\b|maximum|minimum|\bmax\b|\bmin\b|cap\b|deductible|premium|cost|price|rate|"
                          # "What is the IT hotline number?", "what's the max number of connections"; further
                          # on, a number is what the asker gives ("what does -j do if I don't give it a number?")
                          r"(which|what)\b\W+([\w'-]+\W+){0,4}?number|"
                          # "which port", "what size", "what default width": a measure is a number.
                          r"(which|what)\s+([\w.\-]+\s+){0,2}?(ports?|sizes?|width|height|length|timeout|delay|"
                          r"interval|threshold|depth))\b", re.I)),
    # "When does X run?" asks for a time; "…even when no subcommand is given" does not.
    ("date", _ASKS_DATE := re.compile(r"(?:^|[.?!;:]\s*|\b(?:and|so|but|hey|hi)\W+)when\b|\b(what (date|day|time)|deadline|by what date|"
                        r"which day|how soon)\b", re.I)),
    ("who", re.compile(r"\b(who|whom|which (team|person|group)|contact)\b", re.I)),
    ("procedure", re.compile(r"\b(how (do|can|should|would) (i|we|you)|how to|what are the steps|steps to|"
                             r"set ?up|install|configure|enrol+|request|apply for|sign up)\b", re.I)),
    ("where", re.compile(r"\b(where|which (channel|queue|portal|site|page|form|tool))\b", re.I)),
    # "Which option/setting/flag …" asks for a name that must be quoted exactly.
    ("name", re.compile(r"\b(which|what)\s+([\w.\-]+\s+){0,3}?(options?|flags?|settings?|commands?|functions?|variables?|"
                        r"directives?|pragmas?|parameters?|keys?|methods?|class(es)?|arguments?|attributes?|"
                        r"modules?|hooks?|signals?|extensions?|decorators?|lints?|environment variables?|"
                        r"config(uration)? (values?|keys?|options?)|exceptions?|errors?|types?|fields?|events?|"
                        r"images?|packages?|headers?|tags?|roles?)\b", re.I)),
    ("default", re.compile(r"\bdefaults?\b|\bout of the box\b", re.I)),
    # "What is the maximum …", "at least which version": the bound itself is asked, not any number.
    ("maximum", re.compile(r"\b(maximum|max|at most|upper (limit|bound)|highest|largest|biggest)\b", re.I)),
    ("minimum", re.compile(r"\b(minimum|(?<!\d )min|at least|lowest|smallest)\b", re.I)),
    # What happens when a thing is not given ("if I don't pass one", "when no frame is specified", "without
    # setting it") is usually its default; the answer need not say "default", so this kind only guides which
    # sentence is chosen (a sentence about the default is preferred), it is no fact the passages must hold.
    ("unset", re.compile(r"\b(?:if|when|unless)\W+(?:[\w.'-]+\W+){0,6}?(?:don'?t|do not|doesn'?t|does not|didn'?t|"
                         r"never|not|no)\W+(?:[\w.'-]+\W+){0,3}?(?:set|specif(?:y|ied)|give|given|pass|passed|"
                         r"provided?|configured?|supplied|defined?)\b|"
                         r"\bwithout (?:specifying|setting|giving|passing|providing|configuring|supplying)\b", re.I)),
]


# Stemmed words that carry the question's form, not its topic ("how many", "do I get", "can I").
FILLER_LEXEMES = frozenset({
    "mani", "much", "get", "need", "know", "tell", "want", "can", "could", "would", "should", "pleas", "thank",
    "thanks", "hi", "hey", "anyon", "someon", "somebodi", "like", "ok", "okay", "also", "actual", "exact",
    "current", "now", "still", "ever", "realli", "quick", "question", "wonder", "anyth", "someth", "thing",
    "happen", "go", "let", "whole", "kind", "sort", "guy", "folk", "team's",
    # "how long / how often / how far ahead / how fast" ask for a quantity; the quantity is the evidence.
    "long", "often", "far", "ahead", "fast", "soon", "quick", "keep", "put", "bad", "yet", "re", "m", "s", "ve",
    "ll", "d", "possibl", "allow",
    # A rate's preposition ("how much per month", "per request"): the unit after it is the topic, not "per".
    "per",
    # "What am I supposed to do?" asks what "What should I do?" asks; "should" is filler already.
    "suppos",
    # Light verbs and chat words that carry the question's form ("how do I make X show Y", "what name does
    # it give the file", "wat", "thru", "a bunch of stuff"), not what is asked about.
    "make", "give", "given", "instead", "see", "look", "must", "wat", "thru", "bunch", "stuff", "els",
    "somewher", "way",
    # When the asker's trouble happened ("lost my laptop this morning", "since yesterday"): the passages
    # give rules and dates, never the asker's day.
    "morn", "yesterday", "today", "tonight", "tomorrow",
    # Chat words and apologies ("sorry if dumb but im tired of typing", "lol", "idk", "whats", "cant find it
    # anywhere", "is that still a thing anymore"): how the asker talks, never what the passages must hold.
    "sorri", "dumb", "im", "tire", "lol", "heck", "cant", "dont", "doesnt", "isnt", "wont", "didnt", "anywher",
    "smth", "ppl", "pls", "plz", "btw", "idk", "gonna", "wanna", "kinda", "u", "ur", "ya", "yep", "nope", "hmm",
    "ugh", "oop", "thx", "tbh", "omg", "curious", "anymor", "alreadi", "what", "how",
    # Greetings and hedges of the same kind ("yo", "hiya", "howdy", "dunno", "do you reckon").
    "yo", "hiya", "howdi", "dunno", "reckon",
})


@dataclass
class QueryAnalysis:
    """A question, cleaned and annotated for retrieval."""

    original: str
    normalized: str
    expanded: str
    identifiers: list[str] = field(default_factory=list)
    # Codes and options only (no acronyms): a question naming one that no document has is refused.
    strict_identifiers: list[str] = field(default_factory=list)
    asks_for: list[str] = field(default_factory=list)
    expansions: dict[str, str] = field(default_factory=dict)
    # What the asker tells around the question ("some proxy in front of us blocks PUT/DELETE 😕" before "how
    # can clients tunnel those methods through POST?"): "" when the question is all ask.
    story: str = ""
    asking: str = ""  # the rest of the message, what it asks (the whole question when there is no story)

    @property
    def cache_key(self) -> str:
        """A form under which identical questions meet (case, punctuation and spacing folded)."""
        return " ".join(re.findall(r"[a-z0-9_\-]+", self.expanded.lower()))[:500]


# Chat shorthand, spelled out so that it is read as the words it stands for ("w/ the json serializer", "quick q");
# contractions typed without an apostrophe ("doesnt", "whats") are expand_contractions' job. Not "bc": it is
# also the calculator.
_CHAT_WORDS = {"w/o": "without", "w/": "with", "b/c": "because", "quick q": "quick question",
               "pls": "please", "plz": "please", "thx": "thanks", "ty": "thanks", "u": "you", "ur": "your",
               "btw": "", "fyi": "", "tbh": "", "imo": "", "afaik": "", "idk": "", "ppl": "people",
               "smth": "something", "sth": "something", "abt": "about", "rn": "right now", "youre": "you're"}
_CHAT = re.compile(r"(?<![\w/.-])(" + "|".join(re.escape(w) for w in sorted(_CHAT_WORDS, key=len, reverse=True))
                   + r")(?![\w/.-])")  # lower case only: "Q" and "U" name keys and options


def normalize(text: str) -> str:
    """Drop Slack mentions/markup, unwrap links, spell out chat shorthand, fold whitespace."""
    text = _SLACK_LINK.sub(lambda m: m.group(2) or m.group(1), text)
    text = _SLACK_MARKUP.sub(" ", text)
    text = text.replace("\u2019", "'").replace("\u201c", '"').replace("\u201d", '"')
    text = _CHAT.sub(lambda m: _CHAT_WORDS[m.group(1)], text)
    return " ".join(text.split()).strip()


def expand_abbreviations(text: str, glossary: dict[str, str]) -> tuple[str, dict[str, str]]:
    """Append the expansion after each glossary term found, e.g. 'WFH' -> 'WFH (work from home)'."""
    if not glossary:
        return text, {}
    used: dict[str, str] = {}
    lookup = {term.lower(): expansion for term, expansion in glossary.items()}

    def replace(match: re.Match) -> str:
        word = match.group(0)
        expansion = lookup.get(word.lower())
        if expansion and expansion.lower() not in text.lower():
            used[word] = expansion
            return f"{word} ({expansion})"
        return word

    return _WORD.sub(replace, text), used


# "In which version …", "since which release", "minimum Meson version": a version number is the answer.
_ASKS_VERSION = re.compile(r"\b(?:which|what|minimum|oldest|earliest|first)\s+(?:[\w.+-]+\s+){0,2}?"
                           r"(?:version|release)s?\b", re.I)
# "how many hours / ports / threads": the count is of that thing.
_ASKS_COUNT = re.compile(r"\bhow many\s+((?:[a-z][\w.-]*[a-z]\s*){1,5})", re.I)
# Words after the counted noun that are not a second noun ("how many hours of", "how many ports does").
_NOT_NOUNS = frozenset({"of", "in", "on", "at", "for", "to", "from", "with", "by", "per", "does", "do", "did", "can",
                        "could", "will", "would", "should", "is", "are", "was", "were", "have", "has", "get", "i",
                        "we", "you", "it", "they", "that", "which", "before", "after", "when", "a", "the", "and",
                        "above", "below", "over", "under"})


# "When turning X into Y, what should …": a leading "when" clause sets the scene for the question that follows.
_SCENE_WHEN = re.compile(r"^\s*when\b[^?]*?,\s*(?:\w+\s+){0,3}?(?:what|which|how|who|where|whose)\b", re.I)
# Verbs that end the counted noun phrase ("how many files are kept", "how many ports got opened").
_VERBS_AFTER_COUNT = frozenset({"are", "were", "was", "be", "been", "gets", "got", "may", "must", "might", "need"})
# Words between "how many" and the counted thing ("how many distinct kinds", "how many database pages").
_COUNT_SKIP = frozenset({"of", "ways", "different", "distinct", "separate", "unique", "individual", "possible",
                         "common", "more", "other", "total", "kinds", "types", "sorts"})


def answer_type_lexemes(asks_for: list[str]) -> frozenset[str]:
    """Question words that name the kind of the answer, not its topic: in "What is the IT hotline number?" the
    digits answer "number", which the passage need not say."""
    return frozenset({"number"}) if "number" in asks_for else frozenset()


# A question that opens (after a greeting) with an auxiliary asks yes or no.
_YES_NO = re.compile(r"^\W*(?:(?:hey|hi|hello|yo|ok|okay|so|quick q(?:uestion)?)\b\W*)*"
                     r"(?:does|do|did|is|are|can|will|would|should|could)\b", re.I)
_DEFAULT_WORD = re.compile(r"\bdefaults?\b", re.I)


def asked_fact_kinds(text: str) -> list[str]:
    """Which kinds of fact (number, date, who, where, version) the question asks for; "count:<noun>" when it
    asks how many of a named thing ("count:database|pages": either word counted)."""
    # "what's the package name" asks what "what is the package name" asks; "isn't set" is "is not set".
    text = expand_contractions(text)
    kinds = [kind for kind, pattern in _ASKS if pattern.search(text)]
    if "default" in kinds and _YES_NO.match(text) and not _DEFAULT_WORD.search(text):
        kinds.remove("default")  # "does requests decode brotli out of the box?" asks whether, not which value
    if "unset" in kinds and ("default" in kinds or _YES_NO.match(text) or "procedure" in kinds):
        kinds.remove("unset")  # asked whether or how ("how do I make it run even when no subcommand is given?")
    if "date" in kinds and _SCENE_WHEN.search(text) and not _ASKS_DATE.search(_SCENE_WHEN.sub("", text)):
        kinds.remove("date")
    if _ASKS_VERSION.search(text):
        kinds.append("version")
    count = _ASKS_COUNT.search(text)
    if count:
        words = [w.lower() for w in count.group(1).split()]
        while words and words[0] in _COUNT_SKIP:
            words.pop(0)
        if words and words[0] not in ("are", "is", "do", "does", "can", "will", "would", "should", "did", "have",
                                      "has"):
            # The counted thing is the head of the noun phrase, its last word or two ("how many npm debug log
            # files are kept" counts log files).
            phrase = [words[0]]
            for word in words[1:]:
                if word in _NOT_NOUNS or word in _VERBS_AFTER_COUNT or phrase[0] == "times":
                    break
                phrase.append(word)
            kinds.append("count:" + "|".join(phrase[-2:]))
    return kinds


_EMOJI = r"[\U0001F300-\U0001FAFF\u2600-\u27BF]"
# How a question typed in chat looks: an emoji, "??", a greeting, texting spellings, no capital letter.
_CASUAL = re.compile(_EMOJI + r"|[?!]{2,}|^\s*(?:hey|hi|hello|yo|ok|okay|so|quick q)\b|"
                     r"\b(?:pls|plz|u|ur|wat|whats|dont|cant|doesnt|isnt|im|idk|btw|lol|thx|gonna|wanna|kinda)\b", re.I)
_STARTS_LOWER = re.compile(r"^\s*[a-z]")


def is_casual(question: str) -> bool:
    """True for a question written as people write in chat ("hey, lost my laptop 😬 what do i do??")."""
    return bool(_STARTS_LOWER.match(question) or _CASUAL.search(question))


# Where a chat message breaks into parts: sentence ends, an ellipsis, an emoji, a dash, or a comma or colon before
# a question word ("…too large, what's the byte limit").
_QUESTION_WORD = (r"(?:how|what|what's|whats|which|why|where|when|who|is there|are there|any ?way|any|can|could|"
                  r"should|does|do|did|is|are|will|would|wat)\b")
_PART_BREAK = re.compile(rf"(?:[.!?]+|…|;|{_EMOJI}+)\s+|\s+[-–—]\s+|[,:]\s+(?=" + _QUESTION_WORD + ")", re.I)
_ASKING = re.compile(r"^\W*(?:(?:so|and|but|also|then)\s+)?" + _QUESTION_WORD, re.I)
# A clause that sets the scene of the question after it ("When serving with gevent, which method …", "By
# default, how many …") belongs to the question.
_SCENE = re.compile(r"^\W*(?:when|whenever|if|in|for|with|by|after|before|inside|on|starting|once|while|during|under|"
                    r"using|from|since|without|within|per|at|as|given)\b", re.I)


def ask_and_story(question: str) -> tuple[str, str]:
    """The parts of a chat message that ask (a question word first, or a "?" last, with the scene-setting
    clauses before them) and the rest, what the asker tells about their situation: "our build breaks
    because autodoc can't import a dependency 😤 how do we fake it?" asks "how do we fake it?". A message
    that is one part, or whose parts all ask or none does, is all ask."""
    parts: list[tuple[int, int]] = []
    start = 0
    for match in _PART_BREAK.finditer(question):
        parts.append((start, match.end()))
        start = match.end()
    parts.append((start, len(question)))
    parts = [(s, e) for s, e in parts if question[s:e].strip(" \t?!.,;:")]
    asking = [bool(_ASKING.match(question[s:e]) or question[s:e].rstrip().endswith("?")) for s, e in parts]
    for i in range(len(parts) - 1, 0, -1):
        if asking[i] and _SCENE.match(question[parts[i - 1][0]:parts[i - 1][1]]):
            asking[i - 1] = True
    if all(asking) or not any(asking):
        return question, ""
    ask = " ".join(question[s:e].strip() for (s, e), a in zip(parts, asking) if a)
    story = " ".join(question[s:e].strip() for (s, e), a in zip(parts, asking) if not a)
    return ask, story


# Shorthand that people type and manuals spell out ("env var", "db", "max conns"): read as both, like a
# glossary term (a company glossary given to `analyze` wins over it). Not "min": "5 min" is minutes.
SHORTHAND = {"env": "environment", "var": "variable", "vars": "variables", "db": "database", "dbs": "databases",
             "dir": "directory", "dirs": "directories", "repo": "repository", "repos": "repositories",
             "config": "configuration", "auth": "authentication", "dep": "dependency", "deps": "dependencies",
             "pkg": "package", "pkgs": "packages", "msg": "message", "msgs": "messages", "arg": "argument",
             "args": "arguments", "param": "parameter", "params": "parameters", "max": "maximum",
             "num": "number", "perf": "performance", "prod": "production", "tmp": "temporary", "temp": "temporary",
             "info": "information", "impl": "implementation", "lib": "library", "libs": "libraries",
             "cmd": "command", "cmds": "commands", "func": "function", "attr": "attribute", "attrs": "attributes",
             "val": "value", "vals": "values", "conn": "connection", "conns": "connections", "sec": "seconds",
             "secs": "seconds"}


def analyze(question: str, glossary: dict[str, str] | None = None) -> QueryAnalysis:
    """Normalise, expand and annotate a question."""
    normalized = normalize(question)
    asking, story = ask_and_story(normalized)
    expanded, used = expand_abbreviations(expand_contractions(normalized), {**SHORTHAND, **(glossary or {})})
    return QueryAnalysis(
        original=question,
        normalized=normalized,
        expanded=expanded,
        identifiers=code_terms(normalized),
        strict_identifiers=code_terms(normalized, kinds=("code", "option")),
        asks_for=asked_fact_kinds(normalized),
        expansions=used,
        story=story,
        asking=asking,
    )
