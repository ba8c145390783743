/* short_circuit.c -- `&&` and `||` evaluate their right operand only when
 * needed; `!`; an initialised global array read with an input index.
 * Correct: the division on line 11 runs only when d != 0 and the element
 * read on line 13 only when 0 <= i < 4, so no division by zero and no
 * index out of bounds is reachable, and the assertion on line 16 holds. */
int table[4] = {3, 1, 4, 1};

int main() {
  int d, i;
  int hits = 0;
  if (d != 0 && 100 / d > 3)
    hits++;
  if (!(i < 0 || i >= 4) && table[i] == 1)
    hits++;
  hits = d == 0 || hits > 0 ? hits + 1 : hits;
  assert(hits >= 0 && hits <= 3);
  return hits;
}
