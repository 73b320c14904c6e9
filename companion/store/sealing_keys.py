"""Where the private keys of open sealings live: in memory only, never on a disk.

Each sealing (a secret ballot, a simultaneous reveal: :mod:`companion.store.sealed`) has
a key pair of its own (X25519, from PyNaCl: :mod:`companion.store.box`). Its public key is
stored with the sealing and given to the devices, which seal their slips to it; its private
key lives only in a *sealing key store*, one of:

- :class:`MemoryKeys` (the default): an anonymous shared memory region of fixed slots
  (a public key and its private key each), made when the app is made. gunicorn makes the
  app once, before it forks its workers (``preload_app``), so every worker, and a worker
  gunicorn starts again after a timeout, reads and writes the same slots. The region is
  not backed by any file, is locked into RAM where the system allows (``mlock``), and is
  left out of core dumps (``MADV_DONTDUMP``).
- :class:`RedisKeys` (``COMPANION_SEALING_STORE=redis://…``), for several servers on one
  database: refused at start when that Redis writes its data to disk (RDB snapshots or
  an append-only file), since the keys must never reach a disk.

When a sealing ends (revealed, dropped, discarded, or settled by a verdict) its slot is
overwritten with zeros (memory) or its entry deleted (Redis): from then on no key the
server holds opens its slips, wherever copies of them lie.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import mmap
import os
import threading
from typing import Protocol
from urllib.parse import urlsplit

from .box import key_pair

KEY_BYTES = 32
"""An X25519 key, public or private."""

SLOTS = 4096
"""Sealings a memory store holds open at once (one per table mid-vote or mid-reveal)."""

_USED = b"\x01"
_SLOT = 1 + 2 * KEY_BYTES


class StoreFull(RuntimeError):
    """The key store holds as many open sealings as it may (``slots`` of them)."""

    def __init__(self, slots: int) -> None:
        super().__init__(f"{slots} sealings are open at once on this server")
        self.slots = slots


class SealingKeys(Protocol):
    """A store of the private keys of open sealings, found by their public keys."""

    def make(self) -> bytes:
        """Make a key pair, keep its private key; return its public key."""

    def private_key(self, public: bytes) -> bytes | None:
        """The private key of ``public`` (None: not held, or destroyed)."""

    def holds(self, public: bytes) -> bool:
        """True when the private key of ``public`` is held."""

    def destroy(self, public: bytes) -> None:
        """Overwrite the private key of ``public``; nothing opens its slips after this."""


class _ProcessLock:
    """A lock that holds across the processes forked from the one that made it, and
    within each of them across threads: a POSIX record lock on an anonymous memory file
    (``memfd``: no disk), which the system lets go when a process dies holding it (a
    worker killed after a timeout leaves nothing locked). Where there is no ``memfd``
    (not Linux), the threads of one process only."""

    def __init__(self) -> None:
        self._threads = threading.Lock()
        make = getattr(os, "memfd_create", None)
        self._fd = make("companion-sealing-lock", getattr(os, "MFD_CLOEXEC", 0)) \
            if make else None

    def __enter__(self) -> None:
        self._threads.acquire()
        if self._fd is not None:
            import fcntl

            fcntl.lockf(self._fd, fcntl.LOCK_EX)

    def __exit__(self, *_exc: object) -> None:
        if self._fd is not None:
            import fcntl

            fcntl.lockf(self._fd, fcntl.LOCK_UN)
        self._threads.release()


def _pin(region: mmap.mmap) -> None:
    """Keep ``region`` out of swap and core dumps where the system allows (best effort)."""
    if hasattr(mmap, "MADV_DONTDUMP"):
        try:
            region.madvise(mmap.MADV_DONTDUMP)
        except OSError:
            pass
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        buffer = (ctypes.c_char * len(region)).from_buffer(region)
        libc.mlock(ctypes.addressof(buffer), ctypes.c_size_t(len(region)))
        del buffer  # (the region can be closed only once no view of it is left)
    except (OSError, AttributeError, TypeError):
        pass


class MemoryKeys:
    """The private keys of open sealings in an anonymous shared memory region (see the
    module): :data:`SLOTS` slots of a used mark, a public key and its private key."""

    def __init__(self, slots: int = SLOTS) -> None:
        self.slots = slots
        self._region = mmap.mmap(-1, slots * _SLOT)  # MAP_SHARED | MAP_ANONYMOUS
        _pin(self._region)
        self._lock = _ProcessLock()

    def _find(self, public: bytes) -> int | None:
        """The offset of ``public``'s slot (a search in C, not a loop over the slots)."""
        wanted, start = _USED + public, 0
        while (offset := self._region.find(wanted, start)) >= 0:
            if offset % _SLOT == 0:
                return offset
            start = offset + 1  # (those bytes straddled two slots)
        return None

    def make(self) -> bytes:
        """Make a key pair in a free slot; its public key (``StoreFull`` when none is free)."""
        public, private = key_pair()
        with self._lock:
            region = self._region
            for offset in range(0, self.slots * _SLOT, _SLOT):
                if region[offset:offset + 1] != _USED:
                    region[offset:offset + _SLOT] = _USED + public + private
                    return public
        raise StoreFull(self.slots)

    def private_key(self, public: bytes) -> bytes | None:
        """The private key kept for ``public``."""
        with self._lock:
            offset = self._find(public)
            if offset is None:
                return None
            return self._region[offset + 1 + KEY_BYTES:offset + _SLOT]

    def holds(self, public: bytes) -> bool:
        """True when a slot holds ``public``."""
        with self._lock:
            return self._find(public) is not None

    def destroy(self, public: bytes) -> None:
        """Overwrite ``public``'s slot with zeros."""
        with self._lock:
            offset = self._find(public)
            if offset is not None:
                self._region[offset:offset + _SLOT] = bytes(_SLOT)

    def held(self) -> int:
        """How many slots are in use."""
        with self._lock:
            return sum(self._region[o:o + 1] == _USED
                       for o in range(0, self.slots * _SLOT, _SLOT))


class RedisKeys:
    """The private keys of open sealings in a Redis that keeps nothing on disk."""

    PREFIX = "companion:sealing:"
    LIFETIME = 7 * 24 * 3600
    """Seconds a key is kept at most (a sealing open for longer is void, as after a
    restart): a server that died mid-vote leaves nothing behind for ever."""

    def __init__(self, url: str) -> None:
        try:
            import redis
        except ImportError as error:
            raise RuntimeError("COMPANION_SEALING_STORE names Redis: install the redis "
                               "package (pip install redis)") from error
        self.client = redis.Redis.from_url(url)
        refuse_persistent(self.client, url)

    def _name(self, public: bytes) -> str:
        return self.PREFIX + public.hex()

    def make(self) -> bytes:
        """Make a key pair and keep its private key in Redis."""
        public, private = key_pair()
        self.client.set(self._name(public), private, ex=self.LIFETIME)
        return public

    def private_key(self, public: bytes) -> bytes | None:
        """The private key kept for ``public``."""
        return self.client.get(self._name(public))

    def holds(self, public: bytes) -> bool:
        """True when Redis keeps ``public``'s private key."""
        return bool(self.client.exists(self._name(public)))

    def destroy(self, public: bytes) -> None:
        """Delete ``public``'s private key from Redis."""
        self.client.delete(self._name(public))


def refuse_persistent(client, url: str) -> None:
    """Raise ``RuntimeError`` unless the Redis behind ``client`` keeps nothing on disk."""
    parts = urlsplit(url)  # (said without the password the URL may hold)
    where = f"{parts.hostname}:{parts.port or 6379}" if parts.hostname else parts.path
    try:
        save = client.config_get("save").get("save", "")
        appendonly = client.config_get("appendonly").get("appendonly", "no")
    except Exception as error:  # CONFIG refused (a hosted Redis) or Redis out of reach
        raise RuntimeError(
            f"COMPANION_SEALING_STORE: cannot ask {where} whether it writes to disk "
            f"({error}); the sealing keys must never reach a disk") from error
    if save or appendonly != "no":
        raise RuntimeError(
            f"COMPANION_SEALING_STORE: {where} writes its data to disk (save {save!r}, "
            f"appendonly {appendonly!r}); the sealing keys must never reach a disk. Run "
            "a Redis of its own for them with `--save '' --appendonly no`")


def make_store(setting: str | None) -> SealingKeys:
    """The store ``COMPANION_SEALING_STORE`` names: ``redis://…``, or memory by default."""
    if not setting or setting == "memory://":
        return MemoryKeys()
    if setting.startswith(("redis://", "rediss://", "unix://")):
        return RedisKeys(setting)
    raise RuntimeError(f"COMPANION_SEALING_STORE must be memory:// or redis://…, not "
                       f"{setting!r}")


__all__ = ["KEY_BYTES", "SLOTS", "MemoryKeys", "RedisKeys", "SealingKeys", "StoreFull",
           "make_store", "refuse_persistent"]
