"""The terminal chat (`flowagent chat`): the session and its loop, the rendering, the slash commands, logging."""
