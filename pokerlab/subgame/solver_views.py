"""Reading a solved spot (:class:`~pokerlab.subgame.solver.SpotSolver`, through its base
class :class:`SolverViews`): the tree cursor (:meth:`SolverViews.cursor`: a path of actions
and dealt cards to a :class:`NodeView`), the per-hand report of a node (strategy, EV,
equity of both players), the average strategy and counterfactual values of a node, and node
locking."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from pokerlab.cards.cards import combo_index, parse_card
from pokerlab.errors import PokerlabError
from pokerlab.kinds import NAMES as KIND_NAMES
from pokerlab.subgame import solver_kernels as K
from pokerlab.subgame.deal import Deal
from pokerlab.subgame.solve_config import SolveConfig
from pokerlab.subgame.spot import Spot, SpotError
from pokerlab.subgame.tree import CHANCE, DECISION, BettingTree


@dataclass
class NodeView:
    """A node reached by a path: the betting node, its street's board slot, the actual board,
    the suit map from the actual cards to the solved representative's, and both players'
    reaches over their actual hands (average strategies, card removal)."""

    node: int
    street: int
    slot: int
    board: tuple[int, ...]
    suit_map: tuple[int, int, int, int]
    reach: tuple[np.ndarray, np.ndarray]
    path: tuple[str, ...]


def norm_token(token: str) -> str:
    return token.strip().lower().replace(" ", "").replace("-", "")


def card_strs(cards: Any) -> list[str]:
    from pokerlab.cards.cards import card_str
    return [card_str(int(c)) for c in cards]


class SolverViews:
    """The reading side of :class:`~pokerlab.subgame.solver.SpotSolver` (its base class):
    the arrays and kernels' entry named here are the solver's."""

    spot: Spot
    config: SolveConfig
    tree: BettingTree
    deal: Deal
    iteration: int
    node_base: np.ndarray
    entry_base: np.ndarray
    ssum: np.ndarray
    lock_ptr: np.ndarray
    lock_data: np.ndarray
    _run: Callable[..., np.ndarray]
    _equity: Callable[..., tuple[np.ndarray, np.ndarray]]

    def _storage(self, node: int, slot: int) -> tuple[int, int, int]:
        k = int(self.tree.num_children[node])
        n = self.deal.num_hands[int(self.tree.player[node])]
        return int(self.node_base[node]) + slot * k * n, k, n

    def average_strategy(self, node: int, slot: int = 0) -> np.ndarray:
        """The average strategy at decision ``node`` (a tree index; ``slot``: which board of
        the node's street, 0 on the spot's own street): (actions, hands of the acting
        player) in the solver's hand order (``deal.combos[player]``), locks applied."""
        base, k, n = self._storage(node, slot)
        sigma = np.zeros(k * n)
        K.average_strategy(self.ssum, base, k, n, self.lock_data,
                           int(self.lock_ptr[int(self.entry_base[node]) + slot]), sigma, np.zeros(n))
        return sigma.reshape(k, n)

    def counterfactual_values(self, player: int, *, node: int = 0, slot: int = 0,
                              opp_reach: np.ndarray | None = None, own_reach: np.ndarray | None = None,
                              best_response: bool = False) -> np.ndarray:
        """``player``'s counterfactual value of each of its hands (solver order, chips with
        its share of the pot) at ``node`` / ``slot``, against the other player's average
        strategy reaching it with ``opp_reach`` (default: its range), ``player`` playing its
        own average below the node or best-responding (``best_response``)."""
        mode = K.MODE_BR if best_response else K.MODE_EV
        return self._run(mode, player, self.iteration + 1, node=node, slot=slot,
                         opp_reach=opp_reach, own_reach=own_reach)

    def hand_map(self, p: int, suit_map: Sequence[int]) -> np.ndarray:
        """Index of the representative-world hand of each actual hand of ``p`` (a node
        reached through suit-swapped cards: :attr:`NodeView.suit_map`)."""
        return self._hand_map(p, suit_map)

    def _hand_map(self, p: int, suit_map: Sequence[int]) -> np.ndarray:
        """Index of the representative-world hand of each actual hand of ``p``."""
        hc = self.deal.hand_cards[p]
        if tuple(suit_map) == (0, 1, 2, 3):
            return np.arange(hc.shape[0])
        pos = np.full(1326, -1, dtype=np.int64)
        pos[self.deal.combos[p]] = np.arange(hc.shape[0])
        sm = np.array(suit_map)
        a = (hc[:, 0] & ~3) | sm[hc[:, 0] & 3]
        b = (hc[:, 1] & ~3) | sm[hc[:, 1] & 3]
        return pos[[combo_index(int(min(x, y)), int(max(x, y))) for x, y in zip(a, b, strict=True)]]

    def action_names(self, node: int) -> list[str]:
        return list(self.tree.action_names[node])

    def cursor(self, path: str | Sequence[str] = ()) -> NodeView:
        """Follow ``path`` (actions by name such as ``check``, ``bet 75``, ``call``, and dealt
        cards such as ``Qc`` at chance nodes; a string is split on commas or slashes)."""
        if isinstance(path, str):
            tokens = [t for t in path.replace("/", ",").split(",") if t.strip()]
        else:
            tokens = [t for t in path if t.strip()]
        tr, d = self.tree, self.deal
        node, slot, street = 0, 0, self.spot.street
        board = tuple(self.spot.board)
        smap = [0, 1, 2, 3]
        reach = [d.weights[0].copy(), d.weights[1].copy()]
        hmap = [np.arange(d.num_hands[0]), np.arange(d.num_hands[1])]
        seen: list[str] = []
        for tok in tokens:
            kind = int(tr.kind[node])
            if kind == DECISION:
                names = tr.action_names[node]
                want = norm_token(tok)
                match = [a for a, nm in enumerate(names) if norm_token(nm) == want]
                if not match and want in ("x", "c", "f"):
                    alias = {"x": "check", "c": "call", "f": "fold"}[want]
                    match = [a for a, nm in enumerate(names) if nm == alias]
                if not match and want in ("a", "allin"):
                    match = [a for a, nm in enumerate(names) if nm.startswith("allin")]
                if not match:
                    raise SpotError(f"no action {tok.strip()!r} at {' / '.join(seen) or 'the root'}: "
                                    f"the actions are {', '.join(names)}")
                a = match[0]
                q = int(tr.player[node])
                sigma = self.average_strategy(node, slot)
                reach[q] = reach[q] * sigma[a][hmap[q]]
                node = tr.child(node, a)
                seen.append(names[a])
            elif kind == CHANCE:
                try:
                    c = parse_card(tok)
                except PokerlabError:
                    raise SpotError(f"expected a card to deal at {' / '.join(seen) or 'the root'}, got "
                                    f"{tok.strip()!r}") from None
                if c in board:
                    raise SpotError(f"card {tok.strip()} is already on the board {''.join(card_strs(board))}")
                rc = (c & ~3) | smap[c & 3]  # in the representative world
                nxt = d.next_slot[street][slot]
                rep = int(d.iso_rep[street][slot, rc])
                sid = int(d.iso_swap[street][slot, rc])
                if sid >= 0:
                    from pokerlab.subgame.deal import SWAPS
                    s1, s2 = SWAPS[sid]
                    smap = [s2 if x == s1 else s1 if x == s2 else x for x in smap]
                for p in (0, 1):
                    for q in range(d.card_start[p][c], d.card_start[p][c + 1]):
                        reach[p][d.card_hands[p][q]] = 0.0
                slot = int(nxt[rep])
                street += 1
                board = board + (c,)
                node = tr.child(node, 0)
                hmap = [self._hand_map(0, smap), self._hand_map(1, smap)]
                seen.append(card_strs((c,))[0])
            else:
                raise SpotError(f"the hand is over at {' / '.join(seen)}: no action {tok.strip()!r}")
        return NodeView(node=node, street=street, slot=slot, board=board,
                        suit_map=(smap[0], smap[1], smap[2], smap[3]),
                        reach=(reach[0], reach[1]), path=tuple(seen))

    def node_report(self, view: NodeView) -> dict[str, Any]:
        """At ``view``: the acting player, the actions, per hand (1326 combo ids) the average
        strategy, EV (chips, with the pot share) and equity of both players."""
        tr, d = self.tree, self.deal
        node = view.node
        kind = int(tr.kind[node])
        hmap = [self._hand_map(0, view.suit_map), self._hand_map(1, view.suit_map)]
        inv = []
        for p in (0, 1):
            m = np.empty_like(hmap[p])
            m[hmap[p]] = np.arange(hmap[p].shape[0])
            inv.append(m)
        out: dict[str, Any] = {"path": list(view.path), "board": "".join(card_strs(view.board)),
                               "street": ("flop", "turn", "river")[view.street],
                               "pot": float(self.spot.pot + tr.contrib[node, 0] + tr.contrib[node, 1]),
                               "kind": KIND_NAMES[kind]}
        evs: list[np.ndarray] = []
        eqs: list[np.ndarray] = []
        sums: list[tuple[np.ndarray, ...]] = []
        for p in (0, 1):
            o = 1 - p
            opp_rep = np.zeros(d.num_hands[o])
            opp_rep[hmap[o]] = view.reach[o]
            own_rep = np.zeros(d.num_hands[p])
            own_rep[hmap[p]] = view.reach[p]
            cfv = self._run(K.MODE_EV, p, self.iteration + 1, node=node, slot=view.slot,
                                opp_reach=opp_rep, own_reach=own_rep)
            comp = np.zeros(d.num_hands[p])
            K.fold_values(opp_rep, d.hand_cards[p], d.hand_cards[o], d.same[p], 1.0, comp)
            eq, w = self._equity(p, view.street, view.slot, opp_rep)
            with np.errstate(invalid="ignore", divide="ignore"):
                ev = np.where(comp > 0, cfv / np.where(comp > 0, comp, 1), np.nan)[hmap[p]]
                eqv = np.where(w > 0, eq / np.where(w > 0, w, 1), np.nan)[hmap[p]]
            evs.append(ev)
            eqs.append(eqv)
            sums.append((cfv[hmap[p]], comp[hmap[p]], eq[hmap[p]], w[hmap[p]]))
        for p, who in ((0, "oop"), (1, "ip")):
            r = view.reach[p]
            live = r > 0
            ev_full = np.full(1326, np.nan)
            eq_full = np.full(1326, np.nan)
            reach_full = np.zeros(1326)
            ev_full[d.combos[p][live]] = evs[p][live]
            eq_full[d.combos[p][live]] = eqs[p][live]
            reach_full[d.combos[p]] = r
            # range figures weight each hand by its reach and the opponent hands it can meet
            cfv, comp, eq, wq = sums[p]
            zc = float(np.dot(r, comp))
            zw = float(np.dot(r, wq))
            out[who] = {"reach": reach_full, "ev": ev_full, "equity": eq_full,
                        "range_ev": float(np.dot(r, cfv) / zc) if zc > 0 else None,
                        "range_equity": float(np.dot(r, eq) / zw) if zw > 0 else None}
        if kind == DECISION:
            q = int(tr.player[node])
            sigma = self.average_strategy(node, view.slot)[:, hmap[q]]
            strat = np.full((sigma.shape[0], 1326), np.nan)
            strat[:, d.combos[q]] = sigma
            r = view.reach[q]
            tot = float(r.sum())
            freq = (sigma @ r) / tot if tot > 0 else np.full(sigma.shape[0], np.nan)
            out["player"] = ("oop", "ip")[q]
            out["actions"] = list(tr.action_names[node])
            out["strategy"] = strat
            out["frequencies"] = {nm: float(f) for nm, f in zip(tr.action_names[node], freq, strict=True)}
        elif kind == CHANCE:
            dealt = set(view.board)
            out["cards"] = [c for c in card_strs(range(52)) if parse_card(c) not in dealt]
        return out

    def root_actions(self) -> dict[str, float]:
        rep = self.node_report(self.cursor(()))
        return rep["frequencies"]

    # ------------------------------------------------------------------- node locking
    def lock(self, path: str | Sequence[str], strategy: np.ndarray, hands: np.ndarray | None = None) -> None:
        """Fix the strategy at the node of ``path``: ``strategy`` is (actions, 1326) action
        probabilities per combo; ``hands`` (1326 bools, default: every hand of the range) says
        which combos are locked.  Solving then re-solves the rest of the tree around it."""
        view = self.cursor(path)
        tr, d = self.tree, self.deal
        node = view.node
        if tr.kind[node] != DECISION:
            raise SpotError(f"node {' / '.join(view.path) or 'root'} is not a decision: nothing to lock")
        if view.street > self.spot.street and self.config.isomorphism:
            raise SpotError("node locking after a dealt card needs the solver without suit isomorphism "
                            "(SolveConfig(isomorphism=False))")
        q = int(tr.player[node])
        k = int(tr.num_children[node])
        s = np.asarray(strategy, dtype=np.float64)
        if s.shape != (k, 1326):
            raise SpotError(f"a locked strategy at {' / '.join(view.path) or 'root'} has shape ({k}, 1326) "
                            f"for the actions {', '.join(tr.action_names[node])}; got {s.shape}")
        mask = np.ones(1326, dtype=bool) if hands is None else np.asarray(hands, dtype=bool)
        sub = s[:, d.combos[q]]
        m = mask[d.combos[q]]
        if np.any(sub[:, m] < -1e-12) or np.any(np.abs(sub[:, m].sum(axis=0) - 1) > 1e-6):
            raise SpotError("a locked strategy must be probabilities summing to 1 for every locked hand")
        entry = int(self.entry_base[node]) + view.slot
        n = d.num_hands[q]
        block = np.concatenate([m.astype(np.float64), sub.reshape(-1)])
        if self.lock_ptr[entry] >= 0:
            ptr = int(self.lock_ptr[entry])
            self.lock_data[ptr:ptr + n * (k + 1)] = block
        else:
            self.lock_ptr[entry] = self.lock_data.shape[0]
            self.lock_data = np.concatenate([self.lock_data, block])
