"""The coach of a play session: notes on the person's decisions of a finished hand.

A plug-in of :class:`~pokerlab.play.session.Session`: the session keeps the decisions,
each table writes its note on one (``_coach(decision, out)``: the agent's frequencies,
the 13x13 grid for hold'em), and this module walks a hand's decisions, marking the ones
the agent's policy never reaches (an earlier choice of the person has probability 0
under it), where the frequencies are arbitrary, not advice."""

from __future__ import annotations

from typing import Any

__all__ = ["own_probability", "report"]


def report(session: Any, hand: Any) -> dict[str, Any]:
    """The coach's notes on ``hand``'s decisions (computed once, then kept on them)."""
    notes = []
    reach = 1.0  # the probability of the person's own earlier choices under the policy
    for d in hand.decisions:
        if d.coach is None:
            out: dict[str, Any] = {"street": d.street, "chosen": d.chosen, "frequencies": None,
                                   "grid": None}
            d.coach = session._coach(d, out)
            if d.action_id is not None and d.coach.get("frequencies") is not None:
                d.coach["reached"] = reach > 1e-12
                if reach <= 1e-12:
                    d.coach["note"] = (
                        "the agent's policy never reaches this point (an earlier choice "
                        "of yours has probability 0 under it): these frequencies are "
                        "arbitrary, not advice")
                p = own_probability(session.agent, d)
                reach *= 1.0 if p is None else p
        notes.append(d.coach)
    return {"hand": hand.number, "decisions": notes}


def own_probability(agent: Any, d: Any) -> float | None:
    """The policy's probability of the action the person chose at ``d`` (small and
    generic games), or ``None`` when the agent does not say."""
    fn = (getattr(agent, "probabilities", None)
          or getattr(agent, "action_probabilities_state", None))
    if fn is None or d.view is None or d.action_id is None:
        return None
    try:
        probs = dict(fn(d.view, d.human_player))
    except Exception:
        return None
    return float(probs.get(d.action_id, 0.0))
