/* widened_loop.c -- Bug: the error needs 20 iterations of a loop whose bound is
 * an input: past --unroll the loop's variables are widened, and the
 * explanation unrolls as far as the confirmed run goes to find its FSS. */
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assert(int);
int main(void) {
  int n = __VERIFIER_nondet_int();
  int i = 0;
  int s = 0;
  while (i < n) {
    s = s + 2;
    i = i + 1;
  }
  __VERIFIER_assert(s != 40);
  return 0;
}
