"""Counts the solutions of the N-Queens problem on an n x n board.

An example of an external solver for `queens compare --external` (see
README.md here): plain Python 3, no packages. It prints one JSON object,
    {"n": 8, "solutions": 92}
which the config reads with a JSON pointer, /solutions.

The search places one queen a row, keeping three bit masks (Python ints)
of what the next row cannot take: the taken columns and the two diagonal
directions. Moving down a row shifts each diagonal mask by one column.
"""

import json
import sys

# Larger boards would take hours in Python; an example need not go there.
MAX_N = 16


def count(n):
    full = (1 << n) - 1

    def place(cols, left, right):
        if cols == full:
            return 1
        total = 0
        # Diagonal bits shifted past the board's edge fall outside `full`.
        open_squares = full & ~(cols | left | right)
        while open_squares:
            bit = open_squares & -open_squares  # the lowest open square
            open_squares ^= bit
            total += place(cols | bit, (left | bit) << 1, (right | bit) >> 1)
        return total

    return place(0, 0, 0)


def main(args):
    if len(args) != 1:
        print(f"usage: python3 count.py N   (1 <= N <= {MAX_N})", file=sys.stderr)
        return 2
    word = args[0]
    # ASCII digits only (str.isdigit alone also takes other scripts' digits).
    if not (word.isascii() and word.isdigit() and 1 <= int(word) <= MAX_N):
        print(f"count.py: n must be a whole number from 1 to {MAX_N}, not '{word}'",
              file=sys.stderr)
        return 2
    n = int(word)
    print(json.dumps({"n": n, "solutions": count(n)}))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
