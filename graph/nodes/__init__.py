"""The graph's nodes, one module each: the ReAct steps (reasoner, tool_validator, human_review, executor,
observation_summarizer) and the budget_check that bounds them. A node imports no other node."""
