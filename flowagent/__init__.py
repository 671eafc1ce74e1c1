"""flowagent's apps and what they provision: the `flowagent` command and the terminal chat, the graphs and the side
the LangGraph server loads, and the chat model. They import the graph, the tools and the state; those never import
them."""
