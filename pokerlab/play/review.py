"""Looking back at a play session's finished hands: the replay frames, the hand history
of a page that reloads, the coach's report and the PHH download (a mixin of
:class:`~pokerlab.play.session.Session`)."""

from __future__ import annotations

from typing import Any

from pokerlab.play.errors import PlayError
from pokerlab.play.records import HandRecord


class HandReview:
    """The finished hands of a session (``hands``) as the person may review them."""

    game: str
    hands: list[HandRecord]

    def coach_report(self, number: int | None = None) -> dict[str, Any]:
        """The coach's notes on the person's decisions of a finished hand
        (:func:`pokerlab.play.coach.report`; each table writes its notes by ``_coach``)."""
        from pokerlab.play.coach import report

        return report(self, self._finished(number))

    def _finished(self, number: int | None) -> HandRecord:
        if number is None:
            if not self.hands:
                raise PlayError("no hand has been played yet")
            h = self.hands[-1]
        else:
            if isinstance(number, bool) or not isinstance(number, int) or not (
                    1 <= number <= len(self.hands)):
                raise PlayError(f"no hand {number!r} in this session")
            h = self.hands[number - 1]
        if not h.over:
            raise PlayError(f"hand {h.number} is not over yet")
        return h

    def replay(self, number: int) -> dict[str, Any]:
        """The step-by-step frames of a finished hand (the person's view at each step)."""
        h = self._finished(number)
        if not h.frames:
            raise PlayError(f"hand {number} is too old; its replay was not kept")
        return {"hand": h.number, "frames": h.frames}

    def history(self, limit: int = 100) -> list[dict[str, Any]]:
        """The last ``limit`` finished hands as the person saw them (their logs), for a page
        that reloads or a second tab."""
        out = []
        for h in self.hands[-limit:]:
            if not h.over:
                continue
            out.append({"hand": h.number, "result": round(h.result, 4), "aborted": h.aborted,
                        "log": [e.to_json() for e in h.events]})
        return out

    def phh_text(self, *, mask_hidden: bool = True) -> str:
        """The session's finished hold'em hands as ``.phhs`` text (hold'em only)."""
        raise PlayError(f"PHH hand histories exist for hold'em only, not {self.game!r}")
