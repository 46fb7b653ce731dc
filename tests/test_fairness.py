"""The fair deal at the table: the commitment before the cut, every player's cut, the seed from
both, the key at the end, and ``companion audit`` passing on the journal the app wrote.

Two ways to cut, one deal: "Cut the deck" after Start (Mind Invaders here, as every game
but They Live), and They Live's character pick, each player's first press, as the cut."""

from __future__ import annotations

import hashlib
import hmac
import sqlite3

import pytest

from companion import journal_chain
from companion.audit import run_audit
from companion.composer import secret_face_for
from companion.journal_chain import history_digest
from companion.journal_sqlite import SqliteJournal
from companion.lobby import StartGame
from companion.record import JournaledAction
from companion.statedir import journal_path
from engine import registry
from engine.rng import NotDealt, SeededRandom, commitment, deal_seed, micros
from hardware.base import ButtonName, Code
from tests.secrecy import Table, assert_table_keeps_secrets, random_table_step

KEY = hashlib.sha256(b"fairness test key").digest()


def _open_cut(table: Table, players: int, game: str = "mind-invaders") -> StartGame:
    request = StartGame(registry.get(game), tuple(range(1, players + 1)), {})
    table.app.start_game(request, table.clock())
    table.app.redraw()
    return request


def test_fairness_derivation_is_the_documented_recipe() -> None:
    """The commitment is SHA-256's first 128 bits; the seed is HMAC-SHA-256 of the labelled
    cut under the key (docs/fairness.md), with known values a player can recompute."""
    key = bytes(range(32))
    cut = "1@1001440000 2@1001600000 3@1001760000"
    assert commitment(key) == "630dcd2966c4336691125448bbb25b4f"
    assert commitment(key) == hashlib.sha256(key).hexdigest()[:32]
    expected = hmac.new(key, b"table-companion cut v1 " + cut.encode(), hashlib.sha256).digest()
    assert deal_seed(key, cut) == expected
    assert expected.hex() == "5e0c8e3ced19ce59c8c3a1c8a2124895a9693fd407498c0c0cb6e170e46580e9"


def test_fairness_commitment_shown_before_the_cut_and_nothing_dealt_yet() -> None:
    """After Start nothing is dealt: every player is asked to cut, PEEK shows the commitment
    in two lines of 16, and the public screen shows it whole (text and QR code)."""
    with Table(seats=4, key=KEY) as table:
        _open_cut(table, 3)
        shown = commitment(KEY)
        assert table.app.session.state is None and table.app.session.record is None
        for seat in (1, 2, 3):
            assert [a.label for a in table.app.actions(seat)] == ["Cut the deck"]
        assert table.app.actions(4) == []  # a seat not playing has nothing to cut
        peek = secret_face_for(table.app.view(2))
        assert peek.title == "Commitment" and peek.lines == (shown[:16], shown[16:])
        table.press(2, ButtonName.PEEK, True)
        table.wait(0.5)
        assert shown[:16] in table.app.screens.faces[2].text()
        table.press(2, ButtonName.PEEK, False)
        assert table.public.pages[-1].code == Code("Commitment", shown)
        assert f"Commitment {shown}" in table.public.pages[-1].lines
        assert_table_keeps_secrets(table, frozenset({KEY.hex()[:16]}))


def test_fairness_each_cut_is_the_press_moment_and_the_seed_comes_from_both() -> None:
    """Each press is stamped in microseconds, in press order; each seat sees its own cut;
    the deal waits for the last player and is dealt from HMAC(key, cut)."""
    with Table(seats=3, key=KEY) as table:
        _open_cut(table, 3)
        table.wait(1.25)
        first = table.clock()
        table.choose(3, "cut")
        assert table.app.session.state is None
        assert f"Your cut 3@{round(first * 1e6)}" in table.app.screens.faces[3].text()
        assert "Waiting: 1 2" in table.app.screens.faces[3].text()
        table.wait(0.333333)
        second = table.clock()
        table.choose(1, "cut")
        assert table.app.actions(1) == []  # a second press is not a second cut
        table.choose(1, "cut")
        table.wait(2)
        table.choose(2, "cut")
        record = table.app.session.record
        assert table.app.session.state is not None and record.key == KEY
        cut = f"3@{round(first * 1e6)} 1@{round(second * 1e6)} 2@{round(table.clock() * 1e6)}"
        assert record.cut == cut
        assert record.seed == deal_seed(KEY, cut) == table.app.session.state.seed


def test_fairness_another_cut_deals_another_game() -> None:
    """The same key with the presses a microsecond apart deals from another seed: the
    players' moments count."""
    seeds = []
    for pause in (1.0, 1.000001):
        with Table(seats=3, key=KEY) as table:
            _open_cut(table, 3)
            for seat in (1, 2, 3):
                table.wait(pause)
                table.choose(seat, "cut")
            seeds.append(table.app.session.record.seed)
    assert seeds[0] != seeds[1]


def test_fairness_app_journal_passes_the_audit_with_the_noted_commitment(tmp_path) -> None:
    """A game played at the table to its end, then back to the lobby: the commitment noted
    from the public screen before the cut, the key shown on PEEK at the end, and the audit
    of the journal the app wrote agree, and "seed" names nothing on any screen."""
    journal = SqliteJournal(journal_path(tmp_path))
    with Table(seats=3, journal=journal, key=KEY) as table:
        _open_cut(table, 3)
        noted = table.public.pages[-1].code.text
        for seat in (1, 2, 3):
            table.wait(0.7)
            table.choose(seat, "cut")
        _play_to_the_end(table, b"fairness test player 0123456789")
        table.wait(2.5)  # presses settle for 2 s after the end
        words = [face.text() for face in table.app.screens.faces.values()]
        words += ["\n".join(page.lines) for page in table.public.pages]
        assert all("seed" not in text.lower() for text in words)
        code = table.public.pages[-1].code
        assert code == Code("Key, digest", KEY.hex() + history_digest(table.app.session.record))
        digest = code.text[64:]  # the last row of 16, also on every seat's PEEK
        seat = table.app.session.state.seats[0]
        assert digest in "".join(secret_face_for(table.app.view(seat), page).text()
                                 for page in range(3)).replace("\n", "")
        table.choose(1, "sys:lobby")
        table.choose(1, "sys:yes")  # the game is archived: the audit may read it
    lines: list[str] = []
    assert run_audit(str(tmp_path), None, noted, out=lines.append, digest=digest) == 0, lines
    assert f"  key:  {KEY.hex()}" in lines
    _drop_last_action_and_chain_again(journal_path(tmp_path))
    lines.clear()
    assert run_audit(str(tmp_path), None, noted, out=lines.append) == 0  # the chain holds
    lines.clear()
    assert run_audit(str(tmp_path), None, noted, out=lines.append, digest=digest) == 1
    assert any("FAIL  the history gives digest" in line for line in lines), lines


def _drop_last_action_and_chain_again(path) -> None:
    """What a person who can write the file does: the finished game's last action deleted,
    its seal made again over the history left (every link before it is still whole)."""
    with sqlite3.connect(path) as db:
        game, seen = db.execute("SELECT id, seen FROM games ORDER BY id DESC").fetchone()
        (last,) = db.execute("SELECT max(idx) FROM entries WHERE game = ?", (game,)).fetchone()
        db.execute("DELETE FROM entries WHERE game = ? AND idx = ?", (game, last))
        head = db.execute("SELECT link FROM entries WHERE game = ? AND idx = ?",
                          (game, last - 1)).fetchone()[0]
        db.execute("UPDATE games SET length = ?, seal = ? WHERE id = ?",
                   (last, journal_chain.seal(head, last, seen, finished=True), game))
    db.close()



# --- They Live: each player's character pick is that player's cut --------------------------


def test_fairness_digest_shown_is_the_history_as_it_stands() -> None:
    """The ended game's digest, made once for every redraw that shows it, is made again for
    a history that is not the one it was made of (here an entry more, as a table's own
    action would add): the code never shows the digest of a history that no longer is."""
    with Table(seats=3, key=KEY) as table:
        _cut_by_three(table)
        _play_to_the_end(table, b"fairness digest player")
        record = table.app.session.record
        ended = table.app.session.mode.public_code()
        assert ended == Code("Key, digest", KEY.hex() + history_digest(record))
        record.entries.append(JournaledAction(None, "pause", record.entries[-1].at + 1.0))
        again = table.app.session.mode.public_code()
        assert again == Code("Key, digest", KEY.hex() + history_digest(record)) != ended


def test_fairness_digest_follows_a_history_undone_cut_and_taken_again() -> None:
    """The digest kept as the history grows is always the whole history's chain, link by
    link from its setup, whatever happened to the history since it was last asked: entries
    added, undone, cut off, others taken in their place."""
    def folded(record) -> str:
        head = journal_chain.record_genesis(record)
        for index, entry in enumerate(record.entries):
            head = journal_chain.link(head, index, entry)
        return head.hex()[:journal_chain.DIGEST_DIGITS]

    with Table(seats=3, key=KEY) as table:
        _cut_by_three(table)
        _play_to_the_end(table, b"fairness chain player")
        record = table.app.session.record
    history = list(record.entries)
    record.entries.clear()
    chain = journal_chain.Chain()
    shown = set()
    for entry in history:
        record.entries.append(entry)
        shown.add(chain.follow(record))
        assert chain.follow(record) == folded(record)
    for change in (lambda: record.entries.pop(), lambda: record.entries.append(
            JournaledAction(2, "undone and taken again", 9.0)),
            lambda: record.entries.__delitem__(slice(len(history) // 2, None)),
            lambda: record.entries.extend(history[len(history) // 2 + 1:])):
        change()
        assert chain.follow(record) == folded(record)
    assert len(shown) == len(history)


def test_fairness_the_press_that_ends_the_game_makes_one_link_at_most(monkeypatch) -> None:
    """Every seat waits for the screens of the press that ends the game, which show the
    history's digest: the chain is kept as the game goes, so that press links its own entry
    and no other (made at once, it was one link an entry of the game)."""
    links = []
    real = journal_chain.link
    monkeypatch.setattr(journal_chain, "link", lambda *args: links.append(1) or real(*args))
    with Table(seats=3, key=KEY) as table:
        _cut_by_three(table)
        moves = SeededRandom(b"fairness last press player")
        for _ in range(3000):
            if table.app.session.state.is_terminal():
                break
            links.clear()
            random_table_step(table, moves, system=False)
        assert table.app.session.state.is_terminal()
        assert len(table.app.session.record.entries) > 10
        assert len(links) <= 2  # its entry, by the game and by the journal


def _cut_by_three(table: Table) -> None:
    """Mind Invaders for three, each player cutting in turn."""
    _open_cut(table, 3)
    for seat in (1, 2, 3):
        table.wait(0.7)
        table.choose(seat, "cut")


def _play_to_the_end(table: Table, player: bytes) -> None:
    """Random presses by every seat (``player`` seeds their choices) until the game is over."""
    moves = SeededRandom(player)
    for _ in range(3000):
        if table.app.session.state.is_terminal():
            break
        random_table_step(table, moves, system=False)
    assert table.app.session.state.is_terminal()


def _start_they_live(table: Table, players: int) -> None:
    _open_cut(table, players, "they-live")


def _pick(table: Table, seat: int) -> None:
    """The seat takes the first character offered."""
    table.choose(seat, next(a.id for a in table.app.actions(seat) if a.id.startswith("pick:")))


def test_fairness_they_live_commitment_from_start_and_nothing_dealt_before_the_picks() -> None:
    """Start shows the commitment (status line, public screen and QR, every seat's PEEK) and
    asks no "Cut the deck": the seats pick characters, and nothing is dealt; a draw from the
    game's generator before the deal fails loudly."""
    with Table(seats=4, key=KEY) as table:
        _start_they_live(table, 3)
        shown = commitment(KEY)
        state, record = table.app.session.state, table.app.session.record
        assert not state.dealt and state.identities == {} and record.seed == b""
        for seat in (1, 2, 3):
            labels = [a.label for a in table.app.actions(seat)]
            assert "Cut the deck" not in labels and labels[0] == "Nada"
            assert "Hold PEEK: commitment" in table.app.screens.faces[seat].text()
        assert any(f"commitment {shown}" in line for line in table.status)
        assert table.public.pages[-1].code == Code("Commitment", shown)
        assert {f"Commitment {shown}", "Cut: -"} <= set(table.public.pages[-1].lines)
        peek = secret_face_for(table.app.view(2))
        assert peek.title == "Commitment"
        assert peek.lines == (shown[:16], shown[16:], "Your cut: not yet")
        table.press(2, ButtonName.PEEK, True)
        table.wait(0.5)
        assert shown[:16] in table.app.screens.faces[2].text()
        table.press(2, ButtonName.PEEK, False)
        with pytest.raises(NotDealt):
            state.rng.shuffle([1, 2, 3])
        assert_table_keeps_secrets(table, frozenset({KEY.hex()[:16]}))


def test_fairness_they_live_each_first_pick_is_the_cut_and_the_last_deals() -> None:
    """Each seat's first pick is its cut, stamped in microseconds and shown on its screen; a
    pick taken back before the cut is complete is no press, "Change character" is no second
    cut; the last player's pick deals the identities from HMAC(key, cut)."""
    with Table(seats=3, key=KEY) as table:
        _start_they_live(table, 3)
        table.wait(1.25)
        first = table.clock()
        _pick(table, 3)
        assert f"Your cut 3@{micros(first)}" in table.app.screens.faces[3].text()
        assert f"Cut: 3@{micros(first)}" in table.public.pages[-1].lines
        table.wait(0.5)
        table.choose(3, "unpick")  # Change character: not a second cut
        table.wait(0.5)
        _pick(table, 3)
        table.wait(0.333333)
        _pick(table, 1)
        table.choose(2, "sys:undo")  # "Undo S1 Holly": seat 1 has not cut after all
        assert table.app.session.record.first_presses() == {3: micros(first)}
        table.wait(1)
        second = table.clock()
        _pick(table, 1)
        assert not table.app.session.state.dealt
        table.wait(2)
        _pick(table, 2)
        cut = f"3@{micros(first)} 1@{micros(second)} 2@{micros(table.clock())}"
        record, state = table.app.session.record, table.app.session.state
        assert record.cut == cut and record.seed == deal_seed(KEY, cut) == state.seed
        assert sorted(state.identities) == [1, 2, 3]
        assert f"They Live: dealt after the cut {cut}" in table.status
        assert_table_keeps_secrets(table, table.deal_secrets())


def test_fairness_they_live_a_press_from_before_start_never_counts() -> None:
    """A press stamped before Start showed the commitment (in flight as Start was pressed)
    picks nothing and is no cut."""
    with Table(seats=3, key=KEY) as table:
        table.wait(1)
        _start_they_live(table, 3)
        early = table.clock() - 0.01
        table.app.choose(2, next(a for a in table.app.actions(2)), early)
        table.app.redraw()
        record = table.app.session.record
        assert record.entries == [] and record.first_presses() == {}
        assert "Pick a character" in table.app.screens.faces[2].text()


def test_fairness_they_live_the_cut_and_the_deal_are_never_undone() -> None:
    """Undo stops at the pick that completed the cut: a value entered and a pick made after
    it are taken back, the pick that dealt is not, and the identities stay those of the one
    deal. A seat that changes character changes nothing of the cut."""
    with Table(seats=4, key=KEY) as table:
        _start_they_live(table, 4)
        for seat in (1, 2, 3):
            table.wait(0.5)
            _pick(table, seat)
        table.choose(1, "unpick")  # seat 1 looks again: its cut stays
        table.wait(0.5)
        _pick(table, 4)  # the last first pick: the cut is complete and the game dealt
        record, dealt = table.app.session.record, dict(table.app.session.state.identities)
        assert table.app.session.state.dealt and table.app.session.state.phase == "character"
        assert not any(a.label.startswith("Undo") for a in table.app.actions(1))
        _pick(table, 1)  # seat 1's new character: all have picked, values are asked
        assert table.app.session.state.phase == "values"
        table.choose(1, "+1")
        undo = [a.label for a in table.app.actions(2) if a.label.startswith("Undo")]
        assert undo == ["Undo S1 +1"]
        table.choose(2, "sys:undo")
        undo = [a.label for a in table.app.actions(2) if a.label.startswith("Undo")]
        assert undo == ["Undo S1 Gilbert"]  # a pick after the cut is complete: no cut of it
        table.choose(2, "sys:undo")
        session = table.app.session
        assert session.state.identities == dealt and session.record.cut == record.cut
        assert table.app.session.state.phase == "character"
        assert not any(a.label.startswith("Undo") for a in table.app.actions(2))


def test_fairness_they_live_app_journal_passes_the_audit(tmp_path) -> None:
    """They Live played at the table to its end: the audit of the journal the app wrote finds
    the cut in the players' first picks, and the deal in the key and that cut."""
    journal = SqliteJournal(journal_path(tmp_path))
    with Table(seats=3, journal=journal, key=KEY) as table:
        _start_they_live(table, 3)
        noted = table.public.pages[-1].code.text
        _play_to_the_end(table, b"fairness test they live player 01")
        cut = table.app.session.record.cut
        assert cut and cut == table.app.session.record.played_cut()
        table.wait(2.5)
        table.choose(1, "sys:lobby")
        table.choose(1, "sys:yes")
    lines: list[str] = []
    assert run_audit(str(tmp_path), None, noted, out=lines.append) == 0, lines
    assert f"  cut:  {cut}" in lines
    assert f"  ok    every player cut once, with their first press: {cut}" in lines
