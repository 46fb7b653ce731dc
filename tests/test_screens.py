"""What a seat's screen is drawn from: a public face is drawn once while the table keeps
showing it, a private one every time it is shown."""

from __future__ import annotations

from companion import screens
from companion.links import Links
from companion.render import Face, render
from companion.screens import ScreenKeeper
from hardware.headless import HeadlessTable


def test_a_public_face_shown_again_is_not_drawn_again_and_a_private_one_always_is(monkeypatch):
    """A highlight stepped through a list and back shows faces already drawn: they are not
    drawn again, on the seat that showed them or another, and the screens get the same
    pixels as a fresh drawing. A private face is drawn anew each time it is shown, so how
    long that takes never tells whether it (or another seat's same secret) was shown
    before."""
    drawn: list[Face] = []

    def counted(face: Face) -> object:
        drawn.append(face)
        return render(face)

    monkeypatch.setattr(screens, "render", counted)
    screens._drawn_public.cache_clear()
    table = HeadlessTable([1, 2], sink=lambda event: None)
    try:
        keeper = ScreenKeeper(table.hardware, Links())
        join, leave = Face("Seat 1", bar="Join", bar_right="1/2"), Face("Seat 1", bar="Leave")
        shown = []
        for number, face in ((1, join), (1, leave), (1, join), (2, leave)):
            frame = keeper.frame(number, face, secret=False)
            assert frame is not None
            keeper.write(frame, 0.0)
            shown.append(frame.pixels)
        assert drawn == [join, leave]
        assert shown == [render(face).tobytes() for face in (join, leave, join, leave)]
        role = Face("Your role", lines=("Invader",), sealed=True)
        for _ in range(2):
            frame = keeper.frame(1, role, secret=True)
            assert frame is not None
            keeper.write(frame, 0.0)
        keeper.write(keeper.frame(2, role, secret=True), 0.0)
        assert drawn == [join, leave, role, role, role]
    finally:
        table.close()
