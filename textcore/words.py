"""Words: tokenising and the one stop-word list."""

from __future__ import annotations

import re

__all__ = ["AUXILIARIES", "STOPWORDS", "WORD_NUMBERS", "WORD_RE", "words", "content_words", "is_content",
           "expand_contractions"]

WORD_RE = re.compile(r"[A-Za-z](?:[A-Za-z]|['’](?=[A-Za-z]))*")
# The auxiliary, modal and copular verbs: a word of a clause's verb phrase ("is", "can", "has", "do").
AUXILIARIES = frozenset("am is are was were be been being has have had do does did can could will would shall should "
                        "may might must".split())

STOPWORDS = frozenset(
    """a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does doesn't
    doing don't down during each few for from further had hadn't has hasn't have haven't having he her
    here hers herself him himself his how i if in into is isn't it it's its itself just let's me more
    most mustn't my myself no nor not of off on once only or other ought our ours ourselves out over own
    same shan't she should shouldn't so some such than that that's the their theirs them themselves
    then there there's these they this those through to too under until up very was wasn't we were
    weren't what when where which while who whom why will with won't would wouldn't you your yours
    yourself yourselves may might must shall need needs via per etc e g i.e eg ie yes never without
    within upon each every either neither whether however therefore thus hence s t""".split()
)


# Numbers written as words, with their values: the one list the number guard, the checker's content words,
# answer reuse and the asked-fact reading share ("thousand" and "million" are scales, read with a number).
WORD_NUMBERS = {
    "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
    "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14,
    "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19, "twenty": 20,
    "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    "hundred": 100, "dozen": 12, "twice": 2,
}

_SPECIAL_NOT = re.compile(r"\b(ca|wo|sha)n['’]t\b", re.I)
_NOT = re.compile(r"\b(\w+)n['’]t\b", re.I)
_CLITIC = re.compile(r"\b(\w+)['’](re|ve|ll|d|m)\b", re.I)
# The same negations typed in chat without the apostrophe ("doesnt", "dont"); "cant" and "wont" are words.
_BARE_NOT = re.compile(r"\b(do|does|did|is|are|was|were|have|has|had|could|should|would)nt\b", re.I)
# "'s" is "is" only after these words (elsewhere it is mostly a possessive: "Flask's config"); "whats",
# "thats", "theres" are the same words typed in chat without the apostrophe.
_IS = re.compile(r"\b(?:(it|he|she)['’]s|(that|what|there|here|where|who|how)['’]?s)\b", re.I)


def expand_contractions(text: str) -> str:
    """English contractions written out ("doesn't"/"doesnt" → "does not", "what's"/"whats" → "what is", "we've" →
    "we have"), so a search never looks for the fragments "doesn" or "isn" (which no stemmer or stop-word
    list knows) and a negation stays a word of its own. Possessives are left alone."""
    specials = {"ca": "can", "wo": "will", "sha": "shall"}
    clitics = {"re": "are", "ve": "have", "ll": "will", "d": "would", "m": "am"}
    text = _SPECIAL_NOT.sub(lambda m: f"{specials[m.group(1).lower()]} not", text)
    text = _NOT.sub(lambda m: f"{m.group(1)} not", text)
    text = _BARE_NOT.sub(lambda m: f"{m.group(1)} not", text)
    text = _CLITIC.sub(lambda m: f"{m.group(1)} {clitics[m.group(2).lower()]}", text)
    return _IS.sub(lambda m: f"{m.group(1) or m.group(2)} is", text)


def words(text: str) -> list[str]:
    """Alphabetic word tokens in order (apostrophes within a word kept: "don't"; one that opens or closes a quote
    or a plural's possessive is no part of it: "'txt'" is "txt"; hyphens and dots split)."""
    return [w.replace("’", "'") for w in WORD_RE.findall(text)]


def is_content(word: str) -> bool:
    """True for words that carry meaning (not stop words or single letters)."""
    lowered = word.lower().replace("’", "'")
    return len(lowered) > 1 and lowered not in STOPWORDS


def content_words(text: str) -> list[str]:
    """Lower-cased content words of a text, in order."""
    return [w.lower() for w in words(text) if is_content(w)]


# Zipf frequency (log10 of occurrences per billion words, wordfreq's English lists) at which a word is
# as common as "give" or "box" (fully generic) and as rare as "timeout" or "pivot" (fully specific).
_GENERIC_ZIPF = 5.0
_SPECIFIC_ZIPF = 3.0


def singular(word: str) -> str | None:
    """The singular of a plural word of five letters or more ("Browsers" -> "Browser", "Entries" -> "Entry",
    "Parentheses" -> "Parenthesis"), else None ("class", "uses"): of the regular ways to undo a plural, the
    one that gives the most common English word (the word less its "s" when none is a known word)."""
    if len(word) <= 4 or not word.endswith("s") or word.endswith("ss"):
        return None
    low = word.lower()
    candidates = [word[:-1]]
    if re.search(r"(?:s|x|z|ch|sh)es$", low):
        candidates += [word[:-2], word[:-2] + "is"]
    if low.endswith("ies"):
        candidates.append(word[:-3] + "y")
    best = max(candidates, key=zipf)  # the first of equals: the word less its "s"
    return best if zipf(best) > 0 else word[:-1]


def specificity(word: str) -> float:
    """0 for everyday English words ("stuff", "give"), 1 for rare or technical ones ("timeout"), by their
    frequency in general English (the wordfreq package's data, installed with it; nothing is fetched)."""
    return max(0.0, min(1.0, (_GENERIC_ZIPF - zipf(word)) / (_GENERIC_ZIPF - _SPECIFIC_ZIPF)))


def zipf(word: str) -> float:
    """How common a word is in general English: its Zipf frequency (0 unknown, about 7 for "the"), from the
    wordfreq package's installed data."""
    from wordfreq import zipf_frequency

    return zipf_frequency(word.lower(), "en")
