"""What LangGraph's server adds around the graph: sign-in tokens, the auth hooks, and the actor guard."""
