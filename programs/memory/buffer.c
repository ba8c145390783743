/* buffer.c -- the heap: a buffer of `n` ints from `malloc`, a struct from
 * `calloc`, and `free`.
 * Bug: `copy` copies `n + 1` elements (`i <= n`, line 14) into a buffer of
 * `n`, so its last write, `dst[n]`, is past the end of what `malloc` gave
 * (a `deref` condition at line 15), for every `n`. */
#include <stdlib.h>
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

struct counter { int hits; int last; };

void copy(int *dst, const int *src, int n) {
  int i;
  for (i = 0; i <= n; i++)
    dst[i] = src[i];
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  __VERIFIER_assume(n >= 1 && n <= 8);
  int src[9] = {0, 1, 2, 3, 4, 5, 6, 7, 8};
  int *buf = malloc(n * sizeof(int));
  struct counter *c = calloc(1, sizeof(struct counter));
  copy(buf, src, n);
  c->hits = c->hits + 1;
  c->last = buf[0];
  free(buf);
  free(c);
  return 0;
}
