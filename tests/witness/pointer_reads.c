// Two loops whose tests read through pointers chosen at run time: the
// proof needs `i <= *pa` at the first `while` and `k <= s->n` at the
// second, relations no fact over the program's scalars states in C (the
// memory model reads `*pa` by cases on the object `pa` names).
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

struct box {
  int n;
  int pad;
};
struct box b1, b2;

int main(void) {
  int x = __VERIFIER_nondet_int(), y = __VERIFIER_nondet_int();
  int *pa = __VERIFIER_nondet_int() ? &x : &y;
  struct box *s = __VERIFIER_nondet_int() ? &b1 : &b2;
  s->n = __VERIFIER_nondet_int();
  int i = *pa - 7;
  while (i < *pa) {
    i++;
  }
  if (i != *pa)
    reach_error();
  int k = s->n - 3;
  while (k < s->n) {
    k++;
  }
  if (k != s->n)
    reach_error();
  return 0;
}
