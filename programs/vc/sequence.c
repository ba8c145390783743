/* Sequence numbers (seed 000, section 4.2): with the loop unrolled twice,
   the error is reached by taking one branch of the `if` in one iteration
   and the other branch in the other; the trace says which branch was
   taken in which iteration, in execution order. */
int main(void) {
  int x;
  int i = 0;
  int seen = 0;
  while (i < 2) {
    if (x == i)
      seen = seen + 1;
    else
      seen = seen + 10;
    i++;
  }
  __VERIFIER_assert(seen != 11);
  return 0;
}
