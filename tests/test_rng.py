"""pokerlab.rng: the numba kernels equal their plain-Python twins bit for bit, SplitMix64
gives the reference sequence, and different seeds / streams give different numbers."""

from __future__ import annotations

import numpy as np

from pokerlab import rng as R

SEEDS = [0, 1, 2, 7, 1234567, 2**32 - 1, 2**63 - 1, 2**63, 2**64 - 1, 0x9E3779B97F4A7C15]


def test_splitmix64_reference_sequence() -> None:
    # splitmix64.c (Vigna) for seeds 0 and 1234567
    r = R.SplitMix64(0)
    assert [r.next() for _ in range(3)] == [
        0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    r = R.SplitMix64(1234567)
    assert [r.next() for _ in range(5)] == [
        6457827717110365317, 3203168211198807973, 9817491932198370423,
        4593380528125082431, 16408922859458223821]


def test_splitmix64_twins() -> None:
    for seed in SEEDS:
        py = R.SplitMix64(seed)
        st = seed
        rs = np.array([seed], dtype=np.uint64)
        for _ in range(50):
            st, v = R.splitmix64_next(st)
            assert int(R.splitmix64_nb(rs)) == v == py.next()
            assert int(rs[0]) == st == py.state
        for n in (1, 2, 3, 52, 1000, 2**40 + 3):
            py_b = R.SplitMix64(seed)
            rs_b = np.array([seed], dtype=np.uint64)
            for _ in range(20):
                assert int(R.below_nb(rs_b, n)) == py_b.below(n)
        py_u = R.SplitMix64(seed)
        rs_u = np.array([seed], dtype=np.uint64)
        for _ in range(50):
            u = py_u.uniform()
            assert R.uniform01_nb(rs_u) == u
            assert 0.0 <= u < 1.0


def test_mix64_and_seeds_twins() -> None:
    for z in SEEDS:
        assert int(R.mix64_nb(np.uint64(z))) == R.mix64(z)
        assert R.splitmix_seed(z) == R.SplitMix64(z * R.GOLDEN).next()
        for index in (0, 1, 5, 10**6):
            for stream in (0, 1, 2):
                s = R.stream_seed(z % 2**63, index, stream)
                assert 0 <= s < 2**63
                assert int(R.stream_seed_nb(np.uint64(z % 2**63), index, stream)) == s
    # the (seed + 1)-th output of SplitMix64(0)
    r = R.SplitMix64(0)
    assert [r.next() for _ in range(4)] == [R.splitmix_seed(i) for i in range(4)]


def test_to_unit_is_top_53_bits() -> None:
    assert R.to_unit(0) == 0.0
    assert R.to_unit(R.MASK64) == 1.0 - 2.0**-53
    assert R.to_unit(1 << 63) == 0.5
    for v in (12345, 2**40 + 17, R.MASK64 - 5):
        assert R.to_unit(v) == (v >> 11) / float(1 << 53)


def _old_xorshift(x: int) -> tuple[int, float]:
    # the MCCFR twin before pokerlab.rng (pinned arithmetic)
    x ^= x >> 12
    x ^= (x << 25) & R.MASK64
    x ^= x >> 27
    return x, float(((x * 0x2545F4914F6CDD1D) & R.MASK64) >> 11) * (1.0 / 9007199254740992.0)


def test_xorshift64star_twins() -> None:
    for seed in SEEDS[1:]:
        state = np.array([seed], dtype=np.uint64)
        s2 = state.copy()
        py = R.XorShift64Star(state)
        x = seed
        for _ in range(50):
            x_new, v = R.xorshift64star_next(x)
            x_old, u_old = _old_xorshift(x)
            assert x_new == x_old
            x = x_new
            assert int(R.xorshift64star_nb(s2)) == v
            u = py.uniform()
            assert u == u_old == R.xorshift64star_uniform_nb(state)
            assert int(state[0]) == int(s2[0]) == x == py.x


def test_streams_differ() -> None:
    firsts = {R.SplitMix64(s).next() for s in range(1000)}
    assert len(firsts) == 1000
    seeds = {R.stream_seed(7, i, s) for i in range(300) for s in range(3)}
    assert len(seeds) == 900
    a = R.SplitMix64(R.stream_seed(7, 3, 1))
    b = R.SplitMix64(R.stream_seed(7, 3, 2))
    assert [a.next() for _ in range(8)] != [b.next() for _ in range(8)]
    us = [R.SplitMix64(11).uniform() for _ in range(1)]
    r = R.SplitMix64(11)
    draws = [r.uniform() for _ in range(20000)]
    assert us[0] == draws[0]
    assert abs(float(np.mean(draws)) - 0.5) < 0.01


def test_event_unit_twins() -> None:
    # the policy agent's randomised translation draw: SplitMix64(seed * GOLDEN + index *
    # C_EVENT).next(), in Python and in a kernel
    from numba import njit

    @njit
    def draw(seed, index):  # type: ignore[no-untyped-def]
        return R.event_unit_nb(seed, index)

    for seed in (0, 1, 7, 2**31 - 1, 123456789):
        for index in (0, 1, 2, 5, 17, 63):
            v = R.SplitMix64(seed * R.GOLDEN + index * 0xC2B2AE3D27D4EB4F).next()
            assert R.event_value(seed, index) == v
            u = R.event_unit(seed, index)
            assert u == R.to_unit(v) and 0.0 <= u < 1.0
            assert draw(np.int64(seed), np.int64(index)) == u


def test_shuffled_is_a_seeded_permutation_whose_prefix_is_the_sample() -> None:
    from pokerlab.rng import SplitMix64, shuffled

    full = shuffled(48, 7)
    assert sorted(full) == list(range(48)) and full != list(range(48))
    assert shuffled(48, 7) == full and shuffled(48, 8) != full
    assert shuffled(48, 7, 12) == full[:12] and shuffled(5, 3, 99) == shuffled(5, 3)
    # the partial Fisher-Yates by hand: position i swapped with i + below(n - i)
    rng, idx = SplitMix64(7), list(range(48))
    for i in range(48):
        j = i + rng.below(48 - i)
        idx[i], idx[j] = idx[j], idx[i]
    assert idx == full
