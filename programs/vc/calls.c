/* Calls (seed 000, section 4.3): the callee is inlined, the trace names the
   call and the return to the caller; a second error in the same procedure
   is reported after the first is blocked. */
int g;

int scale(int v) {
  if (v > 100)
    return v / (v - 101);
  return v * 2;
}

int main(void) {
  int a;
  int b;
  g = scale(a);
  if (b < 0)
    __VERIFIER_assert(g != 42);
  return 0;
}
