"""Word forms a suffix-stripping stemmer cannot fold: irregular past forms of common verbs ("shrunk", "laid",
"hid") and British spellings ("behaviour", "neighbour", "centre", "labelled"). A reworded sentence uses them
freely ("the dialog shrank" for "the dialog shrinks"; "the neighbouring cells" for "neighboring cells"), and
read as different words they make it look unsupported. Each maps to the form the stemmer reads as its base.

Left out on purpose: forms that are common words of another meaning in documentation ("bound" in "upper
bound", "left" the side, "bit", "ground", "lit", "saw", "rose", "wound"); "found" is kept, "to found" being rare
there. Each entry is one or more forms, a colon and their base ("shrank shrunk shrunken:shrink").
"""

from __future__ import annotations

_IRREGULAR_PAIRS = """
arisen arose:arise awoke awoken:awake beaten:beat became:become befallen:befall began begun:begin bent:bend
bitten:bite bled:bleed blew blown:blow broke broken:break bred:breed brought:bring built:build
burnt:burn caught:catch chose chosen:choose clung:cling came:come crept:creep dealt:deal dug:dig
did:do drew drawn:draw dreamt:dream drove driven:drive drank drunk:drink ate eaten:eat fell fallen:fall fed:feed
felt:feel fought:fight found:find fled:flee flung:fling flew flown:fly forbade forbidden:forbid forgot
forgotten:forget forgave forgiven:forgive froze frozen:freeze got gotten:get gave given:give went gone:go
grew grown:grow hung:hang heard:hear hid hidden:hide held:hold kept:keep knew known:know laid:lay
led:lead leapt:leap learnt:learn lain:lie lost:lose made:make meant:mean met:meet mistook mistaken:mistake
overcame:overcome overdid overdone:overdo overrode overridden:override overran:overrun overtook
overtaken:overtake overwrote overwritten:overwrite paid:pay rebuilt:rebuild redid redone:redo rewrote
rewritten:rewrite rode ridden:ride rang rung:ring ran:run said:say sought:seek sold:sell sent:send shook
shaken:shake shone:shine shot:shoot showed shown:show shrank shrunk shrunken:shrink sang sung:sing
sank sunk:sink sat:sit slept:sleep slid:slide slung:sling spoke spoken:speak sped:speed spelt:spell spent:spend
spun:spin spat:spit sprang sprung:spring stood:stand stole stolen:steal stuck:stick
stung:sting strode stridden:stride struck stricken:strike strove striven:strive swore sworn:swear swept:sweep
swam swum:swim swung:swing took taken:take taught:teach tore torn:tear told:tell thought:think threw
thrown:throw trod trodden:tread underwent undergone:undergo understood:understand undertook
undertaken:undertake undid undone:undo unbound:unbind unwound:unwind upheld:uphold woke
woken:wake wore worn:wear wove woven:weave wept:weep withdrew withdrawn:withdraw withheld:withhold
wrote written:write
"""

# British spellings that no suffix rule reaches, and their American forms (the -ise/-ize pair is folded by the
# stemmer itself).
_BRITISH_PAIRS = """
behaviour:behavior behaviours:behaviors behavioural:behavioral colour:color colours:colors coloured:colored
colouring:coloring favour:favor favours:favors favoured:favored favourite:favorite favourites:favorites
neighbour:neighbor neighbours:neighbors neighbouring:neighboring honour:honor honours:honors honoured:honored
labour:labor flavour:flavor flavours:flavors humour:humor vapour:vapor armour:armor endeavour:endeavor
harbour:harbor rumour:rumor odour:odor parlour:parlor savour:savor
centre:center centres:centers centred:centered centring:centering metre:meter metres:meters litre:liter
litres:liters fibre:fiber theatre:theater spectre:specter
licence:license licences:licenses defence:defense offence:offense pretence:pretense
analyse:analyze analysed:analyzed analyses:analyzes analysing:analyzing paralyse:paralyze catalyse:catalyze
catalogue:catalog catalogues:catalogs dialogue:dialog dialogues:dialogs analogue:analog
grey:gray greyed:grayed greyscale:grayscale
labelled:labeled labelling:labeling modelled:modeled modelling:modeling travelled:traveled travelling:traveling
cancelled:canceled cancelling:canceling signalled:signaled signalling:signaling levelled:leveled
levelling:leveling tunnelled:tunneled tunnelling:tunneling fuelled:fueled dialled:dialed totalled:totaled
marshalled:marshaled marshalling:marshaling channelled:channeled channelling:channeling counselled:counseled
enrol:enroll enrolment:enrollment fulfil:fulfill fulfilment:fulfillment instalment:installment
programme:program programmes:programs judgement:judgment ageing:aging
"""


def _forms(entries: str) -> dict[str, str]:
    """Each form -> its base, from entries of forms, a colon and their base (an entry may run across lines)."""
    table: dict[str, str] = {}
    pending: list[str] = []
    for token in entries.split():
        form, colon, base = token.partition(":")
        pending.append(form)
        if colon:
            table.update((f, base) for f in pending if f != base)
            pending = []
    return table


WORD_FORMS: dict[str, str] = {**_forms(_IRREGULAR_PAIRS), **_forms(_BRITISH_PAIRS)}


def base_form(word: str) -> str:
    """The word's base when it is an irregular form or a British spelling (lower case in, lower case out)."""
    return WORD_FORMS.get(word, word)
