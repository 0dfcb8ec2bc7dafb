"""The push/fold trainer: the ``pushfold`` agent at a hold'em table plus a grader.

:class:`PushFoldSession` is the hold'em table (:class:`~pokerlab.play.holdem_table.HoldemSession`)
with two differences: its agent is the registry's ``pushfold`` agent
(:class:`pokerlab.agents.rules.PushFoldAgent`: the exact push/fold equilibrium at the
table's effective stack, whatever the stack), and the person may only fold or go all-in
(as the big blind: fold or call the shove; no limping).  Every decision of the person is
scored by :class:`PushFoldGrader`: its EV loss in big blinds against the equilibrium
opponent (:class:`~pokerlab.play.opponents.PushFoldNash`), shown by the coach and summed in
the session's summary (``ev_loss``, ``decisions_graded``).
"""

from __future__ import annotations

from typing import Any

from pokerlab.cards.cards import preflop_class
from pokerlab.play.holdem_table import HoldemSession
from pokerlab.play.session import Decision, HandRecord, Stats

AGENT_NAME = "push/fold Nash"


class PushFoldGrader:
    """Scores the person's push/fold decisions against the exact equilibrium at one stack."""

    def __init__(self, stack: float) -> None:
        from pokerlab.play.opponents import pushfold_nash

        self.nash = pushfold_nash(stack)

    def grade(self, dec: Decision, *, aggressive: bool, stats: Stats) -> None:
        """Write the coach's note on ``dec`` (the equilibrium's frequencies, the gain of
        getting it in, the EV loss of the choice, the 13x13 grid) and add the loss to
        ``stats``.  ``aggressive``: the person shoved (small blind) or called (big blind)."""
        nash = self.nash
        c1, c2 = dec.view.hole
        sb = dec.human_player == 1
        gain, loss = nash.grade(sb, c1, c2, aggressive)
        prob = nash.shove_prob(c1, c2) if sb else nash.call_prob(c1, c2)
        act = "shove" if sb else "call"
        dec.coach = {
            "street": dec.street, "chosen": dec.chosen,
            "frequencies": [[act, round(prob, 4)], ["fold", round(1 - prob, 4)]],
            "gain_bb": round(gain, 4), "ev_loss_bb": round(loss, 4),
            "grid": nash.grid(sb), "grid_title": f"Nash {act} frequency, {'SB' if sb else 'BB'}",
            "class": preflop_class(c1, c2),
        }
        stats.ev_loss += loss
        stats.decisions_graded += 1


class PushFoldSession(HoldemSession, table="pushfold"):
    """Push/fold at ``config.stack`` big blinds: the ``pushfold`` agent and the grader."""

    def _setup(self, agent: Any) -> None:
        self.grader = PushFoldGrader(self.config.stack)
        super()._setup(agent)
        self.agent_name = AGENT_NAME

    def _make_agent(self, spec: str) -> Any:
        from pokerlab.agents.rules import PushFoldAgent

        # push/fold at every stack of the table (never the tag fallback of deeper stacks)
        return PushFoldAgent(name=AGENT_NAME, max_bb=float("inf"), seed=self._seed % (2**31))

    def _legal(self, h: HandRecord) -> dict[str, Any]:
        """The small blind folds or goes all-in, the big blind facing the shove folds or
        calls (no limping in the trainer, no other sizes)."""
        d = super()._legal(h)
        if d["raise"]:
            d.update(min=d["max"], check=False, verb="all-in", call=-1)
        d["quick"] = {}
        return d
