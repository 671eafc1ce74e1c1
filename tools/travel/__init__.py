"""The travel toolset (the seed's travel assistant): flights, hotels and weather from an embedded SQLite data set."""

from tools.travel.specs import REGISTRY, TOOLSET

__all__ = ["REGISTRY", "TOOLSET"]
