// The error depends on the values of two uninitialised locals, one in
// `main` and one in a function it calls: their witness says them in
// `assumption` waypoints, and a run that follows it takes them. `seed`
// is declared with another local after it: its waypoint is at the first
// statement after the whole declaration, where `seed` is in scope.
extern void reach_error(void);
extern int __VERIFIER_nondet_int(void);

int pick(int k) {
  int seed, spare;
  if (k > 2) {
    return seed - 1;
  }
  return 0;
}

int main(void) {
  int n = __VERIFIER_nondet_int();
  unsigned mask;
  int r = pick(n);
  if (mask == 4000000000u && r == 41) {
    reach_error();
  }
  return 0;
}
