"""Several public screens as one: the HDMI window and every browser watching ``/table``.

The app hands one :class:`PublicScreen` each page (``TableHardware.public``); a table with
both a window and the phone server has it shown on each, in the same call.
"""

from __future__ import annotations

from .base import PublicPage, PublicScreen


class PublicScreens(PublicScreen):
    """Shows, reveals and cues on each of ``screens``; closing closes each."""

    def __init__(self, *screens: PublicScreen) -> None:
        self.screens = screens

    def show(self, page: PublicPage, now: float) -> None:
        for screen in self.screens:
            screen.show(page, now)

    def reveal(self, text: str, now: float) -> None:
        for screen in self.screens:
            screen.reveal(text, now)

    def cue(self, tune: str, now: float) -> None:
        for screen in self.screens:
            screen.cue(tune, now)

    def give_links(self, links: dict[int, str]) -> None:
        for screen in self.screens:
            screen.give_links(links)

    def tell_table(self, text: str, now: float) -> None:
        for screen in self.screens:
            screen.tell_table(text, now)

    def close(self) -> None:
        for screen in self.screens:
            screen.close()


def joined(first: PublicScreen | None, second: PublicScreen) -> PublicScreen:
    """``second`` beside ``first``, when there is a first."""
    return second if first is None else PublicScreens(first, second)
