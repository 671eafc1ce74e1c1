"""State schemas of the flowagent graph."""
