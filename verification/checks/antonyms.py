"""Antonym axes of everyday and technical English, for the polarity guard.

Each axis has a positive and a negative pole; a word on one pole in the claim where the aligned source
has a word on the other pole is a flipped statement. The pairs are general English opposites (the kind
a thesaurus lists), grouped so inflections share an axis; they are not drawn from any evaluation set.
Words whose negation is a prefix ("supported" / "unsupported", "valid" / "invalid") need no entry: the
guard reads the prefix as a negation.
"""

from __future__ import annotations

_PAIRS: tuple[tuple[str, str, str], ...] = (
    ("enable", "enable enables enabled enabling", "disable disables disabled disabling"),
    ("true", "true", "false"),
    ("before", "before earlier prior preceding", "after later afterwards following subsequent"),
    ("earliest", "earliest oldest", "latest newest"),
    ("maximum", "maximum max maximal highest largest most upper high higher",
     "minimum min minimal lowest smallest least lower low"),
    ("increase", "increase increases increased increasing", "decrease decreases decreased decreasing"),
    ("raise", "raise raises raised", "reduce reduces reduced"),
    ("always", "always", "never"),
    ("required", "required mandatory compulsory obligatory", "optional voluntary"),
    ("first", "first", "last final"),
    ("start", "start starts started starting", "stop stops stopped stopping"),
    ("begin", "begin begins began beginning", "end ends ended ending"),
    ("allow", "allow allows allowed allowing permit permits permitted",
     "forbid forbids forbidden forbidding prohibit prohibits prohibited prohibiting deny denies denied"),
    ("accept", "accept accepts accepted accepting", "reject rejects rejected rejecting"),
    ("fast", "fast faster fastest quick quicker quickest", "slow slower slowest"),
    ("large", "large larger big bigger biggest", "small smaller little"),
    ("more", "more greater", "fewer less"),
    ("include", "include includes included including", "exclude excludes excluded excluding"),
    ("inside", "inside within", "outside"),
    ("internal", "internal internally", "external externally"),
    ("automatic", "automatic automatically", "manual manually"),
    ("visible", "visible shown", "hidden invisible"),
    ("show", "show shows showing", "hide hides hiding"),
    ("open", "open opens opened", "close closes closed"),
    ("add", "add adds added adding", "remove removes removed removing"),
    ("create", "create creates created creating", "delete deletes deleted deleting destroy destroys destroyed"),
    ("read", "read reads reading", "write writes written writing"),
    ("input", "input inputs", "output outputs"),
    ("local", "local locally", "remote remotely"),
    ("public", "public publicly", "private privately"),
    ("safe", "safe safely", "dangerous"),
    ("success", "success successful successfully succeed succeeds succeeded", "failure fail fails failed"),
    ("synchronous", "synchronous synchronously", "asynchronous asynchronously"),
    ("absolute", "absolute", "relative"),
    ("upper", "uppercase", "lowercase"),
    ("on", "on", "off"),
    ("ascending", "ascending", "descending"),
    ("import", "import imports imported", "export exports exported"),
    ("upload", "upload uploads uploaded", "download downloads downloaded"),
    ("encrypt", "encrypt encrypts encrypted", "decrypt decrypts decrypted"),
    ("compress", "compress compresses compressed compression", "decompress decompresses decompressed decompression"),
    ("above", "above over", "below beneath"),
    ("incoming", "incoming inbound", "outgoing outbound"),
    ("explicit", "explicit explicitly", "implicit implicitly"),
    ("static", "static statically", "dynamic dynamically"),
    ("global", "global globally", "per-project"),
    ("strict", "strict strictly", "lenient loose"),
    ("leading", "leading prefix", "trailing suffix"),
    ("inclusive", "inclusive", "exclusive"),
    ("same", "same identical equal", "different distinct"),
    ("left", "left", "right"),
    ("top", "top", "bottom"),
    ("long", "long longer longest", "short shorter shortest"),
    ("recommended", "recommended recommend recommends preferred encouraged",
     "deprecated discouraged obsolete"),
    ("horizontal", "horizontal horizontally", "vertical vertically"),
)


def _build() -> dict[str, tuple[str, int]]:
    table: dict[str, tuple[str, int]] = {}
    for axis, plus, minus in _PAIRS:
        for word in plus.split():
            table.setdefault(word, (axis, 1))
        for word in minus.split():
            table.setdefault(word, (axis, -1))
    return table


# word (lower case) -> (axis, +1 | -1)
AXES: dict[str, tuple[str, int]] = _build()
