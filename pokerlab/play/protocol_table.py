"""What the two protocol-game paths of the play session share (:mod:`~pokerlab.play.small_table`
for Kuhn and Leduc, :mod:`~pokerlab.play.generic_table` for any other small game): the
hand's result from the state's returns, the agent's cards shown at a showdown, and the
hand written as JSON in the session folder."""

from __future__ import annotations

from typing import Any

from pokerlab.play import session as ps
from pokerlab.play.session import AGENT, CardsShown


class ProtocolTable(ps.Session):
    """A table over a protocol game state (``returns()``): see the module doc.
    Subclasses say whether a finished hand was a showdown, what the agent shows then and
    what the hand's JSON holds."""

    def _showdown_of(self, h: ps.HandRecord) -> bool:
        raise NotImplementedError

    def _agent_shown(self, h: ps.HandRecord) -> list[str]:
        raise NotImplementedError

    def _hand_json(self, h: ps.HandRecord) -> dict[str, Any]:
        raise NotImplementedError

    def _actor(self, h: ps.HandRecord) -> int:
        st = h.state
        if st.is_terminal() or st.is_chance_node():
            return -1
        return int(st.current_player())

    def _agent_move(self, h: ps.HandRecord, p: int) -> Any:
        """The agent's action id as player ``p`` (it answers a clone of the state)."""
        return int(self.agent.act_state(h.state.clone(), p))

    def _settle(self, h: ps.HandRecord) -> bool:
        """Result and showdown of a finished hand (called by :meth:`Session._finish`)."""
        r = h.state.returns()
        h.result = float(r[h.human_player])
        h.chips = int(round(h.result))
        showdown = self._showdown_of(h)
        if showdown:
            h.revealed = True
            h.events.append(CardsShown(who=AGENT, cards=self._agent_shown(h)))
        if self.folder is not None:
            from pokerlab.io import atomic_write_json

            path = self.folder / f"hand_{h.number:05d}.json"
            atomic_write_json(path, self._hand_json(h))
            h.phh_path = str(path)
        return showdown

    def _end_hand(self, h: ps.HandRecord, showdown: bool) -> None:
        from pokerlab.evaluation.matches import small_hand_end
        from pokerlab.holdem.view import learns

        if learns(self.agent):
            self.agent.end_hand(small_hand_end(h.state, 1 - h.human_player, showdown=showdown))
