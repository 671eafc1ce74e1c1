"""flowagent's parts of the LangGraph server: the web page and its JSON routes (and sign-in)."""
