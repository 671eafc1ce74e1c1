"""The chat model the apps give the graph (`build_graph(model=...)`): endpoint settings and the model factory
(`endpoint`), the client that stops a text-protocol reply at its complete call (`cut_openai`), and the offline default
served by llama.cpp on this machine (`local`). The graph never imports this package."""
