"""ledger/policy.py: tlog-policy files parsed (good and bad lines), and quorums judged over real cosignatures."""

from __future__ import annotations

import pytest

from ledger.cosignature import Cosigner
from ledger.notes import Checkpoint, Signer
from ledger.policy import Policy, PolicyError, QuorumError, parse_policy

ROOT = bytes(range(32))


@pytest.fixture
def keys() -> tuple[Signer, list[Cosigner]]:
    return Signer.generate("turnstile.test/log"), [Cosigner.generate(f"witness.test/w{i}") for i in range(4)]


def policy_text(log: Signer, witnesses: list[Cosigner], tail: str) -> str:
    lines = [f"# a policy\nlog {log.verifier().text()} https://log.test/\n"]
    lines += [f"witness w{i} {w.verifier().text()} https://w{i}.test/\n" for i, w in enumerate(witnesses)]
    return "".join(lines) + tail


def cosigned(log: Signer, by: list[Cosigner], size: int = 5) -> str:
    text = Checkpoint(log.name, size, ROOT, "2030-01-01T00:00:00Z").text()
    return log.sign(text) + "".join(w.cosign(text, 1_700_000_000) for w in by)


def test_a_policy_parses_logs_witnesses_groups_and_quorum(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    policy = parse_policy(policy_text(log, ws, "group two 2 w0 w1 w2  # two of three\ngroup top all two w3\n"
                                               "quorum top\n"))
    assert [entry.verifier for entry in policy.logs] == [log.verifier()]
    assert policy.logs[0].url == "https://log.test/"
    assert policy.witnesses["w1"].verifier == ws[1].verifier() and policy.witnesses["w1"].url == "https://w1.test/"
    assert policy.groups["two"].threshold == 2 and policy.groups["top"].threshold == 2
    assert policy.quorum == "top"
    assert policy.satisfied({"w0", "w2", "w3"}) and not policy.satisfied({"w0", "w1", "w2"})
    assert not policy.satisfied({"w0", "w3"})


def test_any_all_and_none(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    assert parse_policy(policy_text(log, ws, "group g any w0 w1\nquorum g\n")).satisfied({"w1"})
    assert not parse_policy(policy_text(log, ws, "group g all w0 w1\nquorum g\n")).satisfied({"w1"})
    assert parse_policy(policy_text(log, ws, "quorum none\n")).satisfied(set())
    single = parse_policy(policy_text(log, ws, "quorum w2\n"))
    assert single.satisfied({"w2"}) and not single.satisfied({"w0", "w1"})


@pytest.mark.parametrize(("tail", "code"), [
    ("quorum nobody\n", "unknown-name"),
    ("group g 2 w0 w9\nquorum g\n", "unknown-name"),
    ("group g 3 w0 w1\nquorum g\n", "bad-threshold"),
    ("group g 0 w0 w1\nquorum g\n", "bad-threshold"),
    ("group g 02 w0 w1\nquorum g\n", "bad-threshold"),
    ("group g most w0 w1\nquorum g\n", "bad-threshold"),
    ("group g 1 w0 w0\nquorum g\n", "duplicate-member"),
    ("group w0 1 w1\nquorum w0\n", "duplicate-name"),
    ("group g 1 w1\ngroup g 1 w2\nquorum g\n", "duplicate-name"),
    ("group g 1\nquorum g\n", "missing-words"),
    ("quorum w0\nquorum w1\n", "second-quorum"),
    ("quorum\n", "missing-words"),
    ("", "no-quorum"),
    ("quorum w0\ntrust w0\n", "unknown-keyword"),
    ("witness w9 not+a+key\nquorum w0\n", "bad-key"),
    ("witness w9 abc\nquorum w0\n", "bad-key"),
    ("witness w9\nquorum w0\n", "missing-words"),
    ("log\nquorum w0\n", "missing-words"),
])
def test_bad_policies_are_refused_with_a_code_and_the_line(keys: tuple[Signer, list[Cosigner]], tail: str,
                                                           code: str) -> None:
    log, ws = keys
    text = policy_text(log, ws, tail)
    with pytest.raises(PolicyError) as caught:
        parse_policy(text)
    assert caught.value.code == code
    if code not in ("no-quorum", "no-log"):
        assert caught.value.line > len(ws) + 1  # one of the tail's lines, not the good ones above it


def test_a_witness_line_with_a_bad_url_or_extra_words_or_a_repeated_key(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    vkey = Cosigner.generate("witness.test/x").verifier().text()
    for line, code in [(f"witness x {vkey} ftp://x/\n", "bad-url"), (f"witness x {vkey} https://x/ more\n",
                                                                      "extra-words"),
                       (f"witness x {ws[0].verifier().text()}\n", "duplicate-key")]:
        with pytest.raises(PolicyError) as caught:
            parse_policy(policy_text(log, ws, line + "quorum w0\n"))
        assert caught.value.code == code and caught.value.line == len(ws) + 3
    with pytest.raises(PolicyError) as caught:
        parse_policy(f"witness w0 {vkey}\nquorum w0\n")
    assert caught.value.code == "no-log"


def two_of_three(log: Signer, ws: list[Cosigner]) -> Policy:
    return parse_policy(policy_text(log, ws[:3], "group g 2 w0 w1 w2\nquorum g\n"))


def test_a_quorum_of_valid_cosignatures_is_met(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    policy = two_of_three(log, ws)
    checked = policy.check(cosigned(log, [ws[0], ws[2]]))
    assert checked.witnesses == {"w0", "w2"} and checked.head.size == 5
    with pytest.raises(QuorumError, match="cosigned by w1"):
        policy.check(cosigned(log, [ws[1]]))


def test_unknown_and_duplicate_signers_do_not_make_a_quorum(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    policy = two_of_three(log, ws)
    stranger = Cosigner.generate("witness.test/w1")  # the name of w1, another key
    note = cosigned(log, [ws[0], ws[0], ws[3], stranger])
    assert policy.cosigners(note).witnesses == {"w0"}
    with pytest.raises(QuorumError):
        policy.check(note)


def test_a_cosignature_over_another_checkpoint_does_not_count(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    policy = two_of_three(log, ws)
    other = Checkpoint(log.name, 6, ROOT, "2030-01-01T00:00:00Z").text()
    note = cosigned(log, [ws[0]]) + ws[1].cosign(other, 1_700_000_000)  # w1 cosigned a fork of another size
    assert policy.cosigners(note).witnesses == {"w0"}
    with pytest.raises(QuorumError):
        policy.check(note)


def test_a_checkpoint_not_signed_by_a_log_of_the_policy_is_refused(keys: tuple[Signer, list[Cosigner]]) -> None:
    log, ws = keys
    policy = two_of_three(log, ws)
    impostor = Signer.generate(log.name)  # the same origin, another key
    with pytest.raises(QuorumError, match="no valid signature"):
        policy.check(cosigned(impostor, ws[:3]))
    text = Checkpoint(log.name, 5, ROOT, "2030-01-01T00:00:00Z").text()
    altered = cosigned(log, ws[:3]).replace(text, text.replace("\n5\n", "\n6\n"))
    with pytest.raises(QuorumError):
        policy.check(altered)
