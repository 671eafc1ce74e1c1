"""The toy toolset (the seed's ToyAgent): today's weather in a city and a safe calculator."""

from tools.toy.specs import REGISTRY, TOOLSET

__all__ = ["REGISTRY", "TOOLSET"]
