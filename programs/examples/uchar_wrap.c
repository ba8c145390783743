/* uchar_wrap.c -- Bug: a loop summing `unsigned char` inputs that wraps around:
 * 20 values of at least 200 can sum to less than 5 modulo 256. The error
 * needs more iterations than `check` unrolls before widening; the
 * explanation unrolls as far as the confirmed run goes. */
extern unsigned char __VERIFIER_nondet_uchar(void);
extern void reach_error(void);
int main(void) {
  unsigned char total = 0;
  int i = 0;
  while (i < 20) {
    unsigned char v = __VERIFIER_nondet_uchar();
    if (v < 200) return 0;
    total = total + v;
    i = i + 1;
  }
  if (total < 5) reach_error();
  return 0;
}
