"""The chat model behind the reasoner: endpoint settings and the model factory (`endpoint`), and the offline
default served by llama.cpp on this machine (`local`)."""
