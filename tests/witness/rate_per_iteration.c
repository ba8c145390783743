extern int __VERIFIER_nondet_int(void);
void reach_error(void);
int main(void) {
  int i = 0, k = 0;
  while (i < 10) {
    if (__VERIFIER_nondet_int())
      k += 300;
    else
      k += 500;
    i++;
  }
  if (k < 3000)
    reach_error();
  return 0;
}
