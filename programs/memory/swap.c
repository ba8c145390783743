/* swap.c -- pointers to locals, an out-parameter and a pointer chosen at
 * run time.
 * Bug: `order(p, q)` is meant to leave x <= y, but when `same` is non-zero
 * `q` points to `x` too, so `order` compares x with itself and never swaps:
 * with same != 0 and x > y (both at most 100) `reach_error()` on line 33 is
 * called. */
extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);

void swap(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

void order(int *lo, int *hi) {
  if (*lo > *hi)
    swap(lo, hi);
}

int main(void) {
  int x = __VERIFIER_nondet_int();
  int y = __VERIFIER_nondet_int();
  int same = __VERIFIER_nondet_int();
  int *p = &x;
  int *q = &y;
  if (same)
    q = p;
  order(p, q);
  if (x > 100 || y > 100)
    return 0;
  if (x > y)
    reach_error();
  return 0;
}
