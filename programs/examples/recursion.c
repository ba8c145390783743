/* recursion.c -- recursion (direct and mutual through a prototype), `bool`
 * functions, `true`/`false`, `?:`, calls inside expressions.
 * Correct: for 0 <= n <= 10 (assumed on line 18) sum(n) is n*(n+1)/2 and
 * 2*n is even, so neither assertion (lines 20 and 21) fails. */
int sum(int n) {
  if (n <= 0)
    return 0;
  return n + sum(n - 1);
}

bool is_even(int n);
bool is_odd(int n) { return n == 0 ? false : is_even(n - 1); }
bool is_even(int n) { return n == 0 ? true : is_odd(n - 1); }

int main() {
  int n;
  int s = 0;
  __VERIFIER_assume(n >= 0 && n <= 10);
  s = sum(n);
  __VERIFIER_assert(2 * s == n * (n + 1));
  __VERIFIER_assert(is_even(2 * n) && !is_odd(2 * n));
  return 0;
}
