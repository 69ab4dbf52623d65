"""The words the audit's call gate (``mcplint.audit.call_gate``) reads a tool by.

This lexicon is the gate's alone: the annotation rules (MCP410-MCP413) use the narrower one in
``mcplint.risk``, tuned against false findings. Here a miss can change a production server, so
the lists are broad and every word comes with its inflections (removes, removing, removed).

- ``READ_VERBS``: the only words a tool's name may start with (``get_user``, ``listFiles``).
- ``EFFECT_WORDS``: an effect wherever it appears, in the name or any text of the tool.
- ``AMBIGUOUS_WORDS``: an effect as a verb, a harmless noun after an article, a preposition or
  a read verb (``get_post``, "Lists the messages"); anywhere else, the tool is not called.
- ``RED_FLAGS``: words that announce an effect by themselves ("permanently", "irreversible").
- ``STATE_COMPLEMENTS``: what makes ``get`` causative at the end of a name (``get_door_open``).
"""

from __future__ import annotations

READ_VERBS = frozenset(
    "get list read search find fetch lookup look describe show count view retrieve browse inspect stat "
    "compare diff explain summarize summarise analyze analyse calculate compute convert parse translate "
    "estimate echo sum subtract multiply divide average decode encode hash detect classify is has".split()
)
# "add" is a read verb only for arithmetic: add_numbers, "Add two integers".
ARITHMETIC_VERB = "add"
ARITHMETIC_OBJECTS = frozenset(
    "number numbers integer integers int ints float floats decimal decimals digit digits".split()
)
NUMBER_WORDS = frozenset("two three four several a the up".split())

# Base forms; inflections are generated below. Money, destruction, execution, sending, writing,
# access and device control: none of these is ever called on the strength of an annotation.
_EFFECT_VERBS = (
    # destroy
    "delete remove erase wipe nuke purge destroy truncate reset revoke kill terminate shutdown reboot "
    "restart halt disable enable ban unban unblock unlock overwrite shred unlink rmdir mkdir chmod chown "
    "flush evict expire invalidate cancel suspend kick mute unmute drop obliterate annihilate "
    # money
    "pay refund purchase buy sell charge transfer withdraw deposit donate trade stake bet checkout "
    # send
    "send tweet retweet notify invite upload broadcast publish forward reply dm "
    # write
    "write save insert create add modify rename append upsert replace mutate alter toggle "
    "activate deactivate enroll unenroll register unregister submit put restore revert rollback "
    "confirm accept decline approve reject grant assign unassign "
    # execute
    "execute exec eval invoke spawn install uninstall deploy undeploy migrate provision mint vote "
    "click navigate drag rotate "
    # more state changes: queues, tickets, social, jobs
    "unpublish unshare redeem upvote downvote dequeue consume renew allocate increment decrement undo redo "
    "reindex rebuild regenerate retry replay resend reschedule abort interrupt disarm emit hide unhide "
    "authorize deauthorize login logout signup reopen dismiss escalate snooze "
    "shut teardown cleanup prune rm mv cp quit discard recycle retire decommission dispose eject "
    "unmount scrub settle remit lend borrow swap gamble dial announce remind persist populate configure "
    "reconfigure initialize initialise symlink enqueue dispatch sudo impersonate elevate promote demote "
    # found by attacking the gate: disks, money, records and devices
    "reformat repartition defragment encrypt zeroize spend freeze unfreeze drain redact expunge vacuum "
    "sweep liquidate foreclose garnish overdraw "
    # found by the second attack round: messaging, devices, people, medicine, money, code
    "forget subscribe unsubscribe unfriend unbolt hibernate resize zap clobber amend ignite transmit inform "
    "speak acquire detonate honk steer accelerate sedate dispense inject administer prescribe expel sack "
    "unwind fax evaluate"
).split()
_EFFECT_NOUNS = (
    "zeroes zeroed zeroing "  # (not "zeros", the plural noun)
    "payment payments payout payouts deletion deletions removal removals erasure destruction termination "
    "revocation withdrawal withdrawals donation donations refund refunds purchase purchases shutdown "
    "shutdowns reboot reboots uninstallation overwrite"
).split()

_AMBIGUOUS_VERBS = (
    "post email mail sms message order book update set copy commit merge push run trigger launch "
    "release sync import export archive format record store block lock clear stop start close open share "
    "tag label mark flag pin star follow unfollow schedule reserve call play print turn switch fill press "
    "move patch apply scale sign burn edit ship empty upgrade downgrade reply resolve acknowledge ack "
    "silence link attach detach connect disconnect generate bid offer claim fork clone watch comment react "
    "join receive pop bump snapshot backup refresh pause resume fire track download tear clean trash "
    "mount bill invoice wire fund loan exchange ping alert cache seed setup touch duplicate compile build "
    "boot queue deny whitelist blacklist allowlist blocklist flash "
    # found by the second attack round (nouns too: "the complete list", "memory leaks", "histogram bins")
    "issue complete advance hold arm override adjust raise lower flood relay report leak tell contact wake "
    "ring park hire tip award give credit debit dump exit brew bin grade dose brake hail change sleep"
).split()
# Only these forms of words that are mostly harmless nouns or adjectives ("plain text", "Google Drive",
# "next page", "short names") are verbs that may act: "Texts a code", "pages the on-call".
_AMBIGUOUS_FORMS = {"texts": "text", "texted": "text", "texting": "text", "drives": "drive", "drove": "drive",
                    "pages": "page", "paged": "page", "shorts": "short", "shorted": "short", "shorting": "short"}

RED_FLAGS = frozenset(
    "permanent permanently irreversible irreversibly irrevocable irrevocably destructive destructively "
    "dangerous undone unrecoverable forever gone".split()
)
# Two-word red flags: "side effect", "side-effects".
RED_FLAG_PAIRS = frozenset({("side", "effect"), ("side", "effects"), ("zero", "out"), ("zeroes", "out"),
                            ("zeros", "out"), ("top", "up"), ("tops", "up"), ("switch", "off"),
                            ("switches", "off"), ("turn", "off"), ("turns", "off"), ("power", "off"),
                            ("powers", "off"), ("power", "down"), ("powers", "down"), ("files", "it"),
                            ("files", "them"), ("file", "it"),  # "files it with the IRS"
                            ("longer", "exists"), ("longer", "exist"), ("for", "sale"), ("for", "rent"),
                            ("lays", "off"), ("lay", "off"), ("sets", "off"), ("set", "off"),
                            ("as", "seen"),  # "they count as seen after this"
                            ("into", "your"),  # "fetches the airdrop into your account": a deposit
                            ("garbage", "collects"), ("garbage", "collect")})
# "get_door_open", "get_lights_off", "get_job_started": after get and its object, a word of state
# makes get causative (make it so), not a read. Participles of the ambiguous verbs count too.
STATE_COMPLEMENTS = frozenset(
    "open opened closed shut on off up down done started running stopped working fixed ready going "
    "moving locked unlocked enabled disabled armed disarmed active inactive online offline live".split()
)
# Prefixes that make a verb from a verb: reformat, rewrite, resubmit, unset, unpublish.
VERB_PREFIXES = ("re", "un")

# Long stems that are an effect even inside a word with no separators (forcedelete, userremove).
EMBEDDED_STEMS = (
    "delete", "remove", "destroy", "purge", "erase", "truncate", "overwrite", "uninstall", "terminate",
    "shutdown", "payment", "refund", "transfer", "execute", "revoke", "reboot", "restart",
    "withdraw", "nuke", "wipe", "invoke", "purchase", "destruct",
)

_IRREGULAR = {
    "send": "sent", "sell": "sold", "buy": "bought", "pay": "paid", "write": "wrote written",
    "run": "ran", "burn": "burnt", "shut": "shut", "bet": "bet", "put": "put", "set": "set",
    "withdraw": "withdrew withdrawn", "overwrite": "overwrote overwritten",
}


def inflections(base: str) -> set[str]:
    """base, -s/-es, -ed/-d, -ing, with y -> i, a dropped e and a doubled last consonant.

    Generous on purpose: a form no one writes ("deleteed") costs nothing, a missing one is a miss.
    No agent nouns (-er): "seller", "poster" and "printer" are too often plain nouns."""
    forms = {base, base + "s", base + "es", base + "ed", base + "ing"}
    if base.endswith("e"):
        forms |= {base + "d", base[:-1] + "ing"}
    if base.endswith("y") and base[-2:-1] not in "aeiou":
        forms |= {base[:-1] + "ies", base[:-1] + "ied"}
    if len(base) >= 3 and base[-1] not in "aeiouwxy" and base[-2] in "aeiou" and base[-3] not in "aeiou":
        forms |= {base + base[-1] + "ed", base + base[-1] + "ing"}
    forms |= set(_IRREGULAR.get(base, "").split())
    return forms


def _expand(bases: list[str]) -> dict[str, str]:
    """Every inflected form -> its base form (for the reason shown to the user)."""
    found: dict[str, str] = {}
    for base in bases:
        for form in inflections(base):
            found.setdefault(form, base)
    return found


EFFECT_WORDS = {**_expand(_EFFECT_VERBS), **{noun: noun for noun in _EFFECT_NOUNS}}
AMBIGUOUS_WORDS = {form: base for form, base in {**_expand(_AMBIGUOUS_VERBS), **_AMBIGUOUS_FORMS}.items()
                   if form not in EFFECT_WORDS}
# What makes the ambiguous word after it a noun. Only the word right before counts: with any
# word between, "the tool posts" would read as a noun.
DETERMINERS = frozenset(
    "the a an this these those each every any all some no its their his her your my our latest recent "
    "previous unread existing current specific given selected matching related pending two three many "
    "most few several one next first last 's".split()
)  # before any form: "the posted message", "its settings"
# Before the base or -s form only, never a gerund ("by updating") or a participle:
PREPOSITIONS = frozenset("of for in on from by about per with without within between among".split())
# Nouns that head a compound with an ambiguous noun: "error messages", "sort order", "date format".
NOUN_MODIFIERS = frozenset("error warning status chat blog sort date time iso open closed github web".split())
READ_FORMS = frozenset(form for verb in (*READ_VERBS - {"is", "has", "get"}, "return", "contain", "include",
                                         "match") for form in inflections(verb)) | {"get"}

# Parameters that are action switches, whatever their type: a lax server acts on any truthy value
# (`if args.get("apply")`), or on a falsy one for an inverted switch (dry_run, preview). A word here
# anywhere in a parameter's name (apply, dry_run, auto_merge, forcePush) refuses the tool; so does
# an effect word (delete_after, notify). For a boolean (or untyped) parameter every ambiguous word
# counts too, in its name and its description ("email": true, "Print them").
SWITCH_WORDS = frozenset(
    "apply applied force forced forcing yes confirm confirmed dry dryrun wet real really proceed perform "
    "go do commit merge push run trigger launch release sync deploy fire ship execute exec overwrite "
    "auto autofix fix preview simulate simulation noop sandbox safe readonly validate verify check test "
    "destructive unsafe".split()
)
# Secrets: a tool that returns one puts it into the recording and the report. Words and phrases
# (after camelCase and snake_case are split), and file paths that hold credentials.
SECRET_WORDS = (
    "secret", "secrets", "credential", "credentials", "password", "passwords", "passwd", "passphrase",
    "passphrases", "passcode", "cookie", "cookies", "session", "sessions", "jwt", "jwts", "oauth", "bearer",
    "kubeconfig", "dotenv", "cvv", "env", "environ", "token", "tokens",
)
SECRET_PHRASES = ("environment variable", "env var", "api key", "access key", "private key", "secret key",
                  "ssh key", "signing key", "client secret", "auth token", "access token", "refresh token")
# "token" of a paginated listing ("next page token") or a model's count ("max tokens") is no secret.
TOKEN_NOT_SECRET_AFTER = frozenset("page next continuation pagination cursor resume max".split())
SECRET_PATHS = (
    # /proc/<anything>: thread-self, net/../self and every pid hold a process's environment and memory
    r"~/\.ssh\b", r"/\.ssh/", r"\bid_(?:rsa|dsa|ecdsa|ed25519)\b", r"/proc/", r"/etc/(?:g?shadow|sudoers)\b",
    r"(?:^|[/\\\s])[\w.-]*\.env\b", r"\.aws/(?:credentials|config)\b", r"\.netrc\b", r"\.pgpass\b",
    r"\.git-credentials\b", r"\.docker/config\.json", r"\.kube/config\b", r"\.gnupg\b", r"\.npmrc\b", r"\.pypirc\b",
    r"_history\b", r"/etc/ssl/private\b", r"\.(?:pem|key|p12|pfx|jks|keystore)\b", r"\bgcloud/",
    r"\bapplication_default_credentials\b", r"\bcredentials\.json\b", r"\.config/gh/hosts\b", r"\.azure/",
    # cloud instance metadata (credentials of the machine's role)
    r"\b169\.254\.\d", r"\bmetadata\.google\.internal\b", r"\b100\.100\.100\.200\b", r"\bfd00:ec2::",
)

# What makes a value the audit would send (a default, const, enum[0] or example) unsafe to send,
# whatever the words around it: a command line or query (shell or SQL metacharacters), a device or
# kernel file, or a URL to a host that is not on the public internet. A lax server acts on it.
UNSAFE_VALUES = (
    r"[;&|`<>]|\$\(|\$\{", r"'\s*(?:or|and|union)\b", r"--\s*$", r"/\*", r"(?:^|[\s=:])/(?:dev|sys|proc)/",
    r"\b(?:mkfs|dd\s+if=|fdisk|shred|chmod|chown|sudo|kill|pkill)\b",
    r"(?i:\b[a-z][a-z0-9+.-]*://(?:[^/\s@]*@)?(?:localhost|127\.|0\.0\.0\.0|10\.|192\.168\.|172\.(?:1[6-9]|2\d|3[01])\."
    r"|169\.254\.|\[|[^/\s:]*\.(?:internal|local|localdomain)\b))",
)

# A verb in a clause of its own that the gate does not know as a read ("... and takes down
# production", "Routes all traffic", "It ends the process") refuses the tool: the gate fails closed
# on what it cannot vet. These verbs, with the read verbs, are known not to act.
HARMLESS_VERBS = frozenset(
    "return support accept require include contain use provide give help let allow expect need work match "
    "cover mention note see try pass call specify mean".split()
)
# A verb and a particle that together still only read ("Looks up a user", "Echoes back the input");
# any other verb with one of PARTICLES ("takes down", "logs you out", "spins up") may act.
HARMLESS_PHRASAL = frozenset({("look", "up"), ("echo", "back"), ("sum", "up"), ("find", "out"), ("read", "out"),
                              ("read", "back"), ("print", "out"), ("list", "out")})
PARTICLES = frozenset("up down out off over away back online offline".split())
# Words that start the object of a verb ("takes THE site", "logs YOU out").
OBJECT_STARTS = frozenset(
    "the a an all every each any some your my our their its this that these those you it them one two three "
    "several many most no everything everyone".split()
)
