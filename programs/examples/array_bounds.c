/* array_bounds.c -- `#define NAME constant`, a global array of constant
 * size, constant and non-constant indices, `for`, `+=`, and a global
 * without an initialiser (its start value is an input).
 * Bug: the loop on line 15 runs i up to N, so `a[i]` on line 16 is out of
 * bounds when i == 5 (the array has 5 elements). Every run reaches it. */
#define N 5
#define LAST (N - 1)

int a[N] = {0};
int sum;

int main() {
  int i = 0;
  a[0] = 1, a[LAST] = 2;
  for (i = 0; i <= N; i++) {
    a[i] = i;
    sum += a[i];
  }
  return sum;
}
