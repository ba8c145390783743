// args: --property no-overflow
// A signed product that overflows for large inputs.
extern int __VERIFIER_nondet_int(void);

int area(int w, int h) {
  return w * h;
}

int main(void) {
  int w = __VERIFIER_nondet_int();
  int h = __VERIFIER_nondet_int();
  if (w < 0 || h < 0)
    return 0;
  return area(w, h);
}
