/* Saturating addition with <limits.h>: never overflows. Safe under
   --property no-overflow. */
#include <limits.h>
#include <stdbool.h>
#include <assert.h>

#define IN_RANGE(x, lo, hi) ((x) >= (lo) && (x) <= (hi))

static int sat_add(int a, int b) {
  if (b > 0 && a > INT_MAX - b)
    return INT_MAX;
  if (b < 0 && a < INT_MIN - b)
    return INT_MIN;
  return a + b;
}

int main(void) {
  int a = __VERIFIER_nondet_int();
  int b = __VERIFIER_nondet_int();
  int s = sat_add(a, b);
  bool ok = IN_RANGE(s, INT_MIN, INT_MAX);
  assert(ok);
  if (a >= 0 && b >= 0)
    assert(s >= a);
  return 0;
}
