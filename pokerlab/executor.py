"""One executor: a function mapped over chunks of work, here, in processes or on Ray.

Every parallel runner of pokerlab (matches, LBR, the blueprint trainer's Ray actors, Deep
CFR's traversals) goes through this module, so there is one process pool, one Ray task
loop and one ``ray.init``.

* :func:`map_chunks` ``(fn, chunks, backend=..., workers=...)`` returns ``[fn(c) for c in
  chunks]`` in chunk order, computed in this process (``"local"``), in ``workers`` spawned
  processes (``"process"``) or as Ray tasks (``"ray"``).  Determinism is the chunks' part
  of the contract: a chunk carries its own seed (or the seeds of its items) and ``fn``
  depends on nothing else, so the results do not depend on the backend, the worker count
  or the order in which chunks finish.  An exception in a chunk is raised again in the
  caller as itself (a Ray task's error is unwrapped to its cause), with a note naming the
  chunk; a worker process that dies is an :class:`ExecutorError`.
* :func:`ray_init` ``(address, num_cpus)`` is the one ``ray.init``.  ``"local"`` (or
  ``None``) starts a private local Ray with ``num_cpus`` CPUs (``address="local"``, so a
  cluster already running on the machine is never joined by accident); any other address
  (``auto``, ``HOST:PORT``, ``ray://HOST[:PORT]``) joins that cluster *without* resource
  arguments (Ray refuses ``num_cpus`` when connecting).  The address is checked first: bad
  syntax is one :class:`ExecutorError` naming it, a ``HOST:PORT`` whose port does not
  accept a TCP connection within a few seconds fails at once instead of waiting for Ray,
  and a port that answers but is no Ray head is given up after :data:`CONNECT_TIMEOUT_S`
  (Ray alone retries it for many minutes).
  Joining sends Ray's authentication token when one is found (as Ray does for ``auto``).
  Workers get the project's runtime environment (:func:`runtime_env`): locally the
  ``PYTHONPATH`` that imports this pokerlab; on a cluster the package itself
  (``py_modules``, its data included) so worker nodes need no install.
* :func:`check_workers` and :func:`check_ray_address` validate the ``--workers`` and
  ``--ray-address`` options before any work starts.

This module is in the base layer: it imports only :mod:`pokerlab.errors` and the standard
library at module level, and Ray lazily inside the functions that need it.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import re
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal, TypeVar

from pokerlab.errors import PokerlabError

C = TypeVar("C")
R = TypeVar("R")

Backend = Literal["local", "process", "ray"]
BACKENDS: tuple[str, ...] = ("local", "process", "ray")

#: seconds a ``HOST:PORT`` gets to accept a TCP connection before Ray is asked to join it
PROBE_TIMEOUT_S = 5.0
#: seconds ``ray.init`` gets to join a cluster whose port answered the probe
CONNECT_TIMEOUT_S = 60.0
#: the Ray client's default port (``ray://HOST`` without a port)
RAY_CLIENT_PORT = 10001
#: the environment variables a local Ray's workers get from the driver
ENV_VARS = ("POKERLAB_DATA", "POKERLAB_CACHE")

_ADDRESS_HELP = "use local, auto, HOST:PORT or ray://HOST[:PORT]"
_HOST = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                   r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")


class ExecutorError(PokerlabError):
    """A bad worker count or Ray address, an unreachable cluster, or a dead worker."""


# ----------------------------------------------------------------------------- options


def check_workers(workers: int | None, *, option: str = "--workers") -> int | None:
    """``workers`` must be a whole number >= 1 (``None``: the caller's default)."""
    if workers is None:
        return None
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ExecutorError(f"{option} must be a whole number >= 1, got {workers}")
    return workers


def parse_ray_address(address: str, *, option: str = "--ray-address"
                      ) -> tuple[str, str | None, int | None]:
    """``(address, host, port)`` of a Ray address; ``host``/``port`` are ``None`` for
    ``local`` and ``auto``.  Raises :class:`ExecutorError` naming the value otherwise."""
    text = str(address).strip()
    if text in ("local", "auto"):
        return text, None, None
    bad = ExecutorError(f"{option} {str(address)!r} is not a Ray address ({_ADDRESS_HELP})")
    rest = text
    client = text.lower().startswith("ray://")
    if client:
        rest = text[len("ray://"):].rstrip("/")
    if rest.startswith("["):  # [IPv6]:port
        close = rest.find("]")
        if close < 0:
            raise bad
        host, tail = rest[1:close], rest[close + 1:]
        try:
            ipaddress.IPv6Address(host)
        except ValueError:
            raise bad from None
        if tail and not tail.startswith(":"):
            raise bad
        port_text = tail[1:] if tail else None
    else:
        host, sep, port_text_s = rest.rpartition(":")
        if not sep:
            host, port_text_s = rest, ""
        port_text = port_text_s if sep else None
        if not host or not _HOST.match(host):
            raise bad
    if port_text is None:
        if not client:
            raise ExecutorError(f"{option} {str(address)!r} is not a Ray address: no port "
                                f"({_ADDRESS_HELP})")
        port = RAY_CLIENT_PORT
    else:
        if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
            raise ExecutorError(f"{option} {str(address)!r} is not a Ray address: the port "
                                f"must be 1 .. 65535 ({_ADDRESS_HELP})")
        port = int(port_text)
    return text, host, port


def check_ray_address(address: str | None, *, option: str = "--ray-address",
                      reachable: bool = False,
                      timeout_s: float = PROBE_TIMEOUT_S) -> str | None:
    """Validate a ``--ray-address`` value (``None`` passes); with ``reachable`` also
    check that a ``HOST:PORT`` accepts a TCP connection within ``timeout_s``."""
    if address is None:
        return None
    text, host, port = parse_ray_address(address, option=option)
    if reachable and host is not None and port is not None:
        probe(host, port, text, option=option, timeout_s=timeout_s)
    return text


def probe(host: str, port: int, address: str, *, option: str = "--ray-address",
          timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """Raise :class:`ExecutorError` unless ``host:port`` accepts a TCP connection."""
    try:
        with socket.create_connection((host, port), timeout=timeout_s):
            pass
    except socket.gaierror as exc:
        raise ExecutorError(f"{option} {address!r}: cannot resolve host {host!r} "
                            f"({exc.strerror or exc})") from None
    except TimeoutError:
        raise ExecutorError(f"{option} {address!r}: no Ray cluster answered within "
                            f"{timeout_s:g} s") from None
    except OSError as exc:
        raise ExecutorError(f"{option} {address!r}: no Ray cluster there "
                            f"({exc.strerror or exc})") from None


def default_backend(workers: int | None, ray_address: str | None) -> Backend:
    """``"ray"`` with an address, ``"process"`` for more than one worker, else local."""
    if ray_address is not None:
        return "ray"
    return "process" if (workers or 1) > 1 else "local"


# ----------------------------------------------------------------------------- Ray


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:  # pragma: no cover - ray is in the dev extra
        raise ExecutorError("Ray runs need the 'ray' package (pip install ray)") from None
    return ray


def runtime_env(*, ship: bool) -> dict[str, Any]:
    """The runtime environment every pokerlab Ray job gets.

    Locally (``ship=False``) workers run on this machine: they get a ``PYTHONPATH`` that
    imports this pokerlab first and the driver's ``POKERLAB_DATA`` / ``POKERLAB_CACHE``.
    On a cluster (``ship=True``) the package folder (code and shipped data, no caches) is
    uploaded as a ``py_modules`` entry, so worker nodes import the driver's pokerlab.
    """
    root = Path(__file__).resolve().parent
    if ship:
        return {"py_modules": [str(root)], "excludes": ["__pycache__", "*.pyc", "*.nbi",
                                                        "*.nbc"]}
    paths = [str(root.parent)]
    old = os.environ.get("PYTHONPATH")
    if old:
        paths += [p for p in old.split(os.pathsep) if p and p != paths[0]]
    env = {"PYTHONPATH": os.pathsep.join(paths)}
    env.update({k: os.environ[k] for k in ENV_VARS if os.environ.get(k)})
    return {"env_vars": env}


def ray_init(address: str | None = "local", num_cpus: int | None = None, *,
             option: str = "--ray-address", timeout_s: float = PROBE_TIMEOUT_S,
             connect_timeout_s: float = CONNECT_TIMEOUT_S) -> bool:
    """The one ``ray.init`` (module docstring).  Returns True when this call initialised
    Ray (the caller shuts it down, see :func:`ray_session`), False when Ray was already
    initialised in this process (it is reused as it is)."""
    text, host, port = parse_ray_address("local" if address is None else address,
                                         option=option)
    if "ray" in sys.modules and sys.modules["ray"].is_initialized():
        return False
    if host is not None and port is not None:  # fail fast, before importing Ray
        probe(host, port, text, option=option, timeout_s=timeout_s)
    ray = _import_ray()
    if ray.is_initialized():
        return False
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
    if text == "local":
        kwargs["runtime_env"] = runtime_env(ship=False)
        if num_cpus is not None:
            kwargs["num_cpus"] = max(1, int(num_cpus))
    else:
        kwargs["runtime_env"] = runtime_env(ship=True)
    where = "start a local Ray" if text == "local" else f"join the Ray cluster at {text!r}"
    try:
        if host is not None and not text.lower().startswith("ray://"):
            check_token(text, option=option, timeout_s=connect_timeout_s)
        if text == "local":
            ray.init(address=text, **kwargs)
        else:
            try:
                _init_bounded(ray, text, kwargs, connect_timeout_s)
            except TimeoutError:
                raise
            except Exception:
                # a cluster with token authentication refuses a driver without a token:
                # join again sending the token (only then: a driver in token mode on a
                # cluster without it loses its actors)
                with contextlib.suppress(Exception):
                    ray.shutdown()
                if not _token_auth_if_available():
                    raise
                _init_bounded(ray, text, kwargs, connect_timeout_s)
    except TimeoutError:
        raise ExecutorError(f"{option}: cannot {where}: no answer within "
                            f"{connect_timeout_s:g} s (is it a Ray head's GCS port?)") from None
    except ExecutorError:  # check_token's own line
        raise
    except Exception as exc:  # noqa: BLE001 - Ray raises many kinds; one line for all
        with contextlib.suppress(Exception):
            ray.shutdown()
        if text != "local" and is_auth_error(exc):
            raise ExecutorError(auth_message(text, option=option,
                                             source=token_source())) from None
        hint = ""
        if text != "local" and "Failed to connect" in str(exc):
            hint = (" (a cluster with token authentication needs its token in "
                    "RAY_AUTH_TOKEN or ~/.ray/auth_token on this machine)")
        raise ExecutorError(f"{option}: cannot {where}: {_one_line(exc)}{hint}") from None
    return True


#: what to do about a cluster that refuses this machine's token (or its lack of one)
TOKEN_HELP = ("copy the head's token here: ray get-auth-token on the head, then "
              "RAY_AUTH_TOKEN=... or the file ~/.ray/auth_token (docs/ray.md)")


def token_source() -> str | None:
    """Where this machine's Ray authentication token comes from, as Ray looks for it
    (``RAY_AUTH_TOKEN``, ``RAY_AUTH_TOKEN_PATH``, ``~/.ray/auth_token``), or None."""
    if os.environ.get("RAY_AUTH_TOKEN", "").strip():
        return "RAY_AUTH_TOKEN"
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if path:
        return f"RAY_AUTH_TOKEN_PATH ({path})" if Path(path).is_file() else None
    default = Path.home() / ".ray" / "auth_token"
    return str(default) if default.is_file() else None


def is_auth_error(exc: BaseException | str) -> bool:
    """True for Ray's refusal of a missing or wrong token (``InvalidAuthToken``,
    ``AuthenticationError``, "Unauthenticated"), by the exception's type or its text."""
    if not isinstance(exc, str) and any(c.__name__ == "AuthenticationError"
                                        for c in type(exc).__mro__):
        return True
    text = str(exc)
    return any(k in text for k in ("InvalidAuthToken", "Unauthenticated",
                                   "Token authentication is enabled",
                                   "authentication token"))


def auth_message(address: str, *, option: str = "--ray-address",
                 source: str | None = None) -> str:
    """The one line for a cluster at ``address`` that refused the token from ``source``
    (None: this machine has none)."""
    if source is None:
        return (f"{option} {address!r}: the Ray cluster there uses token authentication "
                f"and this machine has no token; {TOKEN_HELP}")
    return (f"{option} {address!r}: the Ray cluster there refused the authentication "
            f"token from {source} (not the cluster's token); {TOKEN_HELP}")


@contextlib.contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Ray's C++ client logs every refused attempt on file descriptor 2: silenced here."""
    try:
        saved = os.dup(2)
    except OSError:  # pragma: no cover - no stderr at all
        yield
        return
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _gcs_answer(address: str, timeout_s: float) -> BaseException | None:
    """Connect a GCS client to ``address`` (quietly, in a helper thread, given up after
    ``timeout_s``): None when the cluster accepts this process, else the exception."""
    from ray._raylet import GcsClient  # type: ignore[attr-defined]

    box: dict[str, BaseException | None] = {}

    def target() -> None:
        try:
            client = GcsClient(address=address)
            client.internal_kv_get(b"pokerlab-probe", None, timeout=timeout_s)
            box["exc"] = None
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["exc"] = exc

    with _quiet_stderr():
        th = threading.Thread(target=target, name="pokerlab-ray-probe", daemon=True)
        th.start()
        th.join(timeout_s)
    if "exc" not in box:
        raise TimeoutError(address)
    return box["exc"]


def check_token(address: str, *, option: str = "--ray-address",
                timeout_s: float = CONNECT_TIMEOUT_S) -> None:
    """Before joining the GCS at ``address``: when the cluster uses token authentication,
    send this machine's token (:func:`_token_auth_if_available`) and, when it has none or
    the cluster refuses it, raise one :class:`ExecutorError` naming the address and what
    to do -- instead of Ray's minute of ``InvalidAuthToken`` lines.  No answer within
    ``timeout_s`` is a :class:`TimeoutError`; other answers are left to ``ray.init``."""
    _import_ray()
    mode = os.environ.get("RAY_AUTH_MODE")
    if (mode or "").lower() == "token" and token_source() is None:
        # Ray aborts the process (a failed check in C++) when it has to send a token it
        # does not have
        raise ExecutorError(f"{option} {address!r}: RAY_AUTH_MODE=token is set but this "
                            f"machine has no authentication token; {TOKEN_HELP}")
    try:
        exc = _gcs_answer(address, timeout_s)
    except ImportError:  # pragma: no cover - a Ray without its GCS client
        return
    if exc is None or not is_auth_error(exc):
        return
    if mode is None and token_source() is not None and _token_auth_if_available():
        exc = _gcs_answer(address, timeout_s)
        if exc is None or not is_auth_error(exc):
            return
    source = token_source() if (mode or "token").lower() == "token" else None
    raise ExecutorError(auth_message(address, option=option, source=source))


def _token_auth_if_available() -> bool:
    """Send Ray's authentication token when joining an explicit address, as Ray itself
    does for ``auto``: current Ray enables token authentication on new clusters by
    default, but a driver given an address sends no token unless ``RAY_AUTH_MODE=token``
    -- and then fails with pages of InvalidAuthToken.  Nothing changes when
    ``RAY_AUTH_MODE`` is set or no token is found (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH``, ``~/.ray/auth_token``)."""
    if os.environ.get("RAY_AUTH_MODE") is not None:
        return False
    try:
        from ray._private.authentication.authentication_token_setup import (
            maybe_enable_token_auth_if_token_available,
        )
    except ImportError:  # an older Ray without token authentication
        return False
    log = logging.getLogger(maybe_enable_token_auth_if_token_available.__module__)
    level = log.level
    log.setLevel(logging.ERROR)  # its "token authentication is enabled" notice
    try:
        return maybe_enable_token_auth_if_token_available(warn_if_disabled=False) is not False
    except Exception:  # noqa: BLE001 - no token to send
        return False
    finally:
        log.setLevel(level)


class _QuietThreadWarning(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        return "not the main thread" not in str(record.msg)


def _init_bounded(ray: Any, address: str, kwargs: dict[str, Any], timeout_s: float) -> None:
    """``ray.init`` joining ``address``, given up after ``timeout_s`` (Ray itself retries
    an address that accepts TCP but is no GCS for many minutes).

    The join is tried in a helper thread (Ray's C++ retries hold off signals, so a timer
    in the main thread cannot bound them).  A Ray initialised in a helper thread runs
    tasks but loses its actors ("all references to the actor were removed": the
    blueprint trainer's actors), so when this is the main thread the tried connection is
    shut down and Ray is joined again right here (the cluster has answered: quick)."""
    if threading.current_thread() is threading.main_thread() and \
            signal.getsignal(signal.SIGTERM) is signal.SIG_DFL:
        signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(signum))  # as Ray does
    box: dict[str, BaseException] = {}

    def target() -> None:
        try:
            ray.init(address=address, **kwargs)
        except BaseException as exc:  # noqa: BLE001 - handed to the caller
            box["exc"] = exc

    quiet = _QuietThreadWarning()
    log = logging.getLogger("ray._private.worker")
    log.addFilter(quiet)
    try:
        th = threading.Thread(target=target, name="pokerlab-ray-init", daemon=True)
        th.start()
        th.join(timeout_s)
    finally:
        log.removeFilter(quiet)
    if th.is_alive():
        raise TimeoutError(address)
    if "exc" in box:
        raise box["exc"]
    if threading.current_thread() is threading.main_thread():
        ray.shutdown()
        ray.init(address=address, **kwargs)


@contextlib.contextmanager
def ray_session(address: str | None = "local", num_cpus: int | None = None, *,
                option: str = "--ray-address") -> Iterator[Any]:
    """``with ray_session(address, num_cpus) as ray:`` -- :func:`ray_init`, and
    ``ray.shutdown()`` at the end when this session started Ray."""
    started = ray_init(address, num_cpus, option=option)
    ray = sys.modules["ray"]
    try:
        yield ray
    finally:
        if started:
            ray.shutdown()


def _one_line(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return lines[0] if lines else type(exc).__name__


_REMOTE: dict[tuple[Callable[..., Any], tuple[tuple[str, Any], ...]], Any] = {}


def remote(fn: Callable[..., Any], **options: Any) -> Any:
    """``ray.remote(**options)(fn)``, made once per function and options."""
    ray = _import_ray()
    key = (fn, tuple(sorted(options.items())))
    if key not in _REMOTE:
        _REMOTE[key] = ray.remote(**options)(fn) if options else ray.remote(fn)
    return _REMOTE[key]


# ----------------------------------------------------------------------------- map


def map_chunks(fn: Callable[[C], R], chunks: Sequence[C], *, backend: Backend = "local",
               workers: int = 1, ray_address: str | None = None,
               progress: Callable[[int, int], None] | None = None,
               size: Callable[[C], int] | None = None) -> list[R]:
    """``[fn(c) for c in chunks]`` in chunk order, on ``backend`` (module docstring).

    ``workers``: processes for ``"process"`` (one chunk, or one worker, runs here), CPUs of
    a local Ray for ``"ray"`` (at least 2).  ``ray_address``: the cluster for ``"ray"``
    (default ``"local"``; an already initialised Ray is used as it is).  ``fn`` must be a
    module-level function and the chunks picklable for the process and Ray backends.
    ``progress(done, total)`` is called as chunks finish, counted in ``size(chunk)`` units
    (default: 1 per chunk).
    """
    if backend not in BACKENDS:
        raise ExecutorError(f"unknown executor backend {backend!r} (one of "
                            f"{', '.join(BACKENDS)})")
    check_workers(workers, option="workers")
    items = list(chunks)
    sizes = [1 if size is None else int(size(c)) for c in items]
    total = sum(sizes)
    done = 0

    def tick(i: int) -> None:
        nonlocal done
        done += sizes[i]
        if progress is not None:
            progress(done, total)

    if backend == "ray":
        return _map_ray(fn, items, workers, ray_address, tick)
    if backend == "local" or workers <= 1 or len(items) <= 1:
        out: list[R] = []
        for i, c in enumerate(items):
            out.append(_call(fn, c, i, len(items), "local"))
            tick(i)
        return out
    return _map_process(fn, items, workers, tick)


def _call(fn: Callable[[C], R], chunk: C, i: int, n: int, backend: str) -> R:
    try:
        return fn(chunk)
    except Exception as exc:
        _note(exc, i, n, backend)
        raise


def _note(exc: BaseException, i: int, n: int, backend: str) -> None:
    exc.add_note(f"(in chunk {i + 1} of {n}, {backend} backend)")


def _map_process(fn: Callable[[C], R], items: list[C], workers: int,
                 tick: Callable[[int], None]) -> list[R]:
    import multiprocessing as mp
    from concurrent.futures import FIRST_EXCEPTION, ProcessPoolExecutor, wait
    from concurrent.futures.process import BrokenProcessPool

    n = len(items)
    results: list[Any] = [None] * n
    ctx = mp.get_context("spawn")
    ex = ProcessPoolExecutor(max_workers=min(workers, n), mp_context=ctx)
    try:
        futs = {ex.submit(fn, c): i for i, c in enumerate(items)}
        pending = set(futs)
        while pending:
            finished, pending = wait(pending, return_when=FIRST_EXCEPTION)
            for f in sorted(finished, key=futs.__getitem__):
                i = futs[f]
                try:
                    results[i] = f.result()
                except BrokenProcessPool:
                    raise ExecutorError(f"a worker process died while running chunk "
                                        f"{i + 1} of {n} (out of memory or killed?)") from None
                except Exception as exc:
                    _note(exc, i, n, "process")
                    raise
                tick(i)
    except BaseException:
        ex.shutdown(wait=True, cancel_futures=True)
        raise
    ex.shutdown(wait=True)
    return results


def _map_ray(fn: Callable[[C], R], items: list[C], workers: int, address: str | None,
             tick: Callable[[int], None]) -> list[R]:
    n = len(items)
    results: list[Any] = [None] * n
    with ray_session(address, max(2, workers)) as ray:
        task = remote(fn)
        refs = [task.remote(c) for c in items]
        index = {r: i for i, r in enumerate(refs)}
        pending = list(refs)
        try:
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)
                for r in ready:
                    i = index[r]
                    results[i] = _ray_get(ray, r, i, n)
                    tick(i)
        except BaseException:
            for r in pending:
                with contextlib.suppress(Exception):
                    ray.cancel(r)
            raise
    return results


def _ray_get(ray: Any, ref: Any, i: int, n: int) -> Any:
    from ray.exceptions import RayTaskError, WorkerCrashedError

    try:
        return ray.get(ref)
    except RayTaskError as exc:
        cause = getattr(exc, "cause", None)
        if isinstance(cause, BaseException):
            _note(cause, i, n, "ray")
            raise cause from exc
        raise ExecutorError(f"chunk {i + 1} of {n} failed on Ray: {_one_line(exc)}") from None
    except WorkerCrashedError:
        raise ExecutorError(f"a Ray worker died while running chunk {i + 1} of {n}") from None
