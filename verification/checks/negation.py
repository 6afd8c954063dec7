"""Negation reading shared by the polarity guard and support scoring: alignment tokens (negations folded
to one key, negative prefixes split off, antonym-axis words marked) and clauses with their sense.

A clause's sense is the parity of its negations and negating words ("not", "never", "without",
"missing", "skips"); a negation reaches an antonym word only a few words on, and "no" before a word or a
negative prefix negates that word alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from textcore.antonyms import WORD_AXES as AXES
from textcore.words import AUXILIARIES, STOPWORDS

from .text import is_generic_stem, stem

NEG = "¬"
# "rather than", "instead of" and "as opposed to" deny what follows only by contrast with what the clause
# asserts ("reads the lock file rather than the folder"): a side that says it may stand for a side that
# negates ("does not read the folder"), but it negates no verb of its own, so it never raises a conflict.
CONTRAST = "≠"
_CONTRAST = re.compile(r"\b(?:[Rr]ather than|[Ii]nstead of|[Aa]s opposed to)\b")  # "INSTEAD OF" is SQL
# "barely", "hardly" and "scarcely" say "almost not" ("barely changes" / "exists almost unchanged").
NEGATION_CUES = frozenset(
    "not no never none nor neither without nothing nobody barely hardly scarcely cannot can't don't doesn't "
    "didn't isn't aren't "
    "wasn't weren't won't wouldn't shouldn't mustn't shan't haven't hasn't hadn't couldn't".split()
)
# Phrases with a negation word that do not negate the claim ("whether or not", "no later than", "most, if not all";
# "if not set" is a negated condition, "if it is not set").
_NOT_NEGATIONS = re.compile(
    r"\b(?:whether or not|not only|not just|if not (?=(?:all|most|every|each|many|entirely|completely|always)\b)|"
    r"no (?:later|earlier|sooner|more|less|fewer) than|"
    r"not (?:later|earlier|more|less|fewer) than|no matter)\b", re.I)
_TOKEN = re.compile(r"[a-z0-9][a-z0-9'_-]*|[,;:()]|\.(?=\s|$)")
BOUNDARY = "|"
# Words that open a subordinate clause, and all the words that start a new clause: a negation does not reach
# past them.
_SUBORDINATORS = frozenset("when if unless because since while whereas although though".split())
_CLAUSE_WORDS = _SUBORDINATORS | frozenset("and but or so which otherwise except whether".split())
# Words that open a clause which asserts nothing: "for whether the messages fit" asks what "that the messages
# may not fit" states, so its negations are not compared.
_OPEN_QUESTION = frozenset({"whether"})
# Words that start with a negative prefix but are not negations of the rest.
_PREFIX_EXCEPTIONS = frozenset("unless until under understand understood unit units unique universal union "
                               "uninstall unicode uniform unify unified unix unlike undoes undid undone undoing".split())
# Words that negate without a negation word ("the data is missing" == "the data cannot be found").
IMPLICIT_NEGATIONS = frozenset(stem(w) for w in "missing lack lacks lacking absent absence fail fails failed unable "
                                "stop stops stopped cease ceased prevent prevents avoid refuse refuses skip skips skipped omit omits "
                                "omitted".split())

# Advice against a thing negates it ("the documentation warns against enabling debug mode").
_AGAINST = re.compile(r"\b(warn|warns|warned|warning|advise|advises|advised|recommend|recommends|recommended|"
                      r"caution|cautions|cautioned|decide|decides|decided)\s+against\b")
_FRONTED = re.compile(r"((?:^|[.;:]\s+)(?:in|on|at|for|with|by|after|before|during|from|under|within)"
                      r"(?:\s+[a-z0-9_.-]+){1,3}),")
_ONLY_WHEN = re.compile(r"\bonly (?:when|whenever|while|if|once|after)\b")
# "None" capitalised after a word or "=" / "(", or not followed by a lower-case word ("None of them"), is the value.
_NONE_VALUE = re.compile(r"(?:(?<=[a-z,=(:] )|(?<=[=(]))None\b|\bNone\b(?!\s+[a-z])")
# Code names are upper-case keywords ("USING") or CamelCase ("ConfigureNotify").
_CODE_NAME = r"(?:[A-Z][A-Z0-9_]+|[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+)"
_KEYWORD_PAIR = re.compile(rf"\b({_CODE_NAME})\s+(?:or|and)\s+({_CODE_NAME})\b")
# Leaving a thing out is not giving it ("leaving out the command" / "not providing a command").
_LEAVE_OUT = re.compile(r"\b(?:leave|leaves|leaving|left)\s+out\b")
_KEEP_FROM = re.compile(r"\b(?:keep|keeps|kept|keeping)\b(?=(?:\s+[a-z0-9_'-]+){1,4}\s+from\s+\w+ing\b)")
# The particle after a short object: "leave the root project out" == "omit the root project".
_LEAVE_X_OUT = re.compile(r"\b(?:leave|leaves|leaving|left)\s+((?:the|a|an|its|their|this|that|these|those)\s+"
                          r"(?:[a-z0-9_-]+\s+){0,2}?[a-z0-9_-]+)\s+out\b")


@lru_cache(maxsize=20000)
def negative_prefix(word: str) -> str | None:
    """The word a negative-prefixed word negates ("unchanged" -> "changed"), or None."""
    from wordfreq import zipf_frequency

    if word in _PREFIX_EXCEPTIONS:
        return None
    for prefix in ("non-", "un-", "non", "un"):
        rest = word[len(prefix):]
        # The rest must itself be an everyday English word, and more common than the whole word.
        if word.startswith(prefix) and len(rest) >= 4 and zipf_frequency(rest, "en") >= 3.0 \
                and zipf_frequency(rest, "en") > zipf_frequency(word, "en"):
            return rest
    return None


@dataclass(frozen=True)
class Token:
    """One aligned word: its comparison key, its surface form, and what it is."""

    key: str  # stem, NEG for a negation, or the axis word's stem
    surface: str
    content: bool  # carries meaning (not a function word, negation or antonym word)
    axis: tuple[str, int] | None = None


def tokens(text: str) -> list[Token]:
    """Alignment tokens of a text: negations folded to one key, negative prefixes split off."""
    return list(_tokens(text))


@lru_cache(maxsize=4096)
def _tokens(text: str) -> tuple[Token, ...]:
    """Cached tokens (each source sentence is aligned with every claim that cites it)."""
    # Read before lower-casing: Python's None as a value ("returns None", "=None", None alone on a line) is no
    # "none"; two keywords or CamelCase names joined by "or"/"and" ("a USING or ON clause", "ConfigureNotify
    # or EnterNotify events") are one noun phrase, not two clauses.
    text = _NONE_VALUE.sub(" nonevalue ", text)
    text = _CONTRAST.sub(" contrastmark ", text)
    text = _KEYWORD_PAIR.sub(r"\1 \2", text)
    text = _NOT_NEGATIONS.sub(" ", text.lower().replace("’", "'"))
    text = re.sub(r"\bcan(?:not|'t)\b", "can not", text)
    text = re.sub(r"\bwon't\b", "will not", text)
    text = re.sub(r"n't\b", " not", text)
    text = re.sub(r"\bno longer\b", "not", text)
    # A short phrase fronted before a comma ("In debug mode, a handler … will not be used") says where the
    # clause holds; it is no clause of its own, so the comma after it ends none.
    text = _FRONTED.sub(r"\1 ", text)
    # "without it" / "without that" opening a clause points back at what was just said and means
    # "otherwise": a condition that negates no verb ("without it the signal is high" == "otherwise the
    # signal is high"). After a noun it still says "that has no" ("rows without them").
    text = re.sub(r"(^|[,;:(]\s*|\b(?:and|but|so|because|since)\s+)without (?:it|this|that|them|these|those)\b",
                  r"\1 otherwise ", text)
    # "warns against enabling" says "do not enable"; "leaving out the command" says "not providing it".
    text = _AGAINST.sub(r"\1 not", text)
    text = _LEAVE_OUT.sub("omit", text)
    text = _LEAVE_X_OUT.sub(r"omit \1", text)
    # "keeps performance from being great" says "prevents it": performance is not great.
    text = _KEEP_FROM.sub("prevents", text)
    # "will not be able to remove" negates "remove" as "cannot remove" does.
    text = re.sub(r"\b(?:be|being|been) able to\b", " ", text)
    # "as" before a subject pronoun opens a clause of reason or time ("it is not run as we are not moving" ==
    # "because we are not moving"); elsewhere it is a preposition ("run as root").
    text = re.sub(r"\bas(?= (?:we|it|they|you|he|she|i|there)\b)", "because", text)
    # "only when it moves" says "not unless it moves" ("paints only when it moves" / "won't paint unless it's
    # moving"; "takes the lock only once the cache spills" / "takes no lock until the cache spills").
    text = _ONLY_WHEN.sub("not unless", text)
    # "neither A nor B" negates once: the "nor" only joins the second item.
    text = re.sub(r"\b(neither\b[^.;:]*?)\bnor\b", r"\1 or", text)
    out: list[Token] = []
    for word in _TOKEN.findall(text):
        if word in ",;:()." or word in _CLAUSE_WORDS:
            out.append(Token(BOUNDARY, word, False))
            continue
        word = word.strip("'-")
        if not word:
            continue
        if word == "contrastmark":
            out.append(Token(CONTRAST, "(rather than)", False))
            continue
        if word in NEGATION_CUES:
            out.append(Token(NEG, word, False))
            continue
        if word in AXES:
            out.append(Token(word, word, False, AXES[word]))
            continue
        rest = negative_prefix(word)
        if rest is not None:
            out.append(Token(NEG, word, False))
            word = rest.strip("-")
            if word in AXES:
                out.append(Token(word, word, False, AXES[word]))
                continue
        if word in STOPWORDS or len(word) < 2:
            out.append(Token(word, word, False))
        else:
            out.append(Token(stem(word), word, True))
    return tuple(out)


def cue_words(text: str) -> list[str]:
    """The negation words of a list lead-in's last clause, which it passes on to its items ("These must never
    appear in logs:"); a clause before it ("you don't have to care, but there are exceptions:") and a
    negative-prefixed word ("as in an ordinary non-strict table:") negate none of them."""
    toks = tokens(text)
    last = max((i for i, t in enumerate(toks[:-1]) if t.key == BOUNDARY), default=-1)
    return [t.surface for t in toks[last + 1:] if t.key == NEG and t.surface in NEGATION_CUES]



def flips(clause: list[Token]) -> int:
    """Negations and negating words in a stretch of tokens. A negative-prefixed word negates itself, so
    saying it twice is one negation ("see the unpublish policies on how npm treats unpublish"), and one that
    describes the word after it negates none of the clause ("unhandled exceptions are not converted")."""
    prefixed = {t.surface for i, t in enumerate(clause) if t.key == NEG and t.surface not in NEGATION_CUES
                and not (negative_prefix(t.surface) and _modifies_next(clause, i))}
    return len(prefixed) + sum(1 for t in clause if (t.key == NEG and t.surface in NEGATION_CUES)
                               or (t.content and t.key in IMPLICIT_NEGATIONS))



def _modifies_next(clause: list[Token], i: int) -> bool:
    """The negative-prefixed word at i (its NEG token, then its word) stands before a content word it
    describes ("unhandled exceptions", "the unused disk space", "a non-negative iCol"): it negates its own
    word, not what the clause says of that content word."""
    return i + 2 < len(clause) and clause[i + 2].content


def clause_of(toks: list[Token], i: int) -> tuple[int, int]:
    """[start, end) of the clause around position i."""
    start = i
    while start > 0 and toks[start - 1].key != BOUNDARY:
        start -= 1
    end = i
    while end < len(toks) and toks[end].key != BOUNDARY:
        end += 1
    return start, end


def stated(toks: list[Token]) -> list[Token]:
    """The tokens without the clauses that ask rather than state ("… or whether the messages fit")."""
    out: list[Token] = []
    asking = False
    for t in toks:
        if t.key == BOUNDARY:
            asking = t.surface in _OPEN_QUESTION
        if not asking:
            out.append(t)
    return out


def clauses(toks: list[Token]) -> list[list[Token]]:
    """The token lists between clause boundaries."""
    out: list[list[Token]] = [[]]
    for t in toks:
        if t.key == BOUNDARY:
            out.append([])
        else:
            out[-1].append(t)
    return [c for c in out if c]


# A conjunct this short after "or" / "and" / "nor" is a coordinated object, not a clause of its own:
# "will never have a database layer or a form library" never has the form library either.
# It opens with a determiner and has no verb of its own that a tokenizer can see (no auxiliary).
_CONJUNCT_MAX_WORDS = 3
_COORDINATORS = frozenset({"or", "and", "nor"})
_DETERMINERS = frozenset("a an the any its their his her your our my other another".split())


def clauses_read_whole(toks: list[Token]) -> list[list[Token]]:
    """The clauses, each short conjunct after "or"/"and" carrying the negation of the clause it
    continues (a negation reaches over the things it coordinates)."""
    out: list[list[Token]] = []
    gaps: list[list[str]] = []  # the boundaries before each clause (", or" is not a bare "or")
    gap: list[str] = []
    current: list[Token] = []
    for t in toks + [Token(BOUNDARY, ".", False)]:
        if t.key == BOUNDARY:
            if current:
                out.append(current)
                gaps.append(gap)
                current, gap = [], []
            gap.append(t.surface)
        else:
            current.append(t)
    joins = [gap[-1] if gap else "" for gap in gaps]  # the word or mark right before each clause
    for i in range(1, len(out)):
        conjunct = out[i]
        content = [t for t in conjunct if t.content]
        # A conjunct a subordinate clause hangs on has a verb of its own ("and the command exits when …").
        if i + 1 < len(joins) and joins[i + 1] in _SUBORDINATORS:
            continue
        if not (joins[i] in _COORDINATORS and len(content) <= _CONJUNCT_MAX_WORDS and flips(conjunct) == 0
                and flips(out[i - 1]) % 2 == 1):
            continue
        # After a comma the coordinator joins a clause with a subject of its own ("you can't paint, and the cursor
        # shows you this"), not one more object.
        object_only = (conjunct[0].surface in _DETERMINERS and not any(t.surface in AUXILIARIES for t in conjunct)
                       and gaps[i] == [joins[i]])
        # "If no positional argument or --call option is provided": "no" opens a noun phrase that the
        # conjunct continues (the clause before has no verb), so the verb after it is said of both, negated.
        # A comma before the "or" joins two conditions instead ("with no files given, or with a file name of -").
        continued_no = (gaps[i] == [joins[i]] and joins[i] != "and" and any(t.surface == "no" for t in out[i - 1])
                        and not any(t.surface in AUXILIARIES for t in out[i - 1]))
        if object_only or continued_no:
            out[i] = [Token(NEG, "(not)", False)] + conjunct
    return out


def specific(clause: list[Token]) -> set[str]:
    return {t.key for t in clause if t.content and not is_generic_stem(t.key)}


def negated_head(clause: list[Token]) -> str | None:
    """The first specific content word after the clause's (odd count of) negation, or None."""
    negs = [i for i, t in enumerate(clause) if t.key == NEG]
    if len(negs) % 2 == 0:
        return None
    for t in clause[negs[0] + 1:]:
        if t.content and not is_generic_stem(t.key):
            return t.key
    return None


# A "not" right before one of these negates the phrase it opens ("not for monthly plans", "not every file", a
# "(not) a list" carried over "or"), unless a verb stands before it ("is not in the list", "is not for production use").
_PHRASE_OPENERS = frozenset("a an the every all each any for of with from by as".split())


def phrase_negation(clause: list[Token]) -> bool:
    """Every negation of the clause denies a phrase, not its verb: "neither … nor" pairs two phrases, and a "not"
    right before an article, a quantifier or a preposition with no verb before it ("for annual plans, not for monthly
    plans") sets one phrase against another. A claim or source clause of this kind states nothing the
    other side's clause could contradict by its verb."""
    negs = [i for i, t in enumerate(clause) if t.key == NEG]
    if not negs:
        return False
    for i in negs:
        word = clause[i].surface
        if word in ("neither", "nor"):
            continue
        after = next((t.surface for t in clause[i + 1:] if t.surface not in "()"), "")
        before = next((t.surface for t in reversed(clause[:i]) if t.surface not in "()"), "")
        if word not in ("not", "(not)") or after not in _PHRASE_OPENERS or before in AUXILIARIES:
            return False
    return True


def lexically_negative(clause: list[Token]) -> bool:
    """A clause that says "not" with a word ("stopped", "missing", "disabled", "fails")."""
    return any((t.axis and t.axis[1] < 0) or t.key in IMPLICIT_NEGATIONS for t in clause)



# How far (in words) a negation reaches forward to an antonym word it flips ("is not enabled",
# "do not automatically enable").
REACH = 3
_ARTICLES = frozenset({"a", "an", "the", "any"})
_COPULAS = frozenset("is are was were be been being".split())
_PREPOSITIONS = frozenset("in on at of for with to from by into onto".split())


def reaching(toks: list[Token], end: int) -> int:
    """How many negations (or negating verbs: "skips", "avoid") before position `end` of a clause reach it.
    "no" before a word is a determiner that negates that word only ("with no options, NEATO always ...",
    "no 'first item' target"), and a negative prefix negates its own word only ("Unpublishing removes")."""
    count = 0
    for k, t in enumerate(toks[:end]):
        implicit = t.content and t.key in IMPLICIT_NEGATIONS  # "skips creating" == "does not create"
        if not implicit and (t.key != NEG or t.surface not in NEGATION_CUES):  # a prefix's NEG stays home
            continue
        if end - k > REACH:
            continue  # "does not exist in the application static folder": it negates "exist"
        follows = toks[k + 1] if k + 1 < len(toks) else None
        if t.surface == "no" and follows is not None and (follows.content or follows.axis):
            continue
        between = toks[k + 1:end]
        article = next((j for j, u in enumerate(between) if u.surface in _ARTICLES), None)
        denied = (k and toks[k - 1].surface in _COPULAS and (k < 2 or toks[k - 2].surface != "there")
                  and article is not None and not any(u.surface in _PREPOSITIONS for u in between[:article]))
        if article is not None and not denied:
            # "does not have an open PR", "does not contain any STRICT tables": the word describes the object of
            # what is negated; right after "is" it is what is denied ("is not already the top context"), unless
            # "there is not an open issue" says that none exists ("are not in the local project" places a thing).
            continue
        count += 1
    return count



def sense(clause: list[Token]) -> tuple[int, dict[str, set[int]]]:
    """(+1 or -1: the parity of the clause's negations and negating words; the poles of each antonym
    axis the clause uses). Axis words that are also function words ("on", "before", "most") are left
    out: as prepositions they take no side."""
    axes: dict[str, set[int]] = {}
    for t in clause:
        if t.axis and t.surface not in STOPWORDS:
            axes.setdefault(t.axis[0], set()).add(t.axis[1])
    return (-1) ** flips(clause), axes



def contrasts(clause: list[Token]) -> bool:
    """The clause sets something aside by contrast ("rather than", "instead of"; see CONTRAST)."""
    return any(t.key == CONTRAST for t in clause)


def set_aside(clause: list[Token]) -> set[str]:
    """The specific words a clause sets aside by contrast: those after its "rather than" ("finds templates by
    the package name instead of the working directory" sets aside "working directory", not "package name")."""
    at = next((i for i, t in enumerate(clause) if t.key == CONTRAST), None)
    return specific(clause[at + 1:]) if at is not None else set()


def text_of(side: list[Token]) -> str:
    return " ".join(t.surface for t in side) or "(nothing)"
