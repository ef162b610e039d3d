/*
 * three_mask.c: counts the solutions of the N-Queens problem on an n x n
 * board by backtracking over bit masks, one row at a time. An example of an
 * external solver for `queens compare --external` (see README.md here).
 *
 *   ./three-mask N      prints the count, one line, nothing else
 *
 * Three masks say which squares of the next row are attacked: one for the
 * taken columns, and one for each diagonal direction. Going down a row
 * shifts each diagonal mask by one file, so a queen's attack moves with it
 * at the cost of two shifts; the open squares are those no mask covers.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

/* Q(20) = 39,029,188,884 fits easily in 64 bits; n = 21 and up would take
 * far longer than an example should, so they are refused. */
#define MAX_N 20

static uint64_t place(uint32_t all, uint32_t cols, uint32_t left, uint32_t right)
{
    if (cols == all)
        return 1;
    uint64_t count = 0;
    uint32_t open = all & ~(cols | left | right);
    while (open) {
        /* The lowest open square, then the rest. */
        uint32_t bit = open & -open;
        open ^= bit;
        count += place(all, cols | bit, (left | bit) << 1, (right | bit) >> 1);
    }
    return count;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: three-mask N   (1 <= N <= %d)\n", MAX_N);
        return 2;
    }
    char *end;
    errno = 0;
    long n = strtol(argv[1], &end, 10);
    /* Digits only: no sign, no spaces, nothing after them. */
    if (argv[1][0] < '0' || argv[1][0] > '9' || errno || *end != '\0' || n < 1
        || n > MAX_N) {
        fprintf(stderr, "three-mask: N must be a whole number from 1 to %d, not '%s'\n",
                MAX_N, argv[1]);
        return 2;
    }
    /* The low n bits are the board's files; a diagonal bit shifted past
     * either edge falls outside `all` and is masked off where it is read. */
    uint32_t all = (UINT32_C(1) << n) - 1;
    printf("%llu\n", (unsigned long long)place(all, 0, 0, 0));
    return 0;
}
