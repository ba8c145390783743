/* mean.c -- an array parameter, checked from `main` or on its own:
 *   focuscheck check --entry mean --valid-params programs/memory/mean.c
 * On its own, nothing calls `mean`: `a` points to an array of 16 inputs
 * (`--param-elems`), never NULL (`--valid-params`), and the `requires`
 * says a caller passes at most 16 elements.
 * Bug: a caller passing no elements (n == 0) makes line 15 divide by
 * zero; `main` does when its input k is 0. */
extern int __VERIFIER_nondet_int(void);

/*@ requires n <= 16; */
int mean(int a[], int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += a[i];
  return s / n;
}

int main(void) {
  int buf[3] = {4, 5, 6};
  int k = __VERIFIER_nondet_int();
  if (k < 0 || k > 3)
    return 0;
  return mean(buf, k);
}
