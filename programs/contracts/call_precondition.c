/* A call whose precondition fails at one call site only: `twice` needs
   0 <= n <= 100. `four_times` calls it twice within that range;
   `shifted` passes `x - 10`, negative when x < 10. */

/*@ requires 0 <= n && n <= 100;
    ensures \result == 2 * n; */
int twice(int n) {
  return n + n;
}

/*@ requires 0 <= x && x <= 25;
    ensures \result == 4 * x; */
int four_times(int x) {
  return twice(twice(x));
}

/*@ requires 0 <= x && x <= 100; */
int shifted(int x) {
  return twice(x - 10);
}

int main(void) {
  int a = four_times(3);
  int b = shifted(42);
  return a + b;
}
