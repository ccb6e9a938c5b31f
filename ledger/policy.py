"""Trust policies (c2sp.org/tlog-policy): which logs, which witnesses, and which cosignatures make a quorum.

A policy file is lines of words; blank lines and `#` comments are skipped:

    log <log vkey> [<url>]                       a log whose checkpoints are accepted (its signed-note key)
    witness <name> <witness vkey> [<url>]        a witness (its cosignature/v1 key, or a plain Ed25519 vkey)
    group <name> <all|any|k> <member>...         k of the members (witnesses or groups named on earlier lines)
    quorum <name|none>                           the witness or group that must be satisfied (`none`: no witness)

Names are unique across witnesses and groups and defined before use; exactly one `quorum` line. A checkpoint meets
the policy when one of its logs signed it and the cosignatures that verify satisfy the quorum: a witness counts once
however many lines it has, a cosignature of an unknown key is ignored, and one that does not verify does not count.
Pure: text in, answers out.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ledger.cosignature import CosignatureVerifier
from ledger.notes import NoteError, TreeHead, Verifier


class PolicyError(ValueError):
    """A policy file that breaks the grammar: `code` names the fault, `line` where (0: the file as a whole)."""

    def __init__(self, code: str, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}" if line else message)
        self.code = code
        self.line = line


class QuorumError(ValueError):
    """A checkpoint that does not meet a policy: unsigned by its logs, or cosigned by too few witnesses."""


@dataclass(frozen=True)
class PolicyLog:
    """A log the policy accepts."""

    verifier: Verifier
    url: str | None = None


@dataclass(frozen=True)
class PolicyWitness:
    """A witness of the policy: its local name, key and (for those who submit checkpoints to it) its URL."""

    name: str
    verifier: CosignatureVerifier
    url: str | None = None


@dataclass(frozen=True)
class Group:
    """`threshold` of `members` (names of witnesses or earlier groups) must be satisfied."""

    name: str
    threshold: int
    members: tuple[str, ...]


@dataclass(frozen=True)
class Cosigned:
    """What checking a checkpoint found: its text and head, and the witnesses whose cosignature verified."""

    text: str
    head: TreeHead
    witnesses: frozenset[str]


@dataclass(frozen=True)
class Policy:
    """A parsed policy: its logs, witnesses, groups and quorum (None: `quorum none`)."""

    logs: tuple[PolicyLog, ...]
    witnesses: dict[str, PolicyWitness] = field(default_factory=dict)
    groups: dict[str, Group] = field(default_factory=dict)
    quorum: str | None = None

    def satisfied(self, cosigners: frozenset[str] | set[str], name: str | None = None) -> bool:
        """Whether the witnesses named in `cosigners` satisfy `name` (default: the quorum)."""
        if name is None:
            if self.quorum is None:
                return True
            name = self.quorum
        if name in self.witnesses:
            return name in cosigners
        group = self.groups[name]
        return sum(self.satisfied(cosigners, member) for member in group.members) >= group.threshold

    def cosigners(self, note: str) -> Cosigned:
        """The checkpoint text of `note` and which of the policy's witnesses validly cosigned it; QuorumError when
        no log of the policy signed it (or its origin is not the signing log's)."""
        text = None
        for entry in self.logs:
            try:
                text = entry.verifier.open(note)
            except NoteError:
                continue
            break
        if text is None:
            raise QuorumError("the checkpoint carries no valid signature of a log of the policy")
        try:
            head = TreeHead.parse(text)
        except NoteError as exc:
            raise QuorumError(f"the signed note is not a checkpoint: {exc}") from None
        if not any(head.origin == entry.verifier.name for entry in self.logs):
            raise QuorumError(f"the checkpoint's origin {head.origin!r} is not a log of the policy")
        found = set()
        for witness in self.witnesses.values():
            try:
                witness.verifier.open(note)
            except NoteError:  # absent, or a line of its key that does not verify: it does not count
                continue
            found.add(witness.name)
        return Cosigned(text, head, frozenset(found))

    def check(self, note: str) -> Cosigned:
        """`cosigners(note)` when the quorum is met; QuorumError saying who cosigned otherwise."""
        cosigned = self.cosigners(note)
        if not self.satisfied(cosigned.witnesses):
            who = ", ".join(sorted(cosigned.witnesses)) or "no witness"
            raise QuorumError(f"the checkpoint of size {cosigned.head.size} does not meet the quorum "
                              f"{self.quorum!r}: cosigned by {who}")
        return cosigned


def _url(words: list[str], at: int, number: int) -> str | None:
    if len(words) <= at:
        return None
    if len(words) > at + 1:
        raise PolicyError("extra-words", number, f"unexpected words after the URL: {' '.join(words[at + 1:])}")
    if not words[at].startswith(("https://", "http://")):
        raise PolicyError("bad-url", number, f"not an http(s) URL: {words[at]!r}")
    return words[at]


def _threshold(word: str, members: int, number: int) -> int:
    if word == "all":
        return members
    if word == "any":
        return 1
    if not word.isascii() or not word.isdigit() or (word != "0" and word[0] == "0"):
        raise PolicyError("bad-threshold", number, f"a group's threshold is all, any or a number, not {word!r}")
    k = int(word)
    if not 1 <= k <= members:
        raise PolicyError("bad-threshold", number, f"a threshold of {k} of {members} members")
    return k


def parse_policy(text: str) -> Policy:
    """The policy in `text`; PolicyError (with a code and the line number) at the first line that breaks it."""
    logs: list[PolicyLog] = []
    witnesses: dict[str, PolicyWitness] = {}
    groups: dict[str, Group] = {}
    quorum: list[str | None] = []
    for number, raw in enumerate(text.splitlines(), 1):
        words = raw.split("#", 1)[0].split()
        if not words:
            continue
        keyword, args = words[0], words[1:]
        if keyword == "log":
            if not args:
                raise PolicyError("missing-words", number, "a log line is `log <vkey> [<url>]`")
            try:
                logs.append(PolicyLog(Verifier.parse(args[0]), _url(args, 1, number)))
            except NoteError as exc:
                raise PolicyError("bad-key", number, str(exc)) from None
        elif keyword == "witness":
            if len(args) < 2:
                raise PolicyError("missing-words", number, "a witness line is `witness <name> <vkey> [<url>]`")
            _fresh(args[0], witnesses, groups, number)
            try:
                verifier = CosignatureVerifier.parse(args[1])
            except NoteError as exc:
                raise PolicyError("bad-key", number, str(exc)) from None
            if any(w.verifier == verifier for w in witnesses.values()):
                raise PolicyError("duplicate-key", number, "this witness key is named on an earlier line")
            witnesses[args[0]] = PolicyWitness(args[0], verifier, _url(args, 2, number))
        elif keyword == "group":
            if len(args) < 3:
                raise PolicyError("missing-words", number, "a group line is `group <name> <all|any|k> <member>...`")
            _fresh(args[0], witnesses, groups, number)
            members = tuple(args[2:])
            for member in members:
                if member not in witnesses and member not in groups:
                    raise PolicyError("unknown-name", number, f"{member!r} is not a witness or group defined above")
            if len(set(members)) != len(members):
                raise PolicyError("duplicate-member", number, "a group names each member once")
            groups[args[0]] = Group(args[0], _threshold(args[1], len(members), number), members)
        elif keyword == "quorum":
            if len(args) != 1:
                raise PolicyError("missing-words", number, "a quorum line is `quorum <name|none>`")
            if quorum:
                raise PolicyError("second-quorum", number, "a policy has one quorum line")
            if args[0] != "none" and args[0] not in witnesses and args[0] not in groups:
                raise PolicyError("unknown-name", number, f"{args[0]!r} is not a witness or group defined above")
            quorum.append(None if args[0] == "none" else args[0])
        else:
            raise PolicyError("unknown-keyword", number, f"no policy line starts with {keyword!r}")
    if not logs:
        raise PolicyError("no-log", 0, "the policy names no log")
    if not quorum:
        raise PolicyError("no-quorum", 0, "the policy has no quorum line")
    return Policy(tuple(logs), witnesses, groups, quorum[0])


def _fresh(name: str, witnesses: dict[str, PolicyWitness], groups: dict[str, Group], number: int) -> None:
    if name == "none" or name in witnesses or name in groups:
        raise PolicyError("duplicate-name", number, f"the name {name!r} is taken")
