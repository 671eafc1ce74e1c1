"""What LangGraph's server adds around the graph: sign-in tokens, the auth hooks, the actor guard, and the web page."""
