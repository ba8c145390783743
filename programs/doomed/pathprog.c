int pathprog(int k) { int i = 0;
    if (k != 0)
        assert(i != 0);                   /* *i = 3; */
    return 0;
}

/* Seed 004, Fig. 6 (PATHPROG), lines 1-3 as in the figure: `i` is a null
   pointer, so line 3 fails whenever it is reached. Only the extended
   error VC (a run from the start, through the point) sees it: from line 3
   alone, `i` could be anything. */
int main(void)
{
    return pathprog(nondet());
}
