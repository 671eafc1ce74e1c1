"""A toolset defined in one package, as the guide `docs/guides/add-a-toolset.md` builds it: meeting rooms.

It has its own people and actor look-up, no SQL store (its bookings live in its backend, in memory), a write that
needs a person's approval with a card read from that backend, and a value only the person can give (the day).
Nothing outside this package changes for the graph to run it.
"""

from tests.support.rooms.toolset import ROOMS

__all__ = ["ROOMS"]
