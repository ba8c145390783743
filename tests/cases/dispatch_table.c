// A table of function pointers indexed by an input checked one too loosely.
int inc(int x) { return x + 1; }
int dec(int x) { return x - 1; }
int twice(int x) { return 2 * x; }

int (*ops[3])(int) = {inc, dec, twice};

int apply(int op, int x) {
  if (op < 0 || op > 3)
    return x;
  return ops[op](x);
}

extern int __VERIFIER_nondet_int(void);

int main(void) {
  return apply(__VERIFIER_nondet_int(), 5);
}
