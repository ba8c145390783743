/* abs_safe.c -- SV-COMP conventions: `#include` lines, `extern` prototypes
 * (one with `__attribute__`), __VERIFIER_nondet_int(), __VERIFIER_assume()
 * and __VERIFIER_assert(), with `?:` and calls inside expressions.
 * Correct: the assertion on line 21 holds for every input, so a checker
 * should find no reachable error. */
#include <stdio.h>
/* (verifier.h: the SV-COMP prototypes, written out below) */

extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void __VERIFIER_assert(int cond) __attribute__((__nothrow__));

int abs_value(int v) {
  return v < 0 ? -v : v;
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  __VERIFIER_assume(x > -1000 && x < 1000);
  int r = abs_value(x) + abs_value(-x);
  __VERIFIER_assert(r >= 0 && r == 2 * abs_value(x));
  return 0;
}
