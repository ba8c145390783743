/* programs/diagnose/late_bug.c with SV-COMP's nondet calls: a real bug
   that needs 200 loop iterations and flag set. `check` and `verify` leave
   it undecided; `diagnose --oracle run --no-infer` finds a run into the
   error, and `--witness` writes its violation witness. */
extern void reach_error(void);
extern _Bool __VERIFIER_nondet_bool(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
int main(void) {
  _Bool flag = __VERIFIER_nondet_bool();
  unsigned char n = __VERIFIER_nondet_uchar();
  int i = 0, j = 0;
  /*@ loop invariant i >= 0; */
  while (i < n) {
    i++;
    j = j - 1;
  }
  if (flag) {
    if (!(j > -200))
      reach_error();
  }
  return 0;
}
