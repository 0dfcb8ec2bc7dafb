"""Load: 100 concurrent games over loopback, every hand completed and logged, none lost."""

from __future__ import annotations

import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("websockets")

from pokerlab.holdem import phh  # noqa: E402
from pokerlab.play.loadgen import ClientResult, run_clients  # noqa: E402
from pokerlab.play.server import BackgroundServer, ServerConfig  # noqa: E402


def test_100_concurrent_games(tmp_path):
    cfg = ServerConfig(agent="random", agents=("random",), out_dir=str(tmp_path),
                       max_sessions=100, max_sessions_per_client=100, seed=11,
                       agent_timeout=60.0)
    hands = 3
    with BackgroundServer(cfg) as url:
        # bounded: the run is cancelled (and the test fails) if it has not ended in 300 s
        results = run_clients(url, n=100, hands=hands, seed=5, timeout=300.0)
    assert all(isinstance(r, ClientResult) for r in results), [
        r for r in results if not isinstance(r, ClientResult)][:3]
    done = [r for r in results if isinstance(r, ClientResult)]
    assert len({r.session for r in done}) == 100
    assert sum(r.hands_finished for r in done) == 100 * hands
    assert sum(r.aborted for r in done) == 0
    assert not any(r.errors for r in done)
    files = sorted(tmp_path.glob("*/hand_*.phh"))
    assert len(files) == 100 * hands
    assert len(list(tmp_path.iterdir())) == 100  # one folder per session
    for f in files[::37]:
        assert len(phh.read_phhs(f)) == 1
