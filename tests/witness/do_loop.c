// A `do` loop around a `while` loop: the proof needs `s == 3 * i` at the
// start of each iteration of the `do` (its loop invariant, at the `do`
// keyword) and `j <= 3` at the `while`.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int t = __VERIFIER_nondet_int();
  int i = 0;
  int s = 0;
  do {
    int j = t > 0 ? 0 : 1;
    while (j < 3)
      j++;
    s += j;
    i++;
  } while (i < 10);
  if (s != 30)
    reach_error();
  return 0;
}
