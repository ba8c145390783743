/* Seed 003 (Dillig, Dillig, Aiken), the introductory foo(flag, n): the
   assertion holds (no overflow here: Cimple's signed arithmetic keeps its
   mathematical value). The seed's analysis knew that n*n >= 0, i >= 0,
   and i > n after the loop; its n is unsigned, here an early return.
   One question discharges it (the seed prints "j >= n"; a faithful cost
   function asks an equally good one). Run with --no-infer. */
int main(int flag, int n) {
  if (n < 0) return 0;
  int k = 1;
  if (flag) k = n * n;
  int i = 0, j = 0;
  /*@ loop invariant i >= 0; */
  while (i <= n) {
    i++;
    j += i;
  }
  int z = k + i + j;
  assert(z > 2 * n);
  return 0;
}
