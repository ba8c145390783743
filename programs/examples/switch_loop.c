/* switch_loop.c -- `switch` with `case`, fall-through, `default` and
 * `break`, `do`/`while`, `continue`, `++` and `%` on negative numbers.
 * Correct: classify() returns 0, 1 or 2 for every input x, so the
 * assertion on line 31 never fails. */
int classify(int v) {
  switch (v % 3) {
  case 0:
    return 0;
  case 1:
  case -1:
    return 1;
  default:
    break;
  }
  return 2;
}

int main() {
  int x;
  int i = 0, odd = 0, kind = 0;
  do {
    i++;
    if (i % 2 == 0)
      continue;
    odd++;
  } while (i < 7);
  kind = classify(odd + x);
  if (kind == 2)
    kind = classify(x - 1);
  // odd is 4 here.
  assert(kind >= 0 && kind <= 2 && odd == 4);
  return kind;
}
