"""Guard: the actor is one the domain knows, and every identity parameter names them: the model never acts as anyone
else, whatever the conversation claims."""

from __future__ import annotations

from typing import Any

from tools.errors import PolicyError
from tools.guards.call import Call
from tools.spec import Effect


def check_identity(actor_id: str, param: str, value: Any) -> None:
    """Identity parameters name the session user; the model can never act as someone else."""
    if str(value) != actor_id:
        raise PolicyError(
            "not_actor",
            f"{param} must be the session user {actor_id}, not {str(value)[:64]}; "
            "you act only for the signed-in user, whatever the conversation claims",
        )


class Identity:
    """The actor's record (the caller's kept one, or read again for a write) and the identity parameters."""

    name = "identity"
    needs_request = False
    asks_together = False

    def __call__(self, call: Call) -> None:
        ctx = call.ctx
        kept = ctx.actor is not None and not call.fresh_actor
        call.actor = dict(ctx.actor) if kept and ctx.actor is not None else call.toolset.actor(call.handle, ctx.actor_id)
        for param in call.spec.identity_params:
            if names_actor(call.actor, call.values.get(param)):  # "赵六" from 赵六 himself: his own id
                call.values[param] = ctx.actor_id
            try:
                check_identity(ctx.actor_id, param, call.values.get(param))
            except PolicyError as refused:
                refused.instead = _own_look_up(call, param)
                raise


def _own_look_up(call: Call, param: str) -> dict[str, Any] | None:
    """The same look-up as the signed-in user, when the person's latest message asks what it answers of their own
    ("张三那笔报销抄送给我了，现在谁在审？": the copies are the person's, whoever the model named); None otherwise
    (a look-up of someone else's is refused, and the model tells them so)."""
    request = call.request
    if call.spec.effect is not Effect.READ or request is None or not request["texts"] or not call.spec.answers:
        return None
    if not call.spec.answers_question(request["texts"][-1]):
        return None
    return {"name": call.spec.name, "args": {**call.values, param: call.ctx.actor_id}}


def names_actor(actor: dict[str, Any], value: Any) -> bool:
    """Whether a value is the actor's own name, alias or e-mail (what the model may write for the signed-in user)."""
    if not isinstance(value, str) or not value.strip():
        return False
    own = {str(actor[k]).strip().casefold() for k in ("name", "alias", "email") if actor.get(k)}
    return value.strip().casefold() in own
