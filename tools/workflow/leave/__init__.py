"""Leave in the workflow toolset: leave types as data, working days on the mainland-China calendar, allocations and
balances. The process engine knows none of it: the leave process's form names a type and dates, and these rules read
them."""

from tools.workflow.leave.balances import release_for_instance

__all__ = ["release_for_instance"]
