/* sort3_bug.c -- comma assignments (`t = a, a = b, b = t;`), `++`, `--`
 * and `-=`.
 * Bug: two compare-and-swap steps do not sort three numbers; the
 * assertion on line 22 fails, e.g. for a = 2, b = 3, c = 1 (then a = 2 and
 * b = 1 at the end). It holds when the input is already sorted. */
int a, b, c;
int swaps = 0;

int main() {
  int t = 0;
  int budget = 3;
  if (a > b) {
    t = a, a = b, b = t;
    swaps++;
    budget--;
  }
  if (b > c) {
    t = b, b = c, c = t;
    swaps++;
    budget -= 1;
  }
  assert(a <= b && b <= c && swaps + budget == 3);
  return 0;
}
