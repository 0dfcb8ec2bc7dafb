"""Terminal play: the same :class:`~pokerlab.play.session.Session` as the web page, as text.

Typed actions: ``f`` fold, ``c`` check/call, ``r 450`` raise (or bet) to 450 chips,
``a`` all-in, ``n`` / Enter next hand, ``s`` session summary, ``q`` quit.  Generic games
(``gamedef:...``) list their legal actions with numbers: type the number (``#3`` or ``3``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from pokerlab.play.session import YOU, PlayError, Session

HELP = "actions: f fold, c check/call, r AMOUNT raise to AMOUNT, a all-in, s summary, q quit"


def describe(e: dict[str, Any]) -> str:
    who = "You" if e.get("who") == YOU else "Agent"
    kind = e["event"]
    if kind == "HandStarted":
        btn = "you have" if e["button"] == YOU else "the agent has"
        return f"--- hand {e['hand']}: {btn} the button; your cards: {' '.join(e['cards'])}"
    if kind == "BoardDealt":
        return f"{e['street']}: {' '.join(e['cards'])}"
    if kind == "ActionTaken":
        return _move(e, who) + (" [searched]" if e.get("searched") else "")
    if kind == "CardsShown":
        return f"{who} show{'s' if who == 'Agent' else ''} {' '.join(e['cards'])}"
    if kind == "HandEnded":
        if e["aborted"]:
            return f"hand cancelled: {e['error']}"
        return f"result: {e['result']:+g}" + (" (showdown)" if e["showdown"] else "")
    return str(e)


def _move(e: dict[str, Any], who: str) -> str:
    if e["kind"] == "action":
        return f"{who}: {e.get('label', '')}"
    if e["kind"] in ("fold", "check"):
        return f"{who}: {e['kind']}"
    if e["kind"] == "call":
        return f"{who}: call {e['amount']} (pot {e['pot']})"
    return f"{who}: {e['kind']} to {e['amount']} (pot {e['pot']})"


def prompt_line(s: Session) -> str:
    snap = s.snapshot()
    lg = snap["legal"] or {}
    you, opp = snap["you"], snap["opponent"]
    if "info_state" in snap:  # a generic game: its own strings, numbered actions
        acts = ", ".join(f"{i + 1} {a.get('text') or a['label']}"
                         for i, a in enumerate(lg.get("actions", [])))
        return (f"you: {snap['info_state']}\n  public: {snap['public_state']}\n  "
                f"{acts} > ")
    parts = [f"board [{' '.join(snap['board'])}]", f"pot {snap['pot']}",
             f"you {' '.join(you['cards'])} stack {you['stack']} bet {you['bet']}",
             f"agent stack {opp['stack']} bet {opp['bet']}"]
    opts = []
    if lg.get("fold"):
        opts.append("f")
    if lg.get("check"):
        opts.append("c (check)")
    elif lg.get("call", -1) >= 0:
        opts.append(f"c (call {lg['call']})")
    if lg.get("raise"):
        verb = {"bet": "bet", "all-in": "all-in"}.get(lg.get("verb", ""), "raise to")
        opts.append(f"r ({verb} {lg['min']}..{lg['max']})" if lg["min"] != lg["max"]
                    else f"r ({verb} {lg['min']})")
        opts.append("a")
    return " | ".join(parts) + "\n  " + ", ".join(opts) + " > "


def parse(text: str) -> tuple[str, int | None]:
    """A typed action -> (kind, amount); raises :class:`PlayError`."""
    toks = text.strip().lower().split()
    if not toks:
        raise PlayError("type an action (" + HELP + ")")
    head = toks[0]
    kinds = {"f": "fold", "fold": "fold", "c": "call", "call": "call", "check": "check",
             "k": "check", "r": "raise", "raise": "raise", "b": "raise", "bet": "raise",
             "a": "allin", "allin": "allin", "all-in": "allin"}
    if head not in kinds:
        raise PlayError(f"unknown action {head!r} ({HELP})")
    kind = kinds[head]
    amount = None
    if kind == "raise" and len(toks) > 1:
        amount = chips(toks[1])
    return kind, amount


def chips(text: str) -> int:
    """A typed raise-to amount: whole chips in plain digits.  A decimal comma or point
    (``2,5``, ``2.5``) is refused, never read as 25; so are digit separators (``1_000``,
    ``1,000``: Python's ``int`` would take ``2_5`` as 25) and other scripts' digits."""
    if re.fullmatch(r"[0-9]+", text):
        return int(text)
    if re.fullmatch(r"[0-9]+(,[0-9]{3})+", text):
        raise PlayError(f"raise amount {text!r} is ambiguous (a decimal comma or a thousands "
                        "separator?): write whole chips in plain digits (r 250)")
    if re.fullmatch(r"[0-9]*[.,][0-9]+", text):
        raise PlayError(f"raise amount {text!r} is not a whole number of chips: amounts are "
                        "whole chips (r 250), never decimals")
    raise PlayError(f"raise amount must be a whole number of chips in plain digits "
                    f"(r 250), got {text!r}")


def play_tty(s: Session, *, read: Callable[[str], str] = input,
             write: Callable[[str], None] = print, max_hands: int | None = None) -> None:
    """Play in the terminal until ``q`` (or end of input, or ``max_hands``)."""
    write(f"pokerlab play: {s.game} against {s.agent_name}.  {HELP}")
    played = 0
    while True:
        for e in s.new_hand():
            write(describe(e.to_json()))
        for e in s.run_agent():
            write(describe(e.to_json()))
        while s.waiting == YOU:
            try:
                line = read(prompt_line(s))
            except EOFError:
                return
            if line.strip().lower() in ("q", "quit", "exit"):
                return
            if line.strip().lower() in ("s", "summary"):
                write(_summary(s))
                continue
            try:
                lg = s.legal() or {}
                num = line.strip().lstrip("#")
                if "actions" in lg and num.isdigit():
                    acts = lg["actions"]
                    if not 1 <= int(num) <= len(acts):
                        raise PlayError(f"no action {num}; choose 1..{len(acts)}")
                    events = s.act("action", action=int(acts[int(num) - 1]["id"]))
                    for e in events + s.run_agent():
                        write(describe(e.to_json()))
                    continue
                kind, amount = parse(line)
                if kind == "call":
                    lg = s.legal() or {}
                    if lg.get("check"):
                        kind = "check"
                events = s.act(kind, amount)
            except PlayError as exc:
                write(f"error: {exc}")
                continue
            for e in events + s.run_agent():
                write(describe(e.to_json()))
        played += 1
        sd = s.snapshot().get("showdown")
        if sd and sd["showdown"] and sd["you"]["hand"]:
            theirs = sd["opponent"]["hand"]
            write(f"showdown: you {sd['you']['hand']}" + (f", agent {theirs}" if theirs else "")
                  + f"; {'split pot' if sd['winner'] == 'split' else sd['winner'] + ' win'}"
                  + ("" if sd["winner"] == "split" else "s" if sd["winner"] == "agent" else "")
                  + f" {max(sd['you']['collected'], sd['opponent']['collected'])} chips")
        write(_summary(s))
        if max_hands is not None and played >= max_hands:
            return
        try:
            line = read("Enter for the next hand, q to quit > ")
        except EOFError:
            return
        if line.strip().lower() in ("q", "quit", "exit"):
            return


def _summary(s: Session) -> str:
    sm = s.summary()
    out = (f"session: {sm['hands']} hands, {sm['total']:+g} {sm['unit']}, "
           f"{sm['per100']:+.1f} {sm['unit']}/100 +- {sm['per100_ci95']:.1f} (95% CI)")
    if s.grader is not None:  # the push/fold trainer
        out += f"; EV lost vs Nash {sm['ev_loss']:.3f} bb in {sm['decisions_graded']} decisions"
    return out
