"""One vocabulary for the tree kernels (issue 52 item 5): the node kinds come from
:mod:`pokerlab.kinds`, no kernel module defines its own copy or compares a tree's kind
array against a bare number, and the LBR kernel's view of the real tree's node table is
the one :mod:`pokerlab.evaluation.lbr_tree` builds."""

from __future__ import annotations

import ast
from pathlib import Path

from pokerlab import kinds

PKG = Path(__file__).resolve().parents[1] / "pokerlab"
KIND_NAMES = {"DECISION", "FOLD", "SHOWDOWN", "CHANCE", "TERMINAL", "FOLD_END", "SHOWDOWN_END"}
# the real LBR tree's own kinds (another table: lbr_tree.RealTree's), named in lbr_kernels
OWN_TABLES = {"evaluation/lbr_kernels.py": {"FOLD_END", "SHOWDOWN_END"}}


def _kernel_modules() -> list[Path]:
    return sorted(PKG.rglob("*_kernels.py"))


def test_no_kernel_module_defines_its_own_node_kinds() -> None:
    found: list[str] = []
    for path in _kernel_modules():
        rel = path.relative_to(PKG).as_posix()
        allowed = OWN_TABLES.get(rel, set())
        for node in ast.parse(path.read_text()).body:
            if not isinstance(node, ast.Assign):
                continue
            for target in node.targets:
                elts = target.elts if isinstance(target, ast.Tuple) else [target]
                for e in elts:
                    if isinstance(e, ast.Name) and e.id in KIND_NAMES - allowed:
                        found.append(f"{rel}:{node.lineno} {e.id}")
    assert len(_kernel_modules()) >= 15
    assert found == []


def test_no_kind_array_is_compared_with_a_number() -> None:
    """``kind[node] == 0`` (a tree's kind array against a literal) appears nowhere in a
    kernel module: the named constants of :mod:`pokerlab.kinds` are used."""
    found: list[str] = []
    for path in _kernel_modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Compare):
                continue
            left = node.left
            if (isinstance(left, ast.Subscript) and isinstance(left.value, ast.Name)
                    and left.value.id == "kind"
                    and any(isinstance(c, ast.Constant) for c in node.comparators)):
                found.append(f"{path.relative_to(PKG)}:{node.lineno}")
    assert found == []


def test_kernels_use_the_shared_values() -> None:
    from pokerlab.agents import continuation_kernels as ck
    from pokerlab.evaluation import lbr_kernels as lk
    from pokerlab.evaluation import match_kernels as mk

    assert (kinds.DECISION, kinds.FOLD, kinds.SHOWDOWN, kinds.CHANCE, kinds.TERMINAL) == (
        0, 1, 2, 3, 4)
    assert (ck.DECISION, ck.FOLD, ck.CHANCE) == (0, 1, 3)
    assert (mk.DECISION, mk.FOLD) == (0, 1)
    assert (lk.DECISION, lk.FOLD, lk.CALL_ID, lk.FOLD_ID) == (0, 1, 1, 0)


def test_lbr_kernel_reads_the_real_tree_table_lbr_tree_builds() -> None:
    from pokerlab.evaluation import lbr_kernels as lk
    from pokerlab.evaluation import lbr_tree as lt

    names = ["KIND", "STREET", "READY", "ANODE", "NROW", "KEEP0", "NKEEP", "COL0", "NCOL",
             "CALLCOL", "FOLDPOS", "OPT0", "NOPT", "PAY_WIN", "PAY_TIE", "PAY_LOSE",
             "LBR_NODE", "AGENT_NODE", "FOLD_END", "SHOWDOWN_END", "OPT_CALL", "OPT_FOLD",
             "OPT_RAISE"]
    assert [getattr(lk, n) for n in names] == [getattr(lt, n) for n in names]
    assert lt.NUM_FIELDS == lk.PAY_LOSE + 1 == 16
