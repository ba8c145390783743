/* k-induction (`--loops kinduction:K`): a two-stage shift register. A[0]
   is 0 because A[1] was 0 one iteration earlier, which no single-loop
   invariant over scalars says: `--loops havoc` and `kinduction:1` leave a
   possible warning, `kinduction:2` verifies the loop. */
int A[2];

int main(void) {
  int n;
  int i = 0;
  A[0] = 0;
  A[1] = 0;
  while (i < n) {
    assert(A[0] == 0);
    A[0] = A[1];
    A[1] = 0;
    i++;
  }
  return 0;
}
