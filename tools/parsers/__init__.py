"""Request parsers: the values a person states in Chinese or English, each read exactly or not at all.

Domain-free: numbers with their units (money with its coins and currency), dates and ranges with working days
counted, the language of a text and the texts the person spelled out. `read_text` reads a message once into a
`TextFacts`. Nothing here imports the graph, the state or any toolset. Which library does what, how each was measured
against the hand rules it replaces, and the generated corpora that prove the readings: docs/parsers.md.
"""

from tools.parsers.calendar import working_days
from tools.parsers.dates import DateReadError, DateSpan, read_date
from tools.parsers.facts import TextFacts, read_text
from tools.parsers.language import Lang, language_of
from tools.parsers.quantities import Quantity

__all__ = [
    "DateReadError",
    "DateSpan",
    "Lang",
    "Quantity",
    "TextFacts",
    "language_of",
    "read_date",
    "read_text",
    "working_days",
]
