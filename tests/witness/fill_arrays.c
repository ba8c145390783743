/* Two arrays filled by loops, one counting up from 0 (its counter
   declared in the `for`), one counting down, then read at an index drawn
   at random. Safe: the proof needs what each loop wrote into the elements
   it passed, a `\forall` a correctness witness states element by element. */
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int main(void) {
  int a[8];
  int b[6];
  for (int i = 0; i < 8; i++)
    a[i] = 2 * i + 1;
  int n = 5;
  while (n >= 0) {
    b[n] = 7;
    n--;
  }
  int j = __VERIFIER_nondet_int();
  if (j >= 0 && j < 6 && (a[j] != 2 * j + 1 || b[j] != 7))
    reach_error();
  return 0;
}
