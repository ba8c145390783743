/* A loop made with `goto`: the invariant written before the label is
   checked when control first reaches it and after each `goto again;`,
   and assumed where the loop is cut, as for `while`. */

/*@ requires n >= 0;
    ensures \result == 2 * n; */
int twice(int n) {
  int i = 0;
  int s = 0;
  /*@ loop invariant 0 <= i && i <= n && s == 2 * i; */
again:
  if (i < n) {
    i = i + 1;
    s = s + 2;
    goto again;
  }
  return s;
}

int main(void) {
  return twice(5);
}
