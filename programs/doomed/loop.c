int a[256]; int getMin(unsigned char x) {
    int i, j, temp;
    for (i = x - 1; i >= 0; i--) {
        for (j = 1; j <= i; j++) {
            if (a[j - 1] > a[j]) {
                temp = a[j - 1];
                a[j - 1] = a[j];
                a[j] = temp;
            }
        }
    }
    return a[i];
}

/* Seed 004, Fig. 2 (LOOP), lines 1-13 as in the figure. The array is a
   global with room for the x elements (x is at most 255), so the sort
   itself stays in bounds; the loop at line 3 ends with i < 0, so `a[i]` on
   line 12 is out of bounds on every run. Expected: one doomed region,
   entered at the loop's exit on line 3, failing at line 12. */
int main(void)
{
    return getMin(nondet());
}
