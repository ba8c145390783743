/* The average of two ints, computed the naive way: (a + b) / 2 overflows
   when both are large. Found under --property no-overflow. */
#include <limits.h>
#include <stdint.h>

#define AVG(a, b) (((a) + (b)) / 2)

int32_t average(int32_t a, int32_t b) { return AVG(a, b); }

int main(void) {
  int32_t a = __VERIFIER_nondet_int();
  int32_t b = __VERIFIER_nondet_int();
  if (a > INT_MAX / 2 || b > 0)
    return average(a, b);
  return 0;
}
