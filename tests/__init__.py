"""Tests of flowagent."""
