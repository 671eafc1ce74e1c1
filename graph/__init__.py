"""The guarded ReAct state graph of flowagent."""
