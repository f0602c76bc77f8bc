"""Whole numbers too long to write out: :class:`LongNumber`, and reading a number as one.

Python refuses to write an integer of more than 4,300 digits as text, so a number that long
read from a scenario is kept as a :class:`LongNumber` (its size only): no field takes one, and
a message shows it by its size rather than stopping the program where it would be written out.
"""

from __future__ import annotations

__all__ = ["LongNumber", "long_number"]


class LongNumber:
    """A whole number written with more digits than Python writes out as text (its limit on
    converting an integer to text, 4300 digits): no field takes one, and a message shows it by
    its size. Kept as an int it would pass a check for a count or a number of seats and then
    stop the program where the number is written out (a timeline, the JSON result)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int) -> None:
        self.digits = digits

    def __repr__(self) -> str:
        return f"a number of about {self.digits} digits"

    __str__ = __repr__


def long_number(number: int) -> int | LongNumber:
    """``number``, or a :class:`LongNumber` where it is too long to write out in decimal."""
    if number.bit_length() > 14_000:  # about 4,200 decimal digits: near the limit, test it
        try:
            str(number)
        except ValueError:
            return LongNumber(int(number.bit_length() * 0.30103))
    return number
