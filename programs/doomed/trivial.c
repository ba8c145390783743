int access(int ptr)
{
    if (ptr)
        assert(ptr != 0);                 /* *ptr = 0; */
    else
        assert(ptr != 0);                 /* printf("%d", *ptr); */

    return 0;
}

/* Seed 004, Fig. 1 (TRIVIAL), lines 1-9 as in the figure. A pointer is an
   index that may be 0 (null); `*ptr` is the assertion that it is not.
   Expected: lines 5-6 are doomed (every run through the else branch fails
   at line 6). */
int main(void)
{
    return access(nondet());
}
