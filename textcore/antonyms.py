"""Antonym axes of everyday and technical English: the one table for answer reuse and the checker.

Each axis has a positive and a negative side; a word or phrase on one side where the other text has
one on the other side is a flipped statement ("enable" / "disable", "before" / "after"). Knowledge's
grounding folds each side to one token (so "raise" and "increase" compare equal when two questions
are matched); the checker's polarity guard reads single words (`WORD_AXES`). The pairs are general
English opposites (the kind a thesaurus lists), with their inflections; they are not drawn from any
evaluation set. Words whose negation is a prefix ("supported" / "unsupported") need no entry, and
negations ("not", "never") are read as negations, not as a side of an axis.
"""

from __future__ import annotations

__all__ = ["ANTONYMS", "WORD_AXES"]

ANTONYMS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ('enable', ('enable', 'enabled', 'enabling', 'turn on', 'turned on', 'switch on', 'switched on', 'activate', 'activated', 'activates', 'enables'),
     ('disable', 'disabled', 'disabling', 'turn off', 'turned off', 'switch off', 'switched off', 'deactivate', 'deactivated', 'deactivates', 'disables')),
    ('add', ('add', 'adding', 'added', 'insert', 'attach', 'adds', 'create', 'creates', 'created', 'creating'),
     ('remove', 'removing', 'removed', 'delete', 'deleting', 'deleted', 'get rid of', 'detach', 'drop', 'removes', 'deletes', 'destroy', 'destroys', 'destroyed')),
    ('import', ('import', 'importing', 'load', 'imports', 'imported'),
     ('export', 'exporting', 'dump', 'exports', 'exported')),
    ('upload', ('upload', 'uploading', 'uploaded', 'uploads'),
     ('download', 'downloading', 'downloaded', 'downloads')),
    ('start', ('start', 'starting', 'started', 'launch', 'run', 'running', 'starts'),
     ('stop', 'stopping', 'stopped', 'kill', 'shut down', 'halt', 'stops')),
    ('open', ('open', 'opening', 'opened', 'opens'),
     ('close', 'closing', 'closed', 'closes')),
    ('show', ('show', 'shown', 'showing', 'display', 'displayed', 'displaying', 'displays', 'unhide', 'visible', 'shows'),
     ('hide', 'hiding', 'hidden', 'invisible', 'hides')),
    ('include', ('include', 'including', 'included', 'includes'),
     ('exclude', 'excluding', 'excluded', 'excludes')),
    ('push', ('push', 'pushing', 'pushed', 'send'),
     ('pull', 'pulling', 'pulled', 'fetch', 'receive')),
    ('zoom', ('zoom in',),
     ('zoom out',)),
    ('increase', ('increase', 'increasing', 'raise', 'raising', 'more', 'higher', 'bigger', 'grow', 'maximal', 'highest', 'largest', 'upper', 'high', 'increases', 'increased', 'raises', 'raised', 'large', 'larger', 'big', 'biggest', 'greater'),
     ('decrease', 'decreasing', 'lower', 'lowering', 'reduce', 'reducing', 'less', 'fewer', 'smaller', 'shrink', 'minimal', 'lowest', 'smallest', 'low', 'decreases', 'decreased', 'reduces', 'reduced', 'small', 'little')),
    ('grant', ('grant', 'granting', 'give access', 'permit', 'allow', 'allows', 'allowed', 'allowing', 'permits', 'permitted'),
     ('revoke', 'revoking', 'deny', 'denied', 'block', 'blocked', 'forbid', 'forbids', 'forbidden', 'forbidding', 'prohibit', 'prohibits', 'prohibited', 'prohibiting', 'denies')),
    ('bool', ('true', 'yes'),
     ('false',)),
    ('minmax', ('min', 'minimum', 'least'),
     ('max', 'maximum', 'most')),
    ('accept', ('accept', 'accepted', 'approve', 'approved', 'accepts', 'accepting'),
     ('reject', 'rejected', 'decline', 'declined', 'rejects', 'rejecting')),
    ('encrypt', ('encrypt', 'encrypted', 'encrypting', 'encrypts'),
     ('decrypt', 'decrypted', 'decrypting', 'decrypts')),
    ('success', ('succeed', 'succeeds', 'success', 'successful', 'successfully', 'succeeded'),
     ('fail', 'fails', 'failed', 'failure', 'failing')),
    ('before', ('before', 'earlier', 'prior', 'preceding'),
     ('after', 'later', 'afterwards', 'following', 'subsequent')),
    ('earliest', ('earliest', 'oldest'),
     ('latest', 'newest')),
    ('required', ('required', 'mandatory', 'compulsory', 'obligatory'),
     ('optional', 'voluntary')),
    ('first', ('first',),
     ('last', 'final')),
    ('begin', ('begin', 'begins', 'began', 'beginning'),
     ('end', 'ends', 'ended', 'ending')),
    ('fast', ('fast', 'faster', 'fastest', 'quick', 'quicker', 'quickest'),
     ('slow', 'slower', 'slowest')),
    ('inside', ('inside', 'within'),
     ('outside',)),
    ('internal', ('internal', 'internally'),
     ('external', 'externally')),
    ('automatic', ('automatic', 'automatically'),
     ('manual', 'manually')),
    ('read', ('read', 'reads', 'reading'),
     ('write', 'writes', 'written', 'writing')),
    ('input', ('input', 'inputs'),
     ('output', 'outputs')),
    ('local', ('local', 'locally'),
     ('remote', 'remotely')),
    ('public', ('public', 'publicly'),
     ('private', 'privately')),
    ('safe', ('safe', 'safely'),
     ('dangerous',)),
    ('synchronous', ('synchronous', 'synchronously'),
     ('asynchronous', 'asynchronously')),
    ('absolute', ('absolute',),
     ('relative',)),
    ('upper', ('uppercase',),
     ('lowercase',)),
    ('on', ('on',),
     ('off',)),
    ('ascending', ('ascending',),
     ('descending',)),
    ('compress', ('compress', 'compresses', 'compressed', 'compression'),
     ('decompress', 'decompresses', 'decompressed', 'decompression')),
    ('above', ('above', 'over'),
     ('below', 'beneath')),
    ('incoming', ('incoming', 'inbound'),
     ('outgoing', 'outbound')),
    ('explicit', ('explicit', 'explicitly'),
     ('implicit', 'implicitly')),
    ('static', ('static', 'statically'),
     ('dynamic', 'dynamically')),
    ('global', ('global', 'globally'),
     ('per-project',)),
    ('strict', ('strict', 'strictly'),
     ('lenient', 'loose')),
    ('leading', ('leading', 'prefix'),
     ('trailing', 'suffix')),
    ('inclusive', ('inclusive',),
     ('exclusive',)),
    ('same', ('same', 'identical', 'equal'),
     ('different', 'distinct', 'differ', 'differs', 'differed', 'differing')),
    ('left', ('left',),
     ('right',)),
    ('top', ('top',),
     ('bottom',)),
    ('long', ('long', 'longer', 'longest'),
     ('short', 'shorter', 'shortest')),
    ('recommended', ('recommended', 'recommend', 'recommends', 'preferred', 'encouraged'),
     ('deprecated', 'discouraged', 'obsolete')),
    ('horizontal', ('horizontal', 'horizontally'),
     ('vertical', 'vertically')),
)


def _word_axes() -> dict[str, tuple[str, int]]:
    table: dict[str, tuple[str, int]] = {}
    for axis, plus, minus in ANTONYMS:
        for sign, words in ((1, plus), (-1, minus)):
            for word in words:
                if " " not in word:
                    table.setdefault(word, (axis, sign))
    return table


# single word (lower case) -> (axis, +1 | -1)
WORD_AXES: dict[str, tuple[str, int]] = _word_axes()
