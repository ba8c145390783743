/* A false alarm that takes two questions: the cheapest proof obligations
   are "a >= 0" and "b >= 0" after the loop (either discharges the
   assertion). The first is false (a goes down), so its "no" leads to the
   second, which is true. Run with --no-infer. */
int main(int n) {
  int i = 0, a = 0, b = 0;
  /*@ loop invariant i >= 0; */
  while (i < n) {
    i++;
    a = a - 1;
    b = b + 1;
  }
  assert(a >= 0 || b >= 0);
  return 0;
}
