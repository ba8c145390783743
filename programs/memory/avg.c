/* avg.c -- an array passed to functions (`int a[]`, `int *a`), a pointer
 * walking an array, and a struct with a pointer field.
 * Bug: `sum` stops one element short when `n` is odd (`i + 1 < n`), so
 * the average of {v, v, v} is 2 * v / 3 and `reach_error()` on line 38 is
 * called for every v >= 1. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);
extern void reach_error(void);

struct stats {
  int *data;
  int count;
};

int sum(int a[], int n) {
  int s = 0;
  for (int i = 0; i + 1 < n; i += 2)
    s += a[i] + a[i + 1];
  return s;
}

void fill(int *a, int n, int v) {
  int *end = a + n;
  while (a < end)
    *a++ = v;
}

int main(void) {
  int v = __VERIFIER_nondet_int();
  __VERIFIER_assume(v >= 0 && v <= 1000);
  int buf[3];
  struct stats st;
  st.data = buf;
  st.count = 3;
  fill(st.data, st.count, v);
  int avg = sum(st.data, st.count) / st.count;
  if (avg != v)
    reach_error();
  return 0;
}
